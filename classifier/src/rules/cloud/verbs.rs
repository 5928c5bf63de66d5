//! Shared verb classification and argv splitting for the CLI families (`kube`,
//! `iac`, `cloud`): the original's three verb taxonomies (FEATURES.md §2), a
//! per-CLI override table, help-flag detection, and a splitter that removes
//! option values so the command path is found exactly.
//!
//! It does not decide tiers or fire rules; callers map a `Kind` to their own rules.

use crate::call::args::{ArgSpec, Args, Token};
use crate::call::Arg;
use crate::words;
use crate::words::Words;

/// What a command word says the command does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Kind {
    Read,
    Validate,
    Simulate,
    Mutate,
}

/// FEATURES.md §2 `MUTATIVE_VERBS` (101). `add`, `run`, `commit`, `release`, `link` are
/// deliberately absent in the original; CLIs that need them list them in their own table.
/// probe: `mytool {} item` T3 fallback.mutative-verb
pub(crate) const MUTATIVE_VERBS: Words = words![
    "apply", "create", "put", "insert", "register", "update", "patch", "set", "modify", "edit", "configure", "replace", "overwrite", "write", "deploy",
    "install", "upgrade", "downgrade", "publish", "promote", "scale", "resize", "autoscale", "start", "restart", "reboot", "reload", "refresh", "resume",
    "uncordon", "unsuspend", "enable", "disable", "suspend", "pause", "stop", "shutdown", "halt", "abort", "move", "rename", "copy", "sync", "import",
    "export", "migrate", "transfer", "attach", "bind", "connect", "mount", "exec", "execute", "invoke", "trigger", "send", "reply", "replay", "push", "merge",
    "rebase", "rollback", "grant", "assign", "revoke", "reconcile", "rsync", "delete", "destroy", "remove", "drop", "purge", "wipe", "clean", "cleanup",
    "trash", "shred", "srm", "truncate", "kill", "terminate", "uninstall", "unpublish", "drain", "evict", "cordon", "deregister", "detach", "disconnect",
    "unbind", "force-delete", "force-remove", "erase", "comment", "label", "annotate", "approve", "close", "reopen", "tag", "post", "prune", "forget",
];

/// FEATURES.md §2 `SIMULATION_VERBS` (14), minus `validate`/`lint`/`check`/`fmt`/`format`/
/// `verify`/`test`, which tiergate files as local validation (T1) where a CLI honours them.
/// probe: `mytool {}` T2 fallback.simulate-verb
pub(crate) const SIMULATION_VERBS: Words = words!["plan", "diff", "preview", "template", "render", "simulate", "what-if"];

/// Local validation words (T1).
/// probe: `mytool {}` T1 fallback.validate-verb
pub(crate) const VALIDATE_VERBS: Words = words!["validate", "lint", "check", "verify", "audit"];

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
/// probe: `minikube {}` T0 kube.tool.read
/// probe: `heroku {}` T0 cloud.paas.read
pub(crate) const READ_ONLY_VERBS: Words = words![
    "get", "list", "describe", "show", "view", "inspect", "info", "status", "log", "logs", "tail", "head", "search", "query", "download", "version", "help",
    "history", "env", "config", "ls", "du", "wait",
];

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
    pub(crate) const EMPTY: Table = Table { read: words![], validate: words![], simulate: words![], mutate: words![], skip: words![] };
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
    if let Some((head, _)) = w.split_once('-') {
        return exact(head, t);
    }
    None
}

/// The first of `words` (at most `limit`) that has a kind, with that word.
pub(crate) fn scan<'a>(words: &[&'a str], t: &Table, limit: usize) -> Option<(Kind, &'a str)> {
    words.iter().take(limit).find_map(|w| kind_of(w, t).map(|k| (k, *w)))
}

/// A help request word (FEATURES.md §6a).
pub(crate) fn is_help(word: &str) -> bool {
    matches!(word, "--help" | "-h" | "-?" | "--usage" | "-help")
}

/// Option spellings a CLI declares: which take a value, and (for `greedy` CLIs such
/// as `aws` and `az`, where nearly every option takes one) which do not.
pub(crate) struct Opts {
    pub values: Words,
    pub bools: Words,
    pub greedy: bool,
}

/// An argv with option values separated from the command path.
#[derive(Debug, Default)]
pub(crate) struct Argv<'a> {
    /// Non-option words before `--`, option values removed.
    pub pos: Vec<&'a str>,
    /// For each word of `pos`: true when it directly follows an option word the CLI's `Opts`
    /// do not declare (`skaffold -v info run`), so it may be that option's value rather than a command word.
    pub after_undeclared: Vec<bool>,
    /// Option words before `--` (`--namespace=prod`, `-n`, `--all`).
    pub flags: Vec<&'a str>,
    /// Words after `--`.
    pub rest: Vec<&'a str>,
    /// True when a standalone help word appears before `--` (not as an option value).
    pub help: bool,
    /// Every non-option word before `--`, values included: a superset for floor checks,
    /// so an undeclared value option can never hide a blocked path.
    pub words: Vec<&'a str>,
}

impl<'a> Argv<'a> {
    /// True when an option with this name is present (`--all`, `--all=true`).
    pub(crate) fn has(&self, name: &str) -> bool {
        self.flags.iter().any(|f| *f == name || f.strip_prefix(name).is_some_and(|r| r.starts_with('=')))
    }

