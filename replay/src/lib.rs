//! The bench library: corpora, builds, runs, diffs, caps, declarations, reports.
//! It speaks protocol v1 only and never depends on the `classifier` crate.
//! `run(&Config)` does the whole replay and returns an `Outcome`; it prints nothing
//! but progress lines through `Config::log`. xtask maps the result to an exit code.

pub mod accept;
pub mod base;
pub mod bisect;
pub mod build;
pub mod caps;
pub mod checks;
pub mod config;
pub mod corpus;
pub mod coverage;
pub mod declare;
pub mod diff;
pub mod dump;
pub mod exit;
pub mod git;
pub mod import;
mod judge;
pub mod layout;
mod load;
pub mod probe;
pub mod progress;
pub mod protocol;
pub mod report;
pub mod runner;
pub mod shard;
pub mod sides;
pub mod store;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::build::{BaseBuild, Handshake, Subject};
use crate::config::Config;
use crate::corpus::Row;
use crate::diff::Category;
use crate::exit::ReplayError;
use crate::protocol::{Class, Verdict, SESSION_EXTENSION};
use crate::report::Report;
use crate::runner::Job;

/// A proposed truth-table edit (a failing row's expectation set to head's class).
#[derive(Clone, Debug)]
pub struct TruthEdit {
    pub file: String,
    pub id: String,
    pub to: Class,
    pub pinned: bool,
    /// The base's expectation and verdict, when the row existed there.
    pub base_expect: Option<Class>,
    pub base_verdict: Option<Class>,
}

/// Everything a replay found. Exit code: `Outcome::failures()` > 0 → 1.
pub struct Outcome {
    pub report: Report,
    pub report_dir: Option<PathBuf>,
    /// Terminal-only timings (never written to reports).
    pub timings: Vec<(String, f64)>,
    /// True when the base binary was built this run (false: cached, skipped or none).
    pub base_built: bool,
    pub truth_edits: Vec<TruthEdit>,
    pub base_commit: Option<String>,
    /// Rows a binary answered this run, both sides (the rest came from the verdict cache).
    pub answered: usize,
}

impl Outcome {
    pub fn failures(&self) -> usize {
        self.report.failures.len()
    }
}

/// The one reading of "is this CI?" for every task: `CI` set to anything but
/// empty, `false` or `0` (GitHub Actions, GitLab and most runners set `CI=true`).
pub fn is_ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// The project root: the directory holding the workspace `Cargo.toml`, found from
/// this crate's manifest dir at compile time (xtask runs from anywhere).
pub fn project_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("."))
}

/// `cwd` as the harness sends it: none, absolute as is, else under corpus/fixtures/.
fn absolute_cwd(root: &Path, cwd: &Option<String>) -> Option<String> {
    let c = cwd.as_ref()?;
    if Path::new(c).is_absolute() {
        Some(c.clone())
    } else {
        Some(root.join("corpus").join("fixtures").join(c).display().to_string())
    }
}

/// One request per row; a session's steps carry the session's name.
fn jobs_of(root: &Path, rows: &[Row]) -> Vec<Job> {
    rows.iter().map(|r| Job { command: r.command.clone(), cwd: absolute_cwd(root, &r.cwd), session: r.session() }).collect()
}

/// The base side, once built.
enum BaseSide {
    /// Replay this subject over the base's rows; `sessions`: it speaks the session
    /// extension (without it, the base's session steps are not replayed).
    Run(Subject, bool),
    /// Base tree equals head tree: head's answers stand for both sides.
    SameAsHead,
    /// No diff possible; the truth check still runs.
    Skip,
}

/// What the Build step made: both subjects, head's rule registry (full replays),
/// and what it has to say.
struct Built {
    head: Subject,
    base: BaseSide,
    /// True when the base binary was built this run (false: cached, skipped or none).
    base_built: bool,
    registry: Option<Result<Vec<coverage::RuleInfo>, String>>,
    notes: Vec<String>,
}

