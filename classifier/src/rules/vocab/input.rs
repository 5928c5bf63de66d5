//! A program's standard input, read in one place. The engine records what the
//! shell text shows (`Stdin`: a heredoc, a here-string, `< file`, a pipe); this
//! module is the only reader of it. Two views:
//!
//! - [`of`]: where the input comes from, without reading anything (a family that
//!   judges a `< file` by its name, or only asks whether input is given);
//! - [`Cx::input`]: the text itself when tiergate can see it — a heredoc, a
//!   here-string, visible pipe text (the engine turns `echo 'x' | prog` into a
//!   here-string), or a file read through the `FileSource` — or why it cannot.

use crate::call::{Invocation, Stdin};
use crate::rules::{Cx, FileText};
use crate::words::Words;

/// Where a program's input comes from, as the command line shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Source<'a> {
    /// Nothing visible: the terminal, or a stream the command inherits.
    None,
    /// Text written on the command line: a heredoc or a here-string (visible
    /// pipe text arrives as one). `expands` is true for an unquoted heredoc
    /// delimiter, whose body the shell expands before the program reads it.
    Shown { text: &'a str, expands: bool, heredoc: bool },
    /// `< path`.
    File(&'a str),
    /// The previous pipeline stage's output, which the command line does not show
    /// (the flow pass judges the pipeline as a whole).
    Pipe,
}

/// Where `inv`'s input comes from (nothing is read).
pub(crate) fn of(inv: &Invocation) -> Source<'_> {
    match &inv.stdin {
        Stdin::None => Source::None,
        Stdin::Heredoc { body, expands } => Source::Shown { text: body, expands: *expands, heredoc: true },
        Stdin::HereString(s) => Source::Shown { text: s, expands: false, heredoc: false },
        Stdin::File(path) => Source::File(path),
        Stdin::Pipe { .. } => Source::Pipe,
    }
}

/// The text written on the command line for `inv`'s input (a heredoc or a
/// here-string), if any.
pub(crate) fn shown(inv: &Invocation) -> Option<&str> {
    match of(inv) {
        Source::Shown { text, .. } => Some(text),
        _ => None,
    }
}

/// True when a program that takes code inline (`inline`: `-e`, `-c` …) or as a
/// script operand reads it from its input instead: no word at all, a lone `-`, or
/// neither inline code nor an operand.
pub(crate) fn reads_code_unless(inv: &Invocation, inline: Words) -> bool {
    match inv.words().next() {
        None | Some("-") => true,
        Some(_) => !inv.words().any(|w| inline.contains(w)) && inv.bare_words().next().is_none(),
    }
}

/// What a program reads on its input, when tiergate can see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Input {
    /// No input is given.
    None,
    /// The text the program reads.
    Seen(String),
    /// Input is given but tiergate cannot see it; the reason says which.
    Unseen(&'static str),
}

impl Cx<'_> {
    /// `inv`'s input as text: shown text as it is, `< file` read through the
    /// `FileSource` relative to the unit's working directory.
    pub(crate) fn input(&mut self, inv: &Invocation) -> Input {
        match of(inv) {
            Source::None => Input::None,
            Source::Shown { text, .. } => Input::Seen(text.to_owned()),
            Source::File(path) => match self.read(path, inv.cwd.as_deref()) {
                FileText::Text(t) => Input::Seen(t),
                _ => Input::Unseen("a file tiergate cannot read"),
            },
            Source::Pipe => Input::Unseen("the previous stage's output"),
        }
    }
}
