//! Syscall records → effect findings, each with a category and a severity
//! (ORACLE.md §2, §5). High: a write outside the project and scratch, a device
//! write, a listen, a foreign signal or ptrace, a privileged call. Medium: daemon
//! sockets, loopback or remote connects from a rule that claims to be local,
//! hidden shells and interpreters, read-write opens outside. Benign categories
//! (caches, no-op probes, self-IPC) are kept and counted, never hidden.

use std::collections::{BTreeSet, HashMap, HashSet};

use super::sandbox::PROJECT;
use super::trace::{string_list, unquote, Call};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Benign,
    Low,
    Medium,
    High,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Benign => "benign",
            Severity::Low => "low",
            Severity::Medium => "medium",
            Severity::High => "high",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Finding {
    pub severity: Severity,
    pub category: &'static str,
    /// The normalised target: a path (home as `~`, digits as `N`), `addr:port`, a program.
    pub detail: String,
    pub evidence: String,
}

/// An exec attempt after the command's own `bash -c`. A failed one counts as
/// evidence for the metamorphic step (`setarch i686 command` tries every PATH
/// entry for `command`), never as a hidden program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exec {
    pub path: String,
    pub argv: Vec<String>,
    pub ok: bool,
}

pub struct Context<'a> {
    /// Normalised program names of the command's words (`python3.11` → `python`).
    pub words: HashSet<String>,
    pub rule: &'a str,
    pub home: &'a str,
}

impl<'a> Context<'a> {
    pub fn new(command_words: &[String], rule: &'a str, home: &'a str) -> Context<'a> {
        Context { words: command_words.iter().map(|w| norm_prog(w)).collect(), rule, home }
    }
    /// Rules that claim the command stays local; network from them is a finding.
    fn claims_local(&self) -> bool {
        self.rule == "default.elimination" || self.rule.starts_with("coreutils.")
    }
}

const SHELLS: &[&str] = &["sh", "bash", "dash", "zsh", "ksh", "mksh", "fish", "csh", "tcsh", "busybox"];
const INTERPRETERS: &[&str] = &["python", "perl", "ruby", "node", "nodejs", "php", "lua", "tclsh", "wish", "rscript", "deno", "bun", "osascript", "pwsh"];
/// Writable paths that are not effects (the standard devices and our own fds).
const STD_DEVICES: &[&str] =
    &["/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/random", "/dev/urandom", "/dev/ptmx"];
/// Tool caches and logs under home or /var (ORACLE.md §5), reviewed; kept as `tool-cache`.
const CACHE_PREFIXES: &[&str] = &[
    "~/.cache", "~/.npm/_logs", "~/.npm/_cacache", "~/.cargo/registry", "~/.cargo/.package-cache", "~/.cargo/.global-cache", "~/.config/gcloud/logs",
    "~/.config/gcloud/credentials.db", "~/.config/gcloud/access_tokens.db", "~/.fontconfig", "~/.pyenv/shims/.pyenv-shim", "~/.pyenv/.pyenv-",
    "~/.local/share/recently-used", "/var/cache/",
];

/// `python3.11` → `python`, `/usr/bin/perl5.36` → `perl`, `Rscript` → `rscript`.
pub fn norm_prog(word: &str) -> String {
    let base = word.rsplit('/').next().unwrap_or(word).to_ascii_lowercase();
    let trimmed = base.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    if trimmed.is_empty() {
        base
    } else {
        trimmed.to_owned()
    }
}

/// Lexical normalisation of an absolute path (`.`/`..`, repeated `/`).
pub fn normalize(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for p in path.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            x => parts.push(x),
        }
    }
    format!("/{}", parts.join("/"))
}

fn under(path: &str, dir: &str) -> bool {
    path == dir || path.strip_prefix(dir).is_some_and(|r| r.starts_with('/'))
}

/// The detail form of a path: home as `~`, runs of digits as `N`.
fn show(path: &str, home: &str) -> String {
    let p = match path.strip_prefix(home) {
        Some(r) if !home.is_empty() && (r.is_empty() || r.starts_with('/')) => format!("~{r}"),
        _ => path.to_owned(),
    };
    let mut out = String::new();
    let mut in_digits = false;
    for c in p.chars() {
        if c.is_ascii_digit() {
            if !in_digits {
                out.push('N');
            }
            in_digits = true;
        } else {
            in_digits = false;
            out.push(c);
        }
    }
    out
}

