//! The sandbox every oracle command runs in (ORACLE.md §1): bubblewrap with a
//! read-only root, tmpfs scratch (`/srv/proj` is the cwd, `/tmp`, `/run`), every
//! namespace unshared (no network), nested user namespaces disabled, all
//! capabilities dropped (as real root bwrap keeps them otherwise, and the ro root
//! could be remounted rw), `/proc/sys` and friends bound read-only (bwrap leaves
//! them writable when `access(W_OK)` says EACCES), a seccomp filter (seccomp.rs),
//! a new session, die-with-parent, a cleared environment; on the host side a pids
//! and memory cgroup per worker (`RLIMIT_NPROC` does not bind root), `prlimit`
//! (address space, file size, core, open files), stdin from /dev/null, an in-sandbox
//! `timeout` and a host-side deadline that kills what is left in the cgroup.
//! A fourth hazard ORACLE.md does not list: a read-only mount does not stop
//! `connect()` to a Unix socket on it, so every pathname socket the host has
//! outside the tmpfs overlays is covered with `/dev/null` for each run
//! (`host_sockets`), and fds the host leaks are closed before bwrap starts.
//! Nothing here is trusted before selftest.rs has checked it.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The scratch project inside the sandbox. Deliberately not under /tmp: `../x`
/// from the cwd must not look like a free /tmp write (ORACLE.md §1).
pub const PROJECT: &str = "/srv/proj";
pub const PIDS_MAX: u32 = 256;
pub const MEMORY_MAX: u64 = 2 << 30;
pub const AS_MAX: u64 = 2 << 30;
pub const FSIZE_MAX: u64 = 50 << 20;
/// Bytes of the command's stdout/stderr kept (the rest is read and dropped).
const KEEP: usize = 16 << 10;

/// What strace records (`-e trace=`): writes, execs, cwd changes, sockets,
/// signals, ptrace and the privileged calls classify.rs knows.
pub const TRACED: &str = "execve,execveat,open,openat,openat2,creat,unlink,unlinkat,rename,renameat,renameat2,\
mkdir,mkdirat,mknod,mknodat,chmod,fchmod,fchmodat,chown,fchown,lchown,fchownat,truncate,ftruncate,fallocate,\
symlink,symlinkat,link,linkat,utimensat,utimes,utime,setxattr,lsetxattr,fsetxattr,removexattr,lremovexattr,\
fremovexattr,chdir,fchdir,connect,bind,listen,kill,tkill,tgkill,rt_sigqueueinfo,ptrace,mount,umount2,pivot_root,\
chroot,sethostname,setdomainname,settimeofday,clock_settime,adjtimex,init_module,finit_module,delete_module,\
reboot,swapon,swapoff,unshare,setns,kexec_load,kexec_file_load,acct,quotactl,ioperm,iopl";

/// One worker's cgroups (v1 pids + memory, or one v2 group).
pub struct Cgroup {
    dirs: Vec<PathBuf>,
}

impl Cgroup {
    /// Creates the worker's groups; an error says what could not be set (the
    /// self-test then fails on the limits probe rather than running unlimited).
    pub fn create(name: &str) -> Result<Cgroup, String> {
        let root = Path::new("/sys/fs/cgroup");
        let mut dirs = Vec::new();
        let settings: Vec<(PathBuf, &str, String)> = if root.join("cgroup.controllers").is_file() {
            let d = root.join(name);
            vec![(d.clone(), "pids.max", PIDS_MAX.to_string()), (d, "memory.max", MEMORY_MAX.to_string())]
        } else {
            vec![
                (root.join("pids").join(name), "pids.max", PIDS_MAX.to_string()),
                (root.join("memory").join(name), "memory.limit_in_bytes", MEMORY_MAX.to_string()),
            ]
        };
        for (dir, file, value) in settings {
            if !dir.is_dir() {
                std::fs::create_dir(&dir).map_err(|e| format!("cannot create cgroup {}: {e}", dir.display()))?;
            }
            if !dirs.contains(&dir) {
                dirs.push(dir.clone());
            }
            std::fs::write(dir.join(file), &value).map_err(|e| format!("cannot set {}/{file}: {e}", dir.display()))?;
        }
        Ok(Cgroup { dirs })
    }

