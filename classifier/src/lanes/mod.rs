//! `FileSource`: the only way the library reads files (scripts, package.json,
//! Makefiles), so tests stay hermetic and the core stays pure.

use std::collections::HashMap;

pub(crate) mod lexer;
mod lexer_callees;
mod lexer_heredoc;
mod lexer_loads;
mod lexer_perl;
mod lexer_ruby;
pub(crate) mod lexer_sinks;
mod overlay;
pub(crate) mod python;
mod python_ast;
mod python_consts;
mod python_sinks;
mod python_tokens;
pub mod scripts;

pub use overlay::{Layered, Overlay, Written, MAX_OVERLAY_BYTES};

/// Largest file a lane reads; anything bigger is unusable (and so T3).
pub const MAX_FILE_BYTES: usize = 256 * 1024;

/// A read-only view of the file system.
pub trait FileSource {
    /// The file's bytes, `Ok(None)` when it does not exist, `Err` when unreadable.
    fn read(&self, absolute_path: &str) -> Result<Option<Vec<u8>>, String>;

    /// Where a write to `absolute_path` really lands: the path with symlinks in its
    /// existing part resolved. `None` when unknown (the default: no file system).
    /// The protect policy judges this form too, so a symlink into `.claude` is seen
    /// through by Bash writes as by the hook's file tools.
    fn canonical(&self, _absolute_path: &str) -> Option<String> {
        None
    }

    /// What is at `absolute_path`, without following a symlink there: `git checkout
    /// X` overwrites a path but not a branch name, and a rename into the tree is
    /// free only where nothing is replaced. The default asks `read`: a file when it
    /// has bytes, nothing when it is missing, and something (`Other`) when it
    /// fails to read (a directory, a device).
    fn entry(&self, absolute_path: &str) -> Entry {
        match self.read(absolute_path) {
            Ok(None) => Entry::Missing,
            Ok(Some(_)) => Entry::File,
            Err(_) => Entry::Other,
        }
    }
}

/// What a path names on the file system (`FileSource::entry`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    Missing,
    File,
    Dir,
    /// Something else is there: a symlink (a dangling one too), a device, a FIFO.
    Other,
    /// The source cannot tell (it sees no files, or may not search a directory).
    Unknown,
}

impl Entry {
    /// Whether anything is there; `None` when the source cannot tell.
    pub fn exists(self) -> Option<bool> {
        match self {
            Entry::Missing => Some(false),
            Entry::File | Entry::Dir | Entry::Other => Some(true),
            Entry::Unknown => None,
        }
    }
}

/// Sees no files at all: every lookup is "missing" (so file lanes answer T3).
pub struct NoFiles;

impl FileSource for NoFiles {
    fn read(&self, _: &str) -> Result<Option<Vec<u8>>, String> {
        Ok(None)
    }

    /// It sees nothing, so it cannot say that a path is absent.
    fn entry(&self, _: &str) -> Entry {
        Entry::Unknown
    }
}

/// An in-memory tree keyed by absolute path, for tests.
#[derive(Default)]
pub struct MemFiles {
    files: HashMap<String, Vec<u8>>,
}

impl MemFiles {
    pub fn new() -> MemFiles {
        MemFiles::default()
    }
    pub fn with(mut self, path: &str, text: &str) -> MemFiles {
        self.files.insert(path.to_owned(), text.as_bytes().to_vec());
        self
    }
}

impl FileSource for MemFiles {
    fn read(&self, path: &str) -> Result<Option<Vec<u8>>, String> {
        Ok(self.files.get(path).cloned())
    }

    /// A path is a directory when a file lies below it.
    fn entry(&self, path: &str) -> Entry {
        if self.files.contains_key(path) {
            return Entry::File;
        }
        let dir = path.trim_end_matches('/');
        if self.files.keys().any(|f| f.strip_prefix(dir).is_some_and(|rest| rest.starts_with('/'))) {
            Entry::Dir
        } else {
            Entry::Missing
        }
    }
}

