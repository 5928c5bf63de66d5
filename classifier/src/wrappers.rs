//! The wrapper table: programs that run another program (`sudo`, `env`, `timeout`,
//! `xargs` …). Each entry declares which options take a value, so the target
//! command is found exactly; an undeclared option is never guessed past.
//!
//! It does not classify the target; the engine re-dispatches it.

use crate::call::Arg;
use crate::rules::Rule;

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
    /// `sg GROUP CMD…`: after `skip` words, the rest is one shell string.
    JoinShell { skip: usize },
    /// `perf stat|record|trace [opts] CMD`: a wrapper only for these subcommands.
    Perf,
    /// `tmux new-session CMD`, `tmux send-keys …`: see `tmux`.
    Tmux,
    /// `script [-c CMD] [FILE]`: the command is `-c`'s shell string; FILE is the typescript.
    Script,
    /// `hyperfine CMD…`: every operand and the setup/prepare/cleanup values are shell strings.
    Hyperfine,
}

struct Wrapper {
    name: &'static str,
    /// Options that take a value (short `-u`, long `--user`).
    value_opts: &'static [&'static str],
    /// Options that take none.
    flag_opts: &'static [&'static str],
    /// Options that take two values (`bwrap --bind SRC DEST`).
    value2_opts: &'static [&'static str],
    /// Every `--long` word is self-contained (`--tool=memcheck`, `--private`):
    /// the wrapper takes no separate long-option values.
    long_free: bool,
    /// Given nothing to run, the wrapper starts a shell (`sudo`, `unshare`, `script`).
    bare_shell: bool,
    /// A rule the wrapper itself fires, whatever it runs (`systemd-run` starts a unit).
    gate: Option<&'static Rule>,
    kind: Kind,
}

