//! The bench's gate on one mutant, in a scratch worktree of the unmutated commit
//! (`target/mutants/scratch`, kept between runs so release builds stay incremental):
//! write the mutated file, `cargo build --release` tiergate, run every rule's own
//! examples through it (what `rule_examples.rs` asserts, via `tiergate batch`), then
//! `replay::run` with the unmutated binary as the base — exactly `cargo xtask replay
//! --check --base <unmutated>`. Failures already present on the unmutated tree are
//! subtracted, so a mutant is only credited with what it broke.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use replay::build::Subject;
use replay::config::Config;
use replay::coverage::RuleInfo;
use replay::exit::{Hang, ReplayError};
use replay::runner::{Job, Patience};

use crate::mutant::Mutant;

fn quiet(_: &str) {}

/// The working directory and home `rule_examples.rs` classifies examples with.
const EXAMPLE_CWD: &str = "/work/proj";
const EXAMPLE_HOME: &str = "/home/user";

/// A failure as the gate saw it: (layer, message).
pub type Found = BTreeSet<(String, String)>;

pub struct Scratch {
    pub dir: PathBuf,
    pub commit: String,
    pub base_bin: PathBuf,
    pub rules: Vec<RuleInfo>,
    pub baseline: Found,
    pub build_secs: f64,
    /// Run the replay even when the rule examples already caught the mutant, so the
    /// report's caught-by-layer table counts every layer (`--all-layers`).
    pub all_layers: bool,
}

fn git(dir: &Path, args: &[&str]) -> Result<String, String> {
    replay::git::git(dir, args)
}

/// How the scratch checkout builds tiergate, from its own manifests (replay::layout).
fn how(dir: &Path) -> Result<replay::layout::TiergateBuild, String> {
    replay::layout::at_dir(dir).map_err(|e| format!("{}: cannot build tiergate: {e}", dir.display()))
}

fn cargo_build(dir: &Path) -> Result<(), String> {
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(dir)
        .args(how(dir)?.cargo_build_args("release"))
        .env_remove("CARGO_TARGET_DIR")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if out.status.success() {
        return Ok(());
    }
    Err(String::from_utf8_lossy(&out.stderr).into_owned())
}

/// `cargo build --release -p PACKAGE --bin tiergate` in `dir` (the package its
/// manifests name): Ok(secs) or the first error lines. A link failure is retried
/// once after `cargo clean -p PACKAGE`: an interrupted incremental release build can
/// leave its artifacts inconsistent (`undefined hidden symbol`), and that is not the
/// mutant's doing.
pub fn build(dir: &Path) -> Result<f64, String> {
    let t = Instant::now();
    let mut result = cargo_build(dir);
    if result.as_ref().err().is_some_and(|e| e.contains("linking with") || e.contains("undefined hidden symbol")) {
        // The library and, in the split layout, the package around it.
        let mut clean = vec!["clean", "--release", "-p", "classifier"];
        let package = how(dir)?.package;
        if package != "classifier" {
            clean.extend(["-p", package.as_str()]);
        }
        let _ = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .current_dir(dir)
            .args(&clean)
            .env_remove("CARGO_TARGET_DIR")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        result = cargo_build(dir);
    }
    match result {
        Ok(()) => Ok(t.elapsed().as_secs_f64()),
        Err(err) => {
            let mut first: Vec<&str> = err.lines().filter(|l| l.starts_with("error")).take(3).collect();
            // The machine's own failures often sit in notes, not `error` lines: keep them.
            first.extend(MACHINE_FAILURES.iter().copied().filter(|m| err.contains(m)));
            Err(first.join("; "))
        }
    }
}

fn bin(dir: &Path) -> Result<PathBuf, String> {
    Ok(how(dir)?.binary(&dir.join("target"), "release"))
}

/// Cargo configuration beside the scratch worktree (`target/mutants/.cargo/`, which
/// cargo reads for every build run inside the scratch tree, the replay's head build
/// included): the classifier crate alone is optimised at level 1 and split into 256
/// codegen units there. A mutant's release build recompiles only that crate; opt-level
/// 3 is most of a full build's time, and with the release profile's 16 units an edit
/// to one function re-optimises a sixteenth of the crate, with 256 a few small units
/// (docs/evidence.md, "Code mutants": 20–22 s → 5–7 s a mutant build here). The code,
/// and so every verdict, is the same either way, and the unmutated base is built with
/// the same configuration. Dependencies keep the release profile, so they are not
/// rebuilt. No tracked file is touched.
const SCRATCH_CARGO_CONFIG: &str = "# Written by `cargo xtask mutants` (mutation/src/gate.rs): mutant builds optimise\n\
# the classifier crate at level 1 in 256 codegen units; the code, and so every\n\
# verdict, is unchanged.\n\
[profile.release.package.classifier]\nopt-level = 1\ncodegen-units = 256\n";

