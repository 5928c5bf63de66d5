//! git's global options (before the subcommand) and the config keys that make
//! git run another program (`-c core.hooksPath=…`, `-c alias.x='!cmd'`).
//!
//! It does not judge the subcommand; `mod.rs` dispatches that.

use super::{chdir, GitCall};
use crate::call::args::{ArgSpec, Args, Help, Token};
use crate::call::{value_arg, Arg, Invocation};
use crate::rules::{Cx, Rule};
use crate::words;

/// ## What it matches
/// A config value that names a program git will run: `-c core.hooksPath=…`,
/// `-c alias.x=…`, `core.pager`, `core.editor`, `core.sshCommand`, `core.fsmonitor`,
/// `diff.external`, `*.textconv`, `filter.*.clean|smudge|process`, `credential.helper`,
/// `gpg.program`, `include.path` …, given with `-c`/`--config-env`, `clone -c`/`--config`,
/// or written with `git config`; also `--exec-path=DIR`.
/// ## Why this tier
/// Whatever program the value names runs with the user's rights, unseen by the
/// classifier (a `!shell` alias body is classified on top).
/// ## Known gaps
/// The same keys set through `GIT_CONFIG_*` environment variables or an existing
/// `.gitconfig` are not seen.
pub(super) static EXEC_CONFIG: Rule = Rule::t3("git.global.exec-config")
    .reason("this git config setting makes git run another program (hooks path, alias, pager, ssh command …); run the command without it")
    .matches(words![
        "git -c core.hooksPath=/tmp/evil commit -m x", "git -c alias.st='!ls' st", "git -c core.sshCommand='ssh -i key' fetch",
        "git --exec-path=/tmp/bin status", "git --config-env=core.pager=PAGER log", "git -c filter.x.smudge=cat checkout main",
        "git -c \"$KEY=/tmp/x\" status", "git config core.hooksPath /tmp/hooks", "git config --global core.pager 'less -R'",
    ])
    .not_matches(words![
        "git -c color.ui=always log", "git --exec-path", "git -c user.name=x commit -m y", "git -c core.pager=cat log",
        "git -c core.editor=true rebase --continue",
    ]);

/// ## What it matches
/// A global option git does not document, followed by more words (`git --frobnicate status`).
/// ## Why this tier
/// Which subcommand runs is unknown once an option might take the next word.
/// With only flags after it, git rejects the option and runs nothing (`git.read`).
pub(super) static UNKNOWN_OPTION: Rule = Rule::t3("git.global.unknown-option")
    .reason("a git global option tiergate does not know hides which subcommand runs; drop it or put it after the subcommand")
    .matches(words!["git --frobnicate status"])
    .not_matches(words!["git --no-pager log", "git -C repo status", "git --dry-run"]);

/// git's global help words (`git --help push`, `git -h`); the version words are
/// read as help words too, and only print.
const GLOBAL_HELP: Help = Help::DASH_H.with(Help::LONG);

crate::table! {
    /// Global flags without a value.
    BOOL_GLOBALS = [
        "-p", "--paginate", "-P", "--no-pager", "--no-replace-objects", "--no-lazy-fetch", "--no-optional-locks", "--no-advice", "--bare", "--literal-pathspecs",
        "--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs", "--html-path", "--man-path", "--info-path",
    ];
    probe "git {} push --force origin main" => Blocked, "git.push.force";
}

