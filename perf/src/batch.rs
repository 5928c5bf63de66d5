//! Behind `cargo xtask bench batch [--base REV]`: `tiergate batch` and library throughput
//! over the tldr corpus, base against head **in one run** (issue 14). Both sides are
//! release builds; base is built from a detached worktree into the replay's base
//! target directory. Passes alternate base/head (the order flips each round) so a
//! load swing on the shared machine hits both alike; the medians and their ratio
//! are printed and written to `benches/baselines/batch.json`.
//!
//! - batch: one long-lived `tiergate batch` per pass, protocol v1 lines in, answers out.
//! - library: `benches/lanes.rs` built at each side, its `library_commands_per_s`
//!   (`classify_with` over the corpus in one process; the lanes and worst cases it
//!   also times are not compared here).

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use serde_json::{json, Value};

/// Batch passes per side; the median is kept.
const BATCH_ROUNDS: usize = 7;
/// Lanes-bench runs per side (each also times every lane and worst case: ~10-20 s).
const LIBRARY_ROUNDS: usize = 3;

pub fn run(base: &str) -> i32 {
    match measure(base) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("xtask bench batch: {e:#}");
            replay::exit::INFRA
        }
    }
}

fn measure(base_rev: &str) -> Result<()> {
    let root = crate::root();
    let commit = replay::git::git(&root, &["rev-parse", "--verify", &format!("{base_rev}^{{commit}}")]).map_err(|e| anyhow::anyhow!("{base_rev}: {e}"))?;
    let commit = commit.trim().to_owned();
    let keep = crate::target_dir(&root).join("bench/batch");
    std::fs::create_dir_all(&keep)?;
    eprintln!("bench batch: building head (release tiergate and the lanes bench)…");
    let head = side(&root, &crate::target_dir(&root), &keep, "head")?;
    eprintln!("bench batch: building base {} in a worktree (release; minutes on 2 cores when its dependencies are cold)…", &commit[..12.min(commit.len())]);
    let base = {
        replay::build::cleanup_stale_worktrees(&root);
        let wt = replay::build::Worktree::add(&root, &commit).map_err(|e| anyhow::anyhow!("{e:?}"))?;
        side(&wt.dir, &replay::build::replay_dir(&root).join("base-target"), &keep, "base")?
    };
    let cmds = crate::tldr(&root)?;
    let input = batch_input(&cmds)?;
    let csv = root.join("corpus/history/tldr.csv");
    let mut rates: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    eprintln!("bench batch: {BATCH_ROUNDS} alternating batch passes and {LIBRARY_ROUNDS} library runs per side…");
    for round in 0..BATCH_ROUNDS {
        let order = if round % 2 == 0 { [&base, &head] } else { [&head, &base] };
        for s in order {
            rates.entry(if s.name == "base" { "base_batch" } else { "head_batch" }).or_default().push(batch_pass(&s.tiergate, &input, cmds.len())?);
        }
    }
    for round in 0..LIBRARY_ROUNDS {
        let order = if round % 2 == 0 { [&base, &head] } else { [&head, &base] };
        for s in order {
            rates.entry(if s.name == "base" { "base_library" } else { "head_library" }).or_default().push(library_run(&s.lanes, &csv)?);
        }
    }
    let mut figures = BTreeMap::new();
    for (k, xs) in &mut rates {
        figures.insert(format!("{k}_commands_per_s"), crate::median(xs));
    }
    for what in ["batch", "library"] {
        let ratio = figures[&format!("head_{what}_commands_per_s")] / figures[&format!("base_{what}_commands_per_s")];
        figures.insert(format!("{what}_head_over_base"), ratio);
    }
    figures.insert("corpus_commands".into(), cmds.len() as f64);
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default().split_whitespace().next().unwrap_or("?").to_owned();
    for what in ["batch", "library"] {
        let (b, h) = (figures[&format!("base_{what}_commands_per_s")], figures[&format!("head_{what}_commands_per_s")]);
        println!("{what:<8} base {b:>9.0}  head {h:>9.0} commands/s   head/base {:.2}x", h / b);
    }
    println!("base {base_rev} = {commit}; load average at the end {load}");
    let path = root.join("benches/baselines/batch.json");
    let extra = json!({"base": base_rev, "base_commit": commit, "load_average_at_end": load});
    crate::write_baseline_with(&path, "batch", &figures, extra)?;
    println!("wrote {}", path.display());
    Ok(())
}

