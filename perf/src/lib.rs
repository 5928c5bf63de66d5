//! The benchmarks behind `cargo xtask bench [classify|lanes|hook]… [--check]`: measures the classifier
//! and the hook, and keeps the figures as committed baselines in
//! `benches/baselines/*.json`.
//!
//! Without `--check` it measures and rewrites the baselines (atomically). With
//! `--check` it measures and compares, exiting 1 when a figure regressed beyond
//! its noise bound (`METRICS` below, measured in `docs/evidence.md`) or fell under
//! a requirement floor, and writes nothing. It builds release binaries through
//! cargo; it does not judge verdicts (the replay does that).
//!
//! - `classify`: protocol v1 throughput of `tiergate batch` over the tldr corpus.
//! - `lanes`: library ns/command per lane (`benches/lanes.rs`, release profile).
//! - `hook`: `tiergate hook` process-per-call latency p50/p99 (raw, and over a
//!   `tiergate --version` spawn measured interleaved) and max RSS.
//! - `replay`: warm replay wall time, in `replay_time.rs`.
//! - `batch`: batch and library throughput, base against head in one run, in
//!   `batch.rs`.

pub mod batch;
pub mod replay_time;
mod stats;

pub(crate) use stats::{median, percentile, Paired};

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use serde_json::{json, Value};

/// Which way is better for a metric.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Better {
    Higher,
    Lower,
}

/// One tracked figure: where it lives, its unit, and how far it may move before
/// `--check` calls it a regression. Bounds come from repeated runs on the
/// project's 2-core machine while other builds ran (docs/evidence.md).
struct Metric {
    group: &'static str,
    name: &'static str,
    unit: &'static str,
    better: Better,
    /// Allowed relative regression (0.25 = 25 % worse than the baseline).
    tolerance: f64,
    /// Allowed absolute regression on top of `tolerance`, in the metric's unit
    /// (the hook's figures are fractions of a millisecond, so noise is absolute).
    slack: f64,
    /// A requirement no run may miss, whatever the baseline says: a floor for
    /// higher-is-better figures, a ceiling for lower-is-better ones.
    floor: Option<f64>,
}

const METRICS: &[Metric] = &[
    // Issue 8: "well over 50,000 commands/s".
    Metric { group: "classify", name: "batch_commands_per_s", unit: "commands/s", better: Better::Higher, tolerance: 0.25, slack: 0.0, floor: Some(50_000.0) },
    Metric { group: "lanes", name: "library_commands_per_s", unit: "commands/s", better: Better::Higher, tolerance: 0.25, slack: 0.0, floor: None },
    Metric { group: "lanes", name: "plain_ns", unit: "ns/command", better: Better::Lower, tolerance: 0.35, slack: 0.0, floor: None },
    Metric { group: "lanes", name: "compound_ns", unit: "ns/command", better: Better::Lower, tolerance: 0.35, slack: 0.0, floor: None },
    Metric { group: "lanes", name: "heredoc_ns", unit: "ns/command", better: Better::Lower, tolerance: 0.35, slack: 0.0, floor: None },
    Metric { group: "lanes", name: "inline_code_ns", unit: "ns/command", better: Better::Lower, tolerance: 0.35, slack: 0.0, floor: None },
    Metric { group: "lanes", name: "script_file_ns", unit: "ns/command", better: Better::Lower, tolerance: 0.35, slack: 0.0, floor: None },
    // Issue 8 wants every worst case within 50 ms; some are not yet (see
    // docs/evidence.md), so this gates regressions only, not the target.
    Metric { group: "lanes", name: "worst_max_ms", unit: "ms", better: Better::Lower, tolerance: 1.00, slack: 1.0, floor: None },
    // The hook group (issue 14): each case over the `/bin/true` spawn floor, as the
    // median (and p90) of per-round paired differences, so a load swing moves both
    // sides alike; absolute bounds (HOOK_NOISE_*), widened by `compare` to three
    // standard errors of a noisier run. (The old p99 was the 2nd largest of 200.)
    Metric { group: "hook", name: "t0_log_over_floor_p50_ms", unit: "ms", better: Better::Lower, tolerance: 0.0, slack: HOOK_NOISE_P50_MS, floor: None },
    Metric { group: "hook", name: "t3_log_over_floor_p50_ms", unit: "ms", better: Better::Lower, tolerance: 0.0, slack: HOOK_NOISE_P50_MS, floor: None },
    Metric { group: "hook", name: "t0_10k_over_floor_p50_ms", unit: "ms", better: Better::Lower, tolerance: 0.0, slack: HOOK_NOISE_P50_MS, floor: None },
    Metric { group: "hook", name: "t3_10k_over_floor_p50_ms", unit: "ms", better: Better::Lower, tolerance: 0.0, slack: HOOK_NOISE_P50_MS, floor: None },
    Metric { group: "hook", name: "nonce_grant_over_floor_p50_ms", unit: "ms", better: Better::Lower, tolerance: 0.0, slack: HOOK_NOISE_P50_MS, floor: None },
    Metric { group: "hook", name: "t3_10k_over_floor_p90_ms", unit: "ms", better: Better::Lower, tolerance: 0.0, slack: HOOK_NOISE_P90_MS, floor: None },
    Metric { group: "hook", name: "max_rss_kib", unit: "KiB", better: Better::Lower, tolerance: 0.25, slack: 0.0, floor: None },
];