/// Both sides' answers, each in the order of its jobs.
struct Answers {
    head_jobs: Vec<Job>,
    head: Vec<Verdict>,
    head_stats: sides::SideStats,
    base_jobs: Vec<Job>,
    /// None when the base side is not run (same tree, skipped).
    base: Option<(Vec<Verdict>, sides::SideStats)>,
    /// The base's rows without its session steps, when the base cannot replay them.
    base_rows: Option<Vec<Row>>,
}

/// Terminal-only wall times of the steps, in the order they ran.
type Timings = Vec<(String, f64)>;

/// Runs the whole replay: Load → Build → Answer → Judge → Report, one step after
/// another (docs/architecture.md, "The bench"). See DESIGN.md "The bench".
pub fn run(cfg: &Config) -> Result<Outcome, ReplayError> {
    let t0 = Instant::now();
    let mut timings = Timings::new();
    let mut inputs = load::inputs(cfg)?;
    timings.push(("load corpora (head from the work tree, base from git)".to_owned(), t0.elapsed().as_secs_f64()));
    let mut built = build_sides(cfg, &inputs, &mut timings)?;
    if cfg.corpora.contains(&corpus::Kind::Probes) {
        probe_rows(cfg, &mut inputs, &mut built)?;
    }
    let answers = answer_sides(cfg, &built, &inputs, &mut timings)?;
    let tc = Instant::now();
    let base = match (&built.base, &answers.base) {
        (BaseSide::Run(..), Some((vs, _))) => judge::BaseAnswers::Answered(answers.base_rows.as_deref().unwrap_or(&inputs.base.rows), vs),
        (BaseSide::SameAsHead, _) => judge::BaseAnswers::SameAsHead,
        _ => judge::BaseAnswers::Skipped,
    };
    let j = judge::Judge {
        inputs: &inputs,
        corpora: &cfg.corpora,
        against: cfg.against.is_some(),
        head: &answers.head,
        base,
        registry: built.registry.as_ref(),
        notes: &built.notes,
    };
    let (report, truth_edits) = judge::judge(&j);
    timings.push(("diff, checks, declarations, caps".to_owned(), tc.elapsed().as_secs_f64()));
    let answered = answers.head_stats.ran + answers.base.as_ref().map(|b| b.1.ran).unwrap_or(0);
    let report_dir = match cfg.shard {
        Some(sh) => export_shard(cfg, sh, &report, &built, &answers, &mut timings)?,
        None => Some(write_reports(cfg, &report, &mut timings)?),
    };
    timings.push(("total".to_owned(), t0.elapsed().as_secs_f64()));
    Ok(Outcome { report, report_dir, timings, base_built: built.base_built, truth_edits, base_commit: inputs.names.base_commit.clone(), answered })
}

/// The Build step's last part: the probes corpus from the base binary's `tiergate
/// programs` and head's (corpus/probes.rs says how each row is judged). The base's
/// rows join both sides; rows only head's dump has join head's. Filtered like every
/// other row, then `--only` is checked against every row.
fn probe_rows(cfg: &Config, inputs: &mut load::Inputs, built: &mut Built) -> Result<(), ReplayError> {
    let head = dump::of_subject(&built.head.argv).map_err(|e| ReplayError::infra(format!("head's dump: {e}")))?;
    let base = match &built.base {
        BaseSide::Run(subject, _) => match dump::of_subject(&subject.argv) {
            Ok(t) => Some(t),
            Err(e) => {
                built.notes.push(format!(
                    "the base has no table probes to give ({e}): the probe rows are head's, judged by head's probes, and no probe move was judged"
                ));
                None
            }
        },
        BaseSide::SameAsHead => Some(head.clone()),
        BaseSide::Skip => {
            built.notes.push("no base binary was run: the probe rows are head's, judged by head's probes".into());
            None
        }
    };
    let rows = corpus::probes::rows(base.as_deref(), &head).map_err(ReplayError::Probes)?;
    let rows = load::select(cfg, rows);
    inputs.base.rows.extend(rows.iter().filter(|r| matches!(r.spec, corpus::Spec::Probe { base: Some(_), .. })).cloned());
    inputs.head_rows.extend(rows);
    load::only_ids_exist(cfg, &inputs.head_rows).map_err(ReplayError::Usage)
}

