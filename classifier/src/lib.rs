//! tiergate's classifier: sorts a shell command into T0 (read-only), T1 (local
//! validation), T2 (dry-run), T3 (needs consent) or blocked (never approvable).
//!
//! Public API only. The library does no I/O besides `FileSource`, reads no env,
//! clock or stdin, and never panics on any input (see `docs/architecture.md`).
#![deny(clippy::disallowed_methods)]

pub mod call;
mod combine;
pub mod explain;
pub mod lanes;
pub mod limits;
pub mod names;
mod parse;
pub mod protect;
pub mod protocol;
pub mod rules;
mod sorted;
pub mod table;
mod units;
pub mod verdict;
pub mod words;
mod wrappers;

pub use words::{WordList, Words};

pub use call::{Arg, Invocation, Stdin};
pub use explain::{explain, Trace};
pub use lanes::{FileSource, MemFiles, NoFiles};
pub use protect::{Guard, Protected, Protection};
pub use verdict::{decision_of, Decision, Span, Tier, Verdict};

/// One command to classify.
#[derive(Clone, Debug, Default)]
pub struct Request {
    pub command: String,
    /// The directory the command runs in (absolute), when known.
    pub cwd: Option<String>,
    /// The user's home directory, so `~/.bashrc` and `$HOME` resolve.
    pub home: Option<String>,
    /// Which paths no write may touch (`protect`): the built-ins by default, plus
    /// whatever the caller adds (the hook: its config files, binary, data
    /// directory and the user's `protected_paths`).
    pub protect: Protected,
}

impl Request {
    pub fn new(command: &str) -> Request {
        Request { command: command.to_owned(), cwd: None, home: None, protect: Protected::default() }
    }
    pub fn with_protected(mut self, protect: Protected) -> Request {
        self.protect = protect;
        self
    }
    pub fn with_cwd(mut self, cwd: &str) -> Request {
        self.cwd = Some(cwd.to_owned());
        self
    }
    pub fn with_home(mut self, home: &str) -> Request {
        self.home = Some(home.to_owned());
        self
    }

    /// The working directory as every rule compares paths with it: `/repo/` and
    /// `/repo` are one directory (agents send both), so trailing slashes go here,
    /// once, and an in-tree write does not read as one outside the tree.
    pub(crate) fn dir(&self) -> Option<&str> {
        self.cwd.as_deref().map(without_trailing_slash)
    }

    /// The home directory, its trailing slashes dropped as for [`Request::dir`].
    pub(crate) fn home_dir(&self) -> Option<&str> {
        self.home.as_deref().map(without_trailing_slash)
    }
}

/// `p` without trailing slashes; the root stays `/` (and `""` stays `""`).
fn without_trailing_slash(p: &str) -> &str {
    match p.trim_end_matches('/') {
        "" => &p[..p.len().min(1)],
        t => t,
    }
}

/// Classifies a command that may not read any file (file lanes answer T3).
pub fn classify(req: &Request) -> Verdict {
    classify_with(req, &NoFiles)
}

/// Classifies a command, reading scripts and manifests through `files`.
///
/// A panic anywhere below is a bug, but it must never become a crash or an
/// allow: it is caught here and answered T3 `internal.error`.
pub fn classify_with(req: &Request, files: &dyn FileSource) -> Verdict {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| explain::verdict(req, files))) {
        Ok(v) => v,
        Err(_) => internal_error(),
    }
}

/// The answer to a panic below `classify_with`: T3 `internal.error`.
fn internal_error() -> Verdict {
    let r = &rules::INTERNAL_ERROR;
    Verdict::new(r.tier, r.blocked, r.id, r.reason.to_owned(), Span::default())
}

/// `classify_with`, and what the command writes, in order (`lanes::Written`): the
/// paths every unit writes and, where the command line shows it, the text. A
/// caller replaying an agent's session keeps them in a `lanes::Overlay`, so a
/// script the agent wrote and then ran is read, not guessed. A panic answers as in
/// `classify_with`, with no writes.
pub fn classify_recording(req: &Request, files: &dyn FileSource) -> (Verdict, Vec<lanes::Written>) {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| explain::verdict_and_writes(req, files))) {
        Ok(v) => v,
        Err(_) => (internal_error(), Vec::new()),
    }
}

/// The key a nonce grant is bound to: every executed unit's program and words
/// in order (de-quoted, option values where they stand, unresolved expansions
/// marked), its wrappers' words, environment assignments, redirections and
/// working directory. Nothing is sorted: two commands whose units differ in any
/// argument have different signatures (a property test holds it), and so do
/// reorderings that happen to mean the same (`ls -la`, `ls -al`).
pub fn semantic_signature(req: &Request) -> String {
    explain::trace(req, &NoFiles).signature()
}