/// How far a hook case's median / p90 over the floor may rise before `--check`
/// fails, in ms, at the least: the spread of the paired figures over repeated runs
/// on the project's shared 2-core machine (docs/decisions/0005-hook-startup.md).
/// A run whose own standard error is larger widens the median's bound to three of
/// them, and says so.
const HOOK_NOISE_P50_MS: f64 = 0.25;
const HOOK_NOISE_P90_MS: f64 = 1.0;
/// Beyond this bound (three standard errors of a median, in ms) a hook run judges
/// nothing: `--check` fails it as too noisy instead of passing it.
const HOOK_UNJUDGEABLE_MS: f64 = 1.0;

const GROUPS: &[&str] = &["classify", "lanes", "hook"];
/// Hook spawns for latency; RSS is read on a subset under `/usr/bin/time`.
const HOOK_CALLS: usize = 200;
const RSS_CALLS: usize = 20;
/// Measurements of a group `--check` makes before calling it regressed.
const CHECK_ATTEMPTS: usize = 3;
/// Batch passes over the corpus; the median is kept.
const BATCH_PASSES: usize = 5;

/// `bench [GROUP…] [--check]`: `groups` by name (`classify`, `lanes`, `hook`; none: all).
pub fn run(groups: &[&'static str], check: bool) -> i32 {
    match run_inner(groups, check) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("xtask bench: {e:#}");
            replay::exit::INFRA
        }
    }
}

fn run_inner(asked: &[&'static str], check: bool) -> Result<i32> {
    let mut groups: Vec<&str> = Vec::new();
    for &g in asked {
        if !groups.contains(&g) {
            groups.push(g);
        }
    }
    if groups.is_empty() {
        groups = GROUPS.to_vec();
    }
    let root = root();
    // The hook group also measures the workspace's plain `release` build, side by side.
    let tiergate = build_tiergate(&root)?;
    // The hook group measures the binary users run: `cargo install` (= `cargo xtask dist`).
    let shipped = if groups.contains(&"hook") { Some(build_dist(&root)?) } else { None };
    let mut failed = false;
    for g in groups {
        let path = root.join("benches/baselines").join(format!("{g}.json"));
        let base = if check { Some(read_baseline(&path)?) } else { None };
        // A shared 2-core machine produces one-off outliers (another build
        // starts mid-run); a real regression fails every attempt, so --check
        // re-measures a failing throughput group up to CHECK_ATTEMPTS times before
        // failing. The hook group is measured once: its figures are paired with the
        // floor round by round and its bound widens with the run's own spread, so
        // a retry would only give a small regression three chances to hide.
        let attempts = if g == "hook" { 1 } else { CHECK_ATTEMPTS };
        for attempt in 1..=attempts {
            eprintln!("bench {g}: measuring…");
            let figures = match g {
                "classify" => bench_classify(&root, &tiergate)?,
                "lanes" => bench_lanes(&root)?,
                _ => bench_hook(&root, shipped.as_deref().context("dist build")?, &tiergate)?,
            };
            let Some(base) = &base else {
                write_baseline(&path, g, &figures)?;
                for (k, v) in &figures {
                    println!("{g}.{k} = {v:.1}");
                }
                println!("wrote {}", path.display());
                break;
            };
            let lines = compare(g, base, &figures);
            let bad = lines.iter().any(|l| l.starts_with("REGRESSED") || l.starts_with("LIMIT") || l.starts_with("NOISY"));
            if bad && attempt < attempts {
                eprintln!("bench {g}: attempt {attempt} out of bounds, re-measuring");
                continue;
            }
            failed |= bad;
            for line in lines {
                println!("{line}");
            }
            break;
        }
    }
    Ok(if failed { replay::exit::POLICY } else { 0 })
}

pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("."))
}