    /// Pids still in the groups (only processes this oracle started end up there).
    pub fn members(&self) -> Vec<u32> {
        let mut v: Vec<u32> = self
            .dirs
            .iter()
            .filter_map(|d| std::fs::read_to_string(d.join("cgroup.procs")).ok())
            .flat_map(|s| s.lines().filter_map(|l| l.trim().parse().ok()).collect::<Vec<u32>>())
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// SIGKILLs every member, by pid, until the groups are empty (or 2 s pass).
    pub fn kill_members(&self) {
        let t = Instant::now();
        loop {
            let pids = self.members();
            if pids.is_empty() || t.elapsed() > Duration::from_secs(2) {
                return;
            }
            let _ = Command::new("kill").arg("-KILL").args(pids.iter().map(u32::to_string)).stderr(Stdio::null()).status();
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// `pids.events`' `max` counter: how often a fork was refused by the limit.
    pub fn pids_refused(&self) -> Option<u64> {
        self.dirs.iter().find_map(|d| {
            let s = std::fs::read_to_string(d.join("pids.events")).ok()?;
            s.lines().find_map(|l| l.strip_prefix("max ")).and_then(|n| n.trim().parse().ok())
        })
    }

    fn procs_files(&self) -> Vec<String> {
        self.dirs.iter().map(|d| d.join("cgroup.procs").display().to_string()).collect()
    }
}

impl Drop for Cgroup {
    fn drop(&mut self) {
        self.kill_members();
        for d in &self.dirs {
            let _ = std::fs::remove_dir(d);
        }
    }
}

/// Fixed settings of every run.
pub struct Sandbox {
    /// `target/oracle/`: the seccomp program, the project tars, traces.
    pub work: PathBuf,
    pub seccomp: PathBuf,
    pub path_env: String,
    pub home: String,
    /// The in-sandbox timeout (the host kills at this plus a grace period).
    pub timeout: Duration,
    /// Flags left out of the bwrap line. Always empty outside the test that proves
    /// the self-test notices a weakened sandbox (`selftest_catches_a_weakened_sandbox`).
    pub omit: &'static [&'static [&'static str]],
}

/// One run: `command` through `/bin/bash -c`, in a fresh `/srv/proj` unpacked
/// from `project` (a tar), traced into `trace` when given.
pub struct Run<'a> {
    pub command: &'a str,
    pub project: Option<&'a Path>,
    pub trace: Option<&'a Path>,
    pub cgroup: &'a Cgroup,
}

#[derive(Debug, Default)]
pub struct Outcome {
    /// Exit status of bwrap (the command's, 124 when `timeout` stopped it); None if killed.
    pub code: Option<i32>,
    pub timed_out: bool,
    pub secs: f64,
    pub stdout: String,
    pub stderr: String,
}

/// The inner script (`sh -c`, positional: tar, timeout secs, trace 0/1, command).
/// The project is unpacked before strace starts, so it is not traced; fd 3 (the
/// host's trace file) is where strace writes, never a path in the sandbox.
fn inner_script() -> String {
    format!(
        "cd {PROJECT} || exit 121\n\
         [ -z \"$1\" ] || tar -xf /dev/fd/5 2>/dev/null || exit 121\n\
         exec 5<&-\n\
         if [ \"$3\" = 1 ]; then exec timeout -k 1 \"$2\" strace -f -qq -y -s 256 --seccomp-bpf -e trace={TRACED} -o /dev/fd/3 /bin/bash -c \"$4\"; fi\n\
         exec timeout -k 1 \"$2\" /bin/bash -c \"$4\"\n"
    )
}

/// The host wrapper: joins the worker's cgroups before anything can fork, opens
/// the seccomp program on fd 4, the trace file on fd 3 and the project tar on fd 5
/// (read inside through the fd, then closed: the checkout may sit under `/tmp`,
/// which the sandbox replaces with its own tmpfs), then becomes prlimit → bwrap.
/// Every fd above 2 it inherited (a cargo jobserver pipe, say) is closed first.
const HOST_SCRIPT: &str = "set -e\nfor f in $ORACLE_CGROUPS; do echo $$ > \"$f\"; done\n\
for p in /proc/$$/fd/*; do n=${p##*/}; if [ \"$n\" -gt 2 ]; then eval \"exec $n>&-\" 2>/dev/null || true; fi; done\n\
exec \"$@\" 4<\"$ORACLE_SECCOMP\" 3>\"$ORACLE_TRACE\" 5<\"$ORACLE_PROJECT\"\n";

/// The `omit` entry that leaves host sockets uncovered (the weakened-sandbox test only).
pub const HIDE_SOCKETS: &[&str] = &["(cover host sockets)"];

/// Directories the sandbox replaces with its own tmpfs or dev (a socket there is not reachable).
const OVERLAID: &[&str] = &["/tmp", "/run", "/srv", "/dev", "/proc"];

/// True when the sandbox hides the host's `path` under its own tmpfs or dev.
pub fn overlaid(path: &Path) -> bool {
    let p = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    OVERLAID.iter().any(|d| p.starts_with(d))
}

/// Pathname Unix sockets of the host (its `/proc/net/unix`) that the read-only
/// root would leave connectable, canonicalised (`/var/run` is `/run`).
pub fn host_sockets() -> Vec<PathBuf> {
    use std::os::unix::fs::FileTypeExt;
    let text = std::fs::read_to_string("/proc/net/unix").unwrap_or_default();
    let mut v: Vec<PathBuf> = text
        .lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().nth(7))
        .filter(|p| p.starts_with('/'))
        .filter_map(|p| std::fs::canonicalize(p).ok())
        .filter(|p| std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_socket()))
        .filter(|p| !OVERLAID.iter().any(|d| p.starts_with(d)))
        .collect();
    v.sort();
    v.dedup();
    v
}

impl Sandbox {
    pub fn bwrap_args(&self, hidden_sockets: &[PathBuf]) -> Vec<String> {
        let mut a: Vec<String> = Vec::new();
        let mut push = |xs: &[&str]| a.extend(xs.iter().map(|s| s.to_string()));
        push(&["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--ro-bind", "/proc/sys", "/proc/sys"]);
        for p in ["/proc/sysrq-trigger", "/proc/mtrr", "/proc/pressure", "/proc/irq", "/proc/bus", "/proc/fs", "/proc/acpi", "/proc/scsi"] {
            push(&["--ro-bind-try", p, p]);
        }
        for s in hidden_sockets {
            let s = s.display().to_string();
            push(&["--ro-bind", "/dev/null", &s]);
        }
        push(&["--size", "67108864", "--tmpfs", "/tmp", "--size", "67108864", "--tmpfs", "/srv", "--size", "8388608", "--tmpfs", "/run"]);
        push(&["--unshare-all", "--unshare-user", "--disable-userns", "--cap-drop", "ALL", "--die-with-parent", "--new-session"]);
        push(&["--hostname", "oracle", "--clearenv"]);
        for (k, v) in [
            ("PATH", self.path_env.as_str()),
            ("HOME", self.home.as_str()),
            ("USER", "root"),
            ("LOGNAME", "root"),
            ("SHELL", "/bin/bash"),
            ("TERM", "dumb"),
            ("LANG", "C.UTF-8"),
        ] {
            push(&["--setenv", k, v]);
        }
        push(&["--dir", PROJECT, "--chdir", PROJECT, "--seccomp", "4", "--", "/bin/sh", "-c"]);
        a.push(inner_script());
        a.push("oracle".into());
        for seq in self.omit {
            // An exact run of arguments: `--cap-drop ALL`, `--ro-bind /proc/sys /proc/sys`.
            if let Some(i) = a.windows(seq.len()).position(|w| w == *seq) {
                a.drain(i..i + seq.len());
            }
        }
        a
    }