/// A subject's answer to `--protocol`, short of naming another version.
enum Speaks {
    V1,
    /// No protocol at all (no `batch`, an error, no answer): why.
    Nothing(String),
}

/// The one protocol handshake of the replay. Another version is an infrastructure
/// error whoever `who` is (two schemas are never compared); a subject that speaks no
/// protocol is the caller's to judge (head and `--against` fail, an old base is
/// skipped unless `--require-base`).
fn handshake(who: &str, argv: &[String]) -> Result<Speaks, ReplayError> {
    match build::handshake(argv) {
        Handshake::V1 => Ok(Speaks::V1),
        Handshake::Other(v) => Err(ReplayError::infra(format!("{who} speaks protocol {v}, this harness speaks 1: not comparing different schemas"))),
        Handshake::Unsupported(why) => Ok(Speaks::Nothing(why)),
    }
}

/// The Build step: head from the work tree (it must speak protocol v1), the base
/// (`--against`'s program, the base commit's build, head itself when the trees are
/// equal, or nothing when the base predates protocol v1), and head's rule registry
/// on full replays. Subjects carry the fixtures in their cache key.
fn build_sides(cfg: &Config, inputs: &load::Inputs, timings: &mut Timings) -> Result<Built, ReplayError> {
    let (head, secs) = build::build_head(&cfg.root, &cfg.target_dir, &|m| (cfg.log)(m))?;
    timings.push(("head build".to_owned(), secs));
    if let Speaks::Nothing(why) = handshake("head", &head.argv)? {
        return Err(ReplayError::infra(format!("head does not speak protocol v1: {why}")));
    }
    if let Some(why) = dump::of_subject(&head.argv).ok().and_then(|t| fixtures_in_scratch(&cfg.root, &t)) {
        return Err(ReplayError::usage(why));
    }
    if inputs.head_rows.iter().any(|r| r.session().is_some()) && !speaks_sessions(&head.argv) {
        return Err(ReplayError::infra(format!(
            "head's tiergate does not list the `{SESSION_EXTENSION}` extension (`tiergate batch --extensions`), so session steps cannot replay in order"
        )));
    }
    let mut notes = Vec::new();
    let (base, base_built) = base_side(cfg, inputs, &head, &mut notes, timings)?;
    if let BaseSide::Run(_, false) = &base {
        if inputs.base.rows.iter().any(|r| r.session().is_some()) {
            notes.push(format!(
                "the base ({}) does not replay sessions (no `{SESSION_EXTENSION}` in `tiergate batch --extensions`): its session steps were not answered, and they count as new",
                inputs.names.base_label
            ));
        }
    }
    let registry = inputs.full.then(|| head.argv.first().map(|bin| coverage::rules_of(bin))).flatten();
    let fixtures = corpus::fixtures_digest(&cfg.root);
    let base = match base {
        BaseSide::Run(subject, sessions) => BaseSide::Run(keyed(&subject, &fixtures), sessions),
        other => other,
    };
    Ok(Built { head: keyed(&head, &fixtures), base, base_built, registry, notes })
}

/// Why the replay cannot run from this checkout, when its corpus/fixtures/ lies under
/// a directory head's tiergate treats as scratch space (its `SCRATCH_ROOTS` table:
/// one list, the binary's). There a row whose path leaves its fixture (`git -C ../other
/// commit`, `mv -t src ../outside.py`) lands in scratch space and reads T0, so the
/// truth fails for a reason that is the checkout's place, not the rules; base and head
/// fail alike, which also hides a regression on those rows. None when the dump has
/// no such table (a test repository's tiny tiergate) or the directory cannot be read.
fn fixtures_in_scratch(root: &Path, tables: &[dump::Table]) -> Option<String> {
    let scratch = tables.iter().find(|t| t.name == "SCRATCH_ROOTS")?;
    let fixtures = std::fs::canonicalize(root.join("corpus").join("fixtures")).ok()?;
    let at = scratch.entries.iter().find(|r| fixtures.starts_with(Path::new(r.as_str())))?;
    Some(format!(
        "{} lies under {at}, which tiergate treats as scratch space: rows whose paths leave a fixture would land there and read as free writes. \
         Clone or move the repository outside {} and run the replay there",
        fixtures.display(),
        scratch.entries.join(", ")
    ))
}

