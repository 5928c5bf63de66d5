//! The wrapper table: programs that run another program (`sudo`, `env`, `timeout`,
//! `xargs` …). Each entry declares which options take a value, so the target
//! command is found exactly; an undeclared option is never guessed past.
//!
//! It does not classify the target; the engine re-dispatches it.

use crate::call::Arg;

/// How a wrapper hands over to its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Options, then `skip` positional words, then the target argv.
    Plain { skip: usize },
    /// `env`: `NAME=value` words and options, then the target (none → prints env).
    Env,
    /// `watch`: the remaining words form one shell string (unless `-x`).
    Watch,
    /// `xargs`: target argv gets extra arguments from stdin (none → `echo`).
    Xargs,
    /// `su`/`runuser -l`: `-c CMD` is a shell string; no command is a root shell.
    Su,
    /// `command -v`/`-V` only looks a name up.
    Command,
    /// GNU `parallel`: the words before `:::` form a command template.
    Parallel,
}

struct Wrapper {
    name: &'static str,
    /// Options that take a value (short `-u`, long `--user`).
    value_opts: &'static [&'static str],
    /// Options that take none.
    flag_opts: &'static [&'static str],
    kind: Kind,
}

/// Every wrapper the engine sees through. A registry test checks the table.
static WRAPPERS: &[Wrapper] = &[
    Wrapper {
        name: "sudo",
        value_opts: &[
            "-u", "--user", "-g", "--group", "-h", "--host", "-p", "--prompt", "-C", "--close-from", "-D", "--chdir", "-r", "--role", "-t", "--type", "-U",
            "--other-user", "-T", "--command-timeout",
        ],
        flag_opts: &[
            "-A", "--askpass", "-b", "--background", "-E", "--preserve-env", "-H", "--set-home", "-n", "--non-interactive", "-P", "--preserve-groups", "-S",
            "--stdin", "-k", "--reset-timestamp", "-B", "--bell", "-N", "--no-update",
        ],
        kind: Kind::Plain { skip: 0 },
    },
    Wrapper { name: "doas", value_opts: &["-u", "-C"], flag_opts: &["-n", "-L"], kind: Kind::Plain { skip: 0 } },
    Wrapper {
        name: "su",
        value_opts: &["-c", "--command", "-s", "--shell", "-g", "--group", "-G", "--supp-group", "-w", "--whitelist-environment"],
        flag_opts: &["-", "-l", "--login", "-m", "-p", "--preserve-environment", "-P", "--pty", "-f", "--fast"],
        kind: Kind::Su,
    },
    Wrapper {
        name: "runuser",
        value_opts: &["-u", "--user", "-c", "--command", "-s", "--shell", "-g", "--group", "-G", "--supp-group", "-w", "--whitelist-environment"],
        flag_opts: &["-", "-l", "--login", "-m", "-p", "--preserve-environment", "-P", "--pty", "-f", "--fast"],
        kind: Kind::Su,
    },
    Wrapper {
        name: "env",
        value_opts: &["-u", "--unset", "-C", "--chdir", "-S", "--split-string", "--default-signal", "--ignore-signal", "--block-signal"],
        flag_opts: &["-i", "--ignore-environment", "-0", "--null", "-v", "--debug", "-"],
        kind: Kind::Env,
    },
    Wrapper { name: "command", value_opts: &[], flag_opts: &["-p", "-v", "-V"], kind: Kind::Command },
    Wrapper { name: "builtin", value_opts: &[], flag_opts: &[], kind: Kind::Plain { skip: 0 } },
    Wrapper { name: "exec", value_opts: &["-a"], flag_opts: &["-c", "-l"], kind: Kind::Plain { skip: 0 } },
    Wrapper { name: "nohup", value_opts: &[], flag_opts: &[], kind: Kind::Plain { skip: 0 } },
    Wrapper { name: "nice", value_opts: &["-n", "--adjustment"], flag_opts: &[], kind: Kind::Plain { skip: 0 } },
    Wrapper { name: "ionice", value_opts: &["-c", "--class", "-n", "--classdata"], flag_opts: &["-t", "--ignore"], kind: Kind::Plain { skip: 0 } },
    Wrapper {
        name: "time",
        value_opts: &["-f", "--format", "-o", "--output"],
        flag_opts: &["-p", "--portability", "-a", "--append", "-v", "--verbose", "-q", "--quiet"],
        kind: Kind::Plain { skip: 0 },
    },
    Wrapper {
        name: "timeout",
        value_opts: &["-s", "--signal", "-k", "--kill-after"],
        flag_opts: &["--foreground", "--preserve-status", "-v", "--verbose", "-f", "-p"],
        kind: Kind::Plain { skip: 1 },
    },
    Wrapper {
        name: "gtimeout",
        value_opts: &["-s", "--signal", "-k", "--kill-after"],
        flag_opts: &["--foreground", "--preserve-status", "-v", "--verbose"],
        kind: Kind::Plain { skip: 1 },
    },
    Wrapper { name: "stdbuf", value_opts: &["-i", "--input", "-o", "--output", "-e", "--error"], flag_opts: &[], kind: Kind::Plain { skip: 0 } },
    Wrapper { name: "chroot", value_opts: &["--userspec", "--groups"], flag_opts: &["--skip-chdir"], kind: Kind::Plain { skip: 1 } },
    Wrapper {
        name: "flock",
        value_opts: &["-w", "--timeout", "--wait", "-E", "--conflict-exit-code", "-c", "--command"],
        flag_opts: &[
            "-s", "--shared", "-x", "-e", "--exclusive", "-u", "--unlock", "-n", "--nb", "--nonblock", "-o", "--close", "-F", "--no-fork", "--verbose",
        ],
        kind: Kind::Plain { skip: 1 },
    },
    Wrapper {
        name: "watch",
        value_opts: &["-n", "--interval", "-q", "--equexit", "--differences"],
        flag_opts: &[
            "-d", "-t", "--no-title", "-b", "--beep", "-e", "--errexit", "-g", "--chgexit", "-c", "--color", "-x", "--exec", "-p", "--precise", "-w",
            "--no-wrap",
        ],
        kind: Kind::Watch,
    },
    Wrapper {
        name: "strace",
        value_opts: &[
            "-o", "--output", "-e", "-p", "--attach", "-s", "--string-limit", "-u", "--user", "-E", "--env", "-a", "-b", "-I", "-O", "-P", "-S", "-X",
        ],
        flag_opts: &[
            "-f", "--follow-forks", "-ff", "-t", "-tt", "-ttt", "-T", "-c", "-C", "-v", "-V", "-x", "-xx", "-y", "-yy", "-q", "-qq", "-r", "-i", "-k", "-w",
            "-z", "-Z", "-d", "-D", "-h", "-n",
        ],
        kind: Kind::Plain { skip: 0 },
    },
    Wrapper {
        name: "ltrace",
        value_opts: &["-o", "--output", "-e", "-p", "-s", "-u", "-a", "-l", "-n"],
        flag_opts: &["-f", "-t", "-tt", "-ttt", "-T", "-c", "-C", "-i", "-S", "-b", "-r", "-w"],
        kind: Kind::Plain { skip: 0 },
    },
    Wrapper { name: "setsid", value_opts: &[], flag_opts: &["-c", "--ctty", "-f", "--fork", "-w", "--wait"], kind: Kind::Plain { skip: 0 } },
    Wrapper { name: "unbuffer", value_opts: &[], flag_opts: &["-p"], kind: Kind::Plain { skip: 0 } },
    Wrapper { name: "caffeinate", value_opts: &["-t", "-w"], flag_opts: &["-d", "-i", "-m", "-s", "-u"], kind: Kind::Plain { skip: 0 } },
    Wrapper {
        name: "xargs",
        value_opts: &[
            "-a", "--arg-file", "-d", "--delimiter", "-E", "-e", "--eof", "-I", "-i", "--replace", "-L", "-l", "--max-lines", "-n", "--max-args", "-P",
            "--max-procs", "-s", "--max-chars", "--process-slot-var",
        ],
        flag_opts: &["-0", "--null", "-o", "--open-tty", "-p", "--interactive", "-r", "--no-run-if-empty", "-t", "--verbose", "-x", "--exit"],
        kind: Kind::Xargs,
    },
    Wrapper { name: "busybox", value_opts: &[], flag_opts: &[], kind: Kind::Plain { skip: 0 } },
    Wrapper { name: "pkexec", value_opts: &["--user"], flag_opts: &["--keep-cwd", "--disable-internal-agent"], kind: Kind::Plain { skip: 0 } },
    Wrapper {
        name: "run0",
        value_opts: &["-u", "--user", "-g", "--group", "-D", "--chdir", "--setenv", "--unit", "--property", "--description", "--slice", "--nice"],
        flag_opts: &["--no-ask-password", "--machine"],
        kind: Kind::Plain { skip: 0 },
    },
    Wrapper {
        name: "parallel",
        value_opts: &[
            "-j", "--jobs", "-S", "--sshlogin", "-a", "--arg-file", "--joblog", "--results", "--res", "-n", "--max-args", "-N", "--delay", "--timeout",
            "--retries", "-I", "--colsep", "-C", "-d", "--delimiter", "--tmpdir", "--workdir", "--wd", "--halt", "--memfree", "--load", "-L", "--max-lines",
            "-E", "--eof", "--tagstring", "--block", "--env",
        ],
        flag_opts: &[
            "-k", "--keep-order", "-q", "--quote", "-v", "--verbose", "--bar", "--progress", "--eta", "-0", "--null", "-u", "--ungroup", "--line-buffer",
            "--lb", "--tag", "-X", "-m", "--xargs", "--pipe", "--no-notice", "--will-cite", "-r", "--no-run-if-empty", "--group", "--shuf", "-t", "--dry-run",
            "--nonall", "--onall",
        ],
        kind: Kind::Parallel,
    },
];