pub(crate) fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| root.join("target"))
}

fn cargo(root: &Path, args: &[&str]) -> Result<std::process::Output> {
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(args)
        .current_dir(root)
        .stderr(Stdio::inherit())
        .output()
        .with_context(|| format!("running cargo {}", args.join(" ")))?;
    if !out.status.success() {
        bail!("cargo {} failed ({})", args.join(" "), out.status);
    }
    Ok(out)
}

/// How this checkout builds tiergate (replay::layout decides from its manifests).
fn tiergate_build(root: &Path) -> Result<replay::layout::TiergateBuild> {
    replay::layout::at_dir(root).map_err(|e| anyhow::anyhow!("{}: cannot build tiergate: {e}", root.display()))
}

fn build_tiergate(root: &Path) -> Result<PathBuf> {
    let how = tiergate_build(root)?;
    let mut args = vec!["build".to_owned(), "--quiet".to_owned()];
    args.extend(how.cargo_build_args("release").into_iter().skip(1));
    cargo(root, &args.iter().map(String::as_str).collect::<Vec<_>>())?;
    let bin = how.binary(&target_dir(root), "release");
    if !bin.exists() {
        bail!("{} missing after the build", bin.display());
    }
    Ok(bin)
}

/// Builds the shipped `tiergate` the way a user installs it:
/// `cargo install --locked --path classifier/tiergate --root TARGET/dist`, so
/// `cargo xtask dist` and `cargo install` cannot drift apart. What makes it the
/// fast build (static-pie on glibc Linux, fat LTO, one codegen unit) is
/// `classifier/tiergate/.cargo/config.toml`, which cargo reads for that install
/// (docs/decisions/0005-hook-startup.md). Returns `TARGET/dist/bin/tiergate`.
pub fn build_dist(root: &Path) -> Result<PathBuf> {
    eprintln!("building the shipped tiergate (cargo install --path classifier/tiergate: fat LTO; a first build compiles every dependency, several minutes on 2 cores)…");
    let dist = target_dir(root).join("dist");
    let package = root.join("classifier/tiergate");
    let (package, dist_s) = (package.display().to_string(), dist.display().to_string());
    cargo(root, &["install", "--quiet", "--locked", "--force", "--path", &package, "--root", &dist_s])?;
    let bin = dist.join("bin").join(format!("tiergate{}", std::env::consts::EXE_SUFFIX));
    if !bin.exists() {
        bail!("{} missing after the build", bin.display());
    }
    Ok(bin)
}

pub(crate) fn tldr(root: &Path) -> Result<Vec<String>> {
    let path = root.join("corpus/history/tldr.csv");
    let mut rd = csv::Reader::from_path(&path).with_context(|| format!("{}", path.display()))?;
    let mut out = Vec::new();
    for (i, rec) in rd.records().enumerate() {
        let rec = rec.with_context(|| format!("{}:{}", path.display(), i + 2))?;
        out.push(rec.get(1).unwrap_or_default().to_owned());
    }
    if out.is_empty() {
        bail!("{} has no commands", path.display());
    }
    Ok(out)
}