/// The base side: `--against`'s program, or the base commit's build, head's answers
/// when the trees are equal, or nothing when the base predates protocol v1. Also:
/// whether the base was built now.
fn base_side(cfg: &Config, inputs: &load::Inputs, head: &Subject, notes: &mut Vec<String>, timings: &mut Timings) -> Result<(BaseSide, bool), ReplayError> {
    let root = &cfg.root;
    let names = &inputs.names;
    if let Some(argv) = &cfg.against {
        return match handshake("--against", argv)? {
            Speaks::V1 => Ok((BaseSide::Run(Subject { argv: argv.clone(), build_id: None, label: "against".into() }, speaks_sessions(argv)), false)),
            Speaks::Nothing(why) => Err(ReplayError::infra(format!("--against does not speak protocol v1: {why}"))),
        };
    }
    let Some(commit) = &names.base_commit else { return Ok((BaseSide::Skip, false)) };
    if inputs.base.same_tree {
        notes.push("base and head trees are equal: every verdict is unchanged by construction; the truth and curated checks ran on head".into());
        return Ok((BaseSide::SameAsHead, false));
    }
    let tb = Instant::now();
    let target = build::replay_dir(root).join("base-target");
    reuse_head_build(root, commit, names.dirty, head, notes, cfg.log);
    let (subject, built) = match build::build_base(root, commit, &target, &|m| (cfg.log)(m))? {
        BaseBuild::Ready { subject, built, .. } => (subject, built),
        BaseBuild::Predates(why) => return Ok((predates(cfg, notes, why)?, false)),
    };
    timings.push((if built { "base build" } else { "base build (cached)" }.to_owned(), tb.elapsed().as_secs_f64()));
    match handshake("base", &subject.argv)? {
        Speaks::V1 => {
            let sessions = speaks_sessions(&subject.argv);
            Ok((BaseSide::Run(subject, sessions), built))
        }
        Speaks::Nothing(why) => Ok((predates(cfg, notes, format!("base {} predates protocol v1: {why}", names.base_label))?, built)),
    }
}

/// True when `argv`'s batch lists the session extension.
fn speaks_sessions(argv: &[String]) -> bool {
    build::extensions(argv).iter().any(|e| e == SESSION_EXTENSION)
}

/// `subject` with the fixtures in its cache key: file-reading lanes read
/// corpus/fixtures/, so a cached verdict is only valid for the fixture contents it
/// was computed with.
fn keyed(subject: &Subject, fixtures: &str) -> Subject {
    Subject { build_id: subject.build_id.as_ref().map(|id| with_fixtures(id, fixtures)), ..subject.clone() }
}

fn with_fixtures(build_id: &str, fixtures: &str) -> String {
    format!("{build_id}+fx:{fixtures}")
}

/// The verdict cache's key for answers of the build `build_id` (`build::binary_id`)
/// over the corpora of `root`: what the replay stores them under, for tasks that
/// drop or look up a build's answers (`cargo xtask mutants` forgets a mutant's).
pub fn cache_id(root: &Path, build_id: &str) -> String {
    with_fixtures(build_id, &corpus::fixtures_digest(root))
}