/// The defaults every entry starts from.
const W: Wrapper =
    Wrapper { name: "", value_opts: &[], flag_opts: &[], value2_opts: &[], long_free: false, bare_shell: false, gate: None, kind: Kind::Plain { skip: 0 } };

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
        bare_shell: true,
        ..W
    },
    Wrapper { name: "doas", value_opts: &["-u", "-C"], flag_opts: &["-n", "-L"], bare_shell: true, ..W },
    Wrapper {
        name: "su",
        value_opts: &["-c", "--command", "-s", "--shell", "-g", "--group", "-G", "--supp-group", "-w", "--whitelist-environment"],
        flag_opts: &["-", "-l", "--login", "-m", "-p", "--preserve-environment", "-P", "--pty", "-f", "--fast"],
        kind: Kind::Su,
        bare_shell: true,
        ..W
    },
    Wrapper {
        name: "runuser",
        value_opts: &["-u", "--user", "-c", "--command", "-s", "--shell", "-g", "--group", "-G", "--supp-group", "-w", "--whitelist-environment"],
        flag_opts: &["-", "-l", "--login", "-m", "-p", "--preserve-environment", "-P", "--pty", "-f", "--fast"],
        kind: Kind::Su,
        bare_shell: true,
        ..W
    },
    Wrapper {
        name: "env",
        value_opts: &["-u", "--unset", "-C", "--chdir", "-S", "--split-string", "--default-signal", "--ignore-signal", "--block-signal"],
        flag_opts: &["-i", "--ignore-environment", "-0", "--null", "-v", "--debug", "-"],
        kind: Kind::Env,
        ..W
    },
    Wrapper { name: "command", value_opts: &[], flag_opts: &["-p", "-v", "-V"], kind: Kind::Command, ..W },
    Wrapper { name: "builtin", value_opts: &[], flag_opts: &[], kind: Kind::Plain { skip: 0 }, ..W },
    Wrapper { name: "exec", value_opts: &["-a"], flag_opts: &["-c", "-l"], kind: Kind::Plain { skip: 0 }, ..W },
    Wrapper { name: "nohup", value_opts: &[], flag_opts: &[], kind: Kind::Plain { skip: 0 }, ..W },
    Wrapper { name: "nice", value_opts: &["-n", "--adjustment"], flag_opts: &[], kind: Kind::Plain { skip: 0 }, ..W },
    Wrapper { name: "ionice", value_opts: &["-c", "--class", "-n", "--classdata"], flag_opts: &["-t", "--ignore"], kind: Kind::Plain { skip: 0 }, ..W },
    Wrapper {
        name: "time",
        value_opts: &["-f", "--format", "-o", "--output"],
        flag_opts: &["-p", "--portability", "-a", "--append", "-v", "--verbose", "-q", "--quiet"],
        kind: Kind::Plain { skip: 0 },
        ..W
    },
    Wrapper {
        name: "timeout",
        value_opts: &["-s", "--signal", "-k", "--kill-after"],
        flag_opts: &["--foreground", "--preserve-status", "-v", "--verbose", "-f", "-p"],
        kind: Kind::Plain { skip: 1 },
        ..W
    },
    Wrapper {
        name: "gtimeout",
        value_opts: &["-s", "--signal", "-k", "--kill-after"],
        flag_opts: &["--foreground", "--preserve-status", "-v", "--verbose"],
        kind: Kind::Plain { skip: 1 },
        ..W
    },
    Wrapper { name: "stdbuf", value_opts: &["-i", "--input", "-o", "--output", "-e", "--error"], flag_opts: &[], kind: Kind::Plain { skip: 0 }, ..W },
    Wrapper { name: "chroot", value_opts: &["--userspec", "--groups"], flag_opts: &["--skip-chdir"], kind: Kind::Plain { skip: 1 }, bare_shell: true, ..W },
    Wrapper {
        name: "flock",
        value_opts: &["-w", "--timeout", "--wait", "-E", "--conflict-exit-code", "-c", "--command"],
        flag_opts: &[
            "-s", "--shared", "-x", "-e", "--exclusive", "-u", "--unlock", "-n", "--nb", "--nonblock", "-o", "--close", "-F", "--no-fork", "--verbose",
        ],
        kind: Kind::Plain { skip: 1 },
        ..W
    },
    Wrapper {
        name: "watch",
        value_opts: &["-n", "--interval", "-q", "--equexit", "--differences"],
        flag_opts: &[
            "-d", "-t", "--no-title", "-b", "--beep", "-e", "--errexit", "-g", "--chgexit", "-c", "--color", "-x", "--exec", "-p", "--precise", "-w",
            "--no-wrap",
        ],
        kind: Kind::Watch,
        ..W
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
        ..W
    },
    Wrapper {
        name: "ltrace",
        value_opts: &["-o", "--output", "-e", "-p", "-s", "-u", "-a", "-l", "-n"],
        flag_opts: &["-f", "-t", "-tt", "-ttt", "-T", "-c", "-C", "-i", "-S", "-b", "-r", "-w"],
        kind: Kind::Plain { skip: 0 },
        ..W
    },
    Wrapper { name: "setsid", value_opts: &[], flag_opts: &["-c", "--ctty", "-f", "--fork", "-w", "--wait"], kind: Kind::Plain { skip: 0 }, ..W },
    // Namespace, scheduling, sandbox, limit, tracing and proxy runners: each runs
    // its operand as a program (the exec-vectors issue; ORACLE.md's exec traces).
    Wrapper {
        name: "nsenter",
        value_opts: &["-t", "--target", "-S", "--setuid", "-G", "--setgid", "--wd", "--env"],
        flag_opts: &[
            "-a", "--all", "-m", "--mount", "-u", "--uts", "-i", "--ipc", "-n", "--net", "-p", "--pid", "-U", "--user", "-C", "--cgroup", "-T", "--time", "-F",
            "--no-fork", "--preserve-credentials", "-Z", "--follow-context", "-r", "--root", "-w",
        ],
        bare_shell: true,
        ..W
    },
    Wrapper {
        name: "unshare",
        value_opts: &[
            "--propagation", "--setgroups", "-R", "--root", "-w", "--wd", "-S", "--setuid", "-G", "--setgid", "--map-user", "--map-group", "--map-users",
            "--map-groups", "--monotonic", "--boottime",
        ],
        flag_opts: &[
            "-m", "--mount", "-u", "--uts", "-i", "--ipc", "-n", "--net", "-p", "--pid", "-U", "--user", "-C", "--cgroup", "-T", "--time", "-f", "--fork",
            "-r", "--map-root-user", "-c", "--map-current-user", "--mount-proc", "--kill-child", "--keep-caps", "--map-auto",
        ],
        bare_shell: true,
        ..W
    },
    Wrapper {
        name: "chrt",
        value_opts: &["-T", "--sched-runtime", "-P", "--sched-period", "-D", "--sched-deadline"],
        flag_opts: &[
            "-a", "--all-tasks", "-b", "--batch", "-d", "--deadline", "-e", "--ext", "-f", "--fifo", "-i", "--idle", "-o", "--other", "-r", "--rr", "-R",
            "--reset-on-fork", "-v", "--verbose",
        ],
        kind: Kind::Plain { skip: 1 },
        ..W
    },
    Wrapper { name: "taskset", flag_opts: &["-a", "--all-tasks", "-c", "--cpu-list"], kind: Kind::Plain { skip: 1 }, ..W },
    Wrapper {
        name: "setarch",
        flag_opts: &[
            "-v", "--verbose", "-R", "--addr-no-randomize", "-F", "--fdpic-funcptrs", "-Z", "--mmap-page-zero", "-L", "--addr-compat-layout", "-X",
            "--read-implies-exec", "-B", "--32bit", "-S", "--whole-seconds", "-T", "--sticky-timeouts", "--3gb", "--4gb", "--uname-2.6",
        ],
        kind: Kind::Plain { skip: 1 },
        bare_shell: true,
        ..W
    },
    Wrapper { name: "linux32", flag_opts: &["-v", "-R", "-3", "-B", "--3gb", "--4gb"], bare_shell: true, ..W },
    Wrapper { name: "linux64", flag_opts: &["-v", "-R", "-3", "-B", "--3gb", "--4gb"], bare_shell: true, ..W },
    Wrapper { name: "firejail", flag_opts: &["-q"], long_free: true, bare_shell: true, ..W },
    Wrapper {
        name: "bwrap",
        value_opts: &[
            "--args", "--argv0", "--unsetenv", "--lock-file", "--sync-fd", "--chdir", "--uid", "--gid", "--hostname", "--userns", "--userns2", "--pidns",
            "--remount-ro", "--proc", "--dev", "--tmpfs", "--mqueue", "--dir", "--seccomp", "--add-seccomp-fd", "--block-fd", "--userns-block-fd", "--info-fd",
            "--json-status-fd", "--cap-add", "--cap-drop", "--exec-label", "--file-label", "--perms", "--size",
        ],
        value2_opts: &[
            "--bind", "--bind-try", "--dev-bind", "--dev-bind-try", "--ro-bind", "--ro-bind-try", "--bind-fd", "--ro-bind-fd", "--symlink", "--setenv",
            "--file", "--bind-data", "--ro-bind-data", "--chmod",
        ],
        flag_opts: &[
            "--unshare-all", "--share-net", "--unshare-user", "--unshare-user-try", "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts",
            "--unshare-cgroup", "--unshare-cgroup-try", "--disable-userns", "--assert-userns-disabled", "--clearenv", "--new-session", "--die-with-parent",
            "--as-pid-1",
        ],
        ..W
    },
    Wrapper {
        name: "script",
        value_opts: &[
            "-c", "--command", "-E", "--echo", "-I", "--log-in", "-O", "--log-out", "-B", "--log-io", "-T", "--log-timing", "-m", "--logging-format", "-o",
            "--output-limit",
        ],
        flag_opts: &["-a", "--append", "-e", "--return", "-f", "--flush", "-q", "--quiet", "--force"],
        kind: Kind::Script,
        bare_shell: true,
        ..W
    },
    Wrapper {
        name: "tmux",
        value_opts: &["-c", "-f", "-L", "-S", "-T"],
        flag_opts: &["-2", "-C", "-CC", "-D", "-l", "-N", "-u", "-v", "-vv"],
        kind: Kind::Tmux,
        ..W
    },
    Wrapper {
        name: "screen",
        value_opts: &["-S", "-s", "-c", "-e", "-h", "-p", "-t", "-T", "-L", "-Logfile"],
        flag_opts: &["-a", "-A", "-d", "-D", "-r", "-R", "-RR", "-m", "-dm", "-dmS", "-q", "-O", "-i", "-l", "-ln", "-U", "-x", "-f", "-fn", "-fa"],
        bare_shell: true,
        ..W
    },
    Wrapper {
        name: "torsocks",
        value_opts: &["-u", "--user", "-p", "--pass", "-a", "--address", "-P", "--port"],
        flag_opts: &["-i", "--isolate", "-q", "--quiet", "-d", "--debug", "-4", "-6"],
        ..W
    },
    Wrapper { name: "proxychains", value_opts: &["-f"], flag_opts: &["-q"], ..W },
    Wrapper { name: "proxychains4", value_opts: &["-f"], flag_opts: &["-q"], ..W },
    Wrapper { name: "tsocks", ..W },
    Wrapper { name: "valgrind", flag_opts: &["-q", "-v", "-s"], long_free: true, ..W },
    Wrapper { name: "catchsegv", ..W },
    Wrapper { name: "eatmydata", ..W },
    Wrapper { name: "nocache", ..W },
    Wrapper { name: "chronic", flag_opts: &["-e", "-v"], ..W },
    Wrapper { name: "ifne", flag_opts: &["-n"], ..W },
    Wrapper { name: "dumb-init", flag_opts: &["-c", "--single-child", "-v", "--verbose"], value_opts: &["-r", "--rewrite"], ..W },
    Wrapper { name: "tini", flag_opts: &["-s", "-g", "-v", "-vv", "-w", "-p"], value_opts: &["-e", "-l"], ..W },
    Wrapper { name: "gosu", kind: Kind::Plain { skip: 1 }, ..W },
    Wrapper { name: "su-exec", kind: Kind::Plain { skip: 1 }, ..W },
    Wrapper {
        name: "setpriv",
        value_opts: &[
            "--groups", "--inh-caps", "--ambient-caps", "--bounding-set", "--ruid", "--euid", "--reuid", "--rgid", "--egid", "--regid", "--securebits",
            "--pdeathsig", "--selinux-label", "--apparmor-profile", "--landlock-access", "--landlock-rule",
        ],
        flag_opts: &["-d", "--dump", "--clear-groups", "--keep-groups", "--init-groups", "--nnp", "--no-new-privs", "--reset-env"],
        ..W
    },
    Wrapper {
        name: "perf",
        value_opts: &[
            "-e", "--event", "-p", "--pid", "-t", "--tid", "-C", "--cpu", "-G", "--cgroup", "-o", "--output", "-r", "--repeat", "-I", "--interval-print", "-x",
            "--field-separator", "-F", "--freq", "-c", "--count", "-m", "--mmap-pages", "--call-graph", "-j", "--branch-filter", "--delay", "-D",
        ],
        flag_opts: &[
            "-a", "--all-cpus", "-A", "--no-aggr", "-B", "--big-num", "-d", "--detailed", "-n", "--null", "-v", "--verbose", "-q", "--quiet", "-g", "-s",
            "--stat", "-b", "--branch-any", "-T", "--timestamp", "-i", "--no-inherit",
        ],
        kind: Kind::Perf,
        ..W
    },
    Wrapper {
        name: "rlwrap",
        value_opts: &["-b", "-f", "-H", "-l", "-p", "-P", "-q", "-s", "-S", "-t", "-w", "-z", "-e", "-O", "-g", "-M"],
        flag_opts: &["-A", "-c", "-C", "-D", "-i", "-m", "-n", "-N", "-o", "-r", "-R", "-U", "-v", "-W"],
        long_free: true,
        ..W
    },
    Wrapper {
        name: "xvfb-run",
        value_opts: &["-n", "--server-num", "-s", "--server-args", "-e", "--error-file", "-f", "--auth-file", "-p", "--xauth-protocol", "-w", "--wait"],
        flag_opts: &["-a", "--auto-servernum", "-l", "--listen-tcp"],
        ..W
    },
    Wrapper { name: "dbus-run-session", value_opts: &["--config-file", "--dbus-daemon"], ..W },
    Wrapper {
        name: "dbus-launch",
        value_opts: &["--config-file"],
        flag_opts: &["--sh-syntax", "--csh-syntax", "--exit-with-session", "--exit-with-x11", "--binary-syntax"],
        ..W
    },
    Wrapper {
        name: "systemd-run",
        value_opts: &[
            "-u", "--unit", "-p", "--property", "--description", "--slice", "-E", "--setenv", "--on-active", "--on-boot", "--on-startup", "--on-unit-active",
            "--on-unit-inactive", "--on-calendar", "--timer-property", "--path-property", "--socket-property", "-M", "--machine", "-H", "--host", "--uid",
            "--gid", "--nice", "--working-directory", "--service-type",
        ],
        flag_opts: &[
            "--user", "--system", "--scope", "-r", "--remain-after-exit", "--send-sighup", "-t", "--pty", "-P", "--pipe", "-q", "--quiet", "-G", "--collect",
            "--wait", "--same-dir", "-d", "--no-block", "--no-ask-password", "--slice-inherit",
        ],
        gate: Some(&crate::rules::system::services::CONTROL),
        ..W
    },
    Wrapper { name: "sg", kind: Kind::JoinShell { skip: 1 }, ..W },
    Wrapper { name: "newgrp", kind: Kind::Plain { skip: 1 }, bare_shell: true, ..W },
    Wrapper { name: "ssh-agent", value_opts: &["-a", "-E", "-t", "-P", "-O"], flag_opts: &["-c", "-s", "-D", "-d"], ..W },
    Wrapper { name: "prlimit", long_free: true, ..W },
    Wrapper { name: "logsave", flag_opts: &["-a", "-s", "-v"], kind: Kind::Plain { skip: 1 }, ..W },
    Wrapper { name: "cgexec", value_opts: &["-g"], flag_opts: &["--sticky"], ..W },
    Wrapper {
        name: "numactl",
        value_opts: &["-C", "--physcpubind", "-N", "--cpunodebind", "-m", "--membind", "-p", "--preferred", "-i", "--interleave", "-P", "--preferred-many"],
        flag_opts: &["-a", "--all", "-l", "--localalloc", "-b", "--balancing"],
        ..W
    },
    Wrapper { name: "faketime", flag_opts: &["-f", "-m", "--exclude-monotonic"], value_opts: &["--date-prog"], kind: Kind::Plain { skip: 1 }, ..W },
    Wrapper { name: "fakeroot", value_opts: &["-l", "--lib", "--faked", "-s", "-i", "-b"], flag_opts: &["-u", "--unknown-is-real"], bare_shell: true, ..W },
    Wrapper { name: "trickle", value_opts: &["-u", "-d", "-w", "-t", "-l", "-n"], flag_opts: &["-s", "-v"], ..W },
    Wrapper { name: "sandbox-exec", value_opts: &["-f", "-n", "-p", "-D"], ..W },
    Wrapper {
        name: "chpst",
        value_opts: &["-u", "-U", "-b", "-e", "-/", "-n", "-l", "-L", "-m", "-d", "-o", "-p", "-f", "-c"],
        flag_opts: &["-v", "-P", "-0", "-1", "-2"],
        ..W
    },
    Wrapper {
        name: "hyperfine",
        value_opts: &[
            "-w", "--warmup", "-m", "--min-runs", "-M", "--max-runs", "-r", "--runs", "-s", "--setup", "-p", "--prepare", "-c", "--cleanup", "--conclude",
            "-D", "--parameter-step-size", "-S", "--shell", "--style", "--sort", "-u", "--time-unit", "--export-asciidoc", "--export-csv", "--export-json",
            "--export-markdown", "--export-orgmode", "--output", "--input", "-n", "--command-name",
        ],
        // `-P NAME MIN MAX`: the two values and MAX (read as a harmless command word).
        value2_opts: &["-L", "--parameter-list", "-P", "--parameter-scan"],
        flag_opts: &["-N", "-i", "--ignore-failure", "--show-output", "--no-shell"],
        kind: Kind::Hyperfine,
        ..W
    },
    Wrapper { name: "entr", flag_opts: &["-a", "-c", "-cc", "-d", "-n", "-p", "-r", "-s", "-z"], ..W },
    Wrapper { name: "unbuffer", flag_opts: &["-p"], ..W },
    Wrapper { name: "sshpass", value_opts: &["-p", "-f", "-d", "-P"], flag_opts: &["-e", "-v"], ..W },
    Wrapper { name: "caffeinate", value_opts: &["-t", "-w"], flag_opts: &["-d", "-i", "-m", "-s", "-u"], kind: Kind::Plain { skip: 0 }, ..W },
    Wrapper {
        name: "xargs",
        value_opts: &[
            "-a", "--arg-file", "-d", "--delimiter", "-E", "-e", "--eof", "-I", "-i", "--replace", "-L", "-l", "--max-lines", "-n", "--max-args", "-P",
            "--max-procs", "-s", "--max-chars", "--process-slot-var",
        ],
        flag_opts: &["-0", "--null", "-o", "--open-tty", "-p", "--interactive", "-r", "--no-run-if-empty", "-t", "--verbose", "-x", "--exit"],
        kind: Kind::Xargs,
        ..W
    },
    Wrapper { name: "busybox", value_opts: &[], flag_opts: &[], kind: Kind::Plain { skip: 0 }, ..W },
    Wrapper {
        name: "pkexec",
        value_opts: &["--user"],
        flag_opts: &["--keep-cwd", "--disable-internal-agent"],
        kind: Kind::Plain { skip: 0 },
        bare_shell: true,
        ..W
    },
    Wrapper {
        name: "run0",
        value_opts: &["-u", "--user", "-g", "--group", "-D", "--chdir", "--setenv", "--unit", "--property", "--description", "--slice", "--nice"],
        flag_opts: &["--no-ask-password", "--machine"],
        kind: Kind::Plain { skip: 0 },
        bare_shell: true,
        ..W
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
        ..W
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

/// The rule a wrapper fires by itself, whatever it runs.
pub fn gate(name: &str) -> Option<&'static Rule> {
    WRAPPERS.iter().find(|w| w.name == name).and_then(|w| w.gate)
}

