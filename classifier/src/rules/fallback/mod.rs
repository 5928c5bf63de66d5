//! Programs no family owns. Safe by elimination stays the policy, but a CLI
//! nobody modelled that is told to `delete`, `deploy` or `--force` something is
//! not "unknown, therefore safe": the original's verb scan (FEATURES.md §2 step
//! 27, §6b) applies, over the first few command words only.
//!
//! Well-known read-only tools and editors are exempt, so `echo delete me` or
//! `vim deploy.md` stay free.

use crate::call::args::{ArgSpec, Help};
use crate::call::Invocation;
use crate::rules::vocab::verbs::{kind_of, Kind, Table};
use crate::rules::{Cx, Family, Rule};
use crate::words;

pub static FAMILY: Family = Family::new("fallback", &[], RULES);

static RULES: &[&Rule] = &[&MUTATIVE_VERB, &FORCE_FLAG, &VALIDATE_VERB, &SIMULATE_VERB, &PROXY];

/// ## What it matches
/// A program no family models whose first argument is a program some family does (`mycli git status`, `mytool kubectl get pods`): such tools run the command they are given.
/// ## Why this tier
/// Informational (T0): the proxied command's own verdict is what counts.
pub static PROXY: Rule = Rule::t0("fallback.proxy")
    .reason("an unmodelled program that runs the command it is given; that command decides")
    .matches(words!["mycli git status", "mytool kubectl get pods"])
    .not_matches(words!["rtk rm -rf build", "minsky git pr --path .", "echo git status", "fnm install --lts", "mytool install pkg"]);

/// ## What it matches
/// A program no family models whose command words say it validates (`tool validate x`, `mytool lint`).
/// ## Why this tier
/// Local validation: still allowed, but shown as T1 rather than read-only.
pub static VALIDATE_VERB: Rule = Rule::t1("fallback.validate-verb")
    .reason("an unmodelled CLI asked to validate, lint or check")
    .matches(words!["tool validate config.yaml", "mytool lint src"])
    .not_matches(words!["tool list"]);

/// ## What it matches
/// A program no family models whose command words say it simulates (`tool plan`, `tool diff`, `tool render`).
/// ## Why this tier
/// A dry run: allowed, recorded as T2.
pub static SIMULATE_VERB: Rule = Rule::t2("fallback.simulate-verb")
    .reason("an unmodelled CLI asked to plan, diff, render or simulate")
    .matches(words!["mytool plan --env prod", "tool template arguments", "tool simulate run"])
    .not_matches(words!["tool list", "tool delete x"]);

/// ## What it matches
/// A program no family models whose first command words include a mutative verb (`vault kv delete x`, `nomad job stop web`, `hugo deploy`, `mytool batchDelete`, `mkdocs gh-deploy`).
/// ## Why this tier
/// Nobody has read this CLI's semantics, but its own words say it changes state.
/// ## Known gaps
/// A CLI whose mutating subcommand is not an English verb (`tool frob x`) stays T0.
pub static MUTATIVE_VERB: Rule = Rule::t3("fallback.mutative-verb")
    .reason("an unmodelled CLI is told to change something (its subcommand is a mutative verb); ask the user first")
    .matches(words![
        "vault kv delete secret/app", "nomad job stop web", "hugo deploy", "mytool batchDelete", "celery -A app purge", "gws gmail +send --to a@b.c",
        "stripe customers delete cus_1", "mkdocs gh-deploy", "virsh snapshot-delete vm snap", "auth0 apps rm app_1", "auth0 roles permissions add rol_1",
        "auth0 ul customize",
    ])
    .not_matches(words![
        "vault kv get secret/app", "opencode import --help", "mytool address show", "rtk rmdir-list", "echo delete me", "vim deploy.md", "mytool list",
        "grep -r install .", "mytool list-deleted", "metaflac --show-tag tag_name x.flac",
    ]);

/// ## What it matches
/// A program no family models run with `--force` (FEATURES.md §6b's always-dangerous flags).
/// ## Why this tier
/// `--force` exists to skip a safety check; on an unread CLI that is a change worth consent.
pub static FORCE_FLAG: Rule = Rule::t3("fallback.force-flag")
    .reason("an unmodelled CLI is run with --force, which skips its own safety checks; ask the user first")
    .matches(words!["weirdcli something --force", "mytool frob --force"])
    .not_matches(words!["weirdcli something", "echo --force"]);