/// git's global options, every one declared: `-C DIR`, `-c NAME=VALUE`, `--config-env`,
/// `--git-dir`, `--work-tree` and the like take a value (the next word or after `=`),
/// `--exec-path[=DIR]` only an attached one; each is a whole word (git packs none),
/// and the subcommand ends them.
const GLOBALS: ArgSpec = ArgSpec {
    optional: words!["--exec-path"],
    ..ArgSpec::strict(
        words!["-C", "-c", "--config-env", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--attr-source", "--list-cmds"],
        BOOL_GLOBALS,
        words![],
        false,
    )
    .help(GLOBAL_HELP.with(Help::VERSION).with(Help::DASH_V))
    .single_dash_long()
};

crate::table! {
    /// Exact config keys (lowercased) whose value is a program or a file of more config
    /// (`init.templateDir`: a template's hooks are installed into the new repository and run later).
    EXEC_KEYS = [
        "core.hookspath", "core.pager", "core.editor", "core.sshcommand", "core.fsmonitor", "core.gitproxy", "core.askpass", "sequence.editor", "diff.external",
        "diff.tool", "merge.tool", "credential.helper", "gpg.program", "include.path", "uploadpack.packobjectshook", "protocol.ext.allow",
        "interactive.difffilter", "web.browser", "ssh.variant", "sendemail.smtpserver", "sendemail.tocmd", "sendemail.cccmd", "core.worktree",
        "receive.procreceiverefs", "push.receivepack", "fetch.uploadpack", "init.templatedir",
    ];
    probe "git -c {}=x status" => T3, "git.global.exec-config";
}

/// True when a config key makes git execute something (keys are case-insensitive
/// in their first and last segment; the middle, a subsection, is kept as written).
pub(crate) fn is_exec_key(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    if EXEC_KEYS.contains(k.as_str()) || k.starts_with("alias.") || k.starts_with("pager.") {
        return true;
    }
    let first = k.split('.').next().unwrap_or("");
    let last = k.rsplit('.').next().unwrap_or("");
    let multi = k.split('.').count() >= 3;
    match first {
        "filter" => multi && matches!(last, "clean" | "smudge" | "process"),
        "diff" => multi && matches!(last, "textconv" | "command"),
        "merge" => multi && last == "driver",
        "difftool" | "mergetool" => multi && matches!(last, "cmd" | "path"),
        "credential" => last == "helper",
        "gpg" => last == "program",
        "includeif" => last == "path",
        "remote" => multi && matches!(last, "uploadpack" | "receivepack" | "proxy"),
        "man" | "browser" => multi && matches!(last, "cmd" | "path"),
        "url" => false,
        _ => false,
    }
}

/// `core.pager=cat`, `core.editor=true`: a pager or editor setting naming a plain
/// viewer (no shell syntax) runs nothing of note.
fn benign_program(key: &str, value: &str) -> bool {
    let k = key.to_ascii_lowercase();
    let viewer_key = k == "core.pager" || k == "core.editor" || k == "sequence.editor" || k.starts_with("pager.");
    let plain = !value.contains([';', '|', '&', '$', '`', '<', '>', '(', ')', '\\', '\n']);
    let program = value.split_whitespace().next().unwrap_or("");
    viewer_key && plain && matches!(program, "" | "cat" | "less" | "more" | "true" | "false" | ":" | "head" | "tail")
}

/// Records the exec-config hit for one `key=value` setting, and classifies an
/// `alias.x=!shell` body as what the alias runs.
pub(crate) fn check_setting(setting: &Arg, cx: &mut Cx<'_>, cwd: Option<&str>) {
    let (key, value) = setting.text.split_once('=').unwrap_or((setting.text.as_str(), ""));
    if !setting.exact && key.contains('$') {
        // The key itself is computed: it could be any of the exec keys.
        cx.hit_because(&EXEC_CONFIG, format!("git config key `{key}` is computed, so it may name a program git runs; spell it out"));
        return;
    }
    if !is_exec_key(key) || (setting.exact && benign_program(key, value)) {
        return;
    }
    cx.hit_because(&EXEC_CONFIG, format!("git config `{key}` names a program or alias git runs; run the command without it"));
    if key.to_ascii_lowercase().starts_with("alias.") {
        if let Some(body) = value.strip_prefix('!') {
            cx.shell(body, cwd);
        }
    }
}

/// A global option git does not know, at word `index`: nothing runs when no
/// subcommand can follow, otherwise what runs is unknown.
fn unknown(inv: &Invocation, cx: &mut Cx<'_>, index: usize) -> Option<GitCall> {
    if Args::parse(&inv.args, ArgSpec::values(words![])).starting_at(index).operands().next().is_none() {
        // No subcommand can follow: git rejects the option and runs nothing.
        cx.hit(&read::READ);
    } else {
        let word = &inv.args[index].text;
        cx.hit_because(&UNKNOWN_OPTION, format!("git global option `{word}` is not one tiergate knows; drop it or put it after the subcommand"));
    }
    None
}

/// Parses the global options; `None` when a hit already decided the unit.
pub(super) fn parse(inv: &Invocation, cx: &mut Cx<'_>) -> Option<GitCall> {
    let home = cx.home();
    let mut cwd = inv.cwd.clone();
    let mut work_tree = None;
    let mut global_help = false;
    let mut i = inv.args.len();
    for t in Args::parse(&inv.args, GLOBALS) {
        match t {
            Token::Operand(o) => {
                i = o.index;
                break;
            }
            Token::DashDash(d) => {
                i = d + 1;
                break;
            }
            Token::Opt { index, name: "-C", value: Some(v) } => cwd = chdir(cwd.as_deref(), &value_arg(&inv.args, index, v), home.as_deref()),
            Token::Opt { index, name: "-c" | "--config-env", value: Some(v) } => check_setting(&value_arg(&inv.args, index, v), cx, cwd.as_deref()),
            Token::Missing { name: "-c" | "--config-env", .. } => {
                cx.hit(&UNKNOWN_OPTION);
                return None;
            }
            // `git -C` or `--git-dir` with nothing after it: git runs nothing.
            Token::Missing { .. } => return None,
            Token::Opt { name: "--exec-path", value: Some(dir), .. } => {
                cx.hit_because(&EXEC_CONFIG, format!("--exec-path={dir} makes git run its subcommands from that directory; drop it"));
            }
            Token::Opt { index, name: "--work-tree", value: Some(v) } => work_tree = Some(value_arg(&inv.args, index, v)),
            // git compares whole words: a flag given `=value` is an option it does not know.
            Token::Opt { index, name, value: Some(_) } if BOOL_GLOBALS.contains(name) => return unknown(inv, cx, index),
            // `--version` and `-v` print the version; `-h` and `--help` ask for the subcommand's help.
            Token::Help { word, .. } => global_help |= GLOBAL_HELP.holds(word),
            Token::Unknown { index, .. } => return unknown(inv, cx, index),
            Token::Opt { .. } | Token::Flag { .. } | Token::Opt2 { .. } => {}
        }
    }
    let (sub, rest) = match inv.args.get(i) {
        Some(a) => (a.text.clone(), inv.args[i + 1..].to_vec()),
        None => (String::new(), Vec::new()),
    };
    if inv.args.get(i).is_some_and(|a| !a.exact) {
        cx.hit_because(&read::UNKNOWN_MUTATIVE, "the git subcommand is computed (a variable or substitution); spell it out".to_owned());
        return None;
    }
    let sub_inv = Invocation { program: "git".to_owned(), args: rest, ..inv.clone() };
    Some(GitCall { sub, inv: sub_inv, cwd, work_tree, global_help })
}

use super::read;

crate::tables![BOOL_GLOBALS, EXEC_KEYS];