/// Wrappers that run their target as another user or root.
pub fn privileged(name: &str) -> bool {
    matches!(name, "sudo" | "doas" | "su" | "runuser" | "pkexec" | "run0" | "chroot" | "nsenter")
}

/// Peels one wrapper off `words` (`words[0]` is the wrapper's program word).
pub fn peel<'a>(program: &str, words: &'a [Arg]) -> Peeled<'a> {
    let Some(w) = WRAPPERS.iter().find(|w| w.name == program) else {
        return Peeled::NotWrapper;
    };
    if w.kind == Kind::Perf {
        // `perf stat CMD` runs CMD; `perf report`, `perf list` … run nothing given.
        return match words.get(1).map(|a| a.text.as_str()) {
            Some("stat" | "record" | "trace" | "c2c" | "mem" | "kmem" | "sched" | "lock" | "kvm") => match peel_options(w, program, &words[1..]) {
                Peeled::Target { name, start } => Peeled::Target { name, start: start + 1 },
                Peeled::Nothing { name, .. } => Peeled::Nothing { name, harmless: true },
                other => other,
            },
            _ => Peeled::NotWrapper,
        };
    }
    if w.kind == Kind::Tmux {
        return tmux(w, words);
    }
    // `sg run|scan|test …` is ast-grep, not `sg GROUP CMD`.
    if program == "sg" && matches!(words.get(1).map(|a| a.text.as_str()), Some("run" | "scan" | "test" | "new" | "lsp" | "completions" | "help") | None) {
        return Peeled::NotWrapper;
    }
    peel_options(w, program, words)
}