/// Held while a run uses the scratch worktree: two runs at once would apply their
/// mutants to the same files. A lock whose process is gone (a killed run) is taken over.
pub struct ScratchLock(PathBuf);

impl ScratchLock {
    pub fn take(root: &Path) -> Result<ScratchLock, String> {
        let path = root.join("target").join("mutants").join("scratch.lock");
        std::fs::create_dir_all(path.parent().unwrap_or(root)).map_err(|e| e.to_string())?;
        for _ in 0..2 {
            match std::fs::OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(mut f) => {
                    use std::io::Write as _;
                    let _ = write!(f, "{}", std::process::id());
                    return Ok(ScratchLock(path));
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    let pid = std::fs::read_to_string(&path).unwrap_or_default();
                    let alive = !pid.trim().is_empty() && Path::new("/proc").join(pid.trim()).exists();
                    if alive {
                        return Err(format!("another mutants run (pid {}) is using target/mutants/scratch; wait for it or stop it", pid.trim()));
                    }
                    let _ = std::fs::remove_file(&path);
                }
                Err(e) => return Err(format!("{}: {e}", path.display())),
            }
        }
        Err(format!("{}: could not take the lock", path.display()))
    }
}

impl Drop for ScratchLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Creates or resets the scratch worktree (`target/mutants/scratch`) at `commit`:
/// mutants are listed from, and applied to, the committed tree.
pub fn checkout(root: &Path, commit: &str) -> Result<PathBuf, String> {
    let dir = root.join("target").join("mutants").join("scratch");
    if dir.join(".git").exists() {
        git(&dir, &["reset", "--quiet", "--hard", commit])?;
        git(&dir, &["clean", "--quiet", "-fd", "--exclude=target"])?;
    } else {
        let _ = std::fs::remove_dir_all(&dir);
        git(root, &["worktree", "prune"])?;
        git(root, &["worktree", "add", "--detach", &dir.display().to_string(), commit])?;
        let seed = root.join("target").join("release");
        if seed.is_dir() {
            // Registry dependencies are reused from head's build; only workspace crates rebuild.
            let _ = std::fs::create_dir_all(dir.join("target"));
            let _ = Command::new("cp").args(["-a", "--reflink=auto"]).arg(&seed).arg(dir.join("target")).status();
        }
    }
    Ok(dir)
}

/// Builds the unmutated binary in the scratch worktree `dir` (see [`checkout`]) with
/// the scratch's cargo configuration: (its path, seconds). The table mutants are
/// listed from its `tiergate programs`, and [`prepare`] finds it built.
pub fn build_unmutated(root: &Path, dir: &Path, log: &dyn Fn(&str)) -> Result<(PathBuf, f64), String> {
    let cfg_dir = root.join("target").join("mutants").join(".cargo");
    std::fs::create_dir_all(&cfg_dir)
        .and_then(|()| std::fs::write(cfg_dir.join("config.toml"), SCRATCH_CARGO_CONFIG))
        .map_err(|e| format!("{}: {e}", cfg_dir.display()))?;
    log(&format!("building the unmutated tiergate in {}", dir.strip_prefix(root).unwrap_or(dir).display()));
    let secs = build(dir).map_err(|e| format!("the unmutated tree does not build: {e}"))?;
    Ok((bin(dir)?, secs))
}

/// The unmutated binary's `tiergate programs` tables (built first, see
/// [`build_unmutated`]): what the table mutants are listed from.
pub fn unmutated_dump(root: &Path, dir: &Path, log: &dyn Fn(&str)) -> Result<Vec<replay::dump::Table>, String> {
    let (bin, _) = build_unmutated(root, dir, log)?;
    replay::dump::of_subject(&[bin.display().to_string(), "batch".into()]).map_err(|e| format!("the unmutated tiergate's tables: {e}"))
}

