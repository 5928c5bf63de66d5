//! One oracle run: sandbox set-up, the self-test, the corpus (replay's loaders),
//! tiergate's verdicts (replay's head build and verdict cache), the sandboxed
//! runs on N workers, classification, the baseline diff, the metamorphic slots,
//! the report.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use replay::corpus::{CuratedFamily, Kind, Row, Spec};
use replay::protocol::Class;
use sha2::{Digest, Sha256};

use super::classify::{self, Context};
use super::report::{Meta, RowOut};
use super::sandbox::{self, Cgroup, Run, Sandbox};
use super::{baseline, metamorph, project, selftest, Options};

pub const BASELINE: &str = "corpus/oracle/baseline.csv";
const TLDR: &str = "corpus/history/tldr.csv";

fn log(msg: &str) {
    eprintln!("oracle: {msg}");
}

/// The sandbox, the template project and one cgroup per worker, under `work`.
pub struct Setup {
    pub sandbox: Sandbox,
    pub template_dir: PathBuf,
    pub template_tar: PathBuf,
    pub cgroups: Vec<Cgroup>,
}

pub fn setup(work: &Path, timeout: Duration, workers: usize) -> Result<Setup, String> {
    if let Some(why) = sandbox::unavailable() {
        return Err(why);
    }
    std::fs::create_dir_all(work).map_err(|e| format!("{}: {e}", work.display()))?;
    let prog = super::seccomp::program().ok_or("no seccomp syscall table for this architecture; the sandbox would share the host keyring")?;
    let seccomp = work.join("seccomp.bpf");
    std::fs::write(&seccomp, prog).map_err(|e| format!("{}: {e}", seccomp.display()))?;
    let (template_dir, template_tar) = project::template(work)?;
    // Unique per set-up, not only per process: two set-ups in one process (tests)
    // must never share a cgroup, or one's clean-up kills the other's runs.
    static SETUPS: AtomicUsize = AtomicUsize::new(0);
    let n = SETUPS.fetch_add(1, Ordering::SeqCst);
    let mut cgroups = Vec::new();
    for w in 0..workers {
        cgroups.push(Cgroup::create(&format!("tiergate-oracle-{}-{n}-w{w}", std::process::id()))?);
    }
    let home = std::env::var("HOME").unwrap_or_else(|_| "/root".into());
    let path_env = std::env::var("PATH").unwrap_or_else(|_| "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin".into());
    Ok(Setup { sandbox: Sandbox { work: work.to_path_buf(), seccomp, path_env, home, timeout, omit: &[] }, template_dir, template_tar, cgroups })
}

/// Runs the self-test on every worker's cgroup; Err lists the failing probes.
pub fn self_test(s: &Setup, root: &Path) -> (Vec<String>, bool) {
    let mut lines = Vec::new();
    let mut ok = true;
    for (w, cg) in s.cgroups.iter().enumerate() {
        for p in selftest::run(&s.sandbox, cg, &s.template_tar, root) {
            ok &= p.result.is_ok();
            // The first worker's transcript is the report's; the others only if they fail.
            if w == 0 || p.result.is_err() {
                lines.push(if w == 0 { p.line() } else { format!("{} (worker {w})", p.line()) });
            }
        }
    }
    (lines, ok)
}

fn installed(program: &str) -> bool {
    const BUILTINS: &[&str] = &[
        "cd", "echo", "printf", "read", "export", "alias", "type", "set", "unset", "history", "source", ".", "test", "[", "pwd", "exit", "kill", "jobs", "fg",
        "bg", "wait", "trap", "ulimit", "umask", "declare", "local", "shopt", "hash", "command", "builtin", "eval", "exec", "times", "dirs", "pushd", "popd",
        "let", "getopts", "readonly", "true", "false", "compgen", "complete", "disown", "enable", "help", "mapfile", "caller", "fc", "time", "coproc", "until",
        "while", "for", "if", "case", "select", "function", "typeset", "bind", "suspend", "logout", "return", "shift", ":",
    ];
    BUILTINS.contains(&program) || (!program.contains('/') && sandbox::which(program).is_some())
}

fn first_word(command: &str) -> &str {
    command.split_whitespace().next().unwrap_or("")
}