/// Median protocol v1 throughput of one long-lived `tiergate batch` per pass.
fn bench_classify(root: &Path, tiergate: &Path) -> Result<BTreeMap<String, f64>> {
    let cmds = tldr(root)?;
    let input = crate::batch::batch_input(&cmds)?;
    let mut rates = Vec::new();
    for _ in 0..BATCH_PASSES {
        rates.push(crate::batch::batch_pass(tiergate, &input, cmds.len())?);
    }
    let mut m = BTreeMap::new();
    m.insert("batch_commands_per_s".into(), median(&mut rates));
    m.insert("corpus_commands".into(), cmds.len() as f64);
    Ok(m)
}

fn bench_lanes(root: &Path) -> Result<BTreeMap<String, f64>> {
    let csv = root.join("corpus/history/tldr.csv");
    let out = cargo(root, &["bench", "--quiet", "-p", "classifier", "--bench", "lanes", "--", &csv.display().to_string()])?;
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().rev().find(|l| l.starts_with('{')).context("lanes bench printed no JSON")?;
    let v: BTreeMap<String, f64> = serde_json::from_str(line).with_context(|| format!("lanes bench output {line:?}"))?;
    Ok(v)
}

/// A Claude Code `PreToolUse` event for a Bash command (the full shape, so the
/// Claude adapter answers it, as in the integration tests' harness).
fn hook_event(command: &str, cwd: &Path) -> Vec<u8> {
    let ev = json!({
        "session_id": "bench", "transcript_path": "/tmp/bench.jsonl", "permission_mode": "default",
        "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_use_id": "toolu_bench",
        "tool_input": {"command": command}, "cwd": cwd,
    });
    ev.to_string().into_bytes()
}

/// One timed case of the hook group: a process, its stdin, and what its stdout must hold.
struct HookCase {
    name: &'static str,
    program: PathBuf,
    args: Vec<String>,
    data_dir: PathBuf,
    event: Vec<u8>,
    expect: &'static str,
    /// Nonce mode with a grant: before each timed call a code is drawn and approved (untimed).
    grant: bool,
}

/// Runs one process with `event` on stdin; returns wall time and stdout.
fn spawn_timed(program: &Path, args: &[String], home: &Path, data_dir: &Path, event: &[u8]) -> Result<(f64, String)> {
    let start = Instant::now();
    let mut child = Command::new(program)
        .args(args)
        .env("HOME", home)
        // Claude Code's hook environment changes the T3 answer (headless: the nonce
        // deny); a bench run from inside Claude Code must measure the plain `ask`.
        .env_remove("AI_AGENT")
        .env_remove("CLAUDE_CODE_SESSION_ATTENDED")
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_DATA_HOME")
        .env("TIERGATE_DATA_DIR", data_dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("spawning {}", program.display()))?;
    // `/bin/true` does not read its stdin: a broken pipe is expected there.
    let _ = child.stdin.take().context("stdin")?.write_all(event);
    let out = child.wait_with_output()?;
    Ok((start.elapsed().as_secs_f64() * 1000.0, String::from_utf8_lossy(&out.stdout).into_owned()))
}

/// Logged calls made before the "after 10,000 calls" cases (issue 14).
const HOOK_PRIOR_CALLS: usize = 10_000;