/// The Answer step: both sides concurrently, each through its own long-lived child
/// and the verdict cache, then a sample of head re-run on a fresh child (determinism).
fn answer_sides(cfg: &Config, built: &Built, inputs: &load::Inputs, timings: &mut Timings) -> Result<Answers, ReplayError> {
    let root = &cfg.root;
    let tr = Instant::now();
    let store_path = build::replay_dir(root).join("cache.sqlite");
    let head_jobs = jobs_of(root, &inputs.head_rows);
    let base_rows: Option<Vec<Row>> = match &built.base {
        BaseSide::Run(_, false) if inputs.base.rows.iter().any(|r| r.session().is_some()) => {
            Some(inputs.base.rows.iter().filter(|r| r.session().is_none()).cloned().collect())
        }
        _ => None,
    };
    let base_jobs: Vec<Job> = match &built.base {
        BaseSide::Run(..) => jobs_of(root, base_rows.as_deref().unwrap_or(&inputs.base.rows)),
        _ => Vec::new(),
    };
    let head = &built.head;
    let bars = progress::Bars::new(cfg.progress, head_jobs.len(), base_jobs.len());
    let (head_res, base_res) = std::thread::scope(|s| {
        let h = s.spawn(|| sides::answer(head, &head_jobs, &store_path, cfg.patience(), &|| bars.tick(0), cfg.log));
        let b = match &built.base {
            BaseSide::Run(subject, _) => Some(s.spawn(|| sides::answer(subject, &base_jobs, &store_path, cfg.patience(), &|| bars.tick(1), cfg.log))),
            _ => None,
        };
        let hr = h.join().unwrap_or_else(|_| Err(ReplayError::infra("head runner panicked")));
        let br = b.map(|b| b.join().unwrap_or_else(|_| Err(ReplayError::infra("base runner panicked"))));
        (hr, br)
    });
    bars.finish();
    let base_rows_run = base_rows.as_deref().unwrap_or(&inputs.base.rows);
    let (head_verdicts, hs) = head_res.map_err(|e| hang_row(e, &head_jobs, &inputs.head_rows))?;
    let base = base_res.transpose().map_err(|e| hang_row(e, &base_jobs, base_rows_run))?;
    timings.push((
        format!(
            "replay (head {} rows, {} cached; base {} rows, {} cached)",
            hs.rows,
            hs.cached,
            base.as_ref().map(|b| b.1.rows).unwrap_or(0),
            base.as_ref().map(|b| b.1.cached).unwrap_or(0)
        ),
        tr.elapsed().as_secs_f64(),
    ));
    let td = Instant::now();
    let n =
        sides::determinism(head, &head_jobs, &head_verdicts, cfg.determinism_sample, cfg.patience()).map_err(|e| hang_row(e, &head_jobs, &inputs.head_rows))?;
    timings.push((format!("determinism ({n} rows re-run)"), td.elapsed().as_secs_f64()));
    Ok(Answers { head_jobs, head: head_verdicts, head_stats: hs, base_jobs, base, base_rows })
}

/// A hang names the first row (`corpus id`) that asks what the subject did not answer.
fn hang_row(e: ReplayError, jobs: &[Job], rows: &[Row]) -> ReplayError {
    match e {
        ReplayError::Hang(mut h) if h.row.is_none() => {
            let at = jobs.iter().position(|j| j.command == h.command && j.cwd == h.cwd);
            h.row = at.and_then(|i| rows.get(i)).map(|r| format!("{} {}", r.kind.as_str(), r.id));
            ReplayError::Hang(h)
        }
        e => e,
    }
}

/// `--shard`: exports this shard's answers (both sides) for `replay merge`; no
/// report is written. Returns the shard directory.
fn export_shard(
    cfg: &Config,
    sh: (usize, usize),
    report: &Report,
    built: &Built,
    answers: &Answers,
    timings: &mut Timings,
) -> Result<Option<PathBuf>, ReplayError> {
    let file = shard::path(&cfg.root, &report.dir_name(), sh);
    let mut sides: Vec<(&Subject, &[Job], &[Verdict])> = vec![(&built.head, &answers.head_jobs, &answers.head)];
    if let (BaseSide::Run(subject, _), Some((vs, _))) = (&built.base, &answers.base) {
        sides.push((subject, &answers.base_jobs, vs));
    }
    let n = shard::export(&file, &sides).map_err(|e| ReplayError::infra(format!("writing {}: {e}", file.display())))?;
    timings.push((format!("shard answers exported ({n})"), 0.0));
    Ok(file.parent().map(Path::to_path_buf))
}

/// The Report step: writes `reports/<base>..<head>/` and appends to
/// `$GITHUB_STEP_SUMMARY` when set.
fn write_reports(cfg: &Config, report: &Report, timings: &mut Timings) -> Result<PathBuf, ReplayError> {
    let tw = Instant::now();
    let dir = report::write::write(&cfg.root, report).map_err(|e| ReplayError::infra(format!("writing reports/{}: {e}", report.dir_name())))?;
    if let Some(p) = &cfg.step_summary {
        if let Err(e) = report::write::step_summary(p, report) {
            (cfg.log)(&format!("could not append to $GITHUB_STEP_SUMMARY ({e})"));
        }
    }
    timings.push(("write reports".to_owned(), tw.elapsed().as_secs_f64()));
    Ok(dir)
}

