//! Reading a carried option's value: which option names carry a command on a
//! program no table lists (`names_a_command`), and which part of a structured
//! value runs (ssh's `ProxyCommand=`, Mercurial's `alias.x=!CMD`, fzf's
//! `execute(…)` actions). `options.rs` finds the options and judges them.

/// True when an option's name says its value runs something: its last part is
/// `command`, `launcher`, `wrapper`, `exec` or `execute` (`--gpu-launcher`,
/// `--rsh-command`, `--pre-exec`, `-wrapper`), or `command`/`cmd` then `prefix`
/// (`--renderer-cmd-prefix`), or it starts with `rsh` (`--rsh-path`). A name that
/// says something about the command (`--command-id`, `--command-line`,
/// `--executable`, `--executor`) or turns it off (`--no-exec`,
/// `--disable-wrapper`) does not carry one. A single-dash name is read the
/// same when it is a word, not a cluster (`-wrapper`; not `-exec`'s
/// three letters, which the table lists as `find`'s).
pub(crate) fn names_a_command(word: &str) -> bool {
    let Some(name) = word.strip_prefix("--").or_else(|| word.strip_prefix('-').filter(|n| n.len() >= 6)) else {
        return false;
    };
    let mut parts = name.split(['-', '_']);
    let first = parts.next().unwrap_or("");
    if matches!(first, "no" | "disable" | "skip" | "without" | "dont" | "ignore") {
        return false;
    }
    if first.starts_with("rsh") {
        return true;
    }
    let mut back = name.rsplit(['-', '_']);
    let runs = |p: &str| matches!(p, "command" | "launcher" | "wrapper" | "exec" | "execute");
    match (back.next(), back.next()) {
        (Some("prefix"), Some(p)) => runs(p) || p == "cmd",
        (Some(last), _) => runs(last),
        _ => false,
    }
}

/// `ProxyCommand=nc %h %p` / `ProxyCommand nc %h %p` → the command.
pub(super) fn ssh_command(value: &str) -> Option<&str> {
    let (key, rest) = value.split_once(['=', ' ', '\t'])?;
    let key = key.trim().to_ascii_lowercase();
    // `ssh_command` is sshfs's own: the program it runs in place of ssh.
    matches!(key.as_str(), "proxycommand" | "localcommand" | "knownhostscommand" | "ssh_command").then(|| rest.trim_start_matches(['=', ' ', '\t']))
}

/// What a Mercurial `--config` setting runs.
pub(super) enum HgRuns<'a> {
    Shell(&'a str),
    Python,
}

/// `alias.x=!rm -rf ~` → `rm -rf ~`; `hooks.pre-commit=CMD` → `CMD`
/// (`python:mod.fn` is Python); `ui.ssh`, `ui.editor`, `ui.remotecmd`,
/// `pager.pager` → the command. Any other setting runs nothing.
pub(super) fn hg_command(value: &str) -> Option<HgRuns<'_>> {
    let (key, val) = value.split_once('=')?;
    let key = key.trim().to_ascii_lowercase();
    if key.starts_with("alias.") {
        return val.trim_start().strip_prefix('!').map(HgRuns::Shell);
    }
    if key.starts_with("hooks.") {
        return Some(if val.trim_start().starts_with("python:") { HgRuns::Python } else { HgRuns::Shell(val) });
    }
    matches!(key.as_str(), "ui.ssh" | "ui.editor" | "ui.remotecmd" | "pager.pager").then_some(HgRuns::Shell(val))
}

crate::table! {
    /// fzf actions that run a command: `execute(…)`, `execute-silent[…]`, `become:…`, `reload{…}` …
    /// A longer name comes before its prefix (`execute-silent` before `execute`).
    FZF_RUNNERS = [
        "execute-silent", "execute-multi", "execute", "become", "reload-sync", "reload", "preview", "change-preview", "transform-query", "transform-prompt",
        "transform-header", "transform", "bg-transform",
    ];
    probe "fzf --bind 'ctrl-a:{}(rm -rf ~/x)'" => T3, "coreutils.rm";
}

pub(super) fn fzf_actions(value: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b = value.as_bytes();
    let mut i = 0;
    while i < value.len() {
        let Some(name) = FZF_RUNNERS.iter().find(|n| value[i..].starts_with(*n)) else {
            i += value[i..].chars().next().map_or(1, char::len_utf8);
            continue;
        };
        let at = i + name.len();
        let close = match b.get(at) {
            Some(b'(') => Some(b')'),
            Some(b'[') => Some(b']'),
            Some(b'{') => Some(b'}'),
            Some(b'<') => Some(b'>'),
            Some(b'~') => Some(b'~'),
            Some(b'!') => Some(b'!'),
            Some(b'@') => Some(b'@'),
            Some(b'#') => Some(b'#'),
            Some(b'$') => Some(b'$'),
            Some(b'%') => Some(b'%'),
            Some(b'^') => Some(b'^'),
            Some(b'&') => Some(b'&'),
            Some(b'*') => Some(b'*'),
            Some(b';') => Some(b';'),
            Some(b'/') => Some(b'/'),
            Some(b'|') => Some(b'|'),
            Some(b':') => None,
            _ => {
                i = at;
                continue;
            }
        };
        let body_start = at + 1;
        let end = match close {
            // `execute:CMD` runs to the end of the value.
            None => value.len(),
            Some(c) => value[body_start..].bytes().position(|x| x == c).map_or(value.len(), |p| body_start + p),
        };
        if body_start <= end {
            out.push(value[body_start..end].to_owned());
        }
        i = end.max(at + 1);
    }
    out
}

crate::tables![FZF_RUNNERS];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hg_settings_that_run_commands() {
        assert!(matches!(hg_command("alias.x=!rm -rf ~"), Some(HgRuns::Shell("rm -rf ~"))));
        assert!(matches!(hg_command("hooks.pre-commit=make lint"), Some(HgRuns::Shell("make lint"))));
        assert!(matches!(hg_command("hooks.commit=python:x.y"), Some(HgRuns::Python)));
        assert!(matches!(hg_command("UI.SSH=ssh -C"), Some(HgRuns::Shell("ssh -C"))));
        assert!(hg_command("alias.st=status").is_none());
        assert!(hg_command("ui.username=me").is_none());
        assert!(hg_command("alias.x").is_none());
    }

    #[test]
    fn option_names_that_run_something() {
        for w in ["--gpu-launcher", "--command", "--rsh-command", "--rsh-path", "--pre-exec", "--renderer-cmd-prefix", "-wrapper", "--exec", "--root_command"] {
            assert!(names_a_command(w), "{w}");
        }
        for w in
            ["--command-id", "--command-line", "--executable", "--executor", "--no-exec", "--disable-wrapper", "--commands-file", "-exec", "--cmd", "command"]
        {
            assert!(!names_a_command(w), "{w}");
        }
    }

    #[test]
    fn fzf_bind_actions_are_found() {
        assert_eq!(fzf_actions("enter:execute(less {})"), ["less {}"]);
        assert_eq!(fzf_actions("ctrl-r:reload(ls),ctrl-x:become:rm {}"), ["ls", "rm {}"]);
        assert_eq!(fzf_actions("ctrl-a:select-all"), Vec::<String>::new());
    }

    #[test]
    fn ssh_options_carry_commands() {
        assert_eq!(ssh_command("ProxyCommand=nc %h %p"), Some("nc %h %p"));
        assert_eq!(ssh_command("proxycommand ssh -W %h:%p bastion"), Some("ssh -W %h:%p bastion"));
        assert_eq!(ssh_command("StrictHostKeyChecking=no"), None);
    }
}