/// What peeling one wrapper found.
#[derive(Debug, PartialEq, Eq)]
pub enum Peeled<'a> {
    /// Not a wrapper.
    NotWrapper,
    /// The target argv starts at this index of the words.
    Target { name: &'static str, start: usize },
    /// The wrapper runs this shell string.
    Shell { name: &'static str, script: String },
    /// The wrapper runs nothing else; `harmless` says whether that is read-only
    /// (`env` printing the environment) or not (`sudo -s` opening a root shell).
    Nothing { name: &'static str, harmless: bool },
    /// An option the table does not declare: the target cannot be known.
    UnknownOption { name: &'static str, option: &'a str },
}

/// Peels one wrapper off `words` (`words[0]` is the wrapper's program word).
pub fn peel<'a>(program: &str, words: &'a [Arg]) -> Peeled<'a> {
    let Some(w) = WRAPPERS.iter().find(|w| w.name == program) else {
        return Peeled::NotWrapper;
    };
    let mut i = 1;
    let mut shell_string: Option<String> = None;
    let mut exec_mode = false; // watch -x
    let mut lookup_only = false; // command -v
    let mut interactive_shell = false; // sudo -s / -i
    while i < words.len() {
        let a = words[i].text.as_str();
        if a == "--" {
            i += 1;
            break;
        }
        if w.kind == Kind::Env && a.contains('=') && !a.starts_with('-') {
            i += 1;
            continue;
        }
        if w.kind == Kind::Su && !a.starts_with('-') && shell_string.is_none() && words[i + 1..].iter().any(|x| matches!(x.text.as_str(), "-c" | "--command")) {
            // `su root -c CMD`: util-linux takes options after the user too.
            i += 1;
            continue;
        }
        if !a.starts_with('-') || a == "-" && w.kind != Kind::Su && w.kind != Kind::Env {
            break;
        }
        if a == "-" {
            i += 1;
            continue;
        }
        // sudo's shell-opening options take no value but change the meaning.
        if program == "sudo" && matches!(a, "-s" | "--shell" | "-i" | "--login") {
            interactive_shell = true;
            i += 1;
            continue;
        }
        if program == "sudo" && matches!(a, "-l" | "--list" | "-v" | "--validate" | "-K" | "--remove-timestamp" | "-V" | "--version") {
            return Peeled::Nothing { name: w.name, harmless: true };
        }
        let (opt, inline) = match a.split_once('=') {
            Some((o, v)) if a.starts_with("--") => (o, Some(v)),
            _ => (a, None),
        };
        if w.value_opts.contains(&opt) {
            let value = match inline {
                Some(v) => v.to_owned(),
                None => {
                    i += 1;
                    match words.get(i) {
                        Some(v) => v.text.clone(),
                        None => return Peeled::UnknownOption { name: w.name, option: a },
                    }
                }
            };
            if matches!(opt, "-c" | "--command") && matches!(w.kind, Kind::Su) || (program == "flock" && matches!(opt, "-c" | "--command")) {
                shell_string = Some(value);
            } else if program == "env" && matches!(opt, "-S" | "--split-string") {
                let mut script = value;
                for rest in &words[i + 1..] {
                    script.push(' ');
                    script.push_str(&rest.text);
                }
                return Peeled::Shell { name: w.name, script };
            }
            i += 1;
            continue;
        }
        if w.flag_opts.contains(&opt) && inline.is_none() {
            if program == "watch" && matches!(opt, "-x" | "--exec") {
                exec_mode = true;
            }
            if w.kind == Kind::Command && matches!(opt, "-v" | "-V") {
                lookup_only = true;
            }
            i += 1;
            continue;
        }
        // A packed cluster of declared short flags (`-nE`), the last may take a value.
        if let Some(consumed) = short_cluster(w, a, words.get(i + 1)) {
            i += consumed;
            continue;
        }
        // `nice -5`, `timeout -9`: numeric options are values in disguise.
        if matches!(program, "nice") && a[1..].chars().all(|c| c.is_ascii_digit()) {
            i += 1;
            continue;
        }
        return Peeled::UnknownOption { name: w.name, option: a };
    }
    if let Some(script) = shell_string {
        return Peeled::Shell { name: w.name, script };
    }
    if lookup_only {
        return Peeled::Nothing { name: w.name, harmless: true };
    }
    let start = match w.kind {
        Kind::Plain { skip } => i + skip,
        Kind::Su => {
            // `su [user]` / `runuser -u user -- cmd`: a user word may precede nothing.
            if program == "runuser" && i < words.len() {
                i
            } else {
                return Peeled::Nothing { name: w.name, harmless: false };
            }
        }
        _ => i,
    };
    if start >= words.len() {
        // Only the privilege wrappers open a shell when given nothing to run;
        // `exec 3>&1`, `time`, `nice` and `env` alone run nothing.
        let harmless = !matches!(program, "sudo" | "doas" | "su" | "runuser" | "chroot" | "pkexec" | "run0");
        if interactive_shell {
            return Peeled::Nothing { name: w.name, harmless: false };
        }
        return Peeled::Nothing { name: w.name, harmless };
    }
    if w.kind == Kind::Parallel {
        let end = words[start..].iter().position(|a| a.text.starts_with(":::")).map_or(words.len(), |p| start + p);
        if end == start {
            // No template: each input line is itself a command.
            return Peeled::Nothing { name: w.name, harmless: false };
        }
        let template = words[start..end].iter().map(|a| a.text.as_str()).collect::<Vec<_>>().join(" ");
        // `parallel rm -rf ::: / ~`: each argument after `:::` completes the template.
        let inputs: Vec<&str> = words[end..].iter().map(|a| a.text.as_str()).filter(|a| !a.starts_with(":::")).take(16).collect();
        let script = if inputs.is_empty() {
            template
        } else {
            inputs.iter().map(|i| if template.contains("{}") { template.replace("{}", i) } else { format!("{template} {i}") }).collect::<Vec<_>>().join("\n")
        };
        return Peeled::Shell { name: w.name, script };
    }
    if w.kind == Kind::Watch && !exec_mode {
        let script = words[start..].iter().map(|a| a.text.as_str()).collect::<Vec<_>>().join(" ");
        return Peeled::Shell { name: w.name, script };
    }
    Peeled::Target { name: w.name, start }
}

