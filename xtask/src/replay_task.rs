//! `cargo xtask replay [accept]`: flags and environment → `replay::config::Config`,
//! run, print the terminal summary and timings, map to an exit code.

use std::io::IsTerminal;
use std::time::Duration;

use replay::config::Config;
use replay::corpus::Kind;
use replay::exit::{self, ReplayError};

use crate::flags::{parse_replay, USAGE};

fn log(msg: &str) {
    eprintln!("replay: {msg}");
}

fn ci() -> bool {
    replay::is_ci()
}

/// `replay merge FILE|DIR… [flags]`: shard answers into the verdict cache, then the whole replay.
fn merge(args: &[String]) -> i32 {
    let split = args.iter().position(|a| a.starts_with("--")).unwrap_or(args.len());
    let mut files = Vec::new();
    for p in &args[..split] {
        let p = std::path::PathBuf::from(p);
        if p.is_dir() {
            let mut v: Vec<_> =
                std::fs::read_dir(&p).into_iter().flatten().flatten().map(|e| e.path()).filter(|f| f.extension().is_some_and(|x| x == "jsonl")).collect();
            v.sort();
            files.extend(v);
        } else {
            files.push(p);
        }
    }
    if files.is_empty() {
        eprintln!("replay merge: give the shard answer files (or their directory)\n{USAGE}");
        return exit::USAGE;
    }
    match replay::shard::import(&replay::project_root(), &files) {
        Ok(n) => log(&format!("{n} shard answers from {} file(s) loaded into the verdict cache", files.len())),
        Err(e) => {
            eprintln!("{e}");
            return e.code();
        }
    }
    let rest = &args[split..];
    if rest.iter().any(|a| a == "--shard" || a.starts_with("--shard=")) {
        eprintln!("replay merge: --shard makes no sense here");
        return exit::USAGE;
    }
    run(rest)
}

pub fn run(args: &[String]) -> i32 {
    if args.first().map(String::as_str) == Some("merge") {
        return merge(&args[1..]);
    }
    let flags = match parse_replay(args) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{e}\n{USAGE}");
            return exit::USAGE;
        }
    };
    let check = flags.check || ci();
    if flags.accept && flags.shard.is_some() {
        eprintln!("`replay accept` needs the whole replay; run it without --shard (or after `replay merge`)");
        return exit::USAGE;
    }
    if flags.accept && check {
        eprintln!("`replay accept` writes truth tables and declarations; it refuses to run with --check or CI set");
        return exit::USAGE;
    }
    let corpora = match &flags.corpus {
        None => Kind::ALL.to_vec(),
        Some(names) => {
            let mut v = Vec::new();
            for n in names {
                match Kind::parse(n) {
                    Some(k) if !v.contains(&k) => v.push(k),
                    Some(_) => {}
                    None => {
                        eprintln!("--corpus {n:?}: not one of truth, history, curated");
                        return exit::USAGE;
                    }
                }
            }
            v
        }
    };
    let against = match flags.against.as_deref().map(split_command) {
        Some(Ok(v)) => Some(v),
        Some(Err(e)) => {
            eprintln!("--against: {e}");
            return exit::USAGE;
        }
        None => None,
    };
    let root = replay::project_root();
    let cfg = Config {
        target_dir: replay::build::head_target_dir(&root),
        root,
        base: flags.base.clone(),
        base_env: std::env::var("REPLAY_BASE").ok(),
        check,
        corpora,
        only: flags.only.clone(),
        history: flags.history.clone(),
        against,
        require_base: flags.require_base,
        step_summary: std::env::var_os("GITHUB_STEP_SUMMARY").map(Into::into),
        timeout: Duration::from_secs_f64(flags.timeout.unwrap_or(10.0)),
        determinism_sample: 200,
        log,
        progress: std::io::stderr().is_terminal() && !ci(),
        shard: flags.shard,
    };
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
            if flags.accept {
                return accept(&cfg, out, &flags.only);
            }
            if !out.report.pending.is_empty() || (!out.truth_edits.is_empty() && code != 0) {
                println!("to turn pending moves into files for review: cargo xtask replay accept [--only ID…]");
            }
        }
        Err(e) => eprintln!("{e}"),
    }
    code
}

fn accept(cfg: &Config, out: &replay::Outcome, only: &[String]) -> i32 {
    match replay::accept::apply(cfg, out, only) {
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

/// Splits `--against` into argv: whitespace-separated, single or double quotes group.
fn split_command(s: &str) -> Result<Vec<String>, ReplayError> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut any = false;
    for ch in s.chars() {
        match (quote, ch) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(ch);
                any = true;
            }
            (None, c) if c.is_whitespace() => {
                if any || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                any = false;
            }
            (None, c) => cur.push(c),
        }
    }
    if quote.is_some() {
        return Err(ReplayError::usage("unbalanced quote"));
    }
    if any || !cur.is_empty() {
        out.push(cur);
    }
    if out.is_empty() {
        return Err(ReplayError::usage("empty command"));
    }
    Ok(out)
}