/// The candidate rows of the chosen corpora (before tiergate).
/// Rows with the name of the corpus they came from, and the count per corpus.
type Candidates = (Vec<(&'static str, Row)>, BTreeMap<&'static str, usize>);

fn candidates(root: &Path, corpora: &[String]) -> Result<Candidates, String> {
    let mut out = Vec::new();
    let mut counts = BTreeMap::new();
    let load = |k: Kind| replay::corpus::load_worktree(root, k).map(|c| c.rows).map_err(|e| e.join("; "));
    for c in corpora {
        let (name, rows): (&'static str, Vec<Row>) = match c.as_str() {
            "tldr" => ("tldr", load(Kind::History)?.into_iter().filter(|r| r.file == TLDR && installed(first_word(&r.command))).collect()),
            "truth" => ("truth", load(Kind::Truth)?.into_iter().filter(|r| matches!(r.spec, Spec::Truth { expect, .. } if expect <= Class::T2)).collect()),
            _ => ("curated", load(Kind::Curated)?.into_iter().filter(|r| matches!(r.spec, Spec::Curated { family: CuratedFamily::Fp, .. })).collect()),
        };
        counts.insert(name, rows.len());
        out.extend(rows.into_iter().map(|r| (name, r)));
    }
    Ok((out, counts))
}

fn hash_order(id: &str) -> String {
    replay::build::hex(&Sha256::digest(id.as_bytes()))
}

/// Words of a command for the "does the command name it" test.
pub fn command_words(command: &str) -> Vec<String> {
    command.split(|c: char| c.is_whitespace() || ";|&()<>'\"`$=".contains(c)).filter(|w| !w.is_empty()).map(str::to_owned).collect()
}

pub fn oracle(root: &Path, flags: &Options, flags_line: &str) -> i32 {
    let t0 = Instant::now();
    let workers = flags.jobs.unwrap_or(2);
    let timeout = Duration::from_secs(flags.timeout.unwrap_or(3));
    let work = root.join("target").join("oracle");
    let s = match setup(&work, timeout, workers) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("oracle: the sandbox is not available here: {e}\noracle: refusing to run");
            return replay::exit::INFRA;
        }
    };
    log("sandbox self-test (every run, before any corpus row)");
    let (lines, ok) = self_test(&s, root);
    for l in &lines {
        println!("  {l}");
    }
    let selftest_secs = t0.elapsed().as_secs_f64();
    if !ok {
        eprintln!("oracle: the sandbox failed its self-test (FAIL lines above); refusing to run any command");
        return replay::exit::INFRA;
    }
    log(&format!("self-test passed in {selftest_secs:.1} s"));
    if flags.selftest_only {
        return 0;
    }
    let entries = match baseline::load(&root.join(BASELINE)) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("oracle: {e}");
            return replay::exit::USAGE;
        }
    };
    let (cands, counts) = match candidates(root, &flags.corpus) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("oracle: {e}");
            return replay::exit::USAGE;
        }
    };
    // tiergate, with the host copy of the project as cwd (fixture rows keep theirs).
    let tt = Instant::now();
    let template = s.template_dir.display().to_string();
    let asked: Vec<Row> = cands.iter().map(|(_, r)| Row { cwd: r.cwd.clone().or_else(|| Some(template.clone())), ..r.clone() }).collect();
    let subject = match replay::build::build_head(root, &replay::build::head_target_dir(root), &log) {
        Ok((s, _)) => s,
        Err(e) => {
            eprintln!("oracle: {e}");
            return e.code();
        }
    };
    let verdicts = match replay::answer_rows(root, &subject, &asked, Duration::from_secs(10), log) {
        Ok((v, _)) => v,
        Err(e) => {
            eprintln!("oracle: {e}");
            return e.code();
        }
    };
    let tier_secs = tt.elapsed().as_secs_f64();
    let mut allowed: Vec<(&'static str, Row, replay::protocol::Verdict)> =
        cands.into_iter().zip(verdicts).filter(|(_, v)| !v.is_error() && v.class <= Class::T2).map(|((k, r), v)| (k, r, v)).collect();
    let n_allowed = allowed.len();
    let n_asked = asked.len() - n_allowed;
    if let Some((i, n)) = flags.shard {
        allowed.retain(|(_, r, _)| u64::from_str_radix(&hash_order(&r.id)[..12], 16).unwrap_or(0) % n as u64 == (i - 1) as u64);
    }
    allowed.sort_by_cached_key(|(_, r, _)| hash_order(&r.id));
    if let Some(n) = flags.sample {
        allowed.truncate(n);
    }
    allowed.sort_by(|a, b| a.1.id.cmp(&b.1.id));
    log(&format!("{n_allowed} allowed of {} candidates; running {} on {workers} workers", asked.len(), allowed.len()));

    let traces = work.join("traces");
    let _ = std::fs::remove_dir_all(&traces);
    if let Err(e) = std::fs::create_dir_all(&traces) {
        eprintln!("oracle: {}: {e}", traces.display());
        return replay::exit::INFRA;
    }
    let tr = Instant::now();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<(RowOut, Vec<metamorph::Slot>)>> = Mutex::new(Vec::new());
    std::thread::scope(|sc| {
        for cg in &s.cgroups {
            sc.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some((corpus, row, v)) = allowed.get(i) else { break };
                let out = one(&s, cg, root, &traces, corpus, row, v, &entries);
                let d = done.fetch_add(1, Ordering::SeqCst) + 1;
                if d.is_multiple_of(50) || d == allowed.len() {
                    log(&format!("{d}/{} ({:.0} s)", allowed.len(), tr.elapsed().as_secs_f64()));
                }
                results.lock().expect("results lock").push(out);
            });
        }
    });
    let wall_secs = tr.elapsed().as_secs_f64();
    let mut results = results.into_inner().expect("results lock");
    results.sort_by(|a, b| a.0.id.cmp(&b.0.id));
    let observed: Vec<metamorph::Slot> = results.iter().flat_map(|(_, s)| s.clone()).collect();
    let rows: Vec<RowOut> = results.into_iter().map(|(r, _)| r).collect();

    // Metamorphic: merge observed slots into the committed list, regenerate the curated file.
    let committed = metamorph::load_slots(root).unwrap_or_default();
    let merged = metamorph::merge(&committed, &observed);
    let known: HashSet<(&str, &str)> = committed.iter().map(|s| (s.program.as_str(), s.prefix.as_str())).collect();
    let slots_new: Vec<String> =
        merged.iter().filter(|s| !known.contains(&(s.program.as_str(), s.prefix.as_str()))).map(|s| format!("`{}`", s.prefix)).collect();
    if !replay::is_ci() && merged != committed {
        let _ = std::fs::create_dir_all(root.join("corpus/oracle"));
        if let Err(e) = std::fs::write(root.join(metamorph::SLOTS), metamorph::slots_csv(&merged)) {
            eprintln!("oracle: {}: {e}", metamorph::SLOTS);
        }
    }
    if !replay::is_ci() {
        metamorph::task(root, false);
    }
    let wrapper_rows = std::fs::read_to_string(root.join(metamorph::WRAPPERS)).map(|t| t.lines().count().saturating_sub(1)).unwrap_or(0);
    let commit = replay::git::git(root, &["rev-parse", "HEAD"]).map(|c| c.trim().to_owned()).unwrap_or_default();
    let meta = Meta {
        flags: flags_line.to_owned(),
        commit,
        selftest: lines,
        candidates: counts,
        allowed: n_allowed,
        asked: n_asked,
        selected: allowed.len(),
        wall_secs,
        selftest_secs,
        tier_secs,
        workers,
        timeout_secs: timeout.as_secs(),
        slots_observed: observed.len(),
        slots_new,
        wrapper_rows,
    };
    let dir = match flags.shard {
        Some((i, n)) => root.join("reports").join("oracle-shards").join(format!("{i}-of-{n}")),
        None => root.join("reports").join("oracle"),
    };
    if let Err(e) = super::report::write(&dir, &meta, &rows) {
        eprintln!("oracle: writing {}: {e}", dir.display());
        return replay::exit::INFRA;
    }
    println!("{}", super::report::headline(&meta, &rows));
    println!("report: {}", dir.strip_prefix(root).unwrap_or(&dir).display());
    println!("  total: {:.1} s", t0.elapsed().as_secs_f64());
    let new = rows.iter().any(|r| r.new_findings().next().is_some());
    let errors = rows.iter().any(|r| r.error.is_some());
    if errors {
        replay::exit::INFRA
    } else {
        i32::from(new)
    }
}

