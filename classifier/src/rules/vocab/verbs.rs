//! The verb taxonomy every family reads: what a command word says a command does
//! (FEATURES.md §2's read, validate, simulate and mutate verbs), and a CLI's own
//! override table. Part of the common vocabulary (`rules/vocab`): no family keeps
//! a verb list of its own that claims to be the original's.
//!
//! It does not decide tiers or fire rules; callers map a `Kind` to their own rules.

use crate::words::Words;

/// What a command word says the command does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Kind {
    Read,
    Validate,
    Simulate,
    Mutate,
}

crate::table! {
    /// FEATURES.md §2 `MUTATIVE_VERBS` (101) plus `prune` and `forget`: the one mutative-verb
    /// vocabulary. `add`, `run`, `commit`, `release`, `link` are deliberately absent in the
    /// original; the package CLIs (`PACKAGE_VERBS`), the version-control helpers
    /// (`HISTORY_VERBS`) and a CLI's own table add the words they use as verbs.
    pub(crate) MUTATIVE_VERBS = [
        "apply", "create", "put", "insert", "register", "update", "patch", "set", "modify", "edit", "configure", "replace", "overwrite", "write", "deploy",
        "install", "upgrade", "downgrade", "publish", "promote", "scale", "resize", "autoscale", "start", "restart", "reboot", "reload", "refresh", "resume",
        "uncordon", "unsuspend", "enable", "disable", "suspend", "pause", "stop", "shutdown", "halt", "abort", "move", "rename", "copy", "sync", "import",
        "export", "migrate", "transfer", "attach", "bind", "connect", "mount", "exec", "execute", "invoke", "trigger", "send", "reply", "replay", "push", "merge",
        "rebase", "rollback", "grant", "assign", "revoke", "reconcile", "rsync", "delete", "destroy", "remove", "drop", "purge", "wipe", "clean", "cleanup",
        "trash", "shred", "srm", "truncate", "kill", "terminate", "uninstall", "unpublish", "drain", "evict", "cordon", "deregister", "detach", "disconnect",
        "unbind", "force-delete", "force-remove", "erase", "comment", "label", "annotate", "approve", "close", "reopen", "tag", "post", "prune", "forget",
    ];
    probe "mytool {} item" => T3, "fallback.mutative-verb";
}

crate::table! {
    /// FEATURES.md §2 `SIMULATION_VERBS` (14), minus `validate`/`lint`/`check`/`fmt`/`format`/
    /// `verify`/`test`, which tiergate files as local validation (T1) where a CLI honours them.
    pub(crate) SIMULATION_VERBS = ["plan", "diff", "preview", "template", "render", "simulate", "what-if"];
    probe "mytool {}" => T2, "fallback.simulate-verb";
}

crate::table! {
    /// Local validation words (T1).
    pub(crate) VALIDATE_VERBS = ["validate", "lint", "check", "verify", "audit"];
    probe "mytool {}" => T1, "fallback.validate-verb";
}

crate::table! {
    /// FEATURES.md §2 `READ_ONLY_VERBS` plus `ls`, `du`, `wait`, as the CLIs that consult
    /// this table spell their reads (`hcloud server describe`, `wrangler tail`, `heroku
    /// config`, `az storage entity query`, `linode-cli obj du`). Left out: the original's
    /// words none of them has as a read command (git's blame, shortlog, reflog, merge-base;
    /// kubectl's explain, top, cluster-info, api-resources, which its own table holds;
    /// find, scan, fetch, whoami, which, stat, tree, cat, watch, lookup), and the ones
    /// that made a write read: `auth` (`az webapp auth update`), `read` (`linode-cli
    /// events mark-read`), `find` (`rtk find . -delete`, where find is the program run).
    /// In these lanes an unknown word is a change. Two probes: minikube lists `version` and
    /// skips `config` in its own table, heroku lists `inspect` and skips `env`.
    pub(crate) READ_ONLY_VERBS = [
        "get", "list", "describe", "show", "view", "inspect", "info", "status", "log", "logs", "tail", "head", "search", "query", "download", "version", "help",
        "history", "env", "config", "ls", "du", "wait",
    ];
    probe "minikube {}" => T0, "kube.tool.read";
    probe "heroku {}" => T0, "cloud.paas.read";
}

