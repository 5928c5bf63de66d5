//! `cargo xtask bisect (--command C [--cwd D] | --corpus-row ID) [--good REV]
//! [--bad REV] [--regress changed|loosened|tightened] [--root DIR]`: names the first
//! commit that moved the verdict, with before/after verdicts and rule ids. Defaults:
//! good = the replay base rule (merge-base, else HEAD~1), bad = HEAD.

use std::time::Instant;

use replay::bisect::bisect;

fn log(msg: &str) {
    eprintln!("bisect: {msg}");
}

pub fn run(args: crate::flags::BisectArgs) -> i32 {
    let crate::flags::BisectArgs { mut command, mut cwd, corpus_row: row, good, bad, regress, root } = args;
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
    // flags.rs requires exactly one of --command and --corpus-row.
    let Some(command) = command else {
        eprintln!("bisect: give --command C or --corpus-row ID");
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
