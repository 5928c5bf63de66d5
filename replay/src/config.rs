//! The replay configuration, built by xtask from flags and the environment. No
//! `Default`: every caller states every choice.

use std::path::PathBuf;
use std::time::Duration;

use crate::corpus::Kind;

pub struct Config {
    /// The project root (the repository's top level), never the cwd.
    pub root: PathBuf,
    /// `--base REV`.
    pub base: Option<String>,
    /// `$REPLAY_BASE`.
    pub base_env: Option<String>,
    /// `--check` or `CI` set: report only, never edit truth tables or declarations.
    pub check: bool,
    /// `--corpus truth,history,curated`.
    pub corpora: Vec<Kind>,
    /// `--only ID` (empty = every row).
    pub only: Vec<String>,
    /// `--history PATH`: a user's own history, read in place.
    pub history: Vec<PathBuf>,
    /// `--against CMD`: the other side is this protocol v1 program (argv of its batch mode).
    pub against: Option<Vec<String>>,
    /// `--require-base`: a base that predates protocol v1 is an infrastructure error.
    pub require_base: bool,
    /// `$GITHUB_STEP_SUMMARY`.
    pub step_summary: Option<PathBuf>,
    /// Per-line answer timeout.
    pub timeout: Duration,
    /// Rows re-run on a fresh head child to check determinism.
    pub determinism_sample: usize,
    /// Progress lines (builds, cache use); tests pass a no-op.
    pub log: fn(&str),
    /// Show indicatif bars (only when stderr is a terminal).
    pub progress: bool,
    /// Where head's build goes (`--target-dir`). The xtask front passes the
    /// caller's `CARGO_TARGET_DIR` or `target/`; tests name their own, so a shared
    /// target directory never swaps their fake subject for the real classifier.
    pub target_dir: PathBuf,
    /// `--shard I/N` (1-based): replay only the rows whose (corpus, id) hashes to I,
    /// and export their answers for `replay merge` (see shard.rs).
    pub shard: Option<(usize, usize)>,
}