crate::table! {
    /// Read-only tools, editors and shell builtins never scanned for verbs. A program a
    /// family owns is listed only if that family falls back here when it finds nothing
    /// (`Cx::or_unowned`): `dir`, `type`, `xxd`, `alias`, `source`, `lsblk` and `sysctl` were
    /// listed and never read (their families decide alone; dropping each moved no verdict).
    EXEMPT = [
        "echo", "printf", "cat", "tac", "head", "tail", "grep", "egrep", "fgrep", "zgrep", "ag", "ack", "ls", "ll", "la", "wc", "cut", "tr", "column", "nl",
        "fold", "fmt", "paste", "join", "comm", "expand", "unexpand", "rev", "jq", "yq", "gojq", "xmllint", "diff", "colordiff", "cmp", "file", "stat", "du", "df",
        "which", "whereis", "whatis", "apropos", "man", "info", "tldr", "help", "cal", "uptime", "id", "whoami", "groups", "uname", "ps", "pgrep", "pstree", "top",
        "htop", "btop", "free", "vmstat", "iostat", "lsof", "pwd", "true", "false", "test", "[", "basename", "dirname", "readlink", "realpath", "od", "hexdump",
        "strings", "seq", "yes", "sleep", "cd", "pushd", "popd", "history", "unalias", "set", "unset", "shopt", "read", "wait", "jobs", "fg", "bg", "printenv",
        "locale", "tput", "clear", "bat", "batcat", "fzf", "glow", "delta", "tokei", "cloc", "scc", "sha1sum", "sha256sum", "sha512sum", "md5sum", "md5", "shasum",
        "b2sum", "cksum", "nano", "code", "subl", "open", "xdg-open", "vim", "vi", "nvim", "view", "emacs", "less", "more", "most", "hash", "mate", "hx", "micro",
        "ed", "pbcopy", "pbpaste", "xclip", "xsel", "ping", "dig", "nslookup", "host", "whois", "traceroute", "mtr", "tracepath", "cowsay", "figlet", "lolcat",
        "say", "notify-send", "time", "locate", "mdfind", "fc-list", "env", "exit", "return", "shift", "getopts", "let", "local", "readonly", "ulimit", "umask",
        "tty", "stty", "w", "who", "last", "finger", "users", "nproc", "lscpu", "lspci", "lsusb", "arch", "sw_vers",
    ];
    probe "{} install" => T0;
}

/// `EXEMPT` sorted (asked for every unit; see `crate::sorted`).
static EXEMPT_ORDER: [u16; EXEMPT.len()] = crate::sorted::order(EXEMPT);

/// `fmt` and `test` are local validation on any CLI that names them.
const NO_TABLE: Table = Table { read: words![], validate: words!["fmt", "test"], simulate: words![], mutate: words![], skip: words![] };

crate::table! {
    /// Words an unread CLI's command line uses for deleting, adding and changing
    /// that the shared taxonomy leaves out because elsewhere they name things
    /// (`auth0 apps rm ID`, `mc admin user add`, `auth0 ul customize`). Only the
    /// verb scan reads them, as whole words: the proxy test below keeps the shared
    /// words, so `rtk rm -rf /` is still judged as the `rm` it runs, and a compound
    /// is read by the shared words only (`watchman watch-del` stops watching).
    UNOWNED_VERBS = ["rm", "del", "add", "customize"];
    probe "mytool items {} item_1" => T3, "fallback.mutative-verb";
}

/// The verb scan's table: the shared taxonomy plus `UNOWNED_VERBS`.
const SCAN_TABLE: Table = Table { read: words![], validate: NO_TABLE.validate, simulate: words![], mutate: UNOWNED_VERBS, skip: words![] };

/// How an unread program's argv is read: nothing is known of its options, and
/// `--help` and `--version` print usage (FEATURES.md §6a); `-h` is not honoured:
/// on an unread CLI it may mean `--host`.
const UNOWNED_READING: ArgSpec = ArgSpec::values(words![]).help(Help::LONG.with(Help::VERSION));