/// Builds the unmutated binary (see [`build_unmutated`]), caches it as the replay's
/// base, and records the unmutated gate's own failures.
pub fn prepare(root: &Path, dir: PathBuf, commit: &str, all_layers: bool, log: &dyn Fn(&str)) -> Result<Scratch, String> {
    let (_, build_secs) = build_unmutated(root, &dir, log)?;
    let base_bin = dir.join("target").join("mutants-base").join("tiergate");
    replay::build::install(&bin(&dir)?, &base_bin).map_err(|e| e.to_string())?;
    let key = replay::build::base_key(&dir, commit).map_err(|e| e.to_string())?;
    replay::build::install(&base_bin, &replay::build::cached_bin(&dir, &key)).map_err(|e| e.to_string())?;
    let rules = replay::coverage::rules_of(&base_bin.display().to_string())?;
    let mut s = Scratch { dir, commit: commit.to_owned(), base_bin, rules, baseline: Found::new(), build_secs, all_layers: true };
    let (found, _, _) = gate(&s)?;
    let found = baseline(found)?;
    log(&format!("the unmutated gate has {} failure(s) of its own; mutants are credited only with new ones", found.len()));
    s.baseline = found;
    s.all_layers = all_layers;
    Ok(s)
}

/// The unmutated gate's failures, which mutants are not credited with; a hang among
/// them is an error of the run: subtracted, it would hide every mutant's hang.
fn baseline(found: Found) -> Result<Found, String> {
    match found.iter().find(|(layer, m)| layer == HANG || m.starts_with("hang:")) {
        Some((_, m)) => Err(format!("the unmutated tiergate hangs, so no mutant can be judged: {m}")),
        None => Ok(found),
    }
}

/// How long the gate waits for an answer, in the rule examples and in the replay.
/// An unmutated row is answered in microseconds to milliseconds, so a row unanswered
/// for `row` is asked once more, alone, on a fresh child, for `hang`; a mutant that
/// still gives no answer loops, and the gate stops there with the mutant caught
/// (`examples: hang`, or the layer `hang` in the replay) instead of waiting out a
/// timeout for every row it loops on. The second wait is what keeps a loaded 2-core
/// machine from calling a slow moment of a correct binary a hang; a hang of the
/// unmutated tree is an error of the run ([`prepare`]), never credited to mutants.
const PATIENCE: Patience = Patience { row: Duration::from_secs(5), hang: Some(Duration::from_secs(30)) };

/// The gate's layer for a replay the mutant stopped answering.
const HANG: &str = "hang";

/// Every rule's own examples as the gate asks them, in registry order: the jobs
/// (each in [`EXAMPLE_CWD`]) and, for each, (rule id, whether it must hit, command).
pub(crate) fn example_jobs(rules: &[RuleInfo]) -> (Vec<Job>, Vec<(&str, bool, &str)>) {
    let mut jobs = Vec::new();
    let mut want = Vec::new();
    for r in rules {
        for (list, hit) in [(&r.matches, true), (&r.not_matches, false)] {
            for c in list {
                jobs.push(Job::new(c.clone(), Some(EXAMPLE_CWD.into())));
                want.push((r.id.as_str(), hit, c.as_str()));
            }
        }
    }
    (jobs, want)
}

/// `bin batch` as the examples are asked of it: with [`EXAMPLE_HOME`], and `env`'s
/// `NAME=value` words set too (the coverage map's output directory).
pub(crate) fn example_subject(bin: &Path, env: &[String]) -> Subject {
    let mut argv = vec!["env".to_owned(), format!("HOME={EXAMPLE_HOME}")];
    argv.extend(env.iter().cloned());
    argv.extend([bin.display().to_string(), "batch".into()]);
    Subject { argv, build_id: None, label: "tiergate".into() }
}

/// Rule examples through `bin`: a `matches` example must get the rule's id, a
/// `not_matches` one must not. Also the example it stopped answering (see
/// [`PATIENCE`]), after which the rest are not asked.
fn examples(rules: &[RuleInfo], bin: &Path, patience: Patience) -> Result<(Found, Option<Hang>), String> {
    let (jobs, want) = example_jobs(rules);
    let subject = example_subject(bin, &[]);
    let answers = match replay::runner::run(&subject, &jobs, patience, &|| {}) {
        Ok(a) => a,
        Err(ReplayError::Hang(mut h)) => {
            h.row = want.iter().zip(&jobs).find(|(_, j)| j.command == h.command).map(|((id, _, _), _)| format!("example of {id}"));
            return Ok((Found::new(), Some(*h)));
        }
        Err(e) => return Err(e.to_string()),
    };
    let mut out = Found::new();
    for (&(id, hit, c), v) in want.iter().zip(answers) {
        if (v.rule == id) != hit {
            let msg = if hit { format!("{id}: misses `{c}` (got {})", v.short()) } else { format!("{id}: hits `{c}`") };
            out.insert(("examples".into(), msg));
        }
    }
    Ok((out, None))
}

