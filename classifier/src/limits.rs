//! Work budgets: input bytes, nesting depth, unit count. Exceeding any gives T3
//! with a `limits.*` rule. Budgets count work, not time, so verdicts repeat.

/// Largest command the classifier parses.
pub const MAX_COMMAND_BYTES: usize = 256 * 1024;
/// Deepest nesting of substitutions, `bash -c` payloads and script files.
pub const MAX_DEPTH: u32 = 16;
/// Most executed units one command may expand into.
pub const MAX_UNITS: usize = 4096;
/// Most bracket/paren nesting the parser is handed (guards its recursion).
pub const MAX_SYNTAX_NESTING: usize = 200;
