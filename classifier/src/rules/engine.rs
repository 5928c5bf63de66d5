//! Rules the engine itself applies, whatever the program: parse failures, budgets,
//! opaque command words, wrapper options it cannot see past, and the default for
//! a fully seen program no family marks (safe by elimination).

use super::{Family, Rule};
use crate::words;

pub static FAMILY: Family = Family::new("engine", &[], RULES);

static RULES: &[&Rule] = &[
    &PARSE_UNSUPPORTED, &PARSE_OPAQUE, &LIMITS_DEPTH, &LIMITS_SIZE, &LIMITS_UNITS, &LIMITS_NESTING, &WRAPPER_UNKNOWN_OPTION, &WRAPPER_ROOT_SHELL,
    &WRAPPER_SHELL, &WRAPPER_RUNS, &DEFAULT_ELIMINATION, &DEFAULT_EMPTY, &INTERNAL_ERROR,
];

/// ## What it matches
/// Nothing on purpose: a bug inside the classifier (a caught panic).
/// ## Why this tier
/// An internal error must never allow; the user decides.
pub static INTERNAL_ERROR: Rule =
    Rule::t3("internal.error").reason("tiergate hit an internal error while classifying this command; asking instead (please report it)");

/// ## What it matches
/// Shell text the parser rejects: unterminated quotes or heredocs, stray operators.
/// ## Why this tier
/// What would run is unknown, so it is never allowed silently.
pub static PARSE_UNSUPPORTED: Rule = Rule::t3("parse.unsupported")
    .reason("the command could not be parsed as shell; check its quoting, or split it into simpler commands")
    .matches(words!["echo 'unterminated", "cat <<EOF\nno end", "ls )"])
    .not_matches(words!["echo 'terminated'"]);

/// ## What it matches
/// An expansion the model cannot see into: a command substitution inside `${…}`
/// or `$((…))`, a word the word parser rejects, or a brace expansion of more
/// words than the parser's budget (`{1..5000}`, `parse/braces.rs`).
/// ## Why this tier
/// The hidden command runs, and an unexpanded brace word could be any words; unknown is not safe.
pub static PARSE_OPAQUE: Rule = Rule::t3("parse.opaque-expansion")
    .reason("an expansion hides what runs (a command substitution inside a parameter or arithmetic expansion, or a brace expansion past 1,024 words); run the inner command on its own or write the words out")
    .matches(words!["echo ${X:-$((1 + $(id -u)))}", "echo $(( $(id -u) + 1 ))", "echo {1..5000}"])
    .not_matches(words!["echo ${HOME}", "echo $((1 + 2))", "echo {1..50}"]);

/// ## What it matches
/// Substitutions, `bash -c` payloads or scripts nested past the depth budget.
/// ## Why this tier
/// The budget bounds work; whatever lies past it is unseen.
pub static LIMITS_DEPTH: Rule = Rule::t3("limits.depth").reason("the command nests too deeply to inspect; flatten it into separate commands");

/// ## What it matches
/// A command larger than the byte budget.
/// ## Why this tier
/// Too large to inspect within budget; unseen is not safe.
pub static LIMITS_SIZE: Rule = Rule::t3("limits.size").reason("the command is too large to inspect; run it as a script file the user can review");

/// ## What it matches
/// A command that expands into more executed units than the budget.
/// ## Why this tier
/// Unseen units could do anything.
pub static LIMITS_UNITS: Rule = Rule::t3("limits.units").reason("the command has too many parts to inspect; split it up");

/// ## What it matches
/// Bracket nesting deep enough to threaten the parser's stack.
/// ## Why this tier
/// Refused before parsing; unseen is not safe.
pub static LIMITS_NESTING: Rule = Rule::t3("limits.nesting").reason("the command nests brackets too deeply to parse safely; flatten it");

/// ## What it matches
/// A wrapper option the wrapper table does not declare (`sudo --frobnicate rm x`).
/// ## Why this tier
/// Without knowing whether the option takes a value, the target command is unknown.
pub static WRAPPER_UNKNOWN_OPTION: Rule = Rule::t3("wrapper.unknown-option")
    .reason("a wrapper option tiergate does not know hides which command runs; drop the option or run the command directly")
    .matches(words!["sudo --frobnicate ls", "timeout --bogus 5 ls"])
    .not_matches(words!["sudo -u deploy ls", "timeout -s KILL 5 ls"]);

/// ## What it matches
/// A wrapper that opens a shell or runs as another user with no command (`sudo -s`, `su`).
/// ## Why this tier
/// An interactive privileged shell can do anything.
pub static WRAPPER_ROOT_SHELL: Rule = Rule::t3("wrapper.shell")
    .reason("this opens a shell as another user; run the specific command instead")
    .matches(words!["sudo -s", "sudo -i", "su", "su - root"])
    .not_matches(words!["sudo -l", "sudo -u deploy ls"]);

/// ## What it matches
/// Nothing in a verdict: `explain` shows it on a unit reached through a wrapper, naming what the wrapper runs (`tmux new-session` runs its argument as a command).
/// ## Why this tier
/// Informational: the wrapped command's own verdict is what counts.
pub static WRAPPER_RUNS: Rule = Rule::t0("wrapper.runs").reason("the wrapper runs the command it is given; that command decides");

/// ## What it matches
/// A runner given nothing to run that then starts an interactive shell (`tmux`, `screen`, `unshare -r`, `script`, `setarch x86_64`).
/// ## Why this tier
/// The shell's commands are typed later and never seen.
pub static WRAPPER_SHELL: Rule = Rule::t3("wrapper.interactive-shell")
    .reason("starts an interactive shell whose commands are not visible; run the specific command instead")
    .matches(words!["tmux", "tmux new-session -s work", "unshare -r", "script", "screen -S x", "setarch x86_64", "echo 'rm -rf x' | parallel"])
    .not_matches(words!["tmux ls", "tmux new-session -d 'ls'", "script -c 'ls' /dev/null", "screen -ls"]);

/// ## What it matches
/// A literal, fully parsed and unwrapped program that no family marks.
/// ## Why this tier
/// Safe by elimination, the original's policy, but only for what was fully seen.
pub static DEFAULT_ELIMINATION: Rule = Rule::t0("default.elimination")
    .reason("no rule marks this command as changing anything")
    .matches(words!["ls -la", "echo hello", "jq . x.json"])
    .not_matches(words!["rm -rf build"]);

/// ## What it matches
/// An empty command or one that is only comments or assignments.
/// ## Why this tier
/// Nothing runs (assignment substitutions are classified on their own).
pub static DEFAULT_EMPTY: Rule = Rule::t0("default.empty").reason("nothing runs").matches(words!["", "# just a comment", "A=1"]);
