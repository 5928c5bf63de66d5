//! The sandbox oracle, the library behind `cargo xtask oracle [--sample N] [--shard I/N]
//! [--corpus tldr,truth,curated] [--timeout SECS] [--jobs N] [--selftest]`,
//! `cargo xtask oracle --metamorphic [--check]` and `cargo xtask oracle --reanalyse
//! REPORT_DIR` (reanalyse.rs): run what tiergate allows inside a verified sandbox and
//! watch what it tries (ORACLE.md). Opt-in, never part of every CI run. The self-test runs first,
//! every time; any failing probe stops the oracle before a corpus row runs.
//! Exit: 0 no new medium/high finding, 1 new findings (or a stale generated file
//! with --check), 2 usage, 3 the sandbox is unavailable or failed its self-test.

mod baseline;
mod classify;
mod metamorph;
mod project;
mod reanalyse;
mod report;
mod run;
mod sandbox;
mod seccomp;
mod selftest;
mod trace;

/// The oracle's settings (xtask's `OracleArgs`, whose parsing is tested there).
#[derive(Debug, Default)]
pub struct Options {
    pub sample: Option<usize>,
    pub shard: Option<(usize, usize)>,
    pub corpus: Vec<String>,
    pub timeout: Option<u64>,
    pub jobs: Option<usize>,
    pub selftest_only: bool,
    pub metamorphic: bool,
    pub check: bool,
    pub reanalyse: Option<std::path::PathBuf>,
}

/// `oracle [flags]`; `command` is the command line as typed, for the report's meta line.
pub fn run(flags: &Options, command: &str) -> i32 {
    let root = replay::project_root();
    if let Some(dir) = &flags.reanalyse {
        return reanalyse::task(&root, dir);
    }
    if flags.metamorphic {
        return metamorph::task(&root, flags.check || replay::is_ci());
    }
    run::oracle(&root, flags, command)
}