    /// The value of `--name=v`, `--name v`, `-n v` or `-nv` (read from the raw argv).
    pub(crate) fn value(&self, args: &'a [Arg], names: Words) -> Option<&'a str> {
        crate::call::value_of(args, names)
    }

    /// True when `seq` occurs contiguously in the command path (declared option values removed)
    /// or in the value-inclusive words (so an undeclared value option cannot hide it either).
    pub(crate) fn has_seq(&self, seq: &[&str]) -> bool {
        let within = |list: &[&str]| list.windows(seq.len()).any(|w| w.iter().zip(seq).all(|(a, b)| a.eq_ignore_ascii_case(b)));
        !seq.is_empty() && (within(&self.pos) || within(&self.words))
    }
}

/// The value of an output option (`-D dir`, `--dir=dir`, `-Ddir`) as an `Arg`, keeping its
/// exactness, so a family can pass it to `paths::check_write`.
pub(crate) fn option_arg(args: &[Arg], names: Words) -> Option<Arg> {
    crate::call::option_arg(args, names)
}

impl Opts {
    /// The CLI's options as the argument layer reads them.
    fn spec(&self) -> ArgSpec {
        let spec = ArgSpec::values(self.values).with_flags(self.bools);
        if self.greedy {
            spec.greedy()
        } else {
            spec
        }
    }
}

/// Split `args` by `opts`. `-h` counts as help only when `short_help` (gsutil's `-h` is a header).
pub(crate) fn split<'a>(args: &'a [Arg], opts: &Opts, short_help: bool) -> Argv<'a> {
    let mut out = Argv::default();
    let mut it = Args::parse(args, opts.spec());
    let mut after_dashdash = false;
    // The previous word was an undeclared option that took no value (`-v`, not `-v=2`).
    let mut undeclared = false;
    while let Some(a) = args.get(it.pos()) {
        // A help word is help, whatever the spec says it takes.
        if !after_dashdash && is_help(&a.text) && (a.text != "-h" || short_help) {
            out.flags.push(a.text.as_str());
            out.help = true;
            undeclared = false;
            it.skip_word();
            continue;
        }
        let Some(t) = it.next() else { break };
        // The value an option took from the next word (not an attached `=value`).
        let (index, taken) = match t {
            Token::Operand(o) if o.after_dashdash => {
                out.rest.push(o.arg.text.as_str());
                continue;
            }
            Token::Operand(o) => {
                out.pos.push(o.arg.text.as_str());
                out.after_undeclared.push(std::mem::take(&mut undeclared));
                out.words.push(o.arg.text.as_str());
                continue;
            }
            Token::DashDash(_) => {
                after_dashdash = true;
                continue;
            }
            Token::Opt { index, value, .. } => (index, value.filter(|_| it.pos() == index + 2)),
            Token::Flag { index, value, .. } => (index, value),
            Token::Opt2 { index, .. } | Token::Unknown { index, .. } | Token::Missing { index, .. } => (index, None),
        };
        undeclared = matches!(t, Token::Flag { value: None, .. }) && !args[index].text.contains('=');
        out.flags.push(args[index].text.as_str());
        out.words.extend(taken);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<Arg> {
        s.split_whitespace().map(Arg::lit).collect()
    }

    const KOPTS: Opts = Opts { values: words!["-n", "--namespace", "--context"], bools: words![], greedy: false };

    #[test]
    fn option_values_leave_the_command_path() {
        let a = args("-n prod --context=x get pods");
        let v = split(&a, &KOPTS, true);
        assert_eq!(v.pos, ["get", "pods"]);
        assert_eq!(v.words, ["prod", "get", "pods"]);
    }

    #[test]
    fn a_word_after_an_undeclared_option_may_be_its_value() {
        let a = args("-v info -n prod --all=true run x");
        let v = split(&a, &KOPTS, true);
        assert_eq!(v.pos, ["info", "run", "x"]);
        assert_eq!(v.after_undeclared, [true, false, false]);
    }

    #[test]
    fn help_as_an_option_value_is_not_help() {
        const V: Opts = Opts { values: words!["--field-manager"], bools: words![], greedy: false };
        let a = args("delete pod x --field-manager --help");
        assert!(!split(&a, &V, true).help);
        let b = args("delete pod x --help");
        assert!(split(&b, &V, true).help);
    }

    #[test]
    fn hyphenated_operations_use_their_leading_verb() {
        assert_eq!(kind_of("delete-vpc", &Table::EMPTY), Some(Kind::Mutate));
        assert_eq!(kind_of("describe-instances", &Table::EMPTY), Some(Kind::Read));
        assert_eq!(kind_of("apps:destroy", &Table::EMPTY), Some(Kind::Mutate));
        assert_eq!(kind_of("pods", &Table::EMPTY), None);
    }

    #[test]
    fn greedy_options_eat_their_value_but_not_a_following_flag() {
        const G: Opts = Opts { values: words![], bools: words!["--yes"], greedy: true };
        let a = args("group delete --name rg --yes --no-wait");
        let v = split(&a, &G, true);
        assert_eq!(v.pos, ["group", "delete"]);
        assert!(v.has_seq(&["group", "delete"]));
    }
}