/// Fills `data_dir` with `HOOK_PRIOR_CALLS` real hook calls (two at a time, a mix of
/// T0, T3 and blocked commands, each text distinct as in real use).
fn fill_log(tiergate: &Path, home: &Path, data_dir: &Path, cwd: &Path) -> Result<()> {
    const MIX: &[&str] = &["git status", "kubectl delete pod web-1", "ls -la src | head", "rm -rf /", "cargo test", "git push origin main"];
    let args = vec!["hook".to_owned()];
    std::thread::scope(|s| -> Result<()> {
        let workers: Vec<_> = (0..2)
            .map(|w| {
                let args = &args;
                s.spawn(move || -> Result<()> {
                    for i in (w..HOOK_PRIOR_CALLS).step_by(2) {
                        let ev = hook_event(&format!("{} # {i}", MIX[i % MIX.len()]), cwd);
                        spawn_timed(tiergate, args, home, data_dir, &ev)?;
                    }
                    Ok(())
                })
            })
            .collect();
        for w in workers {
            w.join().map_err(|_| anyhow::anyhow!("fill thread panicked"))??;
        }
        Ok(())
    })
}

/// The code in a nonce deny (`tiergate approve CODE`).
fn code_in(stdout: &str) -> Option<String> {
    let at = stdout.find("tiergate approve ")? + "tiergate approve ".len();
    let code: String = stdout[at..].chars().take_while(char::is_ascii_alphanumeric).collect();
    (!code.is_empty()).then_some(code)
}

