//! The owned syntax model the rest of the classifier reads. Built from the parser's
//! AST by `parse/mod.rs`; no parser type appears here.
//!
//! It keeps only what classification needs: sequential lists (for `cd` threading),
//! pipelines (for flows), simple commands with de-quoted words, redirections,
//! heredocs, and the bodies of every substitution that will execute.

use crate::verdict::Span;

/// Commands run one after another (`;`, `&&`, `||`, `&`, newline).
#[derive(Clone, Debug, Default)]
pub struct List {
    pub pipelines: Vec<Pipeline>,
}

/// `a | b | c`.
#[derive(Clone, Debug)]
pub struct Pipeline {
    pub stages: Vec<Stage>,
}

#[derive(Clone, Debug)]
pub enum Stage {
    Simple(Simple),
    /// Subshell, brace group, loop, conditional or function body, flattened.
    /// `words` holds the words the compound itself expands (`for x in WORDS`,
    /// `case WORD`), whose substitutions execute.
    Group {
        body: List,
        words: Vec<Word>,
        redirects: Vec<Redirect>,
        subshell: bool,
        span: Span,
        function: Option<String>,
        /// An unbounded loop (`while :`, `until false`, `for ((;;))`) that starts
        /// background jobs: it forks without end.
        forks_forever: bool,
        /// The variable a `for NAME in WORDS` loop sets to each of `words`.
        binds: Option<String>,
    },
    /// Something the model does not represent (coprocess, `[[ ]]` with
    /// substitutions, arithmetic with substitutions …): never allowed.
    Unsupported {
        what: &'static str,
        span: Span,
    },
}

/// One simple command.
#[derive(Clone, Debug)]
pub struct Simple {
    /// Leading `NAME=value` words (their substitutions execute).
    pub assigns: Vec<Word>,
    /// Program word and arguments.
    pub words: Vec<Word>,
    pub redirects: Vec<Redirect>,
    /// `<( )` / `>( )` bodies used as arguments.
    pub procsubs: Vec<List>,
    pub span: Span,
}

/// A word after de-quoting.
#[derive(Clone, Debug)]
pub struct Word {
    /// What bash would pass, with unresolved expansions left as source text.
    pub text: String,
    /// False if any part is an unresolved expansion (variable, substitution,
    /// glob in an unquoted part, brace expansion).
    pub exact: bool,
    /// True if any part was quoted or escaped.
    pub quoted: bool,
    /// Command-substitution bodies that run when the word expands.
    pub subs: Vec<String>,
    /// True if the word hides an expansion this model cannot see into
    /// (a substitution inside `${…}` or `$((…))`).
    pub opaque: bool,
    pub span: Span,
    /// Secret data the word is known to carry before its own expansions are
    /// read: set only for words the engine builds from arguments (a payload's
    /// argv), whose substitutions already ran; the parser leaves it `None`.
    pub secret: crate::call::Secret,
}

#[derive(Clone, Debug)]
pub enum Redirect {
    /// `[n]< file`.
    Read { fd: Option<i32>, target: Word },
    /// `>`, `>>`, `>|`, `<>`, `&>`, `&>>`: a write to `target`. (Where a write
    /// lands decides its tier; the fd and append mode say what text it holds, for
    /// `lanes::overlay`.)
    Write { fd: Option<i32>, target: Word, append: bool },
    /// `>&2`, `2>&1`, `<&0`: fd plumbing, no file.
    Dup,
    /// `<<EOF … EOF`. `expands` is false for a quoted delimiter.
    Heredoc { body: String, expands: bool, subs: Vec<String> },
    /// `<<< word`.
    HereString { word: Word },
    /// `> >(cmd)` / `< <(cmd)`.
    Process { body: List },
}
