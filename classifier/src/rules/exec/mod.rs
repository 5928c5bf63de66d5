//! The `exec` family: what a command runs or writes that its program's name does
//! not say. Safe by elimination only holds for what the classifier can see, so
//! four mechanisms make the hidden parts visible, for every unit:
//!
//! - `options.rs`: the one table of options that carry a command, code or an
//!   output path, keyed by option name and program (`rsync -e`, `man -P`,
//!   `fzf --bind …:execute(…)`, `-o /etc/x`), with GNU long-option prefixes
//!   resolved against it (`--post-f` is `--post-file`).
//! - `implicit.rs`: an unmodelled program handed a shell, an interpreter or a
//!   path to an executable as an operand (`someprog /bin/sh -c …`) runs it.
//! - `computed.rs`: a word built at run time where an option goes, for programs
//!   whose options decide what they do (`find . $(echo -delete)`).
//! - a program no family models handed a file an earlier unit on the same
//!   line wrote (`echo '…' > /tmp/x; nmap --script=/tmp/x`) runs what the line
//!   put there, as its script or config (`WRITTEN_FILE`); the engine records
//!   every write (`vocab::writes::check_write`), and families reading such a
//!   file (`bash ./x.sh`) get the text the line wrote, or unreadable, never what
//!   is on disk.
//! - variables whose value is a command (`PAGER`, `*_COMMAND`, `GIT_SSH_COMMAND`)
//!   are classified as one by the engine (`rules::vocab::vars` says which).
//!
//! Carried commands go back to the engine and are judged like any command line;
//! carried code tiergate does not read, and values it cannot see, are T3.

use crate::words;

pub(crate) mod computed;
pub(crate) mod implicit;
pub(crate) mod options;
pub(crate) mod values;

use crate::call::args::{split_option, ArgSpec, Args, Token};
use crate::call::Invocation;
use crate::rules::{Cx, Family, Rule};

pub static FAMILY: Family = Family::new("exec", &[], RULES);

static RULES: &[&Rule] = &[
    &options::OPTION_COMMAND,
    &options::OPTION_UNSEEN,
    &options::OPTION_CODE,
    &options::OPTION_FLAG,
    &implicit::IMPLICIT_WRAPPER,
    &ENV_COMMAND,
    &PROTECTED_OPERAND,
    &WRITTEN_FILE,
    &options::ABBREVIATION,
    &computed::COMPUTED_OPTION,
];

/// ## What it matches
/// A program no family models (and that is not a known read-only tool) handed a protected path as an operand or option value: `mytool -i '.x=1' .claude/settings.json`, `mytool --config=.tiergate.toml`, `ed .claude/hooks/x.sh`.
/// ## Why this tier
/// Nobody has read what the program does with the path, and writing it would disable the guard; the Write tool denies the same path. Asking, not blocking: the program may only read it.
pub static PROTECTED_OPERAND: Rule = Rule::t3("exec.protected-operand")
    .reason("an unmodelled program is handed a protected path (tiergate's or Claude Code's own files) that it may write; ask the user")
    .matches(words!["mytool -i '.a=1' .claude/settings.json", "mytool --config=.tiergate.toml", "mytool fmt .claude/hooks/h.sh"])
    .not_matches(words!["cat .claude/settings.json", "jq . .claude/settings.json", "mytool notes.md"]);