/// Issue 14's hook group: `/bin/true` and `tiergate hook` cases, side by side in
/// one process, interleaved round by round so load swings hit every case alike.
/// `tiergate` is the installed build (`cargo install`, the same as `cargo xtask dist`);
/// `release` the workspace's `cargo build --release` (dynamically linked, no LTO),
/// measured beside it so the bench shows what the install's build settings buy.
fn bench_hook(root: &Path, tiergate: &Path, release: &Path) -> Result<BTreeMap<String, f64>> {
    let base = target_dir(root).join("bench/hook");
    let _ = std::fs::remove_dir_all(&base);
    let home = base.join("home");
    std::fs::create_dir_all(&home)?;
    let nolog = base.join("nolog.toml");
    std::fs::write(&nolog, "log = false\n")?;
    let dir = |n: &str| base.join(n);
    eprintln!("bench hook: logging {HOOK_PRIOR_CALLS} calls first (about 30-60 s on 2 cores)…");
    fill_log(tiergate, &home, &dir("10k"), root)?;
    let hook = |extra: &[&str]| std::iter::once("hook").chain(extra.iter().copied()).map(str::to_owned).collect::<Vec<_>>();
    let nolog_args = hook(&["--config", &nolog.display().to_string()]);
    let (t0, t3, blocked) = (hook_event("git status", root), hook_event("kubectl delete pod web-1", root), hook_event("rm -rf /", root));
    let case = |name, program: &Path, args: Vec<String>, data: &str, event: &[u8], expect, grant| HookCase {
        name,
        program: program.to_path_buf(),
        args,
        data_dir: dir(data),
        event: event.to_vec(),
        expect,
        grant,
    };
    let cases = [
        case("floor", Path::new("/bin/true"), Vec::new(), "none", b"", "", false),
        case("t0_log", tiergate, hook(&[]), "fresh", &t0, "\"allow\"", false),
        case("t3_log", tiergate, hook(&[]), "fresh", &t3, "\"ask\"", false),
        case("blocked_log", tiergate, hook(&[]), "fresh", &blocked, "\"deny\"", false),
        case("t0_nolog", tiergate, nolog_args.clone(), "nolog", &t0, "\"allow\"", false),
        case("t3_nolog", tiergate, nolog_args, "nolog", &t3, "\"ask\"", false),
        case("t0_10k", tiergate, hook(&[]), "10k", &t0, "\"allow\"", false),
        case("t3_10k", tiergate, hook(&[]), "10k", &t3, "\"ask\"", false),
        case("blocked_10k", tiergate, hook(&[]), "10k", &blocked, "\"deny\"", false),
        case("nonce_grant", tiergate, hook(&["--mode", "nonce"]), "nonce", &t3, "Approved once", true),
        case("t0_release", release, hook(&[]), "release", &t0, "\"allow\"", false),
        case("t3_release", release, hook(&[]), "release", &t3, "\"ask\"", false),
    ];
    let mut ms: Vec<Vec<f64>> = vec![Vec::with_capacity(HOOK_CALLS); cases.len()];
    let approve = |c: &HookCase| -> Result<()> {
        let (_, out) = spawn_timed(&c.program, &c.args, &home, &c.data_dir, &c.event)?;
        let code = code_in(&out).with_context(|| format!("nonce mode gave no code: {out}"))?;
        let (_, out) = spawn_timed(tiergate, &["approve".to_owned(), code], &home, &c.data_dir, b"")?;
        if !out.starts_with("approved") {
            bail!("tiergate approve failed: {out}");
        }
        Ok(())
    };
    eprintln!("bench hook: {HOOK_CALLS} interleaved rounds of {} cases…", cases.len());
    for round in 0..=HOOK_CALLS {
        for (i, c) in cases.iter().enumerate() {
            if c.grant {
                approve(c)?;
            }
            let (t, out) = spawn_timed(&c.program, &c.args, &home, &c.data_dir, &c.event)?;
            if !out.contains(c.expect) {
                bail!("bench hook {}: stdout {out:?} lacks {:?}", c.name, c.expect);
            }
            // Round 0 warms the page cache and creates each store; it is not kept.
            if round > 0 {
                ms[i].push(t);
            }
        }
    }
    let mut m = BTreeMap::new();
    println!("{:<12} {:>8} {:>8}   over the spawn floor (/bin/true), paired round by round", "case", "p50 ms", "p99 ms");
    let floor = ms[0].clone();
    for (c, xs) in cases.iter().zip(&ms) {
        let mut sorted = xs.clone();
        sorted.sort_by(f64::total_cmp);
        let (p50, p99) = (percentile(&sorted, 0.50), percentile(&sorted, 0.99));
        m.insert(format!("{}_p50_ms", c.name), p50);
        m.insert(format!("{}_p99_ms", c.name), p99);
        if c.name == "floor" {
            println!("{:<12} {p50:>8.2} {p99:>8.2}", c.name);
            continue;
        }
        let paired = Paired::of(xs, &floor);
        m.insert(format!("{}_over_floor_p50_ms", c.name), paired.p50);
        m.insert(format!("{}_over_floor_p50_se_ms", c.name), paired.se50);
        m.insert(format!("{}_over_floor_p90_ms", c.name), paired.p90);
        println!("{:<12} {p50:>8.2} {p99:>8.2}   floor + {:.2} ms (± {:.2} se; p90: floor + {:.2} ms)", c.name, paired.p50, paired.se50, paired.p90);
    }
    let mut rss: f64 = 0.0;
    for _ in 0..RSS_CALLS {
        let mut cmd = Command::new("/usr/bin/time");
        cmd.args(["-f", "%M"]).arg(tiergate).arg("hook");
        let out = cmd
            .env("HOME", &home)
            .env("TIERGATE_DATA_DIR", dir("10k"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .context("spawning /usr/bin/time tiergate hook")
            .and_then(|mut c| {
                let _ = c.stdin.take().context("stdin")?.write_all(&t3);
                Ok(c.wait_with_output()?)
            })?;
        let err = String::from_utf8_lossy(&out.stderr);
        rss = rss.max(err.lines().rev().find_map(|l| l.trim().parse::<f64>().ok()).context("no RSS figure from /usr/bin/time")?);
    }
    m.insert("max_rss_kib".into(), rss);
    m.insert("calls".into(), HOOK_CALLS as f64);
    m.insert("prior_logged_calls".into(), HOOK_PRIOR_CALLS as f64);
    Ok(m)
}

fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("model name")).and_then(|l| l.split(':').nth(1)).map(|s| s.trim().to_owned()))
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(0);
    format!("{cpu}, {cores} cores")
}

fn write_baseline(path: &Path, group: &str, figures: &BTreeMap<String, f64>) -> Result<()> {
    write_baseline_with(path, group, figures, json!({}))
}