    fn command(&self, run: &Run) -> Command {
        let mut c = Command::new("/bin/bash");
        c.arg("-c").arg(HOST_SCRIPT).arg("oracle-host");
        c.arg("prlimit")
            .arg(format!("--as={AS_MAX}"))
            .arg(format!("--fsize={FSIZE_MAX}"))
            .arg("--core=0")
            .arg("--nofile=1024")
            .arg("--nproc=64")
            .arg("bwrap")
            .args(self.bwrap_args(&if self.omit.contains(&HIDE_SOCKETS) { Vec::new() } else { host_sockets() }))
            .arg(run.project.map(|p| p.display().to_string()).unwrap_or_default())
            .arg(self.timeout.as_secs().max(1).to_string())
            .arg(if run.trace.is_some() { "1" } else { "0" })
            .arg(run.command);
        c.env("ORACLE_CGROUPS", run.cgroup.procs_files().join(" "))
            .env("ORACLE_SECCOMP", &self.seccomp)
            .env("ORACLE_TRACE", run.trace.map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("/dev/null")))
            .env("ORACLE_PROJECT", run.project.map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("/dev/null")))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        std::os::unix::process::CommandExt::process_group(&mut c, 0);
        c
    }

    /// Runs one command and waits for it, at most `timeout` + 4 s (then the
    /// cgroup is emptied by SIGKILL). An error is a harness failure, never a verdict.
    pub fn run(&self, run: &Run) -> Result<Outcome, String> {
        let t = Instant::now();
        let mut child = self.command(run).spawn().map_err(|e| format!("cannot start the sandbox: {e}"))?;
        let out = reader(child.stdout.take());
        let err = reader(child.stderr.take());
        let deadline = self.timeout + Duration::from_secs(4);
        let status = wait(&mut child, deadline);
        let killed = status.is_none();
        if killed {
            let _ = child.kill();
            let _ = child.wait();
        }
        run.cgroup.kill_members();
        let stdout = out.join().unwrap_or_default();
        let stderr = err.join().unwrap_or_default();
        let code = status.and_then(|s| s.code());
        Ok(Outcome { code, timed_out: killed || code == Some(124) || code == Some(137), secs: t.elapsed().as_secs_f64(), stdout, stderr })
    }
}

