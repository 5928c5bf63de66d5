//! `cargo xtask oracle [--sample N] [--shard I/N] [--corpus tldr,truth,curated]
//! [--timeout SECS] [--jobs N] [--selftest]`, `cargo xtask oracle --metamorphic
//! [--check]` and `cargo xtask oracle --reanalyse REPORT_DIR` (reanalyse.rs): run what tiergate allows inside a verified sandbox and watch what it
//! tries (ORACLE.md). Opt-in, never part of every CI run. The self-test runs first,
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

/// The oracle's settings, from `flags::OracleArgs` (whose parsing is tested in flags.rs).
#[derive(Debug, Default)]
struct Flags {
    sample: Option<usize>,
    shard: Option<(usize, usize)>,
    corpus: Vec<String>,
    timeout: Option<u64>,
    jobs: Option<usize>,
    selftest_only: bool,
    metamorphic: bool,
    check: bool,
    reanalyse: Option<std::path::PathBuf>,
}

impl From<&crate::flags::OracleArgs> for Flags {
    fn from(a: &crate::flags::OracleArgs) -> Flags {
        Flags {
            sample: a.sample,
            shard: a.shard.map(|s| s.pair()),
            corpus: a.corpus.clone(),
            timeout: a.timeout,
            jobs: a.jobs.map(|j| j as usize),
            selftest_only: a.selftest_only,
            metamorphic: a.metamorphic,
            check: a.check,
            reanalyse: a.reanalyse.clone(),
        }
    }
}

/// `oracle [flags]` (declared and parsed in flags.rs); `args` are the words as typed,
/// for the report's meta line.
pub fn run(parsed: &crate::flags::OracleArgs, args: &[String]) -> i32 {
    let flags = Flags::from(parsed);
    let root = replay::project_root();
    if let Some(dir) = &flags.reanalyse {
        return reanalyse::task(&root, dir);
    }
    if flags.metamorphic {
        return metamorph::task(&root, flags.check || replay::is_ci());
    }
    run::oracle(&root, &flags, format!("cargo xtask oracle {}", args.join(" ")).trim_end())
}