/// `write_baseline` plus the fields of `extra` (what a figure was measured against).
pub(crate) fn write_baseline_with(path: &Path, group: &str, figures: &BTreeMap<String, f64>, extra: Value) -> Result<()> {
    let mut doc = json!({
        "group": group,
        "reproduce": format!("cargo xtask bench {group}"),
        "check": format!("cargo xtask bench {group} --check"),
        "machine": machine(),
        "figures": figures,
    });
    if let (Some(d), Value::Object(x)) = (doc.as_object_mut(), extra) {
        d.extend(x);
    }
    let tmp = path.with_extension("json.tmp");
    std::fs::create_dir_all(path.parent().context("baseline dir")?)?;
    std::fs::write(&tmp, serde_json::to_string_pretty(&doc)? + "\n").with_context(|| format!("{}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("{}", path.display()))?;
    Ok(())
}

pub(crate) fn read_baseline(path: &Path) -> Result<BTreeMap<String, f64>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("{} (run `cargo xtask bench` to create it)", path.display()))?;
    let v: Value = serde_json::from_str(&text).with_context(|| format!("{}", path.display()))?;
    let figures = v.get("figures").cloned().with_context(|| format!("{}: no `figures`", path.display()))?;
    serde_json::from_value(figures).with_context(|| format!("{}: `figures` is not name → number", path.display()))
}

