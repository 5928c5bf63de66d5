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
pub mod layout;
pub mod probe;
pub mod progress;
pub mod protocol;
pub mod report;
pub mod runner;
pub mod shard;
pub mod sides;
pub mod store;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;

use crate::build::{BaseBuild, Handshake, Subject};
use crate::checks::Failure;
use crate::config::Config;
use crate::corpus::{Kind, Row, Spec};
use crate::declare::{Move, MoveKind};
use crate::diff::{categorize, Category, RowResult};
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

/// The project root: the directory holding the workspace `Cargo.toml`, found from
/// this crate's manifest dir at compile time (xtask runs from anywhere).
/// The one reading of "is this CI?" for every task: `CI` set to anything but
/// empty, `false` or `0` (GitHub Actions, GitLab and most runners set `CI=true`).
pub fn is_ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false" && v != "0")
}

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

/// Loads head's side: caps, corpora, imported history, declarations. Every
/// configuration problem is collected before failing.
fn load_head(cfg: &Config, notes: &mut Vec<String>) -> Result<(caps::Caps, Vec<Row>, Vec<declare::Entry>), ReplayError> {
    let mut errors = Vec::new();
    let caps = caps::load(&cfg.root).map_err(|e| errors.push(e)).ok();
    let loaded: Vec<Result<corpus::Corpus, Vec<String>>> = cfg.corpora.par_iter().map(|k| corpus::load_worktree(&cfg.root, *k)).collect();
    let mut rows = Vec::new();
    for l in loaded {
        match l {
            Ok(c) => rows.extend(c.rows),
            Err(e) => errors.extend(e),
        }
    }
    for path in &cfg.history {
        match import::import(path) {
            Ok(imp) => {
                if !imp.malformed.is_empty() {
                    notes.push(format!("{} malformed history line(s) skipped in --history input", imp.malformed.len()));
                }
                notes.push(format!("{} imported history command(s) replayed from a --history file", imp.rows.len()));
                rows.extend(imported_rows(imp.rows));
            }
            Err(e) => errors.push(format!("--history {}: {e:#}", path.display())),
        }
    }
    let decls = declare::load_worktree(&cfg.root).map_err(|e| errors.extend(e)).unwrap_or_default();
    if !cfg.only.is_empty() {
        let have: HashSet<&str> = rows.iter().map(|r| r.id.as_str()).collect();
        for id in &cfg.only {
            if !have.contains(id.as_str()) {
                errors.push(format!("--only {id}: no row has this id in the selected corpora"));
            }
        }
    }
    match caps {
        Some(c) if errors.is_empty() => Ok((c, filter_only(rows, &cfg.only), decls)),
        _ => Err(ReplayError::Usage(errors)),
    }
}

fn imported_rows(rows: Vec<import::ImportedRow>) -> Vec<Row> {
    use sha2::{Digest, Sha256};
    let mut seen = HashSet::new();
    rows.into_iter()
        .filter_map(|r| {
            let mut h = Sha256::new();
            h.update(r.command.as_bytes());
            h.update([0]);
            h.update(r.cwd.as_deref().unwrap_or("").as_bytes());
            let id = format!("import:{}", &build::hex(&h.finalize())[..12]);
            seen.insert(id.clone()).then(|| Row {
                kind: Kind::History,
                id,
                command: r.command,
                cwd: r.cwd,
                weight: r.weight.max(1),
                spec: Spec::History,
                file: "--history".into(),
                line: 0,
                note: String::new(),
            })
        })
        .collect()
}

fn filter_only(rows: Vec<Row>, only: &[String]) -> Vec<Row> {
    if only.is_empty() {
        return rows;
    }
    let keep: HashSet<&str> = only.iter().map(String::as_str).collect();
    rows.into_iter().filter(|r| keep.contains(r.id.as_str())).collect()
}

/// Base's corpora read from git at `commit`. A corpus the base cannot parse is
/// treated as absent there (its rows show as new) and said in a note.
fn load_base_rows(root: &Path, commit: &str, kinds: &[Kind], notes: &mut Vec<String>) -> Vec<Row> {
    let mut rows = Vec::new();
    for &k in kinds {
        let dir = format!("corpus/{}", k.as_str());
        let files: Vec<(String, Vec<u8>)> =
            git::ls_tree(root, commit, &dir, ".csv").into_iter().filter_map(|p| git::show(root, commit, &p).map(|b| (p, b))).collect();
        match corpus::load_files(k, files) {
            Ok(c) => rows.extend(c.rows),
            Err(e) => {
                notes.push(format!("the base's {} corpus does not load ({}); its rows count as new", k.as_str(), e.first().map(String::as_str).unwrap_or("")))
            }
        }
    }
    rows
}

