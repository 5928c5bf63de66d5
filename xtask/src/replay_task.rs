//! `cargo xtask replay [accept|merge]`: parsed flags and the environment →
//! `replay::config::Config`, run, print the terminal summary and timings, map to an
//! exit code.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use replay::config::Config;
use replay::exit;

use crate::flags::ReplayFlags;

fn log(msg: &str) {
    eprintln!("replay: {msg}");
}

/// `replay merge FILE|DIR… [flags]`: shard answers into the verdict cache, then the whole replay.
pub fn merge(paths: &[PathBuf], flags: &ReplayFlags) -> i32 {
    if flags.shard.is_some() {
        eprintln!("replay merge: --shard makes no sense here");
        return exit::USAGE;
    }
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut v: Vec<_> =
                std::fs::read_dir(p).into_iter().flatten().flatten().map(|e| e.path()).filter(|f| f.extension().is_some_and(|x| x == "jsonl")).collect();
            v.sort();
            files.extend(v);
        } else {
            files.push(p.clone());
        }
    }
    if files.is_empty() {
        eprintln!("replay merge: no shard answer files (*.jsonl) in {}", paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" "));
        return exit::USAGE;
    }
    match replay::shard::import(&replay::project_root(), &files) {
        Ok(n) => log(&format!("{n} shard answers from {} file(s) loaded into the verdict cache", files.len())),
        Err(e) => {
            eprintln!("{e}");
            return e.code();
        }
    }
    run(flags, false)
}

/// The replay's configuration from the flags and the environment (`CI`,
/// `REPLAY_BASE`, `GITHUB_STEP_SUMMARY`, whether stderr is a terminal).
fn config(flags: &ReplayFlags) -> Config {
    let ci = replay::is_ci();
    Config {
        base_env: std::env::var("REPLAY_BASE").ok(),
        check: flags.check || ci,
        corpora: flags.corpora(),
        only: flags.only(),
        history: flags.history.clone(),
        against: flags.against.clone().map(|a| a.0),
        require_base: flags.require_base,
        step_summary: std::env::var_os("GITHUB_STEP_SUMMARY").map(Into::into),
        timeout: flags.timeout.map(Duration::from_secs_f64).unwrap_or(replay::config::DEFAULT_TIMEOUT),
        log,
        progress: std::io::stderr().is_terminal() && !ci,
        shard: flags.shard.map(|s| s.pair()),
        ..Config::new(replay::project_root(), flags.base.clone())
    }
}

pub fn run(flags: &ReplayFlags, accept: bool) -> i32 {
    let cfg = config(flags);
    if accept && cfg.shard.is_some() {
        eprintln!("`replay accept` needs the whole replay; run it without --shard (or after `replay merge`)");
        return exit::USAGE;
    }
    if accept && cfg.check {
        eprintln!("`replay accept` writes truth tables and declarations; it refuses to run with --check or CI set");
        return exit::USAGE;
    }
    let result = replay::run(&cfg);
    let code = exit::code_of(&result, replay::Outcome::failures);
    match &result {
        Ok(out) => {
            print!("{}", replay::report::terminal::render(&out.report));
            if let Some(d) = &out.report_dir {
                println!("report: {}", d.strip_prefix(&cfg.root).unwrap_or(d).display());
            }
            for (what, secs) in &out.timings {
                println!("  {what}: {secs:.2} s");
            }
            println!("  rows answered by a binary (not from the verdict cache): {}", out.answered);
            if accept {
                return write_accepted(&cfg, out);
            }
            if !out.report.pending.is_empty() || (!out.truth_edits.is_empty() && code != 0) {
                println!("to turn pending moves into files for review: cargo xtask replay accept [--only ID…]");
            }
        }
        Err(e) => eprintln!("{e}"),
    }
    code
}

fn write_accepted(cfg: &Config, out: &replay::Outcome) -> i32 {
    match replay::accept::apply(cfg, out, &cfg.only) {
        Ok(a) => {
            for t in &a.truth_rows {
                println!("accepted truth expectation: {t}");
            }
            if let Some(f) = &a.declared_file {
                println!("wrote {} declaration template(s) to {f}: replace every \"TODO\" reason, then run `cargo xtask replay`", a.declared.len());
            }
            if a.truth_rows.is_empty() && a.declared.is_empty() {
                println!("nothing to accept");
            }
            exit::CLEAN
        }
        Err(e) => {
            eprintln!("{e}");
            e.code()
        }
    }
}