/// Joins `path` onto `cwd` the way the shell resolves it, folding `.` and `..`.
/// Returns `None` when the result cannot be known (relative path and no cwd).
pub fn resolve(path: &str, cwd: Option<&str>, home: Option<&str>) -> Option<String> {
    // Every classified word that may be a path comes through here (issue 14): one
    // allocation, the components folded as they are appended.
    let (base, rest) = if let Some(rest) = path.strip_prefix("~/") {
        (home?, rest)
    } else if path == "~" {
        (home?, "")
    } else if path.starts_with('/') {
        ("", path)
    } else {
        (cwd?, path)
    };
    let mut out = String::with_capacity(base.len() + rest.len() + 1);
    for s in [base, rest] {
        // Components split on `/` byte by byte (cheaper than a searcher per component).
        let mut start = 0;
        for (i, &c) in s.as_bytes().iter().chain(b"/").enumerate() {
            if c != b'/' {
                continue;
            }
            match &s[start..i] {
                "" | "." => {}
                ".." => out.truncate(out.rfind('/').unwrap_or(0)),
                p => {
                    out.push('/');
                    out.push_str(p);
                }
            }
            start = i + 1;
        }
    }
    if out.is_empty() {
        out.push('/');
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::resolve;

    #[test]
    fn resolve_folds_dots() {
        assert_eq!(resolve("../b/./c", Some("/w/a"), None).as_deref(), Some("/w/b/c"));
        assert_eq!(resolve("~/x", None, Some("/home/u")).as_deref(), Some("/home/u/x"));
        assert_eq!(resolve("x", None, None), None);
        assert_eq!(resolve("..", Some("/"), None).as_deref(), Some("/"));
        assert_eq!(resolve("a/../..//b/", Some("/w"), None).as_deref(), Some("/b"));
        assert_eq!(resolve("~", None, Some("/home/u/")).as_deref(), Some("/home/u"));
        assert_eq!(resolve("/", None, None).as_deref(), Some("/"));
        assert_eq!(resolve("x", Some("rel/dir"), None).as_deref(), Some("/rel/dir/x"));
    }

    /// `resolve` as it was written before its byte loop: the reference it must equal.
    fn by_split(path: &str, cwd: Option<&str>, home: Option<&str>) -> Option<String> {
        let (base, rest) = if let Some(rest) = path.strip_prefix("~/") {
            (home?, rest)
        } else if path == "~" {
            (home?, "")
        } else if path.starts_with('/') {
            ("", path)
        } else {
            (cwd?, path)
        };
        let mut out = String::new();
        for part in base.split('/').chain(rest.split('/')) {
            match part {
                "" | "." => {}
                ".." => out.truncate(out.rfind('/').unwrap_or(0)),
                p => {
                    out.push('/');
                    out.push_str(p);
                }
            }
        }
        if out.is_empty() {
            out.push('/');
        }
        Some(out)
    }

    const PIECES: &[&str] = &["a", "b.c", "..", ".", "/", "~", "~/", " ", "-"];

    proptest::proptest! {
        /// `resolve` equals the split-based reference, and what it gives it gives
        /// back unchanged: `Protected::check_resolved`
        /// skips resolving a path that came from here again.
        #[test]
        fn a_resolved_path_resolves_to_itself(
            path in proptest::collection::vec(proptest::sample::select(PIECES), 0..12),
            cwd in proptest::option::of("(/?[a.]{0,3}){0,4}"),
        ) {
            let path = path.concat();
            proptest::prop_assert_eq!(resolve(&path, cwd.as_deref(), Some("/h/u")), by_split(&path, cwd.as_deref(), Some("/h/u")));
            if let Some(once) = resolve(&path, cwd.as_deref(), Some("/h/u")) {
                let twice = resolve(&once, Some("/"), None);
                proptest::prop_assert_eq!(twice.as_deref(), Some(once.as_str()), "{:?}", path);
            }
        }
    }
}