/// Runs for programs no family owns (called from `rules::dispatch`).
pub fn check_unowned(inv: &Invocation, cx: &mut Cx<'_>) {
    if is_exempt(&inv.program) || crate::call::args::asks_help(&inv.args, UNOWNED_READING) {
        return;
    }
    // `rtk rm -rf build`, `entr git push`: an unread program handed a command
    // line that starts with a modelled program is taken to run it.
    if let Some(first) = crate::call::first_operand(&inv.args, ArgSpec::values(words![]).posix()).filter(|o| o.index == 0 && o.arg.exact).map(|o| o.arg) {
        // A word that is also a verb (`install`, `test`, `patch`) is a subcommand, not a program.
        let program = crate::names::program(&first.text);
        let program = program.as_ref();
        // `minsky git pr`: a subcommand the named program's family does not model is
        // evidence only when that program runs, which an unread program naming it does not
        // show (judged on the two words alone: nothing nested); the verb scan still reads them.
        // Asked last: the trial classifies those two words, which costs every unowned
        // program with arguments ~10 % of `tiergate batch`'s throughput when asked first.
        let unmodelled =
            |cx: &mut Cx<'_>| inv.args.get(..2).is_some_and(|sub| cx.trial(|t| t.argv(sub, inv.cwd.as_deref())).iter().any(|h| h.rule.unmodelled_word));
        if crate::rules::owned(program) && inv.args.len() > 1 && kind_of(program, &NO_TABLE).is_none() && !unmodelled(cx) {
            cx.hit_because(&PROXY, format!("`{}` appears to run `{}`; judged as that command", inv.program, first.text));
            cx.argv(&inv.args, inv.cwd.as_deref());
            // The proxied command's own words are scanned below too: `mc alias set …`
            // is told to `set` something whatever `alias` makes of it.
        }
    }
    // `xprog -- python3 x.py`, `zzz sh`: an operand that names a shell, an
    // interpreter or an executable path is what the program runs. The verb scan
    // still runs: `mytool deploy sh x.sh` is judged on both.
    if !cx.hits.iter().any(|h| std::ptr::eq(h.rule, &PROXY)) {
        crate::rules::exec::implicit::check(inv, cx);
    }
    verb_scan(inv, cx);
}

/// True for the read-only tools and editors the verb scan leaves alone.
pub fn is_exempt(program: &str) -> bool {
    crate::sorted::contains(EXEMPT, &EXEMPT_ORDER, program)
}

fn verb_scan(inv: &Invocation, cx: &mut Cx<'_>) {
    // Option values count as words: without the CLI's grammar, `-A app purge`
    // cannot be told from `--name purge`, and guessing lower is not allowed.
    // `gws gmail +send`: a leading `+` marks a helper verb, not part of it.
    let words: Vec<&str> = inv.bare_words().take(4).map(|w| w.trim_start_matches('+')).collect();
    let mut milder: Option<&'static Rule> = None;
    for (i, w) in words.iter().enumerate() {
        let verb = kind_of(w, &SCAN_TABLE).or_else(|| if i == 0 { camel_kind(w) } else { None });
        match verb {
            Some(Kind::Mutate) => {
                cx.hit_because(&MUTATIVE_VERB, format!("`{} {w}`: {}", inv.program, MUTATIVE_VERB.reason));
                return;
            }
            Some(Kind::Simulate) if milder.is_none() => milder = Some(&SIMULATE_VERB),
            Some(Kind::Validate) if milder.is_none() => milder = Some(&VALIDATE_VERB),
            _ => {}
        }
    }
    if inv.flags().any(|f| f == "--force" || f == "--no-preserve-root") {
        cx.hit(&FORCE_FLAG);
    } else if let Some(rule) = milder {
        cx.hit(rule);
    }
}

/// `batchDelete`, `gh-deploy` → the strictest kind among the parts. A compound word
/// whose head has a kind is decided by the head before this is asked (`list-deleted`
/// reads). Not `_`: snake_case is how names and placeholders are spelled
/// (`tag_name`, `start_segment`), hyphenated subcommands are how verbs are.
fn camel_kind(word: &str) -> Option<Kind> {
    if word.contains('-') {
        return word.split('-').filter(|p| !p.is_empty()).map(|p| kind_of(p, &NO_TABLE)).max().flatten();
    }
    if !word.chars().any(|c| c.is_ascii_uppercase()) || !word.chars().all(|c| c.is_ascii_alphanumeric()) {
        return None;
    }
    let mut parts = Vec::new();
    let mut cur = String::new();
    for c in word.chars() {
        if c.is_ascii_uppercase() && !cur.is_empty() {
            parts.push(std::mem::take(&mut cur));
        }
        cur.push(c.to_ascii_lowercase());
    }
    parts.push(cur);
    parts.iter().map(|p| kind_of(p, &NO_TABLE)).max().flatten()
}

crate::tables![EXEMPT, UNOWNED_VERBS];