struct State {
    /// Last known cwd per pid (strace -y prints `AT_FDCWD</cwd>`).
    cwd: HashMap<u32, String>,
    pids: HashSet<u32>,
    /// Socket inode → bound address, and addresses bound by the traced tree.
    bound: HashMap<String, String>,
    bound_addrs: HashSet<String>,
}

impl State {
    fn resolve(&self, pid: u32, dirfd: Option<&str>, path: &str) -> String {
        if path.starts_with('/') {
            return normalize(path);
        }
        let base = dirfd.and_then(Call::fd_path).map(str::to_owned).or_else(|| self.cwd.get(&pid).cloned()).unwrap_or_else(|| PROJECT.to_owned());
        normalize(&format!("{base}/{path}"))
    }
}

const WRITE_FLAGS: &[&str] = &["O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND"];

/// Classifies one run. `calls` in trace order; the first exec is our `bash -c`.
pub fn classify(calls: &[Call], cx: &Context) -> (Vec<Finding>, Vec<Exec>) {
    let mut st = State { cwd: HashMap::new(), pids: calls.iter().map(|c| c.pid).collect(), bound: HashMap::new(), bound_addrs: HashSet::new() };
    for c in calls.iter().filter(|c| c.name == "bind" && c.ok()) {
        if let (Some(fd), Some(addr)) = (c.args.first(), c.args.get(1)) {
            let a = sockaddr(addr);
            st.bound_addrs.insert(a.clone());
            st.bound.insert(inode(fd), a);
        }
    }
    let mut out = Vec::new();
    let mut execs = Vec::new();
    let mut first_exec = true;
    for c in calls {
        for a in &c.args {
            if let Some(p) = a.strip_prefix("AT_FDCWD<").and_then(|r| r.strip_suffix('>')) {
                st.cwd.insert(c.pid, p.to_owned());
            }
        }
        let mut push = |sev: Severity, cat: &'static str, detail: String| {
            out.push(Finding { severity: sev, category: cat, detail, evidence: evidence(&c.line) });
        };
        match c.name.as_str() {
            "execve" | "execveat" => {
                let (path_arg, argv_arg) = if c.name == "execve" { (0, 1) } else { (1, 2) };
                let path = c.args.get(path_arg).and_then(|a| unquote(a)).unwrap_or_default();
                let argv = c.args.get(argv_arg).map(|a| string_list(a)).unwrap_or_default();
                if first_exec {
                    first_exec = !c.ok();
                    continue;
                }
                if c.ok() {
                    hidden(&path, &argv, cx, &mut push);
                }
                execs.push(Exec { path, argv, ok: c.ok() });
            }
            "open" | "creat" | "openat" | "openat2" => {
                let (dirfd, pi, fi) = match c.name.as_str() {
                    "open" | "creat" => (None, 0, 1),
                    _ => (c.args.first().map(String::as_str), 1, 2),
                };
                let Some(p) = c.args.get(pi).and_then(|a| unquote(a)) else { continue };
                let flags = c.args.get(fi).map(String::as_str).unwrap_or("");
                let writes = c.name == "creat" || WRITE_FLAGS.iter().any(|f| flags.contains(f));
                // The fd's path when the open succeeded (symlinks resolved), unless it is
                // not a path (`pipe:[N]` from reopening /proc/self/fd/N).
                let opened = c.ok().then(|| Call::fd_path(&c.ret).filter(|p| p.starts_with('/')).map(str::to_owned)).flatten();
                let path = opened.unwrap_or_else(|| st.resolve(c.pid, dirfd, &p));
                if writes {
                    let rdwr_only = flags.contains("O_RDWR") && !["O_CREAT", "O_TRUNC", "O_APPEND"].iter().any(|f| flags.contains(f));
                    write(&st, c, &path, rdwr_only, cx, &mut push);
                } else if device(&path) && !flags.contains("O_DIRECTORY") {
                    push(Severity::Medium, "device-read", show(&path, cx.home));
                }
            }
            "unlink" | "mkdir" | "mknod" | "chmod" | "chown" | "lchown" | "truncate" | "utime" | "utimes" | "setxattr" | "lsetxattr" | "removexattr"
            | "lremovexattr" => {
                if let Some(p) = c.args.first().and_then(|a| unquote(a)) {
                    write(&st, c, &st.resolve(c.pid, None, &p), false, cx, &mut push);
                }
            }
            "unlinkat" | "mkdirat" | "mknodat" | "fchmodat" | "fchownat" | "utimensat" => {
                let dirfd = c.args.first().map(String::as_str);
                match c.args.get(1).and_then(|a| unquote(a)) {
                    Some(p) if !p.is_empty() => write(&st, c, &st.resolve(c.pid, dirfd, &p), false, cx, &mut push),
                    _ => {
                        if let Some(p) = dirfd.and_then(Call::fd_path) {
                            write(&st, c, &normalize(p), false, cx, &mut push);
                        }
                    }
                }
            }
            "fchmod" | "fchown" | "ftruncate" | "fallocate" | "fsetxattr" | "fremovexattr" => {
                if let Some(p) = c.args.first().and_then(|a| Call::fd_path(a)).filter(|p| p.starts_with('/')) {
                    write(&st, c, &normalize(p), false, cx, &mut push);
                }
            }
            "rename" | "symlink" | "link" => {
                let paths: Vec<String> = c.args.iter().filter_map(|a| unquote(a)).collect();
                let targets: &[String] = if c.name == "rename" { &paths } else { paths.get(1..).unwrap_or(&[]) };
                for p in targets {
                    write(&st, c, &st.resolve(c.pid, None, p), false, cx, &mut push);
                }
            }
            "renameat" | "renameat2" | "linkat" | "symlinkat" => {
                // (dirfd, path) pairs; symlinkat's first argument is the link's text.
                let pairs: Vec<(usize, usize)> = match c.name.as_str() {
                    "symlinkat" => vec![(1, 2)],
                    "linkat" => vec![(2, 3)],
                    _ => vec![(0, 1), (2, 3)],
                };
                for (d, p) in pairs {
                    if let Some(path) = c.args.get(p).and_then(|a| unquote(a)) {
                        write(&st, c, &st.resolve(c.pid, c.args.get(d).map(String::as_str), &path), false, cx, &mut push);
                    }
                }
            }
            "connect" => {
                if let Some(addr) = c.args.get(1) {
                    connect(&st, &sockaddr(addr), cx, &mut push);
                }
            }
            "listen" => {
                let a = c.args.first().and_then(|fd| st.bound.get(&inode(fd))).cloned().unwrap_or_else(|| "unknown".into());
                if local_ephemeral(&a) || a.starts_with("unix:/srv/proj") || a.starts_with("unix:/tmp/") {
                    push(Severity::Benign, "listen-local", a);
                } else {
                    push(Severity::High, "net-listen", a);
                }
            }
            "kill" | "tkill" | "tgkill" | "rt_sigqueueinfo" => {
                let target: i64 = c.args.first().and_then(|a| a.trim().parse().ok()).unwrap_or(i64::MIN);
                let sig = c.args.get(if c.name == "tgkill" { 2 } else { 1 }).map(String::as_str).unwrap_or("");
                let own = target == 0 || (target != -1 && st.pids.contains(&(target.unsigned_abs() as u32)));
                if sig == "0" {
                    push(Severity::Benign, "kill-probe", sig.to_owned());
                } else if own {
                    push(Severity::Benign, "kill-own", sig.to_owned());
                } else {
                    push(Severity::High, "signal-foreign", format!("{target} {sig}"));
                }
            }
            "ptrace" => {
                let req = c.args.first().map(String::as_str).unwrap_or("");
                let target: u32 = c.args.get(1).and_then(|a| a.trim().parse().ok()).unwrap_or(0);
                if matches!(req, "PTRACE_ATTACH" | "PTRACE_SEIZE") && !st.pids.contains(&target) {
                    push(Severity::High, "ptrace-foreign", req.to_owned());
                } else if matches!(req, "PTRACE_ATTACH" | "PTRACE_SEIZE" | "PTRACE_TRACEME") {
                    push(Severity::Benign, "ptrace-own", req.to_owned());
                }
            }
            "unshare" => push(Severity::Medium, "unshare", c.args.first().cloned().unwrap_or_default()),
            "mount" | "umount2" | "pivot_root" | "chroot" | "sethostname" | "setdomainname" | "settimeofday" | "clock_settime" | "init_module"
            | "finit_module" | "delete_module" | "reboot" | "swapon" | "swapoff" | "setns" | "kexec_load" | "kexec_file_load" | "acct" | "quotactl"
            | "ioperm" | "iopl" => push(Severity::High, "privileged", c.name.clone()),
            _ => {}
        }
    }
    out.sort();
    out.dedup_by(|a, b| a.category == b.category && a.detail == b.detail && a.severity == b.severity);
    (out, execs)
}

