//! The engine as the families see it (`rules::Engine`): nested shell source and
//! argument vectors classified as units, file reads through the `FileSource`,
//! and the request's home, root and protected paths.

use super::Inherited;
use super::{engine_hit, Eng};
use crate::call::{Arg, Invocation};
use crate::lanes::{resolve, Entry, Written, MAX_FILE_BYTES};
use crate::limits::MAX_DEPTH;
use crate::parse::model::{Simple, Word};
use crate::protect::Protected;
use crate::rules::{self, Engine, FileText, Hit, WRITTEN_ON_LINE as UNSEEN};

/// How many states of one file `Eng::versions` follows before it gives up (and asks).
const MAX_VERSIONS: usize = 8;

impl Eng<'_> {
    /// Classifies an argv as one unit; `input` is what it inherits from the unit
    /// that runs it (a runner's child reads the runner's heredoc, pipe or file).
    fn run_argv(&mut self, args: &[Arg], cwd: Option<&str>, input: Option<Inherited>) -> Vec<Hit> {
        if args.is_empty() {
            return Vec::new();
        }
        if self.depth >= MAX_DEPTH {
            return vec![engine_hit(&rules::LIMITS_DEPTH)];
        }
        let words = args
            .iter()
            .map(|a| Word { text: a.text.clone(), exact: a.exact, quoted: a.quoted, subs: Vec::new(), opaque: false, span: a.span, secret: a.secret })
            .collect();
        let mut s = Simple { assigns: Vec::new(), words, redirects: Vec::new(), procsubs: Vec::new(), span: args[0].span };
        let inherits = input.is_some();
        self.depth += 1;
        self.inherited = input;
        let (hits, child) = self.simple(&mut s, cwd, None);
        self.inherited = None;
        self.depth -= 1;
        if inherits {
            self.handed = child.map(|c| (self.depth, c));
        }
        hits
    }
}

impl Engine for Eng<'_> {
    fn shell(&mut self, src: &str, cwd: Option<&str>) -> Vec<Hit> {
        self.source(src, cwd)
    }

    fn argv(&mut self, args: &[Arg], cwd: Option<&str>) -> Vec<Hit> {
        self.run_argv(args, cwd, None)
    }

    fn argv_inheriting(&mut self, args: &[Arg], parent: &Invocation) -> Vec<Hit> {
        let input = Inherited { stdin: parent.stdin.clone(), piped: parent.piped, secret: parent.secret_input };
        self.run_argv(args, parent.cwd.as_deref(), Some(input))
    }

    fn read(&mut self, path: &str, cwd: Option<&str>) -> FileText {
        let Some(abs) = resolve(path, cwd, self.home) else {
            return FileText::Unusable("relative path and no working directory");
        };
        // What is on disk now is not what this unit will read when the line wrote it
        // first (`echo 'rm -rf ~' > ./x.sh; bash ./x.sh` over a harmless x.sh): the text
        // the line shows, or unreadable.
        if let Some(text) = self.written_text(&abs) {
            return text;
        }
        self.on_disk(&abs)
    }

    fn read_versions(&mut self, path: &str, cwd: Option<&str>) -> Vec<FileText> {
        match resolve(path, cwd, self.home) {
            Some(abs) if self.earlier_writes(&abs).next().is_some() => self.versions(&abs),
            _ => vec![self.read(path, cwd)],
        }
    }

    fn entry(&self, path: &str, cwd: Option<&str>) -> Entry {
        resolve(path, cwd, self.home).map_or(Entry::Unknown, |abs| self.files.entry(&abs))
    }

    fn home(&self) -> Option<&str> {
        self.home
    }

    fn root(&self) -> Option<&str> {
        self.root
    }

    fn protected(&self) -> &Protected {
        &self.protect
    }

    fn canonical(&self, absolute_path: &str) -> Option<String> {
        self.files.canonical(absolute_path)
    }

    fn wrote(&mut self, path: Option<String>, dir: bool) {
        if let Some(w) = &mut self.writes {
            w.push(Written { path, text: None, append: false });
            // A created directory is never "written earlier" for a later unit.
            self.write_units.push(if dir { usize::MAX } else { self.judging });
        }
    }

    fn written_earlier(&self, path: &str, cwd: Option<&str>) -> bool {
        resolve(path, cwd.or(self.root), self.home).is_some_and(|abs| self.earlier_writes(&abs).next().is_some())
    }
}