/// Options from `words[1]` on, then the target according to the wrapper's kind.
fn peel_options<'a>(w: &'static Wrapper, program: &str, words: &'a [Arg]) -> Peeled<'a> {
    let mut i = 1;
    let mut shell_string: Option<String> = None;
    let mut exec_mode = false; // watch -x
    let mut shell_mode = false; // entr -s
    let mut lookup_only = false; // command -v
    let mut interactive_shell = false; // sudo -s / -i
    let mut hyperfine_scripts: Vec<String> = Vec::new();
    while i < words.len() {
        let a = words[i].text.as_str();
        if a == "--" {
            i += 1;
            break;
        }
        // `env A=1 cmd`, `sudo A=1 cmd`: assignments, never the program name.
        if (matches!(w.kind, Kind::Env) || matches!(program, "sudo" | "doas" | "run0")) && is_assignment(a) {
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
        if program == "screen" && matches!(a, "-ls" | "-list" | "-v" | "-h") {
            return Peeled::Nothing { name: w.name, harmless: true };
        }
        let (opt, inline) = match a.split_once('=') {
            Some((o, v)) if a.starts_with("--") => (o, Some(v)),
            _ => (a, None),
        };
        if w.value2_opts.contains(&opt) {
            if words.len() <= i + 2 {
                return Peeled::UnknownOption { name: w.name, option: a };
            }
            i += 3;
            continue;
        }
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
            if runs_value(program, opt) {
                shell_string = Some(value);
            } else if w.kind == Kind::Hyperfine && matches!(opt, "-s" | "--setup" | "-p" | "--prepare" | "-c" | "--cleanup" | "--conclude") {
                hyperfine_scripts.push(value);
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
        if (w.flag_opts.contains(&opt) && inline.is_none()) || (w.long_free && a.starts_with("--")) {
            if program == "watch" && matches!(opt, "-x" | "--exec") {
                exec_mode = true;
            }
            if program == "entr" && opt == "-s" {
                shell_mode = true;
            }
            if w.kind == Kind::Command && matches!(opt, "-v" | "-V") {
                lookup_only = true;
            }
            i += 1;
            continue;
        }
        // A packed cluster of declared short flags (`-nE`), the last may take a value
        // (`script -qc CMD`: then the value is the command).
        if let Some(consumed) = short_cluster(w, a, words.get(i + 1)) {
            let last = format!("-{}", a.chars().last().unwrap_or('-'));
            if consumed == 2 && runs_value(program, &last) {
                shell_string = words.get(i + 1).map(|v| v.text.clone());
            }
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
        Kind::Plain { skip } | Kind::JoinShell { skip } => i + skip,
        Kind::Su => {
            // `su [user]` / `runuser -u user -- cmd`: a user word may precede nothing.
            if program == "runuser" && i < words.len() {
                i
            } else {
                return Peeled::Nothing { name: w.name, harmless: false };
            }
        }
        // `script [FILE]` without -c records a new interactive shell into FILE.
        Kind::Script => words.len(),
        _ => i,
    };
    if w.kind == Kind::Hyperfine {
        hyperfine_scripts.extend(words[i..].iter().map(|a| a.text.clone()));
        if hyperfine_scripts.is_empty() {
            return Peeled::Nothing { name: w.name, harmless: true };
        }
        return Peeled::Shell { name: w.name, script: hyperfine_scripts.join("\n") };
    }
    if start >= words.len() {
        // `exec 3>&1`, `time`, `nice` and `env` alone run nothing; `sudo`,
        // `unshare`, `script` alone start a shell.
        if interactive_shell {
            return Peeled::Nothing { name: w.name, harmless: false };
        }
        return Peeled::Nothing { name: w.name, harmless: !w.bare_shell };
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
    if (w.kind == Kind::Watch && !exec_mode) || shell_mode || matches!(w.kind, Kind::JoinShell { .. }) {
        let script = words[start..].iter().map(|a| a.text.as_str()).collect::<Vec<_>>().join(" ");
        return Peeled::Shell { name: w.name, script };
    }
    Peeled::Target { name: w.name, start }
}

/// True when the wrapper runs this option's value as a shell string (`su -c`, `script -c`).
fn runs_value(program: &str, opt: &str) -> bool {
    match program {
        "su" | "runuser" | "flock" | "script" => matches!(opt, "-c" | "--command"),
        _ => false,
    }
}

/// `NAME=value` with a shell-variable name.
fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(n, _)| {
        let n = n.strip_suffix('+').unwrap_or(n);
        !n.is_empty() && !n.starts_with(|c: char| c.is_ascii_digit()) && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// tmux subcommands whose trailing words are a shell command, with their
/// value-taking options. Other subcommands (`ls`, `attach`, `kill-session`) run
/// nothing given and are left to the fallback family.
const TMUX_RUNNERS: &[(&[&str], &[&str])] = &[
    (&["new-session", "new"], &["-c", "-e", "-f", "-F", "-n", "-s", "-t", "-x", "-y"]),
    (&["new-window", "neww"], &["-c", "-e", "-F", "-n", "-t"]),
    (&["split-window", "splitw"], &["-c", "-e", "-l", "-t", "-F", "-p"]),
    (&["respawn-pane", "respawnp", "respawn-window", "respawnw"], &["-c", "-e", "-t"]),
    (&["run-shell", "run"], &["-c", "-d", "-t"]),
    (&["if-shell", "if"], &["-t"]),
    (&["pipe-pane", "pipep"], &["-t"]),
    (&["display-popup", "popup"], &["-b", "-c", "-d", "-e", "-h", "-s", "-S", "-t", "-T", "-w", "-x", "-y"]),
    (&["send-keys", "send"], &["-N", "-t"]),
];

fn tmux<'a>(w: &'static Wrapper, words: &'a [Arg]) -> Peeled<'a> {
    // Global options first; `tmux -c CMD` runs CMD through the shell.
    let mut i = 1;
    while let Some(a) = words.get(i).map(|a| a.text.as_str()).filter(|a| a.starts_with('-')) {
        if a == "-c" {
            return match words.get(i + 1) {
                Some(cmd) => Peeled::Shell { name: w.name, script: cmd.text.clone() },
                None => Peeled::UnknownOption { name: w.name, option: a },
            };
        }
        if w.value_opts.contains(&a) {
            i += 2;
        } else if w.flag_opts.contains(&a) {
            i += 1;
        } else {
            return Peeled::UnknownOption { name: w.name, option: a };
        }
    }
    let Some(sub) = words.get(i).map(|a| a.text.as_str()) else {
        // Bare `tmux` opens a new session running an interactive shell.
        return Peeled::Nothing { name: w.name, harmless: false };
    };
    let Some((names, value_opts)) = TMUX_RUNNERS.iter().find(|(names, _)| names.contains(&sub)) else {
        return Peeled::NotWrapper;
    };
    let mut j = i + 1;
    while let Some(a) = words.get(j).map(|a| a.text.as_str()) {
        if a == "--" {
            j += 1;
            break;
        }
        if !a.starts_with('-') || a.len() < 2 {
            break;
        }
        // `-d -s name`, `-dPs name`: flags may be packed; a value option ends the cluster.
        let last = format!("-{}", a.chars().last().unwrap_or('-'));
        j += if value_opts.contains(&a) || (a.len() > 2 && value_opts.contains(&last.as_str())) { 2 } else { 1 };
    }
    let rest: Vec<&str> = words[j.min(words.len())..].iter().map(|a| a.text.as_str()).collect();
    if names[0] == "send-keys" {
        // Keys typed into a pane's shell: the words, less key names, are a command line.
        let typed: Vec<&str> = rest.iter().copied().filter(|k| !matches!(*k, "Enter" | "C-m" | "C-j" | "KPEnter" | "Space")).collect();
        if typed.is_empty() {
            return Peeled::Nothing { name: w.name, harmless: true };
        }
        return Peeled::Shell { name: w.name, script: typed.join(" ") };
    }
    if names[0] == "if-shell" {
        return match rest.first() {
            Some(cond) => Peeled::Shell { name: w.name, script: (*cond).to_owned() },
            None => Peeled::Nothing { name: w.name, harmless: true },
        };
    }
    if rest.is_empty() {
        // A new session, window or pane with no command runs the default shell;
        // `run-shell`/`pipe-pane` without one do nothing.
        let harmless = matches!(names[0], "run-shell" | "pipe-pane");
        return Peeled::Nothing { name: w.name, harmless };
    }
    Peeled::Shell { name: w.name, script: rest.join(" ") }
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