/// The two long taxonomies sorted (asked for every command word scanned; see `crate::sorted`).
static MUTATIVE_ORDER: [u16; MUTATIVE_VERBS.len()] = crate::sorted::order(MUTATIVE_VERBS);
static READ_ORDER: [u16; READ_ONLY_VERBS.len()] = crate::sorted::order(READ_ONLY_VERBS);

/// A CLI's own words, checked before the shared taxonomies. `skip` holds command
/// groups that look like verbs but are not (`gcloud auth …`, `gcloud config …`).
pub(crate) struct Table {
    pub read: Words,
    pub validate: Words,
    pub simulate: Words,
    pub mutate: Words,
    pub skip: Words,
}

#[cfg(test)]
impl Table {
    pub(crate) const EMPTY: Table =
        Table { read: crate::words![], validate: crate::words![], simulate: crate::words![], mutate: crate::words![], skip: crate::words![] };
}

fn exact(word: &str, t: &Table) -> Option<Kind> {
    if t.skip.contains(word) {
        return None;
    }
    // A CLI's own lists win over the shared taxonomy, strictest first.
    for (list, kind) in [(t.mutate, Kind::Mutate), (t.simulate, Kind::Simulate), (t.validate, Kind::Validate), (t.read, Kind::Read)] {
        if list.contains(word) {
            return Some(kind);
        }
    }
    // The shared order follows the original's verb scan: simulation, mutation, read.
    if SIMULATION_VERBS.contains(word) {
        return Some(Kind::Simulate);
    }
    if crate::sorted::contains(MUTATIVE_VERBS, &MUTATIVE_ORDER, word) {
        return Some(Kind::Mutate);
    }
    if VALIDATE_VERBS.contains(word) {
        return Some(Kind::Validate);
    }
    if crate::sorted::contains(READ_ONLY_VERBS, &READ_ORDER, word) {
        return Some(Kind::Read);
    }
    None
}

/// The kind of one command word: exact, then `topic:verb` (heroku, firebase), then the
/// part before the first `-` (`delete-vpc` → delete, `get-iam-policy` → get).
pub(crate) fn kind_of(word: &str, t: &Table) -> Option<Kind> {
    let lower = word.to_ascii_lowercase();
    let w = lower.as_str();
    if let Some(k) = exact(w, t) {
        return Some(k);
    }
    if t.skip.contains(w) {
        return None;
    }
    if let Some((_topic, verb)) = w.rsplit_once(':') {
        // `config:unset`, `hosting:channel:deploy`: the last segment decides; the topic never does.
        return exact(verb, t).or_else(|| verb.split('-').next().and_then(|p| exact(p, t)));
    }
    if let Some((head, rest)) = w.split_once('-') {
        // `admin-get-user`, `transact-write-items`: a qualifier says how the
        // operation is called, the verb after it says what it does.
        return exact(head, t).or_else(|| if QUALIFIERS.contains(head) { kind_of(rest, t) } else { None });
    }
    None
}

crate::table! {
    /// Words that qualify an operation's verb and are not one (AWS's `admin-` and
    /// `transact-` operations: `cognito-idp admin-get-user`, `dynamodb
    /// transact-get-items`): the compound is read by the verb after them. A
    /// compound whose remaining verb is unknown stays unknown, never a read.
    pub(crate) QUALIFIERS = ["admin", "transact"];
    probe "aws cognito-idp {}-get-user --username u" => T0, "cloud.aws.read";
}

/// The first of `words` (at most `limit`) that has a kind, with that word.
pub(crate) fn scan<'a>(words: &[&'a str], t: &Table, limit: usize) -> Option<(Kind, &'a str)> {
    words.iter().take(limit).find_map(|w| kind_of(w, t).map(|k| (k, *w)))
}

crate::table! {
    /// Mutative verbs of package, container and service CLIs beyond `MUTATIVE_VERBS`: words the
    /// original left out because elsewhere they name things (`add`, `run`), which these CLIs use
    /// as verbs. Read by [`verb`], on top of `MUTATIVE_VERBS`. A word's head before `-`, `_` or
    /// `:` counts too (`rm-volume`).
    pub(crate) PACKAGE_VERBS = ["add", "rm", "del", "up", "down", "run", "load", "unload"];
    probe "nmcli connection {}-x" => T3, "system.net.change";
}