#[allow(clippy::too_many_arguments)]
fn one(
    s: &Setup,
    cg: &Cgroup,
    root: &Path,
    traces: &Path,
    corpus: &'static str,
    row: &Row,
    v: &replay::protocol::Verdict,
    entries: &[baseline::Entry],
) -> (RowOut, Vec<metamorph::Slot>) {
    let trace = traces.join(format!("{}.trace", row.id.replace(['/', ':'], "_")));
    // A fixture cwd is the project; an absolute cwd (a path on someone else's
    // machine, in imported truth rows) runs in the template like a row without one.
    let tar = match &row.cwd {
        Some(c) if !c.starts_with('/') => project::fixture_tar(&s.sandbox.work, root, c),
        _ => Ok(s.template_tar.clone()),
    };
    let mut out = RowOut {
        id: row.id.clone(),
        corpus,
        command: row.command.clone(),
        tier: v.class.to_string(),
        rule: v.rule.clone(),
        code: None,
        timed_out: false,
        secs: 0.0,
        findings: Vec::new(),
        unparsed: 0,
        error: None,
    };
    let res = tar.and_then(|tar| s.sandbox.run(&Run { command: &row.command, project: Some(&tar), trace: Some(&trace), cgroup: cg }));
    let o = match res {
        Ok(o) => o,
        Err(e) => {
            out.error = Some(e);
            return (out, Vec::new());
        }
    };
    out.code = o.code;
    out.timed_out = o.timed_out;
    out.secs = o.secs;
    if o.code == Some(121) {
        out.error = Some("the project could not be unpacked in the sandbox".into());
        return (out, Vec::new());
    }
    let text = match std::fs::read(&trace) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) => {
            out.error = Some(format!("no trace: {e}"));
            return (out, Vec::new());
        }
    };
    let (calls, bad) = super::trace::parse(&text);
    out.unparsed = bad;
    if calls.is_empty() {
        out.error = Some(format!("empty trace (exit {:?}; stderr {:?})", o.code, o.stderr.chars().take(200).collect::<String>()));
        return (out, Vec::new());
    }
    let words = command_words(&row.command);
    let cx = Context::new(&words, &v.rule, &s.sandbox.home);
    let (findings, execs) = classify::classify(&calls, &cx);
    // The baseline names programs as typed (basename of the first word).
    let program = first_word(&row.command).rsplit('/').next().unwrap_or("").to_owned();
    out.findings = findings
        .into_iter()
        .map(|f| {
            let b = entries.iter().find(|e| e.matches(&program, f.category, &f.detail)).map(|e| e.status.clone());
            (f, b)
        })
        .collect();
    let slots = metamorph::slots_of(&row.id, &row.command, &execs);
    (out, slots)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two sandbox tests run one at a time: each probe run creates host sockets
    /// (the listener the socket probe dials) and fills a pids cgroup, so running
    /// them side by side lets one test's socket appear, uncovered, in the other's
    /// sandbox, and their fork probes share the machine's process budget.
    static SANDBOX: std::sync::Mutex<()> = std::sync::Mutex::new(());

    /// The sandbox self-test as a test: it runs when bwrap, strace and root are
    /// here, and says plainly that it skipped otherwise.
    #[test]
    fn sandbox_self_test() {
        if let Some(why) = sandbox::unavailable() {
            eprintln!("SKIPPED sandbox_self_test: {why}");
            return;
        }
        let _one = SANDBOX.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let root = replay::project_root();
        let work = root.join("target").join(format!("oracle-test-{}", std::process::id()));
        let s = setup(&work, Duration::from_secs(3), 1).expect("sandbox setup");
        let (lines, ok) = self_test(&s, &root);
        drop(s);
        let _ = std::fs::remove_dir_all(&work);
        assert!(ok, "sandbox self-test failed:\n{}", lines.join("\n"));
        assert!(lines.len() >= 14, "{lines:?}");
    }

    /// The probes can fail: without `--cap-drop ALL` (bwrap as root keeps
    /// capabilities), the explicit read-only `/proc/sys` bind and the covering of
    /// host sockets, the self-test must say so (ORACLE.md hazards 1 and 2, and
    /// connect() through the read-only root). Safe to run: every write probe
    /// writes a fresh marker under a read-only mount or a sysctl's current value.
    #[test]
    fn selftest_catches_a_weakened_sandbox() {
        if let Some(why) = sandbox::unavailable() {
            eprintln!("SKIPPED selftest_catches_a_weakened_sandbox: {why}");
            return;
        }
        let _one = SANDBOX.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let root = replay::project_root();
        let work = root.join("target").join(format!("oracle-weak-{}", std::process::id()));
        let mut s = setup(&work, Duration::from_secs(3), 1).expect("sandbox setup");
        s.sandbox.omit = &[&["--cap-drop", "ALL"], &["--ro-bind", "/proc/sys", "/proc/sys"], sandbox::HIDE_SOCKETS];
        let caps_kept = selftest::run(&s.sandbox, &s.cgroups[0], &s.template_tar, &root);
        let failed = |probes: &[selftest::Probe]| probes.iter().filter(|p| p.result.is_err()).map(|p| p.name).collect::<Vec<_>>();
        let f = failed(&caps_kept);
        for want in ["caps-dropped", "no-remount-no-userns", "proc-sys-read-only", "host-sockets-hidden"] {
            assert!(f.contains(&want), "{want} passed on a weakened sandbox; failed: {f:?}");
        }
        drop(s);
        let _ = std::fs::remove_dir_all(&work);
    }
}