/// One line per tracked metric of `group`: OK, REGRESSED (also for a missing figure) or LIMIT.
fn compare(group: &str, base: &BTreeMap<String, f64>, now: &BTreeMap<String, f64>) -> Vec<String> {
    let mut out = Vec::new();
    for m in METRICS.iter().filter(|m| m.group == group) {
        let id = format!("{group}.{}", m.name);
        let (Some(&b), Some(&n)) = (base.get(m.name), now.get(m.name)) else {
            out.push(format!("REGRESSED {id}: missing from the baseline or this run"));
            continue;
        };
        // A median's bound is the measured machine noise, or three standard errors
        // of this run's own median when the run is noisier than that.
        let se = m.name.strip_suffix("_ms").and_then(|stem| now.get(&format!("{stem}_se_ms"))).copied().unwrap_or(0.0);
        let slack = m.slack.max(3.0 * se);
        if 3.0 * se > HOOK_UNJUDGEABLE_MS {
            out.push(format!("NOISY {id}: {n:.2} {u}, but three standard errors of this run's median are {:.2} {u} (> {HOOK_UNJUDGEABLE_MS}): too noisy to judge; re-run on a quieter machine", 3.0 * se, u = m.unit));
            continue;
        }
        let change = if m.better == Better::Higher { (b - n) / b } else { (n - b - slack).max(0.0) / b.max(f64::MIN_POSITIVE) };
        let misses = |f: f64| if m.better == Better::Higher { n < f } else { n > f };
        let verdict = if m.floor.is_some_and(misses) {
            "LIMIT"
        } else if change > m.tolerance {
            "REGRESSED"
        } else {
            "OK"
        };
        let word = if m.better == Better::Higher { "floor" } else { "ceiling" };
        let floor = m.floor.map(|f| format!(", {word} {f:.0}")).unwrap_or_default();
        if m.tolerance == 0.0 && m.slack > 0.0 {
            // An absolute bound (the hook's sub-millisecond figures).
            let widened = if slack > m.slack { format!(" = 3 × this run's standard error {se:.2}") } else { String::new() };
            out.push(format!("{verdict} {id}: {n:.2} {} (baseline {b:.2}, {:+.2} {u}, bound +{slack:.2} {u}{widened}{floor})", m.unit, n - b, u = m.unit));
            continue;
        }
        out.push(format!("{verdict} {id}: {n:.1} {} (baseline {b:.1}, {:+.1}% worse, bound {:.0}%{floor})", m.unit, change * 100.0, m.tolerance * 100.0));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figs(pairs: &[(&str, f64)]) -> BTreeMap<String, f64> {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect()
    }

    #[test]
    fn throughput_drop_beyond_noise_regresses() {
        let base = figs(&[("batch_commands_per_s", 100_000.0)]);
        let ok = compare("classify", &base, &figs(&[("batch_commands_per_s", 80_000.0)]));
        assert!(ok[0].starts_with("OK"), "{ok:?}");
        let bad = compare("classify", &base, &figs(&[("batch_commands_per_s", 70_000.0)]));
        assert!(bad[0].starts_with("REGRESSED"), "{bad:?}");
    }

    #[test]
    fn throughput_under_the_requirement_fails_whatever_the_baseline() {
        let base = figs(&[("batch_commands_per_s", 40_000.0)]);
        let out = compare("classify", &base, &figs(&[("batch_commands_per_s", 45_000.0)]));
        assert!(out[0].starts_with("LIMIT"), "{out:?}");
    }

    #[test]
    fn a_worst_case_twice_as_slow_regresses() {
        let base = figs(&[("worst_max_ms", 10.0)]);
        let out = compare("lanes", &base, &figs(&[("worst_max_ms", 25.0)]));
        let line = out.iter().find(|l| l.contains("worst_max_ms")).cloned().unwrap_or_default();
        assert!(line.starts_with("REGRESSED"), "{out:?}");
    }

    #[test]
    fn latency_rise_beyond_noise_regresses_and_a_missing_figure_fails() {
        let names: Vec<&str> = METRICS.iter().filter(|m| m.group == "hook").map(|m| m.name).collect();
        let mut base: BTreeMap<String, f64> = names.iter().map(|n| ((*n).to_owned(), 0.3)).collect();
        base.insert("max_rss_kib".into(), 8000.0);
        let mut now = base.clone();
        now.insert("t3_log_over_floor_p50_ms".into(), 0.3 + HOOK_NOISE_P50_MS + 0.1);
        now.insert("t3_10k_over_floor_p90_ms".into(), 0.3 + HOOK_NOISE_P90_MS - 0.1);
        now.remove("max_rss_kib");
        let out = compare("hook", &base, &now);
        let line = |n: &str| out.iter().find(|l| l.contains(&format!("hook.{n}:"))).cloned().unwrap_or_default();
        assert!(line("t3_log_over_floor_p50_ms").starts_with("REGRESSED"), "{out:?}");
        assert!(line("t0_log_over_floor_p50_ms").starts_with("OK"), "{out:?}");
        assert!(line("t3_10k_over_floor_p90_ms").starts_with("OK"), "within the measured noise: {out:?}");
        assert!(line("max_rss_kib").starts_with("REGRESSED hook.max_rss_kib: missing"), "{out:?}");
    }

    #[test]
    fn a_noisy_run_widens_a_median_bound_to_three_standard_errors_and_no_further() {
        let base = figs(&[("t3_log_over_floor_p50_ms", 0.2)]);
        let rise = 0.2 + HOOK_NOISE_P50_MS + 0.3;
        let quiet = compare("hook", &base, &figs(&[("t3_log_over_floor_p50_ms", rise), ("t3_log_over_floor_p50_se_ms", 0.01)]));
        let noisy = compare("hook", &base, &figs(&[("t3_log_over_floor_p50_ms", rise), ("t3_log_over_floor_p50_se_ms", 0.2)]));
        let far = compare("hook", &base, &figs(&[("t3_log_over_floor_p50_ms", 0.2 + 0.7), ("t3_log_over_floor_p50_se_ms", 0.2)]));
        let line = |out: &[String]| out.iter().find(|l| l.contains("hook.t3_log_over_floor_p50_ms:")).cloned().unwrap_or_default();
        assert!(line(&quiet).starts_with("REGRESSED"), "{quiet:?}");
        assert!(line(&noisy).starts_with("OK") && line(&noisy).contains("standard error"), "{noisy:?}");
        assert!(line(&far).starts_with("REGRESSED"), "a rise beyond 3 se still fails: {far:?}");
        let wild = compare("hook", &base, &figs(&[("t3_log_over_floor_p50_ms", 0.2), ("t3_log_over_floor_p50_se_ms", 0.4)]));
        assert!(line(&wild).starts_with("NOISY"), "a run too noisy to judge fails as such: {wild:?}");
    }
}