/// Consumes a packed short cluster like `-nE` or `-n5`; returns words used.
fn short_cluster(w: &Wrapper, a: &str, next: Option<&Arg>) -> Option<usize> {
    if a.starts_with("--") || a.len() < 3 {
        return None;
    }
    let letters: Vec<char> = a[1..].chars().collect();
    for (k, c) in letters.iter().enumerate() {
        let opt = format!("-{c}");
        if w.value_opts.contains(&opt.as_str()) {
            // The rest of the cluster, or the next word, is the value.
            return if k + 1 < letters.len() { Some(1) } else { next.map(|_| 2) };
        }
        if !w.flag_opts.contains(&opt.as_str()) {
            return None;
        }
    }
    Some(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<Arg> {
        s.split_whitespace().map(Arg::lit).collect()
    }

    #[track_caller]
    fn target(s: &str, expect: &str) {
        let words = args(s);
        let program = words[0].text.clone();
        match peel(&program, &words) {
            Peeled::Target { start, .. } => {
                let rest: Vec<&str> = words[start..].iter().map(|a| a.text.as_str()).collect();
                assert_eq!(rest.join(" "), expect, "peeling `{s}`");
            }
            other => panic!("peeling `{s}` gave {other:?}"),
        }
    }

    #[test]
    fn value_options_are_skipped_exactly() {
        target("sudo -u deploy git push", "git push");
        target("sudo -E -- rm -rf x", "rm -rf x");
        target("timeout -s KILL 10 rm x", "rm x");
        target("nice -n 10 make", "make");
        target("nice -5 make", "make");
        target("env -u HOME A=1 B=2 kubectl delete ns x", "kubectl delete ns x");
        target("xargs -0 -n 1 rm", "rm");
        target("ionice -c2 -n7 tar cf x", "tar cf x");
        target("flock /tmp/lock rm x", "rm x");
        target("stdbuf -oL tail -f log", "tail -f log");
        target("chroot /mnt ls", "ls");
    }

    #[test]
    fn wrapper_table_is_consistent() {
        let mut names = std::collections::HashSet::new();
        for w in WRAPPERS {
            assert!(names.insert(w.name), "wrapper {} listed twice", w.name);
            for o in w.value_opts {
                assert!(!w.flag_opts.contains(o), "{}: {o} is both a value and a flag option", w.name);
                assert!(o.starts_with('-'), "{}: option {o} lacks a dash", w.name);
            }
        }
    }

    #[test]
    fn undeclared_options_are_not_guessed() {
        let words = args("sudo --frobnicate rm -rf /");
        assert!(matches!(peel("sudo", &words), Peeled::UnknownOption { option: "--frobnicate", .. }));
    }

    #[test]
    fn shell_strings_are_payloads() {
        let words = args("watch kubectl get pods");
        assert_eq!(peel("watch", &words), Peeled::Shell { name: "watch", script: "kubectl get pods".into() });
        let words = vec![Arg::lit("su"), Arg::lit("-c"), Arg::lit("rm -rf /"), Arg::lit("root")];
        assert_eq!(peel("su", &words), Peeled::Shell { name: "su", script: "rm -rf /".into() });
    }

    #[test]
    fn bare_wrappers_run_nothing() {
        assert_eq!(peel("env", &args("env")), Peeled::Nothing { name: "env", harmless: true });
        assert_eq!(peel("sudo", &args("sudo -s")), Peeled::Nothing { name: "sudo", harmless: false });
        assert_eq!(peel("command", &args("command -v git")), Peeled::Nothing { name: "command", harmless: true });
        assert_eq!(peel("exec", &args("exec")), Peeled::Nothing { name: "exec", harmless: true });
    }

    #[test]
    fn parallel_templates_are_shell() {
        assert_eq!(peel("parallel", &args("parallel -j4 gzip {} ::: a b")), Peeled::Shell { name: "parallel", script: "gzip a\ngzip b".into() });
        assert_eq!(peel("parallel", &args("parallel rm -rf ::: /")), Peeled::Shell { name: "parallel", script: "rm -rf /".into() });
        let words = vec![Arg::lit("su"), Arg::lit("root"), Arg::lit("-c"), Arg::lit("rm -rf /")];
        assert_eq!(peel("su", &words), Peeled::Shell { name: "su", script: "rm -rf /".into() });
    }
}
