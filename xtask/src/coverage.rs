//! `cargo xtask coverage [--check] [--bless] [--bin PATH]`: which rules the corpora
//! reach. `replay::coverage::task` measures (head's tiergate or `--bin`, every corpus
//! through the replay's verdict cache, the registry from the same binary) and writes
//! `reports/coverage/`; this prints every gap in `corpus/coverage-exemptions.csv`
//! form, so refreshing the list after new rules land is: run it, review the lines,
//! paste them. `--check` (or `CI`) fails on a gap no exemption covers, or an
//! exemption that no longer applies. `--bless` rewrites the file: reviewed reasons
//! kept (narrowed to what is still missing), covered rules dropped, a `todo:` line
//! per new gap (never under CI).

use std::time::Instant;

use replay::coverage::{self, task};
use replay::exit;

fn log(msg: &str) {
    eprintln!("coverage: {msg}");
}

pub fn run(args: &crate::flags::CoverageArgs) -> i32 {
    let check = args.check || replay::is_ci();
    let t = Instant::now();
    let root = replay::project_root();
    let (rules, cov) = match task::subject(&root, args.bin.as_deref(), log).and_then(|s| task::measure(&root, &s, log)) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("xtask coverage: {e}");
            return e.code();
        }
    };
    if let Err(e) = task::write_report(&root, &cov, &rules) {
        eprintln!("xtask coverage: writing reports/coverage: {e}");
        return exit::INFRA;
    }
    print!("{}", coverage::section(&cov).trim_start_matches('\n').trim_start_matches("## Rule coverage\n\n"));
    for s in &cov.stale {
        println!("stale: {s}");
    }
    let lines = coverage::exemption_lines(&cov, &rules);
    if !lines.is_empty() {
        println!("\n# uncovered, in {} form (review each; replace `todo:` with a reason or add a truth row):", coverage::EXEMPTIONS);
        for l in &lines {
            println!("{l}");
        }
    }
    println!("report: reports/coverage/summary.md ({:.1} s)", t.elapsed().as_secs_f64());
    if args.bless {
        if check {
            eprintln!("xtask coverage: --bless writes {}; it refuses to run with --check or CI set", coverage::EXEMPTIONS);
            return exit::USAGE;
        }
        let old = coverage::load_exemptions(&root).unwrap_or_default();
        let text = coverage::blessed_file(&cov, &rules, &old);
        if let Err(e) = replay::report::write::atomic(&root.join(coverage::EXEMPTIONS), text.as_bytes()) {
            eprintln!("xtask coverage: writing {}: {e}", coverage::EXEMPTIONS);
            return exit::INFRA;
        }
        println!("wrote {}: review every new `todo:` line (git diff), replace it with a reason or add a truth row", coverage::EXEMPTIONS);
        return exit::CLEAN;
    }
    if check && cov.failures() > 0 {
        eprintln!("xtask coverage --check: {} uncovered rule(s), {} stale exemption line(s)", cov.uncovered.len(), cov.stale.len());
        return exit::POLICY;
    }
    exit::CLEAN
}