/// What a mutant moved in the replay, caught or not: rows whose tier moved, rows whose
/// deciding rule moved at the same tier, rows whose reason alone moved, and the first
/// few rule moves (`corpus id: base rule → head rule`). A survivor that moved rule ids
/// is a regression the bench saw and did not judge; one that moved nothing is out of
/// every corpus's reach.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Moved {
    pub tier: usize,
    pub rule: usize,
    pub reason: usize,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rule_examples: Vec<String>,
    /// The first few rows whose tier moved (`corpus id: base → head`), within the caps.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tier_examples: Vec<String>,
    /// Ids of the first few truth rows whose tier or deciding rule moved: the truth rows
    /// nearest to what a code mutant changed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub truth_ids: Vec<String>,
}

impl Moved {
    fn of(rows: &[replay::diff::RowResult]) -> Moved {
        use replay::diff::Category;
        let mut m = Moved::default();
        for r in rows {
            let truth = r.corpus == replay::corpus::Kind::Truth;
            match (r.category, &r.base, &r.head) {
                (Category::Tightened | Category::Loosened, b, h) => {
                    m.tier += 1;
                    if m.tier_examples.len() < 3 {
                        let short = |v: &Option<replay::protocol::Verdict>| v.as_ref().map_or_else(|| "none".to_owned(), |v| v.short());
                        m.tier_examples.push(format!("{} {}: {} → {}", r.corpus.as_str(), r.id, short(b), short(h)));
                    }
                    if truth && m.truth_ids.len() < 3 {
                        m.truth_ids.push(r.id.clone());
                    }
                }
                (Category::ReasonOnly, Some(b), Some(h)) if b.rule != h.rule => {
                    m.rule += 1;
                    if m.rule_examples.len() < 3 {
                        m.rule_examples.push(format!("{} {}: {} → {}", r.corpus.as_str(), r.id, b.rule, h.rule));
                    }
                    if truth && m.truth_ids.len() < 3 {
                        m.truth_ids.push(r.id.clone());
                    }
                }
                (Category::ReasonOnly, _, _) => m.reason += 1,
                _ => {}
            }
        }
        m
    }
    pub fn is_empty(&self) -> bool {
        self.tier + self.rule + self.reason == 0
    }
}

/// The gate on the scratch tree as it is now: (failures, what moved, seconds spent in the replay).
/// The layers run in order, rule examples then the replay; unless `all_layers`, a
/// mutant the examples already caught (failures beyond the unmutated tree's) is not
/// replayed — whether it is caught cannot change, and the replay is most of the time.
pub fn gate(s: &Scratch) -> Result<(Found, Moved, f64), String> {
    let (mut found, hung) = examples(&s.rules, &bin(&s.dir)?, PATIENCE)?;
    let mut moved = Moved::default();
    let t = Instant::now();
    if let Some(h) = hung {
        // Every answer of the replay would wait out its timeout: the hang is the finding.
        found.insert(("examples".into(), format!("hang: {h}; the replay was not run")));
        return Ok((found, moved, t.elapsed().as_secs_f64()));
    }
    if !s.all_layers && found.difference(&s.baseline).next().is_some() {
        return Ok((found, moved, t.elapsed().as_secs_f64()));
    }
    let cfg = Config {
        require_base: true,
        determinism_sample: 50,
        timeout: PATIENCE.row,
        hang: PATIENCE.hang,
        log: quiet,
        ..Config::new(s.dir.clone(), Some(s.commit.clone()))
    };
    match replay::run(&cfg) {
        Ok(out) => {
            // Where a replayed mutant's gate time goes (load, answers, judge, reports), for
            // measuring the gate's cost (docs/evidence.md, "Code mutants"); off by default.
            if std::env::var_os("MUTANTS_TIMINGS").is_some() {
                eprintln!("mutants: replay timings {:?}", out.timings);
            }
            moved = Moved::of(&out.report.rows);
            // The table probes (the replay's probes kind, from the unmutated binary's dump)
            // are a layer of their own, so a report says how much of a rate the
            // hand-written corpora earn without them: a probe row's check, and its
            // undeclared move from the base's expected tier.
            let probe_rows: std::collections::HashSet<&str> =
                out.report.rows.iter().filter(|r| r.corpus == replay::corpus::Kind::Probes).map(|r| r.id.as_str()).collect();
            for f in &out.report.failures {
                let layer = match f.area {
                    "declare" if f.row.as_deref().is_some_and(|id| probe_rows.contains(id)) => "probes",
                    "declare" => "declarations",
                    area => area,
                };
                found.insert((layer.to_owned(), f.message.clone()));
            }
        }
        // The mutant stopped answering a row: caught, and no later row is waited on.
        Err(ReplayError::Hang(h)) if h.side == "head" => {
            found.insert((HANG.into(), format!("replay: {h}")));
        }
        // The unmutated base is the cached answers of the build `prepare` checked;
        // a hang there is the run's, not the mutant's.
        Err(ReplayError::Hang(h)) => return Err(format!("the unmutated base stopped answering: {h}")),
        // The mutant's dump no longer matches its probe comments (an entry a probe or
        // an except names was dropped): the table probes caught it, no other corpus.
        Err(e @ ReplayError::Probes(_)) => {
            found.insert(("probes".into(), e.to_string()));
        }
        Err(e) => {
            found.insert(("infra".into(), e.to_string()));
        }
    }
    forget_mutant_answers(s);
    Ok((found, moved, t.elapsed().as_secs_f64()))
}