impl Eng<'_> {
    /// The writes units numbered before the one being judged made to `abs` or to a
    /// directory above it, in order.
    fn earlier_writes<'a>(&'a self, abs: &'a str) -> impl Iterator<Item = &'a Written> + 'a {
        let writes = self.writes.as_deref().unwrap_or_default();
        writes.iter().zip(&self.write_units).filter(move |(_, unit)| **unit < self.judging).map(|(w, _)| w).filter(move |w| {
            w.path.as_deref().is_some_and(|p| abs.strip_prefix(p).is_some_and(|rest| rest.is_empty() || rest.starts_with('/') || p.ends_with('/')))
        })
    }

    /// What the file source holds at `abs` now, as `Engine::read` answers it.
    fn on_disk(&self, abs: &str) -> FileText {
        // `/dev/stdin`, `/dev/fd/0`, `/proc/self/fd/0` are the command's own input (its
        // heredoc, its pipe), not a file: read here they would be tiergate's input. Other
        // device and process files are streams or kernel state, never the text the
        // command will run. `/dev/null` reads as what it is.
        if abs == "/dev/null" {
            return FileText::Text(String::new());
        }
        if abs.starts_with("/dev/") || abs.starts_with("/proc/") {
            return FileText::Unusable("a device or process file (the command's own input, a stream), not a script");
        }
        match self.files.read(abs) {
            Ok(None) => FileText::Missing,
            Ok(Some(bytes)) if bytes.len() > MAX_FILE_BYTES => FileText::Unusable("too large"),
            Ok(Some(bytes)) => match String::from_utf8(bytes) {
                Ok(s) if !s.contains('\0') => FileText::Text(s),
                _ => FileText::Unusable("not text"),
            },
            Err(_) => FileText::Unusable("unreadable"),
        }
    }

    /// Every state the line's earlier writes can leave `abs` in when the unit being
    /// judged runs: after `;`, a newline, `||` or `&` a write may not have happened,
    /// or only some of several did (the syntax model keeps no separators). So: the
    /// file on disk now, then each write applied to each state so far. A disk with
    /// no file drops out: a write that failed leaves nothing to run. A write whose
    /// text the line does not show, or one to a directory holding `abs` (`cp -r`),
    /// leaves a state tiergate cannot see, and so do more than `MAX_VERSIONS` states.
    /// A write cut short (a full disk) leaves a prefix of its text: not listed here,
    /// which is why only a runner that compiles the whole file before it runs any
    /// of it may use these (`Engine::read_versions`).
    fn versions(&self, abs: &str) -> Vec<FileText> {
        let unseen = || vec![FileText::Unusable(UNSEEN)];
        let mut states = vec![self.on_disk(abs)];
        for w in self.earlier_writes(abs) {
            let (Some(text), true) = (&w.text, w.path.as_deref() == Some(abs)) else { return unseen() };
            let next: Vec<FileText> = states
                .iter()
                .map(|s| match (s, w.append) {
                    (FileText::Text(old), true) => FileText::Text(format!("{old}{text}")),
                    (FileText::Unusable(why), true) => FileText::Unusable(why),
                    _ => FileText::Text(text.clone()),
                })
                .collect();
            for n in next {
                if !states.contains(&n) {
                    states.push(n);
                }
            }
            if states.len() > MAX_VERSIONS || states.iter().any(|s| matches!(s, FileText::Text(t) if t.len() > MAX_FILE_BYTES)) {
                return unseen();
            }
        }
        states.retain(|s| *s != FileText::Missing);
        states
    }

    /// What `abs` holds for the unit being judged when an earlier unit on the line
    /// wrote it: unreadable, never the text on disk now. Not the text the line shows
    /// either: after `;` or a newline a write that fails (a read-only file, a full
    /// disk) leaves the old file in place, and the syntax model does not keep the
    /// separators that would tell `&&` apart. `None` when the line did not write it.
    fn written_text(&self, abs: &str) -> Option<FileText> {
        self.earlier_writes(abs).next().map(|_| FileText::Unusable(UNSEEN))
    }
}