/// One side's binaries, copied out of its target directory (a later base build
/// into the same directory must not change what was measured).
struct Side {
    name: &'static str,
    tiergate: PathBuf,
    lanes: PathBuf,
}

fn side(tree: &Path, target: &Path, keep: &Path, name: &'static str) -> Result<Side> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let run = |args: &[&str]| -> Result<String> {
        let out = Command::new(&cargo)
            .args(args)
            .arg("--target-dir")
            .arg(target)
            .current_dir(tree)
            .env_remove("CARGO_TARGET_DIR")
            .stderr(Stdio::inherit())
            .output()
            .with_context(|| format!("cargo {}", args.join(" ")))?;
        if !out.status.success() {
            bail!("{name}: cargo {} failed ({})", args.join(" "), out.status);
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    };
    // The package holding the bin is the checkout's own (it moved: replay::layout).
    let how = replay::layout::at_dir(tree).map_err(|e| anyhow::anyhow!("{name}: cannot build tiergate: {e}"))?;
    let build: Vec<String> = how.cargo_build_args("release");
    run(&build.iter().map(String::as_str).collect::<Vec<_>>())?;
    let json = run(&["bench", "--no-run", "-p", "classifier", "--bench", "lanes", "--message-format=json"])?;
    let lanes = json
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|v| v["reason"] == "compiler-artifact" && v["target"]["name"] == "lanes" && v["executable"].is_string())
        .and_then(|v| v["executable"].as_str().map(PathBuf::from))
        .context("no lanes bench executable in cargo's output")?;
    let (tg, lb) = (keep.join(format!("{name}-tiergate")), keep.join(format!("{name}-lanes")));
    replay::build::install(&how.binary(target, "release"), &tg).context("copying tiergate")?;
    replay::build::install(&lanes, &lb).context("copying the lanes bench")?;
    Ok(Side { name, tiergate: tg, lanes: lb })
}

/// Protocol v1 request lines for `cmds`.
pub fn batch_input(cmds: &[String]) -> Result<Vec<u8>> {
    let mut input = Vec::new();
    for (i, c) in cmds.iter().enumerate() {
        serde_json::to_writer(&mut input, &json!({"id": i, "command": c}))?;
        input.push(b'\n');
    }
    Ok(input)
}

/// Commands per second of one long-lived `tiergate batch` answering `input` (`n` lines).
pub fn batch_pass(tiergate: &Path, input: &[u8], n: usize) -> Result<f64> {
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
    let data = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&data));
    let lines = BufReader::new(stdout).lines().count();
    let took = start.elapsed();
    writer.join().map_err(|_| anyhow::anyhow!("writer thread panicked"))??;
    child.wait()?;
    if lines != n {
        bail!("tiergate batch answered {lines} lines for {n} commands");
    }
    Ok(n as f64 / took.as_secs_f64())
}

/// `library_commands_per_s` of one lanes-bench run over `csv`.
fn library_run(lanes: &Path, csv: &Path) -> Result<f64> {
    let out = Command::new(lanes).arg(csv).stderr(Stdio::inherit()).output().with_context(|| format!("running {}", lanes.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().rev().find(|l| l.starts_with('{')).context("lanes bench printed no JSON")?;
    let v: Value = serde_json::from_str(line).with_context(|| format!("lanes bench output {line:?}"))?;
    v["library_commands_per_s"].as_f64().context("no library_commands_per_s")
}