/// The mutant's verdicts are never asked again: drop them from the scratch cache.
fn forget_mutant_answers(s: &Scratch) {
    let Ok(bytes) = bin(&s.dir).and_then(|b| std::fs::read(b).map_err(|e| e.to_string())) else { return };
    let Ok(base) = std::fs::read(&s.base_bin) else { return };
    if bytes == base {
        return;
    }
    let id = replay::cache_id(&s.dir, &replay::build::binary_id(&bytes));
    if let Ok(mut store) = replay::store::Store::open(&replay::build::replay_dir(&s.dir).join("cache.sqlite")) {
        let _ = store.forget(&id);
    }
}

/// What happened to one mutant.
pub struct Outcome {
    pub status: &'static str,
    pub layers: Vec<String>,
    pub failures: Vec<(String, String)>,
    pub build_secs: f64,
    pub gate_secs: f64,
    pub moved: Moved,
    pub note: String,
    /// The mutant's diff with whole lines of context.
    pub diff: String,
}

impl Outcome {
    /// A mutant that did not reach the gate: `status` says why (`error`, `unviable`).
    fn failed(status: &'static str, build_secs: f64, note: String, diff: &str) -> Outcome {
        Outcome { status, layers: vec![], failures: vec![], build_secs, gate_secs: 0.0, moved: Moved::default(), note, diff: diff.to_owned() }
    }
}

/// Build output that says the machine failed, not the code.
const MACHINE_FAILURES: &[&str] = &["No space left on device", "Bus error", "terminated with signal", "Cannot allocate memory"];

/// A build error that is the machine's, not the code's.
fn machine_failure(err: &str) -> bool {
    MACHINE_FAILURES.iter().any(|m| err.contains(m))
}