enum BaseSide {
    /// Replay this subject over these rows.
    Run(Subject, Vec<Row>),
    /// Base tree equals head tree: head's answers stand for both sides.
    SameAsHead(Vec<Row>),
    /// No diff possible; the truth check still runs.
    Skip,
}

/// Rows and their verdicts by (corpus, id).
type RowsById<'a> = HashMap<(Kind, &'a str), (&'a Row, &'a Verdict)>;

/// Runs the whole replay. See DESIGN.md "The bench".
pub fn run(cfg: &Config) -> Result<Outcome, ReplayError> {
    let root = &cfg.root;
    let t0 = Instant::now();
    let mut timings = Vec::new();
    let mut notes = Vec::new();
    let (caps, head_rows, head_decls) = load_head(cfg, &mut notes)?;
    let head_rows = shard::keep(head_rows, cfg.shard);
    if let Some((i, n)) = cfg.shard {
        notes.push(format!("shard {i}/{n}: {} rows; caps and declarations see only this shard, `cargo xtask replay merge` judges the whole", head_rows.len()));
    }
    timings.push(("load corpora".to_owned(), t0.elapsed().as_secs_f64()));

    let (head_commit, dirty) = base::head(root)?;
    let head_label = if dirty { "worktree".to_owned() } else { base::short(&head_commit).to_owned() };
    let (base_label, base_rule, base_commit) = match &cfg.against {
        Some(argv) => ("against".to_owned(), format!("--against `{}`", argv.join(" ")), None),
        None => {
            let b = base::resolve(root, cfg.base.as_deref(), cfg.base_env.as_deref())?;
            (base::short(&b.commit).to_owned(), b.rule, Some(b.commit))
        }
    };

    let (head, secs) = build::build_head(root, &cfg.target_dir, &|m| (cfg.log)(m))?;
    timings.push(("head build".to_owned(), secs));
    match build::handshake(&head.argv) {
        Handshake::V1 => {}
        Handshake::Other(v) => return Err(ReplayError::infra(format!("head speaks protocol {v}, this harness speaks 1"))),
        Handshake::Unsupported(why) => return Err(ReplayError::infra(format!("head does not speak protocol v1: {why}"))),
    }

    let mut base_built = false;
    let side = match (&cfg.against, &base_commit) {
        (Some(argv), _) => {
            let subject = Subject { argv: argv.clone(), build_id: None, label: "against".into() };
            match build::handshake(argv) {
                Handshake::V1 => BaseSide::Run(subject, head_rows.clone()),
                Handshake::Other(v) => return Err(ReplayError::infra(format!("--against speaks protocol {v}, this harness speaks 1"))),
                Handshake::Unsupported(why) => return Err(ReplayError::infra(format!("--against does not speak protocol v1: {why}"))),
            }
        }
        (None, Some(commit)) => {
            let same_tree = !dirty && git::git(root, &["rev-parse", &format!("{commit}^{{tree}}")]).ok() == git::git(root, &["rev-parse", "HEAD^{tree}"]).ok();
            let tl = Instant::now();
            let mut base_rows = load_base_rows(root, commit, &cfg.corpora, &mut notes);
            timings.push(("load base corpora from git".to_owned(), tl.elapsed().as_secs_f64()));
            base_rows.extend(head_rows.iter().filter(|r| r.file == "--history").cloned());
            let base_rows = shard::keep(filter_only(base_rows, &cfg.only), cfg.shard);
            if same_tree {
                notes.push("base and head trees are equal: every verdict is unchanged by construction; the truth and curated checks ran on head".into());
                BaseSide::SameAsHead(base_rows)
            } else {
                let tb = Instant::now();
                let target = build::replay_dir(root).join("base-target");
                reuse_head_build(root, commit, dirty, &head, &mut notes, cfg.log);
                match build::build_base(root, commit, &target, &|m| (cfg.log)(m))? {
                    BaseBuild::Ready { subject, built, .. } => {
                        base_built = built;
                        timings.push((if built { "base build" } else { "base build (cached)" }.to_owned(), tb.elapsed().as_secs_f64()));
                        match build::handshake(&subject.argv) {
                            Handshake::V1 => BaseSide::Run(subject, base_rows),
                            Handshake::Other(v) => {
                                return Err(ReplayError::infra(format!("base speaks protocol {v}, this harness speaks 1: not comparing different schemas")))
                            }
                            Handshake::Unsupported(why) => predates(cfg, &mut notes, format!("base {base_label} predates protocol v1: {why}"))?,
                        }
                    }
                    BaseBuild::Predates(why) => predates(cfg, &mut notes, why)?,
                }
            }
        }
        (None, None) => BaseSide::Skip,
    };

    // Run both sides concurrently, each through its own long-lived child.
    let tr = Instant::now();
    let store_path = build::replay_dir(root).join("cache.sqlite");
    // File-reading lanes read corpus/fixtures/, so a cached verdict is only valid for
    // the fixture contents it was computed with: they are part of the cache key.
    let fixtures = corpus::fixtures_digest(root);
    let keyed = |s: &Subject| Subject { build_id: s.build_id.as_ref().map(|id| format!("{id}+fx:{fixtures}")), ..s.clone() };
    let head = keyed(&head);
    let side = match side {
        BaseSide::Run(subject, rows) => BaseSide::Run(keyed(&subject), rows),
        other => other,
    };
    let head_jobs = jobs_of(root, &head_rows);
    let base_jobs: Vec<Job> = match &side {
        BaseSide::Run(_, rows) => jobs_of(root, rows),
        _ => Vec::new(),
    };
    let bars = progress::Bars::new(cfg.progress, head_jobs.len(), base_jobs.len());
    let (head_res, base_res) = std::thread::scope(|s| {
        let h = s.spawn(|| sides::answer(&head, &head_jobs, &store_path, cfg.timeout, &|| bars.tick(0), cfg.log));
        let b = match &side {
            BaseSide::Run(subject, _) => Some(s.spawn(|| sides::answer(subject, &base_jobs, &store_path, cfg.timeout, &|| bars.tick(1), cfg.log))),
            _ => None,
        };
        let hr = h.join().unwrap_or_else(|_| Err(ReplayError::infra("head runner panicked")));
        let br = b.map(|b| b.join().unwrap_or_else(|_| Err(ReplayError::infra("base runner panicked"))));
        (hr, br)
    });
    bars.finish();
    let (head_verdicts, hs) = head_res?;
    let base_verdicts = match base_res {
        Some(r) => Some(r?),
        None => None,
    };
    timings.push((
        format!(
            "replay (head {} rows, {} cached; base {} rows, {} cached)",
            hs.rows,
            hs.cached,
            base_verdicts.as_ref().map(|b| b.1.rows).unwrap_or(0),
            base_verdicts.as_ref().map(|b| b.1.cached).unwrap_or(0)
        ),
        tr.elapsed().as_secs_f64(),
    ));
    let td = Instant::now();
    let n = sides::determinism(&head, &head_jobs, &head_verdicts, cfg.determinism_sample, cfg.timeout)?;
    timings.push((format!("determinism ({n} rows re-run)"), td.elapsed().as_secs_f64()));

    // Diff, checks, declarations, caps.
    let tc = Instant::now();
    let head_by: RowsById = head_rows.iter().zip(&head_verdicts).map(|(r, v)| ((r.kind, r.id.as_str()), (r, v))).collect();
    let (base_by, diffed): (RowsById, bool) = match (&side, &base_verdicts) {
        (BaseSide::Run(_, rows), Some((vs, _))) => (rows.iter().zip(vs).map(|(r, v)| ((r.kind, r.id.as_str()), (r, v))).collect(), true),
        (BaseSide::SameAsHead(rows), _) => {
            (rows.iter().filter_map(|r| head_by.get(&(r.kind, r.id.as_str())).map(|(_, v)| ((r.kind, r.id.as_str()), (r, *v)))).collect(), true)
        }
        _ => (HashMap::new(), false),
    };
    let base_rows_all: Vec<&Row> = match &side {
        BaseSide::Run(_, rows) | BaseSide::SameAsHead(rows) => rows.iter().collect(),
        BaseSide::Skip => Vec::new(),
    };
    let mut keys: Vec<(Kind, &str)> = head_by.keys().copied().collect();
    if diffed {
        keys.extend(base_by.keys().copied().filter(|k| !head_by.contains_key(k)));
    }
    let results: Vec<RowResult> = keys
        .par_iter()
        .map(|k| {
            let h = head_by.get(k);
            let b = base_by.get(k);
            let row = h.or(b).map(|(r, _)| *r).expect("key comes from one side");
            let hv = h.map(|(_, v)| (*v).clone());
            let bv = if diffed { b.map(|(_, v)| (*v).clone()) } else { None };
            let category = if diffed {
                categorize(bv.as_ref(), hv.as_ref())
            } else if hv.as_ref().is_some_and(Verdict::is_error) {
                Category::Error
            } else {
                Category::New
            };
            let command = if row.kind == Kind::History { import::redact(&row.command) } else { row.command.clone() };
            RowResult { corpus: row.kind, id: row.id.clone(), command, cwd: row.cwd.clone(), weight: row.weight, category, base: bv, head: hv }
        })
        .collect();

    let head_by_id: HashMap<&str, &Verdict> = head_rows.iter().zip(&head_verdicts).map(|(r, v)| (r.id.as_str(), v)).collect();
    let mut failures = checks::head_checks(&head_rows, &head_by_id);
    for (r, v) in head_rows.iter().zip(&head_verdicts) {
        if r.kind == Kind::History {
            if let Some(e) = &v.error {
                failures.push(Failure::new("error", Some(&r.id), format!("history {}: head gave no verdict ({e})", r.id)));
            }
        }
    }
    let moves = moves(&head_rows, &head_verdicts, &base_rows_all, &base_by, diffed);
    let decl_hint = format!("declared/{base_label}..{head_label}.json");
    let matched = match (&cfg.against, &base_commit) {
        (None, Some(commit)) => {
            let base_decls = declare::load_commit(root, commit);
            let in_head: HashSet<&str> = head_rows.iter().map(|r| r.id.as_str()).collect();
            let in_base: HashSet<&str> = base_rows_all.iter().map(|r| r.id.as_str()).collect();
            let full = cfg.only.is_empty() && cfg.shard.is_none() && Kind::ALL.iter().all(|k| cfg.corpora.contains(k));
            // Judge entries for rows on both sides; a row on neither side is a typo
            // only when everything was replayed.
            let judged = |row: &str| match (in_head.contains(row), in_base.contains(row)) {
                (true, true) => true,
                (false, false) => full,
                _ => false,
            };
            let mut m = declare::check(&moves, &head_decls, &base_decls, &decl_hint, &judged);
            if !diffed {
                // Without base verdicts a verdict-move declaration cannot be confirmed or refuted.
                m.failures.retain(|f| !f.message.contains("stale declaration"));
            }
            m
        }
        _ => declare::Matched::default(),
    };
    failures.extend(matched.failures.iter().cloned());
    let caps_used = if diffed { caps::measure(&caps, &results, &cfg.corpora, &matched.declared) } else { Vec::new() };
    for c in caps_used.iter().filter(|c| c.exceeded()) {
        failures.push(Failure::new("caps", None, format!("caps.json {}.{}: {}/{} exceeded", c.corpus.as_str(), c.cap, c.used, c.limit)));
    }
    let truth_edits = truth_edits(&head_rows, &head_by_id, &base_by);
    let coverage = if cfg.only.is_empty() && cfg.shard.is_none() && Kind::ALL.iter().all(|k| cfg.corpora.contains(k)) {
        match head.argv.first().map(|bin| coverage::of_head(bin, root, &head_rows, &head_verdicts)) {
            Some(Ok((_, c))) => Some(c),
            Some(Err(e)) => {
                notes.push(format!("rule coverage skipped: {e}"));
                None
            }
            None => None,
        }
    } else {
        None
    };

    let mut report = Report {
        base: base_label,
        head: head_label,
        base_rule,
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
    timings.push(("diff, checks, declarations, caps".to_owned(), tc.elapsed().as_secs_f64()));
    let answered = hs.ran + base_verdicts.as_ref().map(|b| b.1.ran).unwrap_or(0);
    if let Some(sh) = cfg.shard {
        let file = shard::path(root, &report.dir_name(), sh);
        let mut sides: Vec<(&Subject, &[Job], &[Verdict])> = vec![(&head, &head_jobs, &head_verdicts)];
        if let (BaseSide::Run(subject, _), Some((vs, _))) = (&side, &base_verdicts) {
            sides.push((subject, &base_jobs, vs));
        }
        let n = shard::export(&file, &sides).map_err(|e| ReplayError::infra(format!("writing {}: {e}", file.display())))?;
        timings.push((format!("shard answers exported ({n})"), 0.0));
        timings.push(("total".to_owned(), t0.elapsed().as_secs_f64()));
        let dir = file.parent().map(Path::to_path_buf);
        return Ok(Outcome { report, report_dir: dir, timings, base_built, truth_edits, base_commit, answered });
    }
    let tw = Instant::now();
    let dir = report::write::write(root, &report).map_err(|e| ReplayError::infra(format!("writing reports/{}: {e}", report.dir_name())))?;
    if let Some(p) = &cfg.step_summary {
        if let Err(e) = report::write::step_summary(p, &report) {
            (cfg.log)(&format!("could not append to $GITHUB_STEP_SUMMARY ({e})"));
        }
    }
    timings.push(("write reports".to_owned(), tw.elapsed().as_secs_f64()));
    timings.push(("total".to_owned(), t0.elapsed().as_secs_f64()));
    Ok(Outcome { report, report_dir: Some(dir), timings, base_built, truth_edits, base_commit, answered })
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
    let fixtures = corpus::fixtures_digest(root);
    let keyed = Subject { build_id: subject.build_id.as_ref().map(|id| format!("{id}+fx:{fixtures}")), ..subject.clone() };
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

/// Observed moves: verdict moves of every row present on both sides (pinned truth
/// rows must be declared) and expectation moves of truth rows (base CSV → head CSV).
fn moves(head_rows: &[Row], head_verdicts: &[Verdict], base_rows: &[&Row], base_by: &HashMap<(Kind, &str), (&Row, &Verdict)>, diffed: bool) -> Vec<Move> {
    let base_truth: HashMap<&str, &Row> = base_rows.iter().filter(|r| r.kind == Kind::Truth).map(|r| (r.id.as_str(), *r)).collect();
    let mut out = Vec::new();
    for (r, hv) in head_rows.iter().zip(head_verdicts) {
        let at = format!("{}:{}", r.file, r.line);
        let base_row = if r.kind == Kind::Truth { base_truth.get(r.id.as_str()).copied() } else { None };
        let pinned_of = |row: Option<&Row>| matches!(row.map(|x| &x.spec), Some(Spec::Truth { pinned: true, .. }));
        let pinned = r.kind == Kind::Truth && (pinned_of(Some(r)) || pinned_of(base_row));
        if diffed {
            if let Some((_, bv)) = base_by.get(&(r.kind, r.id.as_str())) {
                if !bv.is_error() && !hv.is_error() && bv.class != hv.class {
                    out.push(Move { row: r.id.clone(), from: bv.class, to: hv.class, kind: MoveKind::Verdict, pinned, at: at.clone() });
                }
            }
        }
        if let (Spec::Truth { expect: he, .. }, Some(Spec::Truth { expect: be, .. })) = (&r.spec, base_row.map(|b| &b.spec)) {
            if he != be {
                out.push(Move { row: r.id.clone(), from: *be, to: *he, kind: MoveKind::Expectation, pinned, at });
            }
        }
    }
    out.sort();
    out
}

fn truth_edits(head_rows: &[Row], head: &HashMap<&str, &Verdict>, base_by: &HashMap<(Kind, &str), (&Row, &Verdict)>) -> Vec<TruthEdit> {
    let mut out = Vec::new();
    for r in head_rows {
        let Spec::Truth { expect, pinned, .. } = r.spec else { continue };
        let Some(v) = head.get(r.id.as_str()).filter(|v| !v.is_error()) else { continue };
        if v.class == expect {
            continue;
        }
        let b = base_by.get(&(Kind::Truth, r.id.as_str()));
        out.push(TruthEdit {
            file: r.file.clone(),
            id: r.id.clone(),
            to: v.class,
            pinned,
            base_expect: b.and_then(|(row, _)| match row.spec {
                Spec::Truth { expect, .. } => Some(expect),
                _ => None,
            }),
            base_verdict: b.filter(|(_, v)| !v.is_error()).map(|(_, v)| v.class),
        });
    }
    out
}

/// Summary of counts per category, for callers that want numbers.
pub fn category_counts(r: &Report) -> BTreeMap<Category, u64> {
    let mut m = BTreeMap::new();
    for row in &r.rows {
        *m.entry(row.category).or_default() += 1;
    }
    m
}
