//! `cargo xtask bench [classify|lanes|hook]… [--check]`: measures the classifier
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
//! - `replay`: warm replay wall time, in `bench_replay.rs` (dispatched first).

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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
    /// A requirement no run may miss, whatever the baseline says: a floor for
    /// higher-is-better figures, a ceiling for lower-is-better ones.
    floor: Option<f64>,
}

const METRICS: &[Metric] = &[
    // Issue 8: "well over 50,000 commands/s".
    Metric { group: "classify", name: "batch_commands_per_s", unit: "commands/s", better: Better::Higher, tolerance: 0.25, floor: Some(50_000.0) },
    Metric { group: "lanes", name: "library_commands_per_s", unit: "commands/s", better: Better::Higher, tolerance: 0.25, floor: None },
    Metric { group: "lanes", name: "plain_ns", unit: "ns/command", better: Better::Lower, tolerance: 0.35, floor: None },
    Metric { group: "lanes", name: "compound_ns", unit: "ns/command", better: Better::Lower, tolerance: 0.35, floor: None },
    Metric { group: "lanes", name: "heredoc_ns", unit: "ns/command", better: Better::Lower, tolerance: 0.35, floor: None },
    Metric { group: "lanes", name: "inline_code_ns", unit: "ns/command", better: Better::Lower, tolerance: 0.35, floor: None },
    Metric { group: "lanes", name: "script_file_ns", unit: "ns/command", better: Better::Lower, tolerance: 0.35, floor: None },
    // Issue 8 wants every worst case within 50 ms; some are not yet (see
    // docs/evidence.md), so this gates regressions only, not the target.
    Metric { group: "lanes", name: "worst_max_ms", unit: "ms", better: Better::Lower, tolerance: 1.00, floor: None },
    // Checked over a trivial spawn of the same binary (see bench_hook); +1 ms
    // absolute slack is added in `compare` because the differences are small.
    Metric { group: "hook", name: "over_spawn_p50_ms", unit: "ms", better: Better::Lower, tolerance: 0.50, floor: None },
    // p99 of 200 spawns moved 9.6 → 42 ms between back-to-back runs: only a
    // several-fold rise is signal.
    Metric { group: "hook", name: "over_spawn_p99_ms", unit: "ms", better: Better::Lower, tolerance: 4.00, floor: None },
    Metric { group: "hook", name: "max_rss_kib", unit: "KiB", better: Better::Lower, tolerance: 0.25, floor: None },
];

const GROUPS: &[&str] = &["classify", "lanes", "hook"];
/// Hook spawns for latency; RSS is read on a subset under `/usr/bin/time`.
const HOOK_CALLS: usize = 200;
const RSS_CALLS: usize = 20;
/// Measurements of a group `--check` makes before calling it regressed.
const CHECK_ATTEMPTS: usize = 3;
/// Batch passes over the corpus; the median is kept.
const BATCH_PASSES: usize = 5;

pub fn run(args: &[String]) -> i32 {
    if args.first().is_some_and(|a| a == "replay") {
        return crate::bench_replay::run(&args[1..]);
    }
    match run_inner(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("xtask bench: {e:#}");
            replay::exit::INFRA
        }
    }
}

