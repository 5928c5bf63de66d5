//! What a command writes, and a file source that remembers it: an agent writes
//! `reproduce.py` with a heredoc, then runs `python reproduce.py`; replayed one
//! command at a time against an empty tree the second asks because the file is
//! missing. `Written` is what the units saw a command write — every path that went
//! through `vocab::writes::check_write`, with the text when the command line shows it
//! (`cat > f <<EOF`, `echo … > f`, `printf … >> f`, `… | tee f`). An `Overlay` keeps
//! those writes over another `FileSource`, so a later command reads what an earlier
//! one wrote. Pure: it reads only through the source below it.
//!
//! A write whose text is not on the command line (`cp`, `sed -i`, `python gen.py > f`)
//! makes the file unreadable in the overlay, never stale: the lanes answer T3 for it,
//! as for any file they cannot read.

use std::collections::HashMap;

use super::{Entry, FileSource};

/// One write a command makes, in the order the shell makes them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// The absolute path, or None when the target is computed (`> "$F"`).
    pub path: Option<String>,
    /// The bytes written, when the command line shows them.
    pub text: Option<String>,
    /// `>>`, `tee -a`: appended to what the file held.
    pub append: bool,
}

/// How much text the overlays of one process keep together (every session of a
/// `tiergate batch` run shares it, however many sessions its input names); past it,
/// further writes are unknown content, which reads as unreadable and asks.
pub const MAX_OVERLAY_BYTES: usize = 64 * 1024 * 1024;

/// The files earlier commands wrote: known text, or `None` for written with
/// contents tiergate cannot see.
#[derive(Default)]
pub struct Overlay {
    files: HashMap<String, Option<Vec<u8>>>,
}

impl Overlay {
    pub fn new() -> Overlay {
        Overlay::default()
    }

    /// Applies one command's writes, in order. `under` supplies what a file held
    /// before the session touched it (for `>>`). `budget` is the text the overlays
    /// sharing it may still keep (start from `MAX_OVERLAY_BYTES`): a text past it is
    /// kept as unknown content.
    pub fn apply(&mut self, writes: &[Written], under: &dyn FileSource, budget: &mut usize) {
        for w in writes {
            let Some(path) = &w.path else { continue };
            let text = match (&w.text, w.append) {
                (None, _) => None,
                (Some(t), false) => Some(t.as_bytes().to_vec()),
                (Some(t), true) => match self.files.get(path) {
                    Some(Some(old)) => Some([old.as_slice(), t.as_bytes()].concat()),
                    Some(None) => None,
                    None => match under.read(path) {
                        Ok(Some(old)) => Some([old.as_slice(), t.as_bytes()].concat()),
                        Ok(None) => Some(t.as_bytes().to_vec()),
                        Err(_) => None,
                    },
                },
            };
            let text = text.filter(|t| t.len() <= *budget);
            *budget -= text.as_ref().map_or(0, Vec::len);
            self.files.insert(path.clone(), text);
        }
    }

    /// This overlay read over `under`.
    pub fn over<'a>(&'a self, under: &'a dyn FileSource) -> Layered<'a> {
        Layered { overlay: self, under }
    }
}

/// An overlay read over another file source.
pub struct Layered<'a> {
    overlay: &'a Overlay,
    under: &'a dyn FileSource,
}

impl FileSource for Layered<'_> {
    fn read(&self, path: &str) -> Result<Option<Vec<u8>>, String> {
        match self.overlay.files.get(path) {
            Some(Some(text)) => Ok(Some(text.clone())),
            Some(None) => Err(format!("{path} was written earlier in this session with contents tiergate cannot see")),
            None => self.under.read(path),
        }
    }

    fn canonical(&self, path: &str) -> Option<String> {
        self.under.canonical(path)
    }

    /// A file an earlier step wrote is there; anything else is what the source below
    /// says (which sees symlinks and directories, as `read` does not).
    fn entry(&self, path: &str) -> Entry {
        if self.overlay.files.contains_key(path) {
            return Entry::File;
        }
        self.under.entry(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lanes::{MemFiles, NoFiles};

    fn w(path: &str, text: Option<&str>, append: bool) -> Written {
        Written { path: Some(path.into()), text: text.map(str::to_owned), append }
    }

    #[test]
    fn later_writes_replace_and_append_and_unknown_text_is_unreadable() {
        let mut o = Overlay::new();
        let mut left = MAX_OVERLAY_BYTES;
        let budget = &mut left;
        o.apply(&[w("/t/a", Some("one\n"), false), w("/t/a", Some("two\n"), true)], &NoFiles, budget);
        assert_eq!(o.over(&NoFiles).read("/t/a"), Ok(Some(b"one\ntwo\n".to_vec())));
        o.apply(&[w("/t/a", None, false)], &NoFiles, budget);
        assert!(o.over(&NoFiles).read("/t/a").is_err());
        // Appending to a file the session never wrote starts from what the tree holds.
        let under = MemFiles::new().with("/t/b", "base\n");
        o.apply(&[w("/t/b", Some("more\n"), true)], &under, budget);
        assert_eq!(o.over(&under).read("/t/b"), Ok(Some(b"base\nmore\n".to_vec())));
        // Untouched paths read through; computed paths are not written anywhere.
        assert_eq!(o.over(&under).read("/t/c"), Ok(None));
        o.apply(&[Written { path: None, text: Some("x".into()), append: false }], &under, budget);
        assert_eq!(o.files.len(), 2);
    }

    #[test]
    fn overlays_sharing_a_budget_keep_no_text_past_it() {
        let (mut a, mut b) = (Overlay::new(), Overlay::new());
        let budget = &mut 10;
        a.apply(&[w("/t/a", Some("123456"), false)], &NoFiles, budget);
        assert_eq!(*budget, 4);
        // Past the budget the text is unknown: the file reads as unreadable, never as empty.
        b.apply(&[w("/t/b", Some("123456"), false)], &NoFiles, budget);
        assert!(b.over(&NoFiles).read("/t/b").is_err());
        b.apply(&[w("/t/c", Some("1234"), false)], &NoFiles, budget);
        assert_eq!(b.over(&NoFiles).read("/t/c"), Ok(Some(b"1234".to_vec())));
        assert_eq!(*budget, 0);
    }

    #[test]
    fn a_written_file_is_there_and_other_entries_come_from_below() {
        let mut o = Overlay::new();
        o.apply(&[w("/t/a", None, false)], &NoFiles, &mut 100);
        // Written with unseen contents: unreadable, yet certainly there (a rename onto it replaces it).
        assert_eq!(o.over(&NoFiles).entry("/t/a"), Entry::File);
        // Below sees nothing: it cannot say a path is absent, and neither can the overlay.
        assert_eq!(o.over(&NoFiles).entry("/t/b"), Entry::Unknown);
        let under = MemFiles::new().with("/t/d/x", "x\n");
        assert_eq!(o.over(&under).entry("/t/d"), Entry::Dir);
        assert_eq!(o.over(&under).entry("/t/c"), Entry::Missing);
    }
}