/// Answers `rows` with `subject` through the verdict cache the replay uses (the same
/// build id and fixture key), for tasks that need head's verdicts without a diff
/// (`cargo xtask coverage`, `cargo xtask mutants`).
pub fn answer_rows(
    root: &Path,
    subject: &Subject,
    rows: &[Row],
    timeout: std::time::Duration,
    log: fn(&str),
) -> Result<(Vec<Verdict>, sides::SideStats), ReplayError> {
    let keyed = keyed(subject, &corpus::fixtures_digest(root));
    let store_path = build::replay_dir(root).join("cache.sqlite");
    sides::answer(&keyed, &jobs_of(root, rows), &store_path, timeout, &|| {}, log)
}

/// When the work tree is clean and the base commit has the same build inputs as
/// HEAD (a change to corpora, docs, replay or xtask only), the base binary is the
/// head binary: cache it under the base key instead of building it again.
fn reuse_head_build(root: &Path, commit: &str, dirty: bool, head: &Subject, notes: &mut Vec<String>, log: fn(&str)) {
    if dirty {
        return;
    }
    let (Ok(base_key), Ok(head_key)) = (build::base_key(root, commit), build::base_key(root, "HEAD")) else { return };
    let cached = build::cached_bin(root, &base_key);
    if base_key != head_key || cached.is_file() {
        return;
    }
    let Some(bin) = head.argv.first() else { return };
    if build::install(Path::new(bin), &cached).is_ok() {
        log("base has head's build inputs: reusing head's binary");
        notes.push("the base has the same build inputs as head (classifier, manifests, lockfile): head's binary served as the base".into());
    }
}

fn predates(cfg: &Config, notes: &mut Vec<String>, why: String) -> Result<BaseSide, ReplayError> {
    if cfg.require_base {
        return Err(ReplayError::infra(format!("{why} (--require-base)")));
    }
    notes.push(format!("{why}; the diff, caps and verdict declarations were skipped, the truth and curated checks ran on head"));
    Ok(BaseSide::Skip)
}

/// Summary of counts per category, for callers that want numbers.
pub fn category_counts(r: &Report) -> BTreeMap<Category, u64> {
    let mut m = BTreeMap::new();
    for row in &r.rows {
        *m.entry(row.category).or_default() += 1;
    }
    m
}

#[cfg(test)]
mod tests {
    use super::fixtures_in_scratch;
    use crate::dump::Table;

    fn scratch(entries: &[&str]) -> Vec<Table> {
        let t = Table {
            name: "SCRATCH_ROOTS".into(),
            file: "x.rs".into(),
            line: 1,
            entries: entries.iter().map(|e| e.to_string()).collect(),
            probes: vec![],
            except: vec![],
        };
        vec![t]
    }

    #[test]
    fn a_checkout_in_scratch_space_is_refused_by_the_binarys_own_list() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("repo/corpus/fixtures")).unwrap();
        let root = dir.path().join("repo");
        let parent = std::fs::canonicalize(dir.path()).unwrap().display().to_string();
        let why = fixtures_in_scratch(&root, &scratch(&["/elsewhere", &parent])).expect("under a scratch root");
        assert!(why.contains(&format!("under {parent},")), "{why}");
        assert_eq!(fixtures_in_scratch(&root, &scratch(&["/elsewhere"])), None, "not under any root");
        assert_eq!(fixtures_in_scratch(&root, &scratch(&[&format!("{parent}x")])), None, "a root is a whole path component, not a prefix");
        assert_eq!(fixtures_in_scratch(&root, &[]), None, "a dump without the table (a test repository's tiergate)");
        assert_eq!(fixtures_in_scratch(&dir.path().join("none"), &scratch(&[&parent])), None, "no fixtures directory");
    }
}
