//! `cargo xtask coverage [--check] [--bin PATH]`: which rules the corpora reach.
//! Builds head's tiergate (or takes `--bin`), answers every corpus through the
//! replay's verdict cache, reads the registry from the same binary (`tiergate
//! rules`), and writes `reports/coverage/summary.md` + `coverage.json`. It prints
//! every gap in `corpus/coverage-exemptions.csv` form, so refreshing the list after
//! new rules land is: run it, review the lines, paste them. `--check` (or `CI`)
//! fails on a gap no exemption covers, or an exemption that no longer applies.
//! `--bless` rewrites the file: reviewed reasons kept (narrowed to what is still
//! missing), covered rules dropped, a `todo:` line per new gap (never under CI).

use std::path::Path;
use std::time::{Duration, Instant};

use replay::build::Subject;
use replay::corpus::{Kind, Row};
use replay::coverage::{self, Coverage, RuleInfo};
use replay::exit::{self, ReplayError};

fn log(msg: &str) {
    eprintln!("coverage: {msg}");
}

/// Every corpus row of the work tree.
pub fn rows(root: &Path) -> Result<Vec<Row>, ReplayError> {
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    for k in Kind::ALL {
        match replay::corpus::load_worktree(root, k) {
            Ok(c) => rows.extend(c.rows),
            Err(e) => errors.extend(e),
        }
    }
    if errors.is_empty() {
        Ok(rows)
    } else {
        Err(ReplayError::Usage(errors))
    }
}

/// The subject for `--bin` (hashed like a build, so the cache applies) or head's build.
pub fn subject(root: &Path, bin: Option<&Path>) -> Result<Subject, ReplayError> {
    match bin {
        Some(b) => {
            let bytes = std::fs::read(b).map_err(|e| ReplayError::infra(format!("{}: {e}", b.display())))?;
            Ok(Subject { argv: vec![b.display().to_string(), "batch".into()], build_id: Some(replay::build::binary_id(&bytes)), label: "bin".into() })
        }
        None => Ok(replay::build::build_head(root, &replay::build::head_target_dir(root), &log)?.0),
    }
}

/// Coverage of the work tree's corpora by `subject`.
pub fn measure(root: &Path, subject: &Subject) -> Result<(Vec<RuleInfo>, Coverage), ReplayError> {
    let rows = rows(root)?;
    let (verdicts, stats) = replay::answer_rows(root, subject, &rows, Duration::from_secs(10), log)?;
    log(&format!("{} rows answered, {} from the verdict cache", stats.rows, stats.cached));
    coverage::of_head(&subject.argv[0], root, &rows, &verdicts).map_err(ReplayError::infra)
}

pub fn run(args: &crate::flags::CoverageArgs) -> i32 {
    let flags = crate::flags::CoverageArgs { check: args.check || replay::is_ci(), bless: args.bless, bin: args.bin.clone() };
    let t = Instant::now();
    let root = replay::project_root();
    let result = subject(&root, flags.bin.as_deref()).and_then(|s| measure(&root, &s));
    let (rules, cov) = match result {
        Ok(x) => x,
        Err(e) => {
            eprintln!("xtask coverage: {e}");
            return e.code();
        }
    };
    let dir = root.join("reports").join("coverage");
    let md = coverage::markdown(&cov, &rules);
    let json = serde_json::to_string_pretty(&cov).unwrap_or_default();
    let written = std::fs::create_dir_all(&dir)
        .and_then(|()| replay::report::write::atomic(&dir.join("summary.md"), md.as_bytes()))
        .and_then(|()| replay::report::write::atomic(&dir.join("coverage.json"), json.as_bytes()));
    if let Err(e) = written {
        eprintln!("xtask coverage: writing {}: {e}", dir.display());
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
    if flags.bless {
        if flags.check {
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
    if flags.check && cov.failures() > 0 {
        eprintln!("xtask coverage --check: {} uncovered rule(s), {} stale exemption line(s)", cov.uncovered.len(), cov.stale.len());
        return exit::POLICY;
    }
    exit::CLEAN
}
