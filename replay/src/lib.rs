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

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::build::{BaseBuild, Handshake, Subject};
use crate::checks::Failure;
use crate::config::Config;
use crate::corpus::{Kind, Row};
use crate::diff::Category;
use crate::exit::ReplayError;
use crate::protocol::{Class, Verdict};
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

fn jobs_of(root: &Path, rows: &[Row]) -> Vec<Job> {
    rows.iter().map(|r| Job { command: r.command.clone(), cwd: absolute_cwd(root, &r.cwd) }).collect()
}

/// The other side of the comparison.
enum BaseSide {
    /// Replay this subject over these rows.
    Run(Subject, Vec<Row>),
    /// Base tree equals head tree: head's answers stand for both sides.
    SameAsHead(Vec<Row>),
    /// No diff possible; the truth check still runs.
    Skip,
}

impl BaseSide {
    fn rows(&self) -> &[Row] {
        match self {
            BaseSide::Run(_, rows) | BaseSide::SameAsHead(rows) => rows,
            BaseSide::Skip => &[],
        }
    }
}

/// What the two sides are called, resolved before anything is built.
struct Names {
    head_label: String,
    /// The work tree has changes: head is not a commit.
    dirty: bool,
    base_label: String,
    /// How the base was chosen, for the report.
    base_rule: String,
    /// None with `--against`.
    base_commit: Option<String>,
}

/// Both sides' answers, each in the order of its jobs.
struct Answers {
    head_jobs: Vec<Job>,
    head: Vec<Verdict>,
    head_stats: sides::SideStats,
    base_jobs: Vec<Job>,
    /// None when the base side is not run (same tree, skipped).
    base: Option<(Vec<Verdict>, sides::SideStats)>,
}

/// Terminal-only wall times of the steps, in the order they ran.
type Timings = Vec<(String, f64)>;

/// Runs the whole replay, one named step after another. See DESIGN.md "The bench".
pub fn run(cfg: &Config) -> Result<Outcome, ReplayError> {
    let t0 = Instant::now();
    let mut timings = Timings::new();
    let mut notes = Vec::new();
    let (caps, head_rows, head_decls) = load::head(cfg, &mut notes)?;
    let head_rows = keep_shard(cfg, head_rows, &mut notes);
    timings.push(("load corpora".to_owned(), t0.elapsed().as_secs_f64()));
    let names = name_sides(cfg)?;
    let head = head_subject(cfg, &mut timings)?;
    let (side, base_built) = base_side(cfg, &names, &head, &head_rows, &mut notes, &mut timings)?;
    let fixtures = corpus::fixtures_digest(&cfg.root);
    let head = keyed(&head, &fixtures);
    let side = match side {
        BaseSide::Run(subject, rows) => BaseSide::Run(keyed(&subject, &fixtures), rows),
        other => other,
    };
    let answers = answer_sides(cfg, &head, &side, &head_rows, &mut timings)?;
    let tc = Instant::now();
    let (report, truth_edits) = judge_sides(cfg, &names, notes, &caps, &head_decls, &head, &head_rows, &side, &answers);
    timings.push(("diff, checks, declarations, caps".to_owned(), tc.elapsed().as_secs_f64()));
    let answered = answers.head_stats.ran + answers.base.as_ref().map(|b| b.1.ran).unwrap_or(0);
    let report_dir = match cfg.shard {
        Some(sh) => export_shard(cfg, sh, &report, &head, &side, &answers, &mut timings)?,
        None => Some(write_reports(cfg, &report, &mut timings)?),
    };
    timings.push(("total".to_owned(), t0.elapsed().as_secs_f64()));
    Ok(Outcome { report, report_dir, timings, base_built, truth_edits, base_commit: names.base_commit, answered })
}

/// `--shard I/N`: only this shard's rows, and a note saying what that means for the report.
fn keep_shard(cfg: &Config, rows: Vec<Row>, notes: &mut Vec<String>) -> Vec<Row> {
    let rows = shard::keep(rows, cfg.shard);
    if let Some((i, n)) = cfg.shard {
        notes.push(format!("shard {i}/{n}: {} rows; caps and declarations see only this shard, `cargo xtask replay merge` judges the whole", rows.len()));
    }
    rows
}

/// Every corpus, every row, no shard: the whole bench (declarations for absent
/// rows are typos, rule coverage is meaningful).
fn full_replay(cfg: &Config) -> bool {
    cfg.only.is_empty() && cfg.shard.is_none() && Kind::ALL.iter().all(|k| cfg.corpora.contains(k))
}