fn wait(child: &mut Child, deadline: Duration) -> Option<std::process::ExitStatus> {
    let t = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(s)) => return Some(s),
            Ok(None) if t.elapsed() < deadline => std::thread::sleep(Duration::from_millis(5)),
            _ => return None,
        }
    }
}

/// Reads a pipe to its end, keeping the first `KEEP` bytes.
fn reader(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let Some(mut p) = pipe else { return String::new() };
        let mut kept = Vec::new();
        let mut buf = [0u8; 8192];
        while let Ok(n) = p.read(&mut buf) {
            if n == 0 {
                break;
            }
            let room = KEEP.saturating_sub(kept.len());
            kept.extend_from_slice(&buf[..n.min(room)]);
        }
        String::from_utf8_lossy(&kept).into_owned()
    })
}

/// Why the oracle cannot run here at all (before any probe), or None.
pub fn unavailable() -> Option<String> {
    for tool in ["bwrap", "strace", "prlimit", "timeout", "tar"] {
        if which(tool).is_none() {
            return Some(format!("`{tool}` is not installed (apt-get install bubblewrap strace util-linux)"));
        }
    }
    let uid = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find_map(|l| l.strip_prefix("Uid:")).map(|u| u.split_whitespace().next().unwrap_or("").to_owned()));
    if uid.as_deref() != Some("0") {
        return Some("the oracle needs root (cgroup limits and the probes assume real root)".into());
    }
    let cg = Path::new("/sys/fs/cgroup");
    let pids = if cg.join("cgroup.controllers").is_file() { cg.to_path_buf() } else { cg.join("pids") };
    if std::fs::metadata(pids.join("cgroup.procs")).map(|m| m.permissions().readonly()).unwrap_or(true) {
        return Some(format!("no writable pids cgroup at {} (RLIMIT_NPROC does not bind root)", pids.display()));
    }
    // Can bwrap make namespaces here at all (an unprivileged container cannot)?
    let smoke =
        Command::new("bwrap").args(["--ro-bind", "/", "/", "--unshare-all", "--cap-drop", "ALL", "--die-with-parent", "true"]).stdin(Stdio::null()).output();
    match smoke {
        Ok(o) if o.status.success() => None,
        Ok(o) => Some(format!("bwrap cannot create its namespaces here: {}", String::from_utf8_lossy(&o.stderr).trim())),
        Err(e) => Some(format!("cannot run bwrap: {e}")),
    }
}

pub fn which(tool: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(tool)).find(|p| p.is_file())
}