crate::table! {
    /// Mutative verbs of version-control helpers beyond `MUTATIVE_VERBS` (git-extras, git-flow,
    /// git-town, git-branchless …): they discard work, rewrite or send history. Read by
    /// [`mutates_history`], on top of `MUTATIVE_VERBS`.
    pub(crate) HISTORY_VERBS = ["amend", "force", "land", "nuke", "obliterate", "pull", "release", "reset", "rewrite", "ship", "squash", "submit", "undo", "upload"];
    probe "git frob {}" => T3, "git.unknown.mutative";
}

crate::table! {
    /// Read verbs of package, container and service CLIs beyond `READ_ONLY_VERBS`. Read by
    /// [`verb`], on top of `READ_ONLY_VERBS`.
    pub(crate) PACKAGE_READS = [
        "read", "find", "scan", "fetch", "whoami", "which", "explain", "top", "stat", "stats", "tree", "print", "dump", "check", "verify", "validate", "diff",
        "ps", "images", "cat",
    ];
    probe "ctr {}" => T0;
}

/// True when `word` is a verb that changes state in a version-control helper's
/// vocabulary: `MUTATIVE_VERBS` and `HISTORY_VERBS`.
pub(crate) fn mutates_history(word: &str) -> bool {
    crate::sorted::contains(MUTATIVE_VERBS, &MUTATIVE_ORDER, word) || HISTORY_VERBS.contains(word)
}

/// Which verb table a word falls in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verb {
    Read,
    Mutate,
    Unknown,
}

/// Looks a subcommand word up in a CLI's own tables, then the shared taxonomy with
/// the package, container and service CLIs' verbs (`PACKAGE_VERBS`, `PACKAGE_READS`).
pub(crate) fn verb(word: &str, read: Words, mutate: Words) -> Verb {
    if mutate.contains(word) {
        Verb::Mutate
    } else if read.contains(word) {
        Verb::Read
    } else {
        let head = word.split(['-', '_', ':']).next().unwrap_or(word);
        let mutative = |w: &str| crate::sorted::contains(MUTATIVE_VERBS, &MUTATIVE_ORDER, w) || PACKAGE_VERBS.contains(w);
        let read = |w: &str| crate::sorted::contains(READ_ONLY_VERBS, &READ_ORDER, w) || PACKAGE_READS.contains(w);
        if mutative(word) || mutative(head) {
            Verb::Mutate
        } else if read(word) || read(head) {
            Verb::Read
        } else {
            Verb::Unknown
        }
    }
}

crate::tables![MUTATIVE_VERBS, QUALIFIERS, SIMULATION_VERBS, VALIDATE_VERBS, READ_ONLY_VERBS, PACKAGE_VERBS, HISTORY_VERBS, PACKAGE_READS];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words;

    #[test]
    fn hyphenated_operations_use_their_leading_verb() {
        assert_eq!(kind_of("delete-vpc", &Table::EMPTY), Some(Kind::Mutate));
        assert_eq!(kind_of("describe-instances", &Table::EMPTY), Some(Kind::Read));
        assert_eq!(kind_of("apps:destroy", &Table::EMPTY), Some(Kind::Mutate));
        assert_eq!(kind_of("pods", &Table::EMPTY), None);
    }

    #[test]
    fn qualified_operations_use_the_verb_after_the_qualifier() {
        assert_eq!(kind_of("admin-get-user", &Table::EMPTY), Some(Kind::Read));
        assert_eq!(kind_of("transact-get-items", &Table::EMPTY), Some(Kind::Read));
        assert_eq!(kind_of("transact-write-items", &Table::EMPTY), Some(Kind::Mutate));
        assert_eq!(kind_of("admin-delete-user", &Table::EMPTY), Some(Kind::Mutate));
        // A qualifier before a word with no kind says nothing.
        assert_eq!(kind_of("admin-initiate-auth", &Table::EMPTY), None);
        assert_eq!(kind_of("admin", &Table::EMPTY), None);
    }

    #[test]
    fn verbs_fall_back_to_generic_tables() {
        assert_eq!(verb("delete-stack", words![], words![]), Verb::Mutate);
        assert_eq!(verb("list-units", words![], words![]), Verb::Read);
        assert_eq!(verb("frobnicate", words![], words![]), Verb::Unknown);
    }
}
