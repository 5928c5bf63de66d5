//! The wrapper table: every program the engine sees through, with the options
//! each declares. Adding a wrapper touches only this file (its behaviour kinds
//! live in `mod.rs`); a registry test checks the table is consistent.

use super::{Kind, Wrapper, W};
use crate::words;

/// Every wrapper the engine sees through. A registry test checks the table.
pub(super) static WRAPPERS: &[Wrapper] = &[
    Wrapper {
        name: "sudo",
        value_opts: words![
            "-u", "--user", "-g", "--group", "-h", "--host", "-p", "--prompt", "-C", "--close-from", "-D", "--chdir", "-r", "--role", "-t", "--type", "-U",
            "--other-user", "-T", "--command-timeout",
        ],
        flag_opts: words![
            "-A", "--askpass", "-b", "--background", "-E", "--preserve-env", "-H", "--set-home", "-n", "--non-interactive", "-P", "--preserve-groups", "-S",
            "--stdin", "-k", "--reset-timestamp", "-B", "--bell", "-N", "--no-update",
        ],
        bare_shell: true,
        ..W
    },
    Wrapper { name: "doas", value_opts: words!["-u", "-C"], flag_opts: words!["-n", "-L"], bare_shell: true, ..W },
    Wrapper {
        name: "su",
        value_opts: words!["-c", "--command", "-s", "--shell", "-g", "--group", "-G", "--supp-group", "-w", "--whitelist-environment"],
        flag_opts: words!["-", "-l", "--login", "-m", "-p", "--preserve-environment", "-P", "--pty", "-f", "--fast"],
        kind: Kind::Su,
        bare_shell: true,
        ..W
    },
    Wrapper {
        name: "runuser",
        value_opts: words!["-u", "--user", "-c", "--command", "-s", "--shell", "-g", "--group", "-G", "--supp-group", "-w", "--whitelist-environment"],
        flag_opts: words!["-", "-l", "--login", "-m", "-p", "--preserve-environment", "-P", "--pty", "-f", "--fast"],
        kind: Kind::Su,
        bare_shell: true,
        ..W
    },
    Wrapper {
        name: "env",
        value_opts: words!["-u", "--unset", "-C", "--chdir", "-S", "--split-string", "--default-signal", "--ignore-signal", "--block-signal"],
        flag_opts: words!["-i", "--ignore-environment", "-0", "--null", "-v", "--debug", "-"],
        kind: Kind::Env,
        ..W
    },
    Wrapper { name: "command", flag_opts: words!["-p", "-v", "-V"], kind: Kind::Command, ..W },
    Wrapper { name: "builtin", ..W },
    Wrapper { name: "exec", value_opts: words!["-a"], flag_opts: words!["-c", "-l"], ..W },
    Wrapper { name: "nohup", ..W },
    Wrapper { name: "nice", value_opts: words!["-n", "--adjustment"], ..W },
    Wrapper { name: "ionice", value_opts: words!["-c", "--class", "-n", "--classdata"], flag_opts: words!["-t", "--ignore"], ..W },
    Wrapper {
        name: "time",
        value_opts: words!["-f", "--format", "-o", "--output"],
        flag_opts: words!["-p", "--portability", "-a", "--append", "-v", "--verbose", "-q", "--quiet"],
        ..W
    },
    Wrapper {
        name: "timeout",
        value_opts: words!["-s", "--signal", "-k", "--kill-after"],
        flag_opts: words!["--foreground", "--preserve-status", "-v", "--verbose", "-f", "-p"],
        kind: Kind::Plain { skip: 1 },
        ..W
    },
    Wrapper {
        name: "gtimeout",
        value_opts: words!["-s", "--signal", "-k", "--kill-after"],
        flag_opts: words!["--foreground", "--preserve-status", "-v", "--verbose"],
        kind: Kind::Plain { skip: 1 },
        ..W
    },
    Wrapper { name: "stdbuf", value_opts: words!["-i", "--input", "-o", "--output", "-e", "--error"], ..W },
    Wrapper {
        name: "chroot",
        value_opts: words!["--userspec", "--groups"],
        flag_opts: words!["--skip-chdir"],
        kind: Kind::Plain { skip: 1 },
        bare_shell: true,
        ..W
    },
    // `wsl [-d NAME] [-u USER] [--cd DIR] [-e|--exec] [--] CMD…` runs CMD in a Linux
    // distribution that sees the Windows drives (/mnt/c): judged as run here. Its
    // management options (`--unregister`, `--shutdown`, `--list` …) are undeclared: asked.
    Wrapper {
        name: "wsl",
        value_opts: words!["-d", "--distribution", "-u", "--user", "--cd", "--shell-type"],
        flag_opts: words!["-e", "--exec", "--system"],
        bare_shell: true,
        ..W
    },
    Wrapper {
        name: "flock",
        value_opts: words!["-w", "--timeout", "--wait", "-E", "--conflict-exit-code", "-c", "--command"],
        flag_opts: words![
            "-s", "--shared", "-x", "-e", "--exclusive", "-u", "--unlock", "-n", "--nb", "--nonblock", "-o", "--close", "-F", "--no-fork", "--verbose",
        ],
        kind: Kind::Plain { skip: 1 },
        ..W
    },
    Wrapper {
        name: "watch",
        value_opts: words!["-n", "--interval", "-q", "--equexit", "--differences"],
        flag_opts: words![
            "-d", "-t", "--no-title", "-b", "--beep", "-e", "--errexit", "-g", "--chgexit", "-c", "--color", "-x", "--exec", "-p", "--precise", "-w",
            "--no-wrap",
        ],
        kind: Kind::Watch,
        ..W
    },
    Wrapper {
        name: "strace",
        value_opts: words![
            "-o", "--output", "-e", "-p", "--attach", "-s", "--string-limit", "-u", "--user", "-E", "--env", "-a", "-b", "-I", "-O", "-P", "-S", "-X",
        ],
        flag_opts: words![
            "-f", "--follow-forks", "-ff", "-t", "-tt", "-ttt", "-T", "-c", "-C", "-v", "-V", "-x", "-xx", "-y", "-yy", "-q", "-qq", "-r", "-i", "-k", "-w",
            "-z", "-Z", "-d", "-D", "-h", "-n",
        ],
        ..W
    },
    Wrapper {
        name: "ltrace",
        value_opts: words!["-o", "--output", "-e", "-p", "-s", "-u", "-a", "-l", "-n"],
        flag_opts: words!["-f", "-t", "-tt", "-ttt", "-T", "-c", "-C", "-i", "-S", "-b", "-r", "-w"],
        ..W
    },
    Wrapper { name: "setsid", flag_opts: words!["-c", "--ctty", "-f", "--fork", "-w", "--wait"], ..W },
    // Namespace, scheduling, sandbox, limit, tracing and proxy runners: each runs
    // its operand as a program (the exec-vectors issue; ORACLE.md's exec traces).
    Wrapper {
        name: "nsenter",
        value_opts: words!["-t", "--target", "-S", "--setuid", "-G", "--setgid", "--wd", "--env"],
        flag_opts: words![
            "-a", "--all", "-m", "--mount", "-u", "--uts", "-i", "--ipc", "-n", "--net", "-p", "--pid", "-U", "--user", "-C", "--cgroup", "-T", "--time", "-F",
            "--no-fork", "--preserve-credentials", "-Z", "--follow-context", "-r", "--root", "-w",
        ],
        bare_shell: true,
        ..W
    },
    Wrapper {
        name: "unshare",
        value_opts: words![
            "--propagation", "--setgroups", "-R", "--root", "-w", "--wd", "-S", "--setuid", "-G", "--setgid", "--map-user", "--map-group", "--map-users",
            "--map-groups", "--monotonic", "--boottime",
        ],
        flag_opts: words![
            "-m", "--mount", "-u", "--uts", "-i", "--ipc", "-n", "--net", "-p", "--pid", "-U", "--user", "-C", "--cgroup", "-T", "--time", "-f", "--fork",
            "-r", "--map-root-user", "-c", "--map-current-user", "--mount-proc", "--kill-child", "--keep-caps", "--map-auto",
        ],
        bare_shell: true,
        ..W
    },
    Wrapper {
        name: "chrt",
        value_opts: words!["-T", "--sched-runtime", "-P", "--sched-period", "-D", "--sched-deadline"],
        flag_opts: words![
            "-a", "--all-tasks", "-b", "--batch", "-d", "--deadline", "-e", "--ext", "-f", "--fifo", "-i", "--idle", "-o", "--other", "-r", "--rr", "-R",
            "--reset-on-fork", "-v", "--verbose",
        ],
        kind: Kind::Plain { skip: 1 },
        ..W
    },
    Wrapper { name: "taskset", flag_opts: words!["-a", "--all-tasks", "-c", "--cpu-list"], kind: Kind::Plain { skip: 1 }, ..W },
    Wrapper {
        name: "setarch",
        flag_opts: words![
            "-v", "--verbose", "-R", "--addr-no-randomize", "-F", "--fdpic-funcptrs", "-Z", "--mmap-page-zero", "-L", "--addr-compat-layout", "-X",
            "--read-implies-exec", "-B", "--32bit", "-S", "--whole-seconds", "-T", "--sticky-timeouts", "--3gb", "--4gb", "--uname-2.6",
        ],
        kind: Kind::Plain { skip: 1 },
        bare_shell: true,
        ..W
    },
    Wrapper { name: "linux32", flag_opts: words!["-v", "-R", "-3", "-B", "--3gb", "--4gb"], bare_shell: true, ..W },
    Wrapper { name: "linux64", flag_opts: words!["-v", "-R", "-3", "-B", "--3gb", "--4gb"], bare_shell: true, ..W },
    Wrapper { name: "firejail", flag_opts: words!["-q"], long_free: true, bare_shell: true, ..W },
    Wrapper {
        name: "bwrap",
        value_opts: words![
            "--args", "--argv0", "--unsetenv", "--lock-file", "--sync-fd", "--chdir", "--uid", "--gid", "--hostname", "--userns", "--userns2", "--pidns",
            "--remount-ro", "--proc", "--dev", "--tmpfs", "--mqueue", "--dir", "--seccomp", "--add-seccomp-fd", "--block-fd", "--userns-block-fd", "--info-fd",
            "--json-status-fd", "--cap-add", "--cap-drop", "--exec-label", "--file-label", "--perms", "--size",
        ],
        value2_opts: words![
            "--bind", "--bind-try", "--dev-bind", "--dev-bind-try", "--ro-bind", "--ro-bind-try", "--bind-fd", "--ro-bind-fd", "--symlink", "--setenv",
            "--file", "--bind-data", "--ro-bind-data", "--chmod",
        ],
        flag_opts: words![
            "--unshare-all", "--share-net", "--unshare-user", "--unshare-user-try", "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts",
            "--unshare-cgroup", "--unshare-cgroup-try", "--disable-userns", "--assert-userns-disabled", "--clearenv", "--new-session", "--die-with-parent",
            "--as-pid-1",
        ],
        ..W
    },
    Wrapper {
        name: "script",
        value_opts: words![
            "-c", "--command", "-E", "--echo", "-I", "--log-in", "-O", "--log-out", "-B", "--log-io", "-T", "--log-timing", "-m", "--logging-format", "-o",
            "--output-limit",
        ],
        // BSD/macOS add `-k` (log keys), `-r` (record timing), `-p` (play a recording
        // back) and `-d` (with `-p`: do not pause).
        flag_opts: words!["-a", "--append", "-e", "--return", "-f", "--flush", "-q", "--quiet", "--force", "-t", "--timing", "-k", "-r", "-p", "-d"],
        kind: Kind::Script,
        bare_shell: true,
        ..W
    },
    Wrapper {
        name: "tmux",
        value_opts: words!["-c", "-f", "-L", "-S", "-T"],
        flag_opts: words!["-2", "-C", "-CC", "-D", "-l", "-N", "-u", "-v", "-vv"],
        kind: Kind::Tmux,
        ..W
    },
    Wrapper {
        name: "screen",
        value_opts: words!["-S", "-s", "-c", "-e", "-h", "-p", "-t", "-T", "-L", "-Logfile"],
        flag_opts: words!["-a", "-A", "-d", "-D", "-r", "-R", "-RR", "-m", "-dm", "-dmS", "-q", "-O", "-i", "-l", "-ln", "-U", "-x", "-f", "-fn", "-fa"],
        bare_shell: true,
        ..W
    },
    Wrapper {
        name: "torsocks",
        value_opts: words!["-u", "--user", "-p", "--pass", "-a", "--address", "-P", "--port"],
        flag_opts: words!["-i", "--isolate", "-q", "--quiet", "-d", "--debug", "-4", "-6"],
        ..W
    },
    Wrapper { name: "proxychains", value_opts: words!["-f"], flag_opts: words!["-q"], ..W },
    Wrapper { name: "proxychains4", value_opts: words!["-f"], flag_opts: words!["-q"], ..W },
    Wrapper { name: "tsocks", ..W },
    Wrapper { name: "valgrind", flag_opts: words!["-q", "-v", "-s"], long_free: true, ..W },
    Wrapper { name: "catchsegv", ..W },
    Wrapper { name: "eatmydata", ..W },
    Wrapper { name: "nocache", ..W },
    Wrapper { name: "chronic", flag_opts: words!["-e", "-v"], ..W },
    Wrapper { name: "ifne", flag_opts: words!["-n"], ..W },
    Wrapper { name: "dumb-init", flag_opts: words!["-c", "--single-child", "-v", "--verbose"], value_opts: words!["-r", "--rewrite"], ..W },
    Wrapper { name: "tini", flag_opts: words!["-s", "-g", "-v", "-vv", "-w", "-p"], value_opts: words!["-e", "-l"], ..W },
    Wrapper { name: "gosu", kind: Kind::Plain { skip: 1 }, ..W },
    Wrapper { name: "su-exec", kind: Kind::Plain { skip: 1 }, ..W },
    Wrapper {
        name: "setpriv",
        value_opts: words![
            "--groups", "--inh-caps", "--ambient-caps", "--bounding-set", "--ruid", "--euid", "--reuid", "--rgid", "--egid", "--regid", "--securebits",
            "--pdeathsig", "--selinux-label", "--apparmor-profile", "--landlock-access", "--landlock-rule",
        ],
        flag_opts: words!["-d", "--dump", "--clear-groups", "--keep-groups", "--init-groups", "--nnp", "--no-new-privs", "--reset-env"],
        ..W
    },
    Wrapper {
        name: "perf",
        value_opts: words![
            "-e", "--event", "-p", "--pid", "-t", "--tid", "-C", "--cpu", "-G", "--cgroup", "-o", "--output", "-r", "--repeat", "-I", "--interval-print", "-x",
            "--field-separator", "-F", "--freq", "-c", "--count", "-m", "--mmap-pages", "--call-graph", "-j", "--branch-filter", "--delay", "-D",
        ],
        flag_opts: words![
            "-a", "--all-cpus", "-A", "--no-aggr", "-B", "--big-num", "-d", "--detailed", "-n", "--null", "-v", "--verbose", "-q", "--quiet", "-g", "-s",
            "--stat", "-b", "--branch-any", "-T", "--timestamp", "-i", "--no-inherit",
        ],
        kind: Kind::Sub { subs: words!["stat", "record", "trace", "c2c", "mem", "kmem", "sched", "lock", "kvm"], skip: 0 },
        ..W
    },
    Wrapper {
        name: "rlwrap",
        value_opts: words!["-b", "-f", "-H", "-l", "-p", "-P", "-q", "-s", "-S", "-t", "-w", "-z", "-e", "-O", "-g", "-M"],
        flag_opts: words!["-A", "-c", "-C", "-D", "-i", "-m", "-n", "-N", "-o", "-r", "-R", "-U", "-v", "-W"],
        long_free: true,
        ..W
    },
    Wrapper {
        name: "xvfb-run",
        value_opts: words!["-n", "--server-num", "-s", "--server-args", "-e", "--error-file", "-f", "--auth-file", "-p", "--xauth-protocol", "-w", "--wait"],
        flag_opts: words!["-a", "--auto-servernum", "-l", "--listen-tcp"],
        ..W
    },
    Wrapper { name: "dbus-run-session", value_opts: words!["--config-file", "--dbus-daemon"], ..W },
    Wrapper {
        name: "dbus-launch",
        value_opts: words!["--config-file"],
        flag_opts: words!["--sh-syntax", "--csh-syntax", "--exit-with-session", "--exit-with-x11", "--binary-syntax"],
        ..W
    },
    Wrapper {
        name: "systemd-run",
        value_opts: words![
            "-u", "--unit", "-p", "--property", "--description", "--slice", "-E", "--setenv", "--on-active", "--on-boot", "--on-startup", "--on-unit-active",
            "--on-unit-inactive", "--on-calendar", "--timer-property", "--path-property", "--socket-property", "-M", "--machine", "-H", "--host", "--uid",
            "--gid", "--nice", "--working-directory", "--service-type",
        ],
        flag_opts: words![
            "--user", "--system", "--scope", "-r", "--remain-after-exit", "--send-sighup", "-t", "--pty", "-P", "--pipe", "-q", "--quiet", "-G", "--collect",
            "--wait", "--same-dir", "-d", "--no-block", "--no-ask-password", "--slice-inherit",
        ],
        gate: Some(&crate::rules::system::services::CONTROL),
        ..W
    },
    Wrapper { name: "sg", kind: Kind::JoinShell { skip: 1 }, ..W },
    Wrapper { name: "newgrp", kind: Kind::Plain { skip: 1 }, bare_shell: true, ..W },
    Wrapper { name: "ssh-agent", value_opts: words!["-a", "-E", "-t", "-P", "-O"], flag_opts: words!["-c", "-s", "-D", "-d"], ..W },
    Wrapper { name: "prlimit", long_free: true, ..W },
    Wrapper { name: "logsave", flag_opts: words!["-a", "-s", "-v"], kind: Kind::Plain { skip: 1 }, ..W },
    Wrapper { name: "cgexec", value_opts: words!["-g"], flag_opts: words!["--sticky"], ..W },
    Wrapper {
        name: "numactl",
        value_opts: words![
            "-C", "--physcpubind", "-N", "--cpunodebind", "-m", "--membind", "-p", "--preferred", "-i", "--interleave", "-P", "--preferred-many"
        ],
        flag_opts: words!["-a", "--all", "-l", "--localalloc", "-b", "--balancing"],
        ..W
    },
    Wrapper { name: "faketime", flag_opts: words!["-f", "-m", "--exclude-monotonic"], value_opts: words!["--date-prog"], kind: Kind::Plain { skip: 1 }, ..W },
    Wrapper {
        name: "fakeroot",
        value_opts: words!["-l", "--lib", "--faked", "-s", "-i", "-b"],
        flag_opts: words!["-u", "--unknown-is-real"],
        bare_shell: true,
        ..W
    },
    Wrapper { name: "trickle", value_opts: words!["-u", "-d", "-w", "-t", "-l", "-n"], flag_opts: words!["-s", "-v"], ..W },
    Wrapper { name: "sandbox-exec", value_opts: words!["-f", "-n", "-p", "-D"], ..W },
    Wrapper {
        name: "chpst",
        value_opts: words!["-u", "-U", "-b", "-e", "-/", "-n", "-l", "-L", "-m", "-d", "-o", "-p", "-f", "-c"],
        flag_opts: words!["-v", "-P", "-0", "-1", "-2"],
        ..W
    },
    Wrapper {
        name: "hyperfine",
        value_opts: words![
            "-w", "--warmup", "-m", "--min-runs", "-M", "--max-runs", "-r", "--runs", "-s", "--setup", "-p", "--prepare", "-c", "--cleanup", "--conclude",
            "-D", "--parameter-step-size", "-S", "--shell", "--style", "--sort", "-u", "--time-unit", "--export-asciidoc", "--export-csv", "--export-json",
            "--export-markdown", "--export-orgmode", "--output", "--input", "-n", "--command-name",
        ],
        // `-P NAME MIN MAX`: the two values and MAX (read as a harmless command word).
        value2_opts: words!["-L", "--parameter-list", "-P", "--parameter-scan"],
        flag_opts: words!["-N", "-i", "--ignore-failure", "--show-output", "--no-shell"],
        kind: Kind::Hyperfine,
        ..W
    },
    Wrapper { name: "entr", flag_opts: words!["-a", "-c", "-cc", "-d", "-n", "-p", "-r", "-s", "-z"], ..W },
    Wrapper { name: "unbuffer", flag_opts: words!["-p"], ..W },
    // rtk: a proxy that runs a command and compresses its output for an agent (`mod.rs` reads its own subcommands).
    Wrapper { name: "rtk", flag_opts: words!["-v", "-vv", "-vvv", "--verbose", "-u", "--ultra-compact", "--skip-env", "-h", "--help", "-V", "--version"], ..W },
    // Version and environment managers' `exec`: the command runs with their setup.
    Wrapper { name: "pyenv", kind: Kind::Sub { subs: words!["exec"], skip: 0 }, ..W },
    Wrapper { name: "rbenv", kind: Kind::Sub { subs: words!["exec"], skip: 0 }, ..W },
    Wrapper { name: "nodenv", kind: Kind::Sub { subs: words!["exec"], skip: 0 }, ..W },
    Wrapper { name: "goenv", kind: Kind::Sub { subs: words!["exec"], skip: 0 }, ..W },
    Wrapper { name: "jenv", kind: Kind::Sub { subs: words!["exec"], skip: 0 }, ..W },
    Wrapper { name: "plenv", kind: Kind::Sub { subs: words!["exec"], skip: 0 }, ..W },
    Wrapper { name: "asdf", kind: Kind::Sub { subs: words!["exec"], skip: 0 }, ..W },
    Wrapper { name: "direnv", kind: Kind::Sub { subs: words!["exec"], skip: 1 }, ..W },
    Wrapper { name: "mise", kind: Kind::Sub { subs: words!["exec", "x"], skip: 0 }, ..W },
    Wrapper { name: "rtx", kind: Kind::Sub { subs: words!["exec", "x"], skip: 0 }, ..W },
    Wrapper { name: "sshpass", value_opts: words!["-p", "-f", "-d", "-P"], flag_opts: words!["-e", "-v"], ..W },
    Wrapper { name: "caffeinate", value_opts: words!["-t", "-w"], flag_opts: words!["-d", "-i", "-m", "-s", "-u"], ..W },
    Wrapper {
        name: "xargs",
        value_opts: words![
            "-a", "--arg-file", "-d", "--delimiter", "-E", "-I", "-L", "-n", "--max-args", "-P", "--max-procs", "-s", "--max-chars", "--process-slot-var",
            // BSD/macOS: `-J R` puts the input where the word R stands, `-R N` and `-S N`
            // bound `-I`'s replacements.
            "-J", "-R", "-S",
        ],
        flag_opts: words!["-0", "--null", "-o", "--open-tty", "-p", "--interactive", "-r", "--no-run-if-empty", "-t", "--verbose", "-x", "--exit"],
        // GNU's `-e[EOF]`, `-i[R]`, `-l[N]` and their long forms take a value only attached:
        // `xargs -i rm {}` runs rm.
        optional_opts: words!["-e", "--eof", "-i", "--replace", "-l", "--max-lines"],
        kind: Kind::Xargs,
        ..W
    },
    Wrapper { name: "busybox", ..W },
    Wrapper { name: "pkexec", value_opts: words!["--user"], flag_opts: words!["--keep-cwd", "--disable-internal-agent"], bare_shell: true, ..W },
    Wrapper {
        name: "run0",
        value_opts: words!["-u", "--user", "-g", "--group", "-D", "--chdir", "--setenv", "--unit", "--property", "--description", "--slice", "--nice"],
        flag_opts: words!["--no-ask-password", "--machine"],
        bare_shell: true,
        ..W
    },
    Wrapper {
        name: "parallel",
        value_opts: words![
            "-j", "--jobs", "-S", "--sshlogin", "-a", "--arg-file", "--joblog", "--results", "--res", "-n", "--max-args", "-N", "--delay", "--timeout",
            "--retries", "-I", "--colsep", "-C", "-d", "--delimiter", "--tmpdir", "--workdir", "--wd", "--halt", "--memfree", "--load", "-L", "--max-lines",
            "-E", "--eof", "--tagstring", "--block", "--env",
        ],
        flag_opts: words![
            "-k", "--keep-order", "-q", "--quote", "-v", "--verbose", "--bar", "--progress", "--eta", "-0", "--null", "-u", "--ungroup", "--line-buffer",
            "--lb", "--tag", "-X", "-m", "--xargs", "--pipe", "--no-notice", "--will-cite", "-r", "--no-run-if-empty", "--group", "--shuf", "-t", "--dry-run",
            "--nonall", "--onall",
        ],
        kind: Kind::Parallel,
        ..W
    },
];

/// rtk's subcommands that are its own rather than a program it runs.
pub(super) const RTK_OWN: [&str; 16] = [
    "read", "smart", "json", "deps", "log", "init", "gain", "cc-economics", "config", "discover", "learn", "rewrite", "verify", "hook-audit", "help", "version",
];