/// Applies `m`, builds, gates, restores the file.
pub fn run_one(s: &Scratch, m: &Mutant) -> Outcome {
    let path = s.dir.join(&m.file);
    let original = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => return Outcome::failed("error", 0.0, format!("{}: {e}", m.file), ""),
    };
    let Some(mutated) = m.apply(&original) else {
        return Outcome::failed("error", 0.0, "the mutant no longer applies to this commit".into(), "");
    };
    let diff = m.diff(&original);
    let written = std::fs::write(&path, mutated);
    let result = match written {
        Err(e) => Outcome::failed("error", 0.0, e.to_string(), &diff),
        Ok(()) => {
            let t = Instant::now();
            match build(&s.dir) {
                // A build that failed for the machine's sake (a full disk, a killed linker)
                // says nothing about the mutant: an error, not unviable.
                Err(e) if machine_failure(&e) => Outcome::failed("error", t.elapsed().as_secs_f64(), e, &diff),
                Err(e) => Outcome::failed("unviable", t.elapsed().as_secs_f64(), e, &diff),
                Ok(build_secs) => match gate(s) {
                    Err(e) => Outcome::failed("error", build_secs, e, &diff),
                    Ok((found, moved, gate_secs)) => {
                        let new: Vec<(String, String)> = found.difference(&s.baseline).cloned().collect();
                        let layers: BTreeSet<String> = new.iter().map(|(l, _)| l.clone()).collect();
                        let status = if new.is_empty() { "survived" } else { "caught" };
                        Outcome {
                            status,
                            layers: layers.into_iter().collect(),
                            failures: new,
                            build_secs,
                            gate_secs,
                            moved,
                            note: String::new(),
                            diff: diff.clone(),
                        }
                    }
                },
            }
        }
    };
    let _ = std::fs::write(&path, original);
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A protocol v1 `tiergate batch` in sh: waits `delay` (sleep's syntax) before each
    /// answer, and answers every line `T0 r.0` (the id read past any spacing, since the
    /// runner spells requests several ways); with no delay, it never answers (a
    /// `sleep` it execs, so the runner's kill ends it).
    fn fake(dir: &Path, delay: Option<&str>) -> PathBuf {
        let bin = dir.join("tiergate");
        let Some(delay) = delay else {
            std::fs::write(&bin, "#!/bin/sh\nexec sleep 600\n").unwrap();
            std::fs::set_permissions(&bin, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
            return bin;
        };
        let script = format!(
            "#!/bin/sh\nwhile IFS= read -r line; do\n  sleep {delay}\n  rest=${{line#*\\\"id\\\"}}\n  rest=${{rest#*:}}\n  rest=${{rest#\"${{rest%%[![:space:]]*}}\"}}\n  id=${{rest%%[!0-9]*}}\n  printf '{{\"v\":1,\"id\":%s,\"tier\":\"T0\",\"blocked\":false,\"decision\":\"allow\",\"rule\":\"r.0\",\"reason\":\"r\"}}\\n' \"$id\"\ndone\n"
        );
        std::fs::write(&bin, script).unwrap();
        std::fs::set_permissions(&bin, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        bin
    }

    fn rules(n: usize) -> Vec<RuleInfo> {
        (0..n)
            .map(|n| RuleInfo {
                id: format!("r.{n}"),
                family: "r".into(),
                class: "T0".into(),
                matches: vec![format!("ls {n}"), format!("ls -l {n}")],
                not_matches: vec![],
            })
            .collect()
    }

    /// A binary that never answers is a hang after one row's timeout and one second
    /// asking, not a timeout for every example of every rule.
    #[test]
    fn a_hanging_binary_stops_the_examples_at_the_first_example() {
        let dir = tempfile::tempdir().unwrap();
        let bin = fake(dir.path(), None);
        let patience = Patience { row: Duration::from_millis(300), hang: Some(Duration::from_millis(600)) };
        let t = Instant::now();
        let (found, hung) = examples(&rules(20), &bin, patience).unwrap();
        let h = hung.expect("a hang");
        assert!(found.is_empty(), "{found:?}");
        assert_eq!((h.command.as_str(), h.row.as_deref()), ("ls 0", Some("example of r.0")), "{h}");
        assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    }

    /// A correct binary slower than the per-row timeout is not a hang: each slow
    /// example is answered when asked again, and judged.
    #[test]
    fn a_slow_binary_is_judged_not_called_a_hang() {
        let dir = tempfile::tempdir().unwrap();
        let bin = fake(dir.path(), Some("0.5"));
        let patience = Patience { row: Duration::from_millis(200), hang: Some(Duration::from_secs(10)) };
        let (found, hung) = examples(&rules(2), &bin, patience).unwrap();
        assert!(hung.is_none(), "{hung:?}");
        // Every answer is `r.0`: r.1's two examples miss, r.0's hit.
        let msgs: Vec<&str> = found.iter().map(|(_, m)| m.as_str()).collect();
        assert_eq!(msgs.len(), 2, "{msgs:?}");
        assert!(msgs.iter().all(|m| m.starts_with("r.1: misses")), "{msgs:?}");
    }

    /// The unmutated tree's failures become the baseline, but a hang of its own is an
    /// error of the run: subtracted, it would hide every mutant that hangs the same way.
    #[test]
    fn an_unmutated_hang_is_an_error_of_the_run() {
        let ordinary: Found = [("truth".to_owned(), "row x moved".to_owned())].into();
        assert_eq!(baseline(ordinary.clone()), Ok(ordinary));
        for hang in [(HANG.to_owned(), "replay: head gave no answer".to_owned()), ("examples".to_owned(), "hang: tiergate gave no answer".to_owned())] {
            let err = baseline([hang].into()).unwrap_err();
            assert!(err.contains("the unmutated tiergate hangs"), "{err}");
        }
    }
}
