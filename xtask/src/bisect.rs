//! `cargo xtask bisect (--command C [--cwd D] | --corpus-row ID) [--good REV]
//! [--bad REV] [--regress changed|loosened|tightened] [--root DIR]`: names the first
//! commit that moved the verdict, with before/after verdicts and rule ids. Defaults:
//! good = the replay base rule (merge-base, else HEAD~1), bad = HEAD.

use std::path::PathBuf;
use std::time::Instant;

use replay::bisect::{bisect, Regress};

fn log(msg: &str) {
    eprintln!("bisect: {msg}");
}

pub fn run(args: &[String]) -> i32 {
    let (mut command, mut cwd, mut good, mut bad, mut row, mut root) = (None, None, None, None, None, None);
    let mut regress = Regress::Changed;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let v = it.next().cloned();
        match (a.as_str(), v) {
            ("--command", v) => command = v,
            ("--cwd", v) => cwd = v,
            ("--good", v) => good = v,
            ("--bad", v) => bad = v,
            ("--corpus-row", v) => row = v,
            ("--root", v) => root = v.map(PathBuf::from),
            ("--regress", Some(v)) => match Regress::parse(&v) {
                Some(r) => regress = r,
                None => {
                    eprintln!("bisect: --regress {v:?} is not changed, loosened or tightened");
                    return replay::exit::USAGE;
                }
            },
            (other, _) => {
                eprintln!("bisect: unknown argument or missing value: {other:?}");
                return replay::exit::USAGE;
            }
        }
    }
    let root = root.unwrap_or_else(replay::project_root);
    if let Some(id) = &row {
        let truth = match replay::corpus::load_worktree(&root, replay::corpus::Kind::Truth) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{}", e.join("\n"));
                return replay::exit::USAGE;
            }
        };
        let Some(r) = truth.rows.iter().find(|r| &r.id == id) else {
            eprintln!("bisect: no truth row {id}");
            return replay::exit::USAGE;
        };
        command = Some(r.command.clone());
        cwd =
            r.cwd.as_ref().map(|c| if std::path::Path::new(c).is_absolute() { c.clone() } else { root.join("corpus/fixtures").join(c).display().to_string() });
    }
    let Some(command) = command else {
        eprintln!("usage: cargo xtask bisect (--command C | --corpus-row ID) [--good REV] [--bad REV] [--regress changed|loosened|tightened]");
        return replay::exit::USAGE;
    };
    let good = match good {
        Some(g) => g,
        None => match replay::base::resolve(&root, None, None) {
            Ok(b) => {
                log(&format!("good = {} ({})", replay::base::short(&b.commit), b.rule));
                b.commit
            }
            Err(e) => {
                eprintln!("{e}");
                return e.code();
            }
        },
    };
    let bad = bad.unwrap_or_else(|| "HEAD".into());
    let t = Instant::now();
    match bisect(&root, &command, cwd.as_deref(), &good, &bad, regress, &log) {
        Ok(f) => {
            println!("first commit that moved `{command}`: {} {}", replay::base::short(&f.commit), f.subject);
            println!("  before: {} ({})", f.before.short(), f.before.reason);
            println!("  after:  {} ({})", f.after.short(), f.after.reason);
            if !f.skipped.is_empty() {
                println!("  skipped (cannot build or test): {}", f.skipped.join(" "));
            }
            if !f.ambiguous.is_empty() {
                println!("  the move may also be in untestable commits: {}", f.ambiguous.join(" "));
            }
            println!("  {} revisions probed in {:.1} s", f.tested, t.elapsed().as_secs_f64());
            0
        }
        Err(e) => {
            eprintln!("bisect: {e}");
            replay::exit::INFRA
        }
    }
}