fn evidence(line: &str) -> String {
    if line.chars().count() <= 240 {
        line.to_owned()
    } else {
        format!("{}…", line.chars().take(240).collect::<String>())
    }
}

fn device(path: &str) -> bool {
    // `/dev`, `/dev/mapper`, `/dev/pts` listed as directories are not device opens.
    under(path, "/dev")
        && !matches!(path, "/dev" | "/dev/mapper" | "/dev/pts" | "/dev/disk" | "/dev/block")
        && !STD_DEVICES.contains(&path)
        && !path.starts_with("/dev/fd/")
        && !path.starts_with("/dev/pts/")
        && !path.starts_with("/dev/shm/")
}

fn write(st: &State, c: &Call, path: &str, rdwr_only: bool, cx: &Context, push: &mut dyn FnMut(Severity, &'static str, String)) {
    let shown = show(path, cx.home);
    if under(path, PROJECT) || under(path, "/tmp") {
        if c.errno() == Some("EROFS") {
            // The only writable mounts are tmpfs: EROFS on a free path is a symlink out.
            push(Severity::High, "symlink-escape", shown);
        }
        return;
    }
    if STD_DEVICES.contains(&path) || path.starts_with("/dev/fd/") || path.starts_with("/dev/pts/") {
        return;
    }
    if path.starts_with("/dev/shm/") {
        return push(Severity::Benign, "shm", shown);
    }
    if under(path, "/dev") {
        return push(Severity::High, "device-write", shown);
    }
    if let Some(rest) = path.strip_prefix("/proc/") {
        let first = rest.split('/').next().unwrap_or("");
        let own = first == "self" || first == "thread-self" || first.parse::<u32>().is_ok_and(|p| st.pids.contains(&p));
        return if own { push(Severity::Benign, "proc-self", shown) } else { push(Severity::High, "proc-write", shown) };
    }
    if c.name.starts_with("mkdir") && c.errno() == Some("EEXIST") {
        return push(Severity::Benign, "mkdir-exists", shown);
    }
    if CACHE_PREFIXES.iter().any(|p| shown.starts_with(p)) || shown.contains("/__pycache__") {
        return push(Severity::Benign, "tool-cache", shown);
    }
    if rdwr_only {
        return push(Severity::Medium, "open-rdwr-outside", shown);
    }
    push(Severity::High, "write-outside", shown)
}

fn inode(fd: &str) -> String {
    fd.rsplit_once('[').map(|(_, r)| r.trim_end_matches([']', '>']).to_owned()).unwrap_or_else(|| fd.to_owned())
}

/// `{sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("10.0.0.2")}` → `inet:10.0.0.2:53`.
pub fn sockaddr(a: &str) -> String {
    let field = |key: &str| -> Option<String> {
        let i = a.find(key)? + key.len();
        let rest = &a[i..];
        Some(rest[..rest.find([',', '}', ')']).unwrap_or(rest.len())].to_owned())
    };
    if a.contains("AF_UNIX") {
        let abs = a.contains("sun_path=@");
        let p = a.find("sun_path=").and_then(|i| unquote(&a[i..])).unwrap_or_default();
        return format!("unix:{}{p}", if abs { "@" } else { "" });
    }
    if a.contains("AF_INET6") {
        let addr = a.find("inet_pton(AF_INET6, ").and_then(|i| unquote(&a[i..])).unwrap_or_default();
        return format!("inet6:[{addr}]:{}", field("sin6_port=htons(").unwrap_or_default());
    }
    if a.contains("AF_INET") {
        let addr = a.find("inet_addr(").and_then(|i| unquote(&a[i..])).unwrap_or_default();
        return format!("inet:{addr}:{}", field("sin_port=htons(").unwrap_or_default());
    }
    field("sa_family=").map(|f| f.to_ascii_lowercase()).unwrap_or_else(|| "unknown".into())
}

fn loopback(a: &str) -> bool {
    a.starts_with("inet:127.") || a.starts_with("inet6:[::1]") || a.starts_with("inet6:[::ffff:127.")
}

fn local_ephemeral(a: &str) -> bool {
    loopback(a) && a.ends_with(":0")
}

fn connect(st: &State, a: &str, cx: &Context, push: &mut dyn FnMut(Severity, &'static str, String)) {
    let net = if cx.claims_local() { Severity::Medium } else { Severity::Low };
    if let Some(p) = a.strip_prefix("unix:") {
        if p.ends_with("/nscd/socket") {
            push(Severity::Benign, "nscd", a.to_owned());
        } else if st.bound_addrs.contains(a) || under(p, PROJECT) || under(p, "/tmp") {
            push(Severity::Benign, "self-ipc", a.to_owned());
        } else {
            // A daemon client (docker, psql, kubectl) is modelled by its own rules; the
            // connect alone shows intent, not effect (ORACLE.md §5), unless the rule says local.
            push(net, "unix-daemon", show(a, cx.home));
        }
    } else if a.starts_with("inet") {
        if a.ends_with(":53") {
            push(net, "dns", "port 53".into());
        } else if a.contains("169.254.169.254") || a.contains("fd00:ec2::254") {
            push(Severity::Low, "cloud-metadata", a.to_owned());
        } else if loopback(a) {
            let port = a.rsplit(':').next().unwrap_or("");
            let ours = st.bound_addrs.iter().any(|b| loopback(b) && b.rsplit(':').next() == Some(port));
            if ours {
                push(Severity::Benign, "self-ipc", a.to_owned());
            } else {
                push(net, "net-loopback", a.to_owned());
            }
        } else if a.starts_with("inet:0.0.0.0") || a.ends_with(":0") {
            // AF_INET connect used to pick a source address, no packet sent.
        } else {
            push(net, "net-remote", a.to_owned());
        }
    }
}

/// Hidden shells and interpreters: an exec the command's words do not name.
fn hidden(path: &str, argv: &[String], cx: &Context, push: &mut dyn FnMut(Severity, &'static str, String)) {
    let name = norm_prog(path);
    let shell = SHELLS.contains(&name.as_str());
    if !shell && !INTERPRETERS.contains(&name.as_str()) {
        return;
    }
    let named = cx.words.contains(&name) || argv.first().is_some_and(|a0| cx.words.contains(&norm_prog(a0)));
    if argv.len() == 2 && matches!(argv[1].as_str(), "--version" | "-V" | "-v" | "--help") {
        return push(Severity::Benign, "interp-probe", name);
    }
    // Inline code (`-c`, `-e`, `-m`…) before any script path makes it code, not a tool script.
    let inline_flag = |a: &str| {
        matches!(a, "-c" | "-e" | "-E" | "-m" | "-r" | "-p" | "--eval" | "--print")
            || (shell && a.starts_with('-') && !a.starts_with("--") && a[1..].contains('c'))
    };
    let first_path = argv.iter().skip(1).position(|a| a.starts_with('/')).map(|i| i + 1);
    let inline_at = argv.iter().skip(1).position(|a| inline_flag(a)).map(|i| i + 1);
    if let Some(p) = first_path.filter(|p| inline_at.is_none_or(|c| c > *p)) {
        let sc = &argv[p];
        if !under(sc, PROJECT) && !under(sc, "/tmp") {
            // An installed tool's script (`#!/usr/bin/env node` npm, gcloud.py, pyenv).
            return push(Severity::Benign, "tool-script", format!("{name} {}", norm_prog(sc)));
        }
    }
    if let (true, Some(c)) = (shell, inline_at) {
        let text = argv.get(c + 1).map(String::as_str).unwrap_or("");
        let words: BTreeSet<String> = text.split(|c: char| c.is_whitespace() || ";|&()<>'\"`".contains(c)).filter(|w| !w.is_empty()).map(norm_prog).collect();
        if words.iter().all(|w| cx.words.contains(w)) {
            return push(Severity::Benign, "shell-c-own", name);
        }
        let first = text.split_whitespace().next().map(norm_prog).unwrap_or_default();
        return push(Severity::Medium, "hidden-shell-c", format!("{name}: {first}"));
    }
    if !named {
        push(Severity::Medium, "hidden-interpreter", name);
    }
}

#[cfg(test)]
mod tests {
    use super::super::trace::parse;
    use super::*;

    fn run(trace: &str, words: &[&str], rule: &str) -> Vec<(Severity, &'static str, String)> {
        let (calls, bad) = parse(trace);
        assert_eq!(bad, 0, "{trace}");
        let w: Vec<String> = words.iter().map(|s| s.to_string()).collect();
        classify(&calls, &Context::new(&w, rule, "/root")).0.into_iter().map(|f| (f.severity, f.category, f.detail)).collect()
    }

    const BASH: &str = "1 execve(\"/bin/bash\", [\"/bin/bash\", \"-c\", \"x\"], 0x1 /* 3 vars */) = 0\n";

    #[test]
    fn writes_outside_are_high_scratch_is_free_caches_are_benign() {
        let t = format!(
            "{BASH}1 openat(AT_FDCWD</srv/proj>, \"/etc/x\", O_WRONLY|O_CREAT, 0666) = -1 EROFS (Read-only file system)\n\
             1 openat(AT_FDCWD</srv/proj>, \"a.txt\", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</srv/proj/a.txt>\n\
             1 openat(AT_FDCWD</srv/proj>, \"../x\", O_WRONLY|O_CREAT, 0666) = -1 EROFS (Read-only file system)\n\
             1 mkdir(\"/root/.cache/pip\", 0777) = -1 EROFS (Read-only file system)\n\
             1 mkdirat(AT_FDCWD</srv/proj>, \"/root/.ssh\", 0700) = -1 EEXIST (File exists)\n\
             1 openat(AT_FDCWD</srv/proj>, \"/dev/null\", O_WRONLY) = 3</dev/null>\n\
             1 openat(AT_FDCWD</srv/proj>, \"/dev/sda1\", O_RDWR) = -1 ENOENT (No such file or directory)\n\
             1 openat(AT_FDCWD</srv/proj>, \"link\", O_WRONLY|O_CREAT, 0666) = -1 EROFS (Read-only file system)\n\
             1 renameat2(AT_FDCWD</srv/proj>, \"a\", AT_FDCWD</srv/proj>, \"/root/.bashrc\", 0) = -1 EROFS (Read-only file system)\n"
        );
        let f = run(&t, &["touch"], "default.elimination");
        assert!(f.contains(&(Severity::High, "write-outside", "/etc/x".into())), "{f:?}");
        assert!(f.contains(&(Severity::High, "write-outside", "/srv/x".into())), "{f:?}");
        assert!(f.contains(&(Severity::High, "write-outside", "~/.bashrc".into())), "{f:?}");
        assert!(f.contains(&(Severity::Benign, "tool-cache", "~/.cache/pip".into())), "{f:?}");
        assert!(f.contains(&(Severity::Benign, "mkdir-exists", "~/.ssh".into())), "{f:?}");
        assert!(f.contains(&(Severity::High, "device-write", "/dev/sdaNN".replace("NN", "N"))), "{f:?}");
        assert!(f.contains(&(Severity::High, "symlink-escape", "/srv/proj/link".into())), "{f:?}");
        assert!(!f.iter().any(|x| x.2.contains("a.txt") || x.2 == "/dev/null"), "{f:?}");
    }

    #[test]
    fn network_listens_daemons_and_signals() {
        let t = format!(
            "{BASH}1 bind(3<socket:[77]>, {{sa_family=AF_INET, sin_port=htons(8000), sin_addr=inet_addr(\"0.0.0.0\")}}, 16) = 0\n\
             1 listen(3<socket:[77]>, 5) = 0\n\
             1 bind(4<socket:[78]>, {{sa_family=AF_INET, sin_port=htons(0), sin_addr=inet_addr(\"127.0.0.1\")}}, 16) = 0\n\
             1 listen(4<socket:[78]>, 5) = 0\n\
             1 connect(5<socket:[79]>, {{sa_family=AF_UNIX, sun_path=\"/var/run/docker.sock\"}}, 110) = -1 ENOENT (No such file or directory)\n\
             1 connect(5<socket:[79]>, {{sa_family=AF_UNIX, sun_path=\"/var/run/nscd/socket\"}}, 110) = -1 ENOENT (No such file or directory)\n\
             1 connect(6<socket:[80]>, {{sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr(\"10.0.0.2\")}}, 16) = -1 ENETUNREACH (Network is unreachable)\n\
             1 connect(6<socket:[80]>, {{sa_family=AF_INET, sin_port=htons(8080), sin_addr=inet_addr(\"127.0.0.1\")}}, 16) = -1 ECONNREFUSED (Connection refused)\n\
             1 kill(1, SIGTERM) = 0\n\
             1 kill(0, SIGTERM) = 0\n\
             1 tgkill(1, 1, SIGURG) = 0\n\
             1 mount(\"none\", \"/mnt\", \"tmpfs\", 0, NULL) = -1 EPERM (Operation not permitted)\n"
        );
        let f = run(&t, &["thing"], "default.elimination");
        for want in [
            (Severity::High, "net-listen", "inet:0.0.0.0:8000".to_owned()),
            (Severity::Benign, "listen-local", "inet:127.0.0.1:0".to_owned()),
            (Severity::Medium, "unix-daemon", "unix:/var/run/docker.sock".to_owned()),
            (Severity::Benign, "nscd", "unix:/var/run/nscd/socket".to_owned()),
            (Severity::Medium, "dns", "port 53".to_owned()),
            (Severity::Medium, "net-loopback", "inet:127.0.0.1:8080".to_owned()),
            (Severity::Benign, "kill-own", "SIGTERM".to_owned()),
            (Severity::Benign, "kill-own", "SIGURG".to_owned()),
            (Severity::High, "privileged", "mount".to_owned()),
        ] {
            assert!(f.contains(&want), "{want:?} not in {f:?}");
        }
        // pid 1 appears in the trace (it is ours); a pid outside the tree is foreign.
        let f = run(&format!("{BASH}1 kill(4242, SIGKILL) = -1 ESRCH (No such process)\n"), &["kill"], "x");
        assert_eq!(f, [(Severity::High, "signal-foreign", "4242 SIGKILL".into())]);
        // DNS from a rule that does not claim locality is low.
        let f = run(
            &format!("{BASH}1 connect(6<socket:[80]>, {{sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr(\"10.0.0.2\")}}, 16) = -1 ENETUNREACH (x)\n"),
            &["curl"],
            "http.read",
        );
        assert_eq!(f, [(Severity::Low, "dns", "port 53".into())]);
    }

    #[test]
    fn hidden_shells_and_interpreters() {
        let t = format!(
            "{BASH}1 execve(\"/usr/bin/script\", [\"script\"], 0x1 /* 3 vars */) = 0\n\
             2 execve(\"/bin/bash\", [\"bash\", \"-i\"], 0x1 /* 3 vars */) = 0\n\
             3 execve(\"/bin/sh\", [\"sh\", \"-c\", \"groff -mandoc\"], 0x1 /* 3 vars */) = 0\n\
             4 execve(\"/usr/bin/python3.11\", [\"python3\", \"--version\"], 0x1 /* 3 vars */) = 0\n\
             5 execve(\"/bin/sh\", [\"sh\", \"-c\", \"script x\"], 0x1 /* 3 vars */) = 0\n\
             6 execve(\"/usr/bin/node\", [\"node\", \"/usr/lib/node_modules/npm/bin/npm-cli.js\"], 0x1 /* 3 vars */) = 0\n\
             7 execve(\"/usr/bin/bash\", [\"bash\", \"/root/.pyenv/libexec/pyenv\", \"exec\", \"python3\", \"-c\", \"import os\"], 0x1 /* 3 vars */) = 0\n\
             8 execve(\"/usr/bin/perl\", [\"perl\", \"-e\", \"1\", \"/usr/bin/x\"], 0x1 /* 3 vars */) = 0\n"
        );
        let (calls, _) = parse(&t);
        let (f, execs) = classify(&calls, &Context::new(&["script".into(), "x".into()], "default.elimination", "/root"));
        let f: Vec<_> = f.into_iter().map(|f| (f.severity, f.category, f.detail)).collect();
        assert!(f.contains(&(Severity::Medium, "hidden-interpreter", "bash".into())), "{f:?}");
        assert!(f.contains(&(Severity::Medium, "hidden-shell-c", "sh: groff".into())), "{f:?}");
        assert!(f.contains(&(Severity::Benign, "interp-probe", "python".into())), "{f:?}");
        assert!(f.contains(&(Severity::Benign, "shell-c-own", "sh".into())), "{f:?}");
        assert!(f.contains(&(Severity::Benign, "tool-script", "node npm-cli.js".into())), "{f:?}");
        assert!(f.contains(&(Severity::Benign, "tool-script", "bash pyenv".into())), "a -c after the script is the script's argument: {f:?}");
        assert!(f.contains(&(Severity::Medium, "hidden-interpreter", "perl".into())), "inline code is not a tool script: {f:?}");
        assert_eq!(execs.len(), 8, "the command's own bash -c is not an exec of the command");
        assert_eq!(execs[0].argv, ["script"]);
    }
}
