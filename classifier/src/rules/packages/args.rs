//! Argv helpers shared by the `packages`, `system` and `containers` families:
//! positional words with value options skipped, help detection, verb tables.
//!
//! It knows no program; callers pass the options their CLI declares.

use crate::call::args::{ArgSpec, Args};
use crate::call::Arg;
use crate::words;
use crate::words::Words;

/// FEATURES.md §2 `MUTATIVE_VERBS`, used where a CLI's own table is unknown
/// (plugin goals, nested subcommands). A word's head before `-`, `_` or `:` counts too
/// (`delete-stack`), which is how a verb nmcli lists itself (`up`, `edit`) is still seen.
/// probe: `nmcli connection {}-x` T3 system.net.change
/// probe-except: `force-delete` `force-remove`: only the whole word matches (its head `force` is no verb); truth rows packages-0208/0209 hold them
pub(crate) const MUTATIVE_VERBS: Words = words![
    "apply", "create", "put", "insert", "register", "update", "patch", "set", "modify", "edit", "configure", "replace", "overwrite", "write", "deploy",
    "install", "upgrade", "downgrade", "publish", "promote", "scale", "resize", "autoscale", "start", "restart", "reboot", "reload", "refresh", "resume",
    "uncordon", "unsuspend", "enable", "disable", "suspend", "pause", "stop", "shutdown", "halt", "abort", "move", "rename", "copy", "sync", "import",
    "export", "migrate", "transfer", "attach", "bind", "connect", "mount", "exec", "execute", "invoke", "trigger", "send", "reply", "replay", "push", "merge",
    "rebase", "rollback", "grant", "assign", "revoke", "reconcile", "rsync", "delete", "destroy", "remove", "drop", "purge", "wipe", "clean", "cleanup",
    "trash", "shred", "srm", "truncate", "kill", "terminate", "uninstall", "unpublish", "drain", "evict", "cordon", "deregister", "detach", "disconnect",
    "unbind", "force-delete", "force-remove", "erase", "comment", "label", "annotate", "approve", "close", "reopen", "tag", "post", "add", "rm", "del", "up",
    "down", "run", "load", "unload", "release",
];

/// FEATURES.md §2 `READ_ONLY_VERBS` plus common spellings.
/// probe: `ctr {}` T0
pub(crate) const READ_VERBS: Words = words![
    "get", "list", "ls", "describe", "show", "read", "view", "inspect", "info", "status", "log", "logs", "tail", "head", "search", "find", "query", "scan",
    "fetch", "download", "version", "help", "whoami", "which", "explain", "top", "stat", "stats", "history", "tree", "env", "print", "dump", "check", "verify",
    "validate", "diff", "ps", "images", "cat",
];

/// Operand words as (index into `args`, text): a view of [`Args::operands`]: words that
/// are neither options nor the value of one of `value_opts` given as its own word.
pub(crate) fn operand_words(args: &[Arg], value_opts: Words) -> Vec<(usize, &str)> {
    Args::parse(args, ArgSpec::values(value_opts)).operands().map(|o| (o.index, o.arg.text.as_str())).collect()
}

/// Index of the first positional word, skipping `value_opts` values.
pub(crate) use crate::call::value_of;

pub(crate) fn first_positional(args: &[Arg], value_opts: Words) -> Option<usize> {
    operand_words(args, value_opts).first().map(|(i, _)| *i)
}

/// True when `--help` (or one of `extra`, such as `-h`) appears before `--` as an
/// option of its own, not as the value of the option before it (`call::stands_alone`:
/// `docker --config --help rm -f x` removes x).
pub(crate) fn wants_help(args: &[Arg], extra: Words) -> bool {
    crate::call::stands_alone(args, |w| w == "--help" || extra.contains(w))
}

pub(crate) use crate::call::{has_flag, has_short};

/// Which verb table a word falls in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verb {
    Read,
    Mutate,
    Unknown,
}

/// Looks a subcommand word up in a CLI's own tables, then the generic ones.
pub(crate) fn verb(word: &str, read: Words, mutate: Words) -> Verb {
    if mutate.contains(word) {
        Verb::Mutate
    } else if read.contains(word) {
        Verb::Read
    } else {
        let head = word.split(['-', '_', ':']).next().unwrap_or(word);
        if MUTATIVE_VERBS.contains(word) || MUTATIVE_VERBS.contains(head) {
            Verb::Mutate
        } else if READ_VERBS.contains(word) || READ_VERBS.contains(head) {
            Verb::Read
        } else {
            Verb::Unknown
        }
    }
}

/// Single-quotes `s` for the shell (for re-assembling argv into script text).
pub(crate) fn shell_quote(s: &str) -> String {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:@%+,".contains(c)) {
        return s.to_owned();
    }
    format!("'{}'", s.replace('\'', "'\\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<Arg> {
        s.split_whitespace().map(Arg::lit).collect()
    }

    #[test]
    fn value_options_are_skipped() {
        let a = args("-H host --context=x run -d nginx");
        let p: Vec<&str> = operand_words(&a, words!["-H"]).into_iter().map(|(_, w)| w).collect();
        assert_eq!(p, ["run", "nginx"]);
    }

    #[test]
    fn verbs_fall_back_to_generic_tables() {
        assert_eq!(verb("delete-stack", words![], words![]), Verb::Mutate);
        assert_eq!(verb("list-units", words![], words![]), Verb::Read);
        assert_eq!(verb("frobnicate", words![], words![]), Verb::Unknown);
    }

    #[test]
    fn quoting_round_trips_plain_words() {
        assert_eq!(shell_quote("--watch"), "--watch");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
    }
}