fn run_inner(args: &[String]) -> Result<i32> {
    let mut check = false;
    let mut groups: Vec<&str> = Vec::new();
    for a in args {
        match a.as_str() {
            "--check" => check = true,
            g if GROUPS.contains(&g) => groups.push(g),
            other => {
                eprintln!("xtask bench: unknown argument {other:?}\nusage: cargo xtask bench [classify|lanes|hook]… [--check] | cargo xtask bench replay …");
                return Ok(replay::exit::USAGE);
            }
        }
    }
    if groups.is_empty() {
        groups = GROUPS.to_vec();
    }
    let root = root();
    let tiergate = build_tiergate(&root)?;
    let mut failed = false;
    for g in groups {
        let path = root.join("benches/baselines").join(format!("{g}.json"));
        let base = if check { Some(read_baseline(&path)?) } else { None };
        // A shared 2-core machine produces one-off outliers (another build
        // starts mid-run); a real regression fails every attempt, so --check
        // re-measures a failing group up to CHECK_ATTEMPTS times before failing.
        for attempt in 1..=CHECK_ATTEMPTS {
            eprintln!("bench {g}: measuring…");
            let figures = match g {
                "classify" => bench_classify(&root, &tiergate)?,
                "lanes" => bench_lanes(&root)?,
                _ => bench_hook(&root, &tiergate)?,
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
            let bad = lines.iter().any(|l| l.starts_with("REGRESSED") || l.starts_with("LIMIT"));
            if bad && attempt < CHECK_ATTEMPTS {
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

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("."))
}

fn target_dir(root: &Path) -> PathBuf {
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

fn build_tiergate(root: &Path) -> Result<PathBuf> {
    cargo(root, &["build", "--quiet", "--release", "-p", "classifier", "--bin", "tiergate"])?;
    let bin = target_dir(root).join("release/tiergate");
    if !bin.exists() {
        bail!("{} missing after the build", bin.display());
    }
    Ok(bin)
}

fn tldr(root: &Path) -> Result<Vec<String>> {
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
    let mut input = Vec::new();
    for (i, c) in cmds.iter().enumerate() {
        serde_json::to_writer(&mut input, &json!({"id": i, "command": c}))?;
        input.push(b'\n');
    }
    let mut rates = Vec::new();
    for _ in 0..BATCH_PASSES {
        let mut child = Command::new(tiergate)
            .arg("batch")
            .env("HOME", "/home/bench")
            .current_dir(std::env::temp_dir())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .context("spawning tiergate batch")?;
        let mut stdin = child.stdin.take().context("batch stdin")?;
        let stdout = child.stdout.take().context("batch stdout")?;
        let start = Instant::now();
        let data = input.clone();
        let writer = std::thread::spawn(move || stdin.write_all(&data));
        let lines = BufReader::new(stdout).lines().count();
        let took = start.elapsed();
        writer.join().map_err(|_| anyhow::anyhow!("writer thread panicked"))??;
        child.wait()?;
        if lines != cmds.len() {
            bail!("tiergate batch answered {lines} lines for {} commands", cmds.len());
        }
        rates.push(cmds.len() as f64 / took.as_secs_f64());
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

fn hook_event(cwd: &Path) -> Vec<u8> {
    let ev = json!({
        "session_id": "bench", "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "git status && ls -la src | head"}, "cwd": cwd,
    });
    ev.to_string().into_bytes()
}

fn hook_once(tiergate: &Path, data_dir: &Path, event: &[u8], time_rss: bool) -> Result<(Duration, Option<f64>)> {
    let mut cmd = if time_rss {
        let mut c = Command::new("/usr/bin/time");
        c.args(["-f", "%M"]).arg(tiergate);
        c
    } else {
        Command::new(tiergate)
    };
    let start = Instant::now();
    let mut child = cmd
        .arg("hook")
        .env("TIERGATE_DATA_DIR", data_dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context("spawning tiergate hook")?;
    child.stdin.take().context("hook stdin")?.write_all(event)?;
    let out = child.wait_with_output()?;
    let took = start.elapsed();
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() || !stdout.contains("\"allow\"") {
        bail!("tiergate hook did not allow the bench event (status {}, stdout {stdout:?})", out.status);
    }
    let rss = if time_rss {
        let err = String::from_utf8_lossy(&out.stderr);
        Some(err.lines().rev().find_map(|l| l.trim().parse::<f64>().ok()).context("no RSS figure from /usr/bin/time")?)
    } else {
        None
    };
    Ok((took, rss))
}

/// One `tiergate --version`: the cost of starting the binary at all.
fn spawn_once(tiergate: &Path) -> Result<Duration> {
    let start = Instant::now();
    let out = Command::new(tiergate).arg("--version").stdout(Stdio::null()).status().context("spawning tiergate --version")?;
    if !out.success() {
        bail!("tiergate --version failed ({out})");
    }
    Ok(start.elapsed())
}

fn bench_hook(root: &Path, tiergate: &Path) -> Result<BTreeMap<String, f64>> {
    let data_dir = target_dir(root).join("bench/hook-data");
    std::fs::create_dir_all(&data_dir)?;
    let event = hook_event(root);
    hook_once(tiergate, &data_dir, &event, false)?; // warm the page cache and the store
                                                    // Interleaved with a trivial spawn of the same binary: on a loaded machine
                                                    // process start alone swings from 1 to 50 ms, so the checked figures are the
                                                    // hook's time over that reference, not the raw wall time.
    let (mut ms, mut spawn) = (Vec::with_capacity(HOOK_CALLS), Vec::with_capacity(HOOK_CALLS));
    for _ in 0..HOOK_CALLS {
        ms.push(hook_once(tiergate, &data_dir, &event, false)?.0.as_secs_f64() * 1000.0);
        spawn.push(spawn_once(tiergate)?.as_secs_f64() * 1000.0);
    }
    ms.sort_by(f64::total_cmp);
    spawn.sort_by(f64::total_cmp);
    let mut rss: f64 = 0.0;
    for _ in 0..RSS_CALLS {
        rss = rss.max(hook_once(tiergate, &data_dir, &event, true)?.1.unwrap_or(0.0));
    }
    let mut m = BTreeMap::new();
    m.insert("p50_ms".into(), percentile(&ms, 0.50));
    m.insert("p99_ms".into(), percentile(&ms, 0.99));
    m.insert("spawn_p50_ms".into(), percentile(&spawn, 0.50));
    m.insert("spawn_p99_ms".into(), percentile(&spawn, 0.99));
    m.insert("over_spawn_p50_ms".into(), (percentile(&ms, 0.50) - percentile(&spawn, 0.50)).max(0.0));
    m.insert("over_spawn_p99_ms".into(), (percentile(&ms, 0.99) - percentile(&spawn, 0.99)).max(0.0));
    m.insert("max_ms".into(), ms.last().copied().unwrap_or(0.0));
    m.insert("max_rss_kib".into(), rss);
    m.insert("calls".into(), HOOK_CALLS as f64);
    Ok(m)
}

fn median(xs: &mut [f64]) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// Nearest-rank percentile of sorted `xs`.
fn percentile(xs: &[f64], p: f64) -> f64 {
    let rank = ((p * xs.len() as f64).ceil() as usize).clamp(1, xs.len());
    xs[rank - 1]
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
    let doc = json!({
        "group": group,
        "reproduce": format!("cargo xtask bench {group}"),
        "check": format!("cargo xtask bench {group} --check"),
        "machine": machine(),
        "figures": figures,
    });
    let tmp = path.with_extension("json.tmp");
    std::fs::create_dir_all(path.parent().context("baseline dir")?)?;
    std::fs::write(&tmp, serde_json::to_string_pretty(&doc)? + "\n").with_context(|| format!("{}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("{}", path.display()))?;
    Ok(())
}

fn read_baseline(path: &Path) -> Result<BTreeMap<String, f64>> {
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
        // Millisecond figures get 1 ms of absolute slack: a 0.3 ms baseline
        // would otherwise fail on scheduler jitter alone.
        let slack = if m.unit == "ms" { 1.0 } else { 0.0 };
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
        let base = figs(&[("over_spawn_p50_ms", 2.0), ("over_spawn_p99_ms", 4.0), ("max_rss_kib", 8000.0)]);
        let out = compare("hook", &base, &figs(&[("over_spawn_p50_ms", 4.5), ("over_spawn_p99_ms", 4.9)]));
        assert!(out[0].starts_with("REGRESSED hook.over_spawn_p50_ms"), "{out:?}");
        assert!(out[1].starts_with("OK hook.over_spawn_p99_ms"), "{out:?}");
        assert!(out[2].starts_with("REGRESSED hook.max_rss_kib: missing"), "{out:?}");
    }

    #[test]
    fn percentile_is_nearest_rank() {
        let xs: Vec<f64> = (1..=200).map(f64::from).collect();
        assert_eq!(percentile(&xs, 0.50), 100.0);
        assert_eq!(percentile(&xs, 0.99), 198.0);
    }
}
