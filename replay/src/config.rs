//! The replay configuration, built by xtask from flags and the environment.
//! One constructor, `Config::new`, holds the choices every caller shares; a caller
//! overrides fields by name (`Config { require_base: true, ..Config::new(root, base) }`),
//! so what differs from the common replay is visible where the replay is started.

use std::path::PathBuf;
use std::time::Duration;

use crate::corpus::Kind;

/// Per-line answer timeout unless `--timeout` says otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// Rows re-run on a fresh head child unless a caller asks for fewer.
pub const DEFAULT_DETERMINISM_SAMPLE: usize = 200;

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
    /// Stop at the first row a subject does not answer, after asking it once more
    /// alone with this longer timeout (runner::Patience::hang): `replay::run` then
    /// fails with `ReplayError::Hang` naming the row. None (the default): an
    /// unanswered row is an error row and the replay goes on.
    pub hang: Option<Duration>,
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

impl Config {
    /// How the runner waits for answers under this configuration.
    pub fn patience(&self) -> crate::runner::Patience {
        crate::runner::Patience { row: self.timeout, hang: self.hang }
    }

    /// A replay of every corpus of `root` against `base` (None: the default base
    /// rule) that never writes truth tables or declarations (`check`), logs nothing,
    /// shows no bars, and builds head into `build::head_target_dir(root)`.
    pub fn new(root: PathBuf, base: Option<String>) -> Config {
        Config {
            target_dir: crate::build::head_target_dir(&root),
            root,
            base,
            base_env: None,
            check: true,
            corpora: Kind::ALL.to_vec(),
            only: Vec::new(),
            history: Vec::new(),
            against: None,
            require_base: false,
            step_summary: None,
            timeout: DEFAULT_TIMEOUT,
            hang: None,
            determinism_sample: DEFAULT_DETERMINISM_SAMPLE,
            log: |_| {},
            progress: false,
            shard: None,
        }
    }
}
