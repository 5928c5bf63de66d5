//! Work budgets: input bytes, nesting depth, unit count. Exceeding any gives T3
//! with a `limits.*` rule. Budgets count work, not time, so verdicts repeat.

/// Largest command the classifier parses.
pub const MAX_COMMAND_BYTES: usize = 256 * 1024;
/// Deepest nesting of substitutions, `bash -c` payloads and script files.
pub const MAX_DEPTH: u32 = 32;
/// Most executed units one command may expand into.
pub const MAX_UNITS: usize = 4096;
/// Deepest syntax nesting (brackets, compound commands) the owned model keeps;
/// deeper input is refused, so the engine's recursion over it stays bounded.
pub const MAX_SYNTAX_NESTING: usize = 100;
/// Most nesting openers (brackets, backticks, `then`/`do`/`case`…) a source may
/// hold before it is refused unparsed; it sizes the parser's stack (32 KiB each).
pub const MAX_PARSE_OPENERS: usize = 5000;

/// Most `((` a source may hold before it is refused unparsed: brush-parser's
/// backtracking on unclosed runs of them is exponential.
pub const MAX_DOUBLE_PARENS: usize = 10;

/// Most unmatched `(` (outside quotes) a source may hold before it is refused as
/// a syntax error without parsing: the parser backtracks exponentially on them.
pub const MAX_UNCLOSED_PARENS: usize = 12;

/// Most bytes of shell source one request may parse in total, nested payloads
/// (`eval`, `bash -c`, scripts) included: `eval eval … x` re-parses the rest of
/// the line at every level, and work must stay bounded.
pub const MAX_PARSED_BYTES: usize = 256 * 1024;