/// ## What it matches
/// A program no family models (and that is not a known read-only tool) handed, as an operand or an option's value, a file an earlier command on the same line wrote: `echo '…' > /tmp/x; nmap --script=/tmp/x`, `printf … > /tmp/n.conf && neofetch --config /tmp/n.conf`, `curl -o /tmp/wg.conf https://x; wg-quick up /tmp/wg.conf`.
/// ## Why this tier
/// Nobody has read what the program does with the file; a script or config the line just wrote is code that runs (nmap's NSE scripts, neofetch's config, wg-quick's `PostUp`). Modelled programs decide for themselves: a reader (`cat`, `jq`) stays free, a shell or interpreter reads the text the line wrote (or finds it unreadable).
pub static WRITTEN_FILE: Rule = Rule::t3("exec.written-file")
    .reason("an unmodelled program is handed a file this command line just wrote, which it may run as a script or config; write the file, review it, then run the program as a separate command")
    .matches(words![
        "echo 'os.execute(\"id\")' > /tmp/x.nse; nmap --script=/tmp/x.nse localhost", "echo x > /tmp/n.conf && neofetch --config /tmp/n.conf",
        "echo '[Interface]' > /tmp/wg0.conf; wg-quick up /tmp/wg0.conf", "curl -o /tmp/x.conf https://x.example/c; mytool -c /tmp/x.conf",
    ])
    .not_matches(words![
        "nmap --script=/tmp/x.nse localhost", "echo x > /tmp/a.txt; wc -l /tmp/a.txt", "echo '{}' > /tmp/x.json; jq . /tmp/x.json",
        "echo x > /tmp/x; mytool --config /tmp/y", "mytool --config /tmp/x; echo x > /tmp/x", "mkdir out && mytool --out-dir out",
    ]);

/// ## What it matches
/// A variable whose value a program runs as a command, set for a command: `PAGER=… git log` (which `shell.env-hijack` also asks for), `MYTOOL_COMMAND=… mytool`, `GIT_SSH_COMMAND=… git fetch`, `RSYNC_RSH=… rsync`.
/// ## Why this tier
/// Informational (T0) beside `shell.env-hijack`: the value is classified as a command line, so a blocked one stays blocked.
pub static ENV_COMMAND: Rule = Rule::t0("exec.env-command")
    .reason("a variable carries a command that the program runs; that command is checked too")
    .matches(words!["MYTOOL_COMMAND=ls mytool", "FOO_RSH=cat tool list"])
    .not_matches(words!["FOO=1 ls", "RUST_LOG=debug cargo test"]);

/// Runs after the owning family, for every unit: the option table, then for
/// programs no family owns the output-path defaults.
pub(crate) fn check_unit(inv: &Invocation, owned: bool, cx: &mut Cx<'_>) {
    options::check(inv, owned, cx);
    computed::check(inv, cx);
    // Read-only tools are exempt; the editors on that list write what they open.
    let writes_what_it_opens = matches!(inv.program.as_str(), "nano" | "code" | "subl" | "micro" | "hx" | "ed" | "mate");
    let reader = crate::rules::fallback::is_exempt(&inv.program) && !writes_what_it_opens;
    if !owned && !reader && !cx.reached(crate::verdict::Tier::T3) {
        handed_paths(inv, cx);
    }
}

/// An unread program handed a protected path (`mytool -i … .claude/settings.json`)
/// or a file the line wrote before it (`echo … > /tmp/x; nmap --script=/tmp/x`).
fn handed_paths(inv: &Invocation, cx: &mut Cx<'_>) {
    let cwd = inv.cwd.clone().or_else(|| cx.root());
    let cwd = cwd.as_deref();
    // Every operand, and the value attached to an option (`--config=.claude/x`).
    for t in Args::parse(&inv.args, ArgSpec::values(words![])) {
        let (a, value) = match t {
            Token::Operand(o) => (o.arg, o.arg.text.as_str()),
            Token::Flag { index, word, .. } => match split_option(word).1 {
                Some(v) => (&inv.args[index], v),
                None => continue,
            },
            _ => continue,
        };
        if !a.exact {
            continue;
        }
        if crate::rules::vocab::writes::is_protected(cx, value, cwd) {
            cx.hit_because(&PROTECTED_OPERAND, format!("`{}` is handed `{value}`, a protected path it may write; ask the user", inv.program));
            return;
        }
        if cx.written_earlier(value, cwd) {
            let detail = format!("`{}` is handed `{value}`, which this command line wrote before it runs; {}", inv.program, WRITTEN_FILE.reason);
            cx.hit_because(&WRITTEN_FILE, detail);
            return;
        }
    }
}

crate::tables![; computed, implicit, options, values];
