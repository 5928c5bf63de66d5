//! The work tree's rule coverage as `cargo xtask coverage` measures it: every corpus
//! row of the work tree, and the binary's own table probes (`tiergate programs`), answered by head's tiergate (or a given binary) through the
//! replay's verdict cache, the registry read from the same binary, and the report
//! written to `reports/coverage/`. Printing the gaps, `--check` and `--bless` are
//! the task's (xtask/src/coverage.rs).

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::build::Subject;
use crate::corpus::{Kind, Row};
use crate::exit::ReplayError;

use super::{Coverage, RuleInfo};

/// Every corpus row of the work tree.
pub fn rows(root: &Path) -> Result<Vec<Row>, ReplayError> {
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    for k in Kind::ALL {
        match crate::corpus::load_worktree(root, k) {
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

/// The subject for `bin` (hashed like a build, so the cache applies) or head's build.
pub fn subject(root: &Path, bin: Option<&Path>, log: fn(&str)) -> Result<Subject, ReplayError> {
    match bin {
        Some(b) => {
            let bytes = std::fs::read(b).map_err(|e| ReplayError::infra(format!("{}: {e}", b.display())))?;
            Ok(Subject { argv: vec![b.display().to_string(), "batch".into()], build_id: Some(crate::build::binary_id(&bytes)), label: "bin".into() })
        }
        None => Ok(crate::build::build_head(root, &crate::build::head_target_dir(root), &log)?.0),
    }
}

/// Coverage of the work tree's corpora and `subject`'s own table probes by `subject`.
pub fn measure(root: &Path, subject: &Subject, log: fn(&str)) -> Result<(Vec<RuleInfo>, Coverage), ReplayError> {
    let mut rows = rows(root)?;
    let tables = crate::dump::of_subject(&subject.argv).map_err(|e| ReplayError::infra(format!("the table probes: {e}")))?;
    rows.extend(crate::corpus::probes::rows(None, &tables).map_err(ReplayError::Usage)?);
    let (verdicts, stats) = crate::answer_rows(root, subject, &rows, Duration::from_secs(10), log)?;
    log(&format!("{} rows answered, {} from the verdict cache", stats.rows, stats.cached));
    super::of_head(&subject.argv[0], root, &rows, &verdicts).map_err(ReplayError::infra)
}

/// Writes `reports/coverage/summary.md` and `coverage.json`; returns the directory.
pub fn write_report(root: &Path, cov: &Coverage, rules: &[RuleInfo]) -> std::io::Result<PathBuf> {
    let dir = root.join("reports").join("coverage");
    let md = super::markdown(cov, rules);
    let json = serde_json::to_string_pretty(cov).unwrap_or_default();
    std::fs::create_dir_all(&dir)?;
    crate::report::write::atomic(&dir.join("summary.md"), md.as_bytes())?;
    crate::report::write::atomic(&dir.join("coverage.json"), json.as_bytes())?;
    Ok(dir)
}