/// Head's label and the base (or `--against`), resolved from git before any build.
fn name_sides(cfg: &Config) -> Result<Names, ReplayError> {
    let (head_commit, dirty) = base::head(&cfg.root)?;
    let head_label = if dirty { "worktree".to_owned() } else { base::short(&head_commit).to_owned() };
    let (base_label, base_rule, base_commit) = match &cfg.against {
        Some(argv) => ("against".to_owned(), format!("--against `{}`", argv.join(" ")), None),
        None => {
            let b = base::resolve(&cfg.root, cfg.base.as_deref(), cfg.base_env.as_deref())?;
            (base::short(&b.commit).to_owned(), b.rule, Some(b.commit))
        }
    };
    Ok(Names { head_label, dirty, base_label, base_rule, base_commit })
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

/// Builds head from the work tree; it must speak protocol v1.
fn head_subject(cfg: &Config, timings: &mut Timings) -> Result<Subject, ReplayError> {
    let (head, secs) = build::build_head(&cfg.root, &cfg.target_dir, &|m| (cfg.log)(m))?;
    timings.push(("head build".to_owned(), secs));
    match handshake("head", &head.argv)? {
        Speaks::V1 => Ok(head),
        Speaks::Nothing(why) => Err(ReplayError::infra(format!("head does not speak protocol v1: {why}"))),
    }
}

/// The base side: `--against`'s program over head's rows, or the base commit's
/// corpora (read from git) answered by its build, head's answers when the trees are
/// equal, or nothing when the base predates protocol v1. Also: whether the base was built now.
fn base_side(
    cfg: &Config,
    names: &Names,
    head: &Subject,
    head_rows: &[Row],
    notes: &mut Vec<String>,
    timings: &mut Timings,
) -> Result<(BaseSide, bool), ReplayError> {
    let root = &cfg.root;
    if let Some(argv) = &cfg.against {
        return match handshake("--against", argv)? {
            Speaks::V1 => Ok((BaseSide::Run(Subject { argv: argv.clone(), build_id: None, label: "against".into() }, head_rows.to_vec()), false)),
            Speaks::Nothing(why) => Err(ReplayError::infra(format!("--against does not speak protocol v1: {why}"))),
        };
    }
    let Some(commit) = &names.base_commit else { return Ok((BaseSide::Skip, false)) };
    let same_tree = !names.dirty && git::git(root, &["rev-parse", &format!("{commit}^{{tree}}")]).ok() == git::git(root, &["rev-parse", "HEAD^{tree}"]).ok();
    let tl = Instant::now();
    let mut base_rows = load::base_rows(root, commit, &cfg.corpora, notes);
    timings.push(("load base corpora from git".to_owned(), tl.elapsed().as_secs_f64()));
    base_rows.extend(head_rows.iter().filter(|r| r.file == "--history").cloned());
    let base_rows = shard::keep(load::filter_only(base_rows, &cfg.only), cfg.shard);
    if same_tree {
        notes.push("base and head trees are equal: every verdict is unchanged by construction; the truth and curated checks ran on head".into());
        return Ok((BaseSide::SameAsHead(base_rows), false));
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
        Speaks::V1 => Ok((BaseSide::Run(subject, base_rows), built)),
        Speaks::Nothing(why) => Ok((predates(cfg, notes, format!("base {} predates protocol v1: {why}", names.base_label))?, built)),
    }
}

/// `subject` with the fixtures in its cache key: file-reading lanes read
/// corpus/fixtures/, so a cached verdict is only valid for the fixture contents it
/// was computed with.
fn keyed(subject: &Subject, fixtures: &str) -> Subject {
    Subject { build_id: subject.build_id.as_ref().map(|id| format!("{id}+fx:{fixtures}")), ..subject.clone() }
}

/// Answers both sides concurrently, each through its own long-lived child and the
/// verdict cache, then re-runs a sample of head on a fresh child (determinism).
fn answer_sides(cfg: &Config, head: &Subject, side: &BaseSide, head_rows: &[Row], timings: &mut Timings) -> Result<Answers, ReplayError> {
    let root = &cfg.root;
    let tr = Instant::now();
    let store_path = build::replay_dir(root).join("cache.sqlite");
    let head_jobs = jobs_of(root, head_rows);
    let base_jobs: Vec<Job> = match side {
        BaseSide::Run(_, rows) => jobs_of(root, rows),
        _ => Vec::new(),
    };
    let bars = progress::Bars::new(cfg.progress, head_jobs.len(), base_jobs.len());
    let (head_res, base_res) = std::thread::scope(|s| {
        let h = s.spawn(|| sides::answer(head, &head_jobs, &store_path, cfg.timeout, &|| bars.tick(0), cfg.log));
        let b = match side {
            BaseSide::Run(subject, _) => Some(s.spawn(|| sides::answer(subject, &base_jobs, &store_path, cfg.timeout, &|| bars.tick(1), cfg.log))),
            _ => None,
        };
        let hr = h.join().unwrap_or_else(|_| Err(ReplayError::infra("head runner panicked")));
        let br = b.map(|b| b.join().unwrap_or_else(|_| Err(ReplayError::infra("base runner panicked"))));
        (hr, br)
    });
    bars.finish();
    let (head_verdicts, hs) = head_res?;
    let base = base_res.transpose()?;
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
    let n = sides::determinism(head, &head_jobs, &head_verdicts, cfg.determinism_sample, cfg.timeout)?;
    timings.push((format!("determinism ({n} rows re-run)"), td.elapsed().as_secs_f64()));
    Ok(Answers { head_jobs, head: head_verdicts, head_stats: hs, base_jobs, base })
}

/// Diff, head checks, declarations, caps and coverage: the report, and the truth
/// edits `accept` would write.
#[allow(clippy::too_many_arguments)]
fn judge_sides(
    cfg: &Config,
    names: &Names,
    mut notes: Vec<String>,
    caps: &caps::Caps,
    head_decls: &[declare::Entry],
    head: &Subject,
    head_rows: &[Row],
    side: &BaseSide,
    answers: &Answers,
) -> (Report, Vec<TruthEdit>) {
    let head_by = judge::by_id(head_rows, &answers.head);
    let (base_by, diffed): (judge::RowsById, bool) = match (side, &answers.base) {
        (BaseSide::Run(_, rows), Some((vs, _))) => (judge::by_id(rows, vs), true),
        (BaseSide::SameAsHead(rows), _) => {
            (rows.iter().filter_map(|r| head_by.get(&(r.kind, r.id.as_str())).map(|(_, v)| ((r.kind, r.id.as_str()), (r, *v)))).collect(), true)
        }
        _ => (HashMap::new(), false),
    };
    let base_rows: Vec<&Row> = side.rows().iter().collect();
    let results = judge::row_results(&head_by, &base_by, diffed);
    let head_by_id: HashMap<&str, &Verdict> = head_rows.iter().zip(&answers.head).map(|(r, v)| (r.id.as_str(), v)).collect();
    let mut failures = judge::head_failures(head_rows, &answers.head, &head_by_id);
    let moves = judge::moves(head_rows, &answers.head, &base_rows, &base_by, diffed);
    let matched = match (&cfg.against, &names.base_commit) {
        (None, Some(commit)) => {
            let on = judge::Judged { head_rows, base_rows: &base_rows, full: full_replay(cfg), diffed };
            let hint = format!("declared/{}..{}.json", names.base_label, names.head_label);
            judge::declarations(&moves, head_decls, &declare::load_commit(&cfg.root, commit), &hint, &on)
        }
        _ => declare::Matched::default(),
    };
    failures.extend(matched.failures.iter().cloned());
    let caps_used = if diffed { caps::measure(caps, &results, &cfg.corpora, &matched.declared) } else { Vec::new() };
    for c in caps_used.iter().filter(|c| c.exceeded()) {
        failures.push(Failure::new("caps", None, format!("caps.json {}.{}: {}/{} exceeded", c.corpus.as_str(), c.cap, c.used, c.limit)));
    }
    let truth_edits = judge::truth_edits(head_rows, &head_by_id, &base_by);
    let coverage = if full_replay(cfg) { rule_coverage(cfg, head, head_rows, &answers.head, &mut notes) } else { None };
    let mut report = Report {
        base: names.base_label.clone(),
        head: names.head_label.clone(),
        base_rule: names.base_rule.clone(),
        notes,
        corpora: cfg.corpora.clone(),
        diffed,
        rows: results,
        caps: caps_used,
        failures,
        pending: matched.pending,
        coverage,
    };
    report.sort();
    (report, truth_edits)
}

/// Rule coverage of head's answers, read from head's own registry; a failure to
/// read it is a note, not a failed replay.
fn rule_coverage(cfg: &Config, head: &Subject, rows: &[Row], verdicts: &[Verdict], notes: &mut Vec<String>) -> Option<coverage::Coverage> {
    match coverage::of_head(head.argv.first()?, &cfg.root, rows, verdicts) {
        Ok((_, c)) => Some(c),
        Err(e) => {
            notes.push(format!("rule coverage skipped: {e}"));
            None
        }
    }
}

/// `--shard`: exports this shard's answers (both sides) for `replay merge`; no
/// report is written. Returns the shard directory.
fn export_shard(
    cfg: &Config,
    sh: (usize, usize),
    report: &Report,
    head: &Subject,
    side: &BaseSide,
    answers: &Answers,
    timings: &mut Timings,
) -> Result<Option<PathBuf>, ReplayError> {
    let file = shard::path(&cfg.root, &report.dir_name(), sh);
    let mut sides: Vec<(&Subject, &[Job], &[Verdict])> = vec![(head, &answers.head_jobs, &answers.head)];
    if let (BaseSide::Run(subject, _), Some((vs, _))) = (side, &answers.base) {
        sides.push((subject, &answers.base_jobs, vs));
    }
    let n = shard::export(&file, &sides).map_err(|e| ReplayError::infra(format!("writing {}: {e}", file.display())))?;
    timings.push((format!("shard answers exported ({n})"), 0.0));
    Ok(file.parent().map(Path::to_path_buf))
}

/// Writes `reports/<base>..<head>/` and appends to `$GITHUB_STEP_SUMMARY` when set.
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
