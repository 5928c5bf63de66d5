//! The sandbox self-test (ORACLE.md §1), run before every oracle run and as a
//! `cargo test`. Each probe runs a small script in the real sandbox and checks the
//! result both inside (what the script printed) and on the host (nothing changed).
//! A write probe that could succeed writes back a value that is already there, or
//! a fresh marker name, so even a broken sandbox changes nothing that matters.

use std::net::TcpListener;
use std::path::Path;
use std::time::Duration;

use super::sandbox::{Cgroup, Outcome, Run, Sandbox, FSIZE_MAX, PROJECT};

pub struct Probe {
    pub name: &'static str,
    pub result: Result<String, String>,
}

impl Probe {
    pub fn line(&self) -> String {
        match &self.result {
            Ok(d) => format!("pass  {:<22} {d}", self.name),
            Err(e) => format!("FAIL  {:<22} {e}", self.name),
        }
    }
}

/// Runs every probe; the oracle refuses to run unless all pass.
pub fn run(sb: &Sandbox, cg: &Cgroup, project: &Path, repo: &Path) -> Vec<Probe> {
    let marker = format!("oracle-probe-{}", std::process::id());
    let go = |script: &str| sb.run(&Run { command: script, project: Some(project), trace: None, cgroup: cg });
    let mut out = Vec::new();
    let mut probe = |name: &'static str, result: Result<String, String>| out.push(Probe { name, result });

    // Writes outside the scratch fail, and the host shows nothing.
    let targets = [format!("/etc/{marker}"), format!("{}/{marker}", sb.home), format!("{}/{marker}", repo.display()), format!("/usr/bin/{marker}")];
    let env_mode = std::fs::metadata("/usr/bin/env").map(|m| std::os::unix::fs::PermissionsExt::mode(&m.permissions())).ok();
    let script = format!(
        "for p in {}; do touch \"$p\" 2>/dev/null && echo \"WROTE $p\"; done\n\
         rm -f /bin/ls 2>/dev/null && echo REMOVED-LS\nchmod 777 /usr/bin/env 2>/dev/null && echo CHMOD-ENV\n\
         mkdir {}/{marker}.d 2>/dev/null && echo MKDIR-REPO\necho done",
        targets.iter().map(|t| format!("'{t}'")).collect::<Vec<_>>().join(" "),
        repo.display()
    );
    probe(
        "writes-outside-fail",
        go(&script).and_then(|o| {
            expect_stdout(&o, "done")?;
            for t in targets.iter().chain([&format!("{}/{marker}.d", repo.display())]) {
                if Path::new(t).exists() {
                    return Err(format!("{t} exists on the host"));
                }
            }
            let mode = std::fs::metadata("/usr/bin/env").map(|m| std::os::unix::fs::PermissionsExt::mode(&m.permissions())).ok();
            if !Path::new("/bin/ls").exists() || mode != env_mode {
                return Err("/bin/ls or /usr/bin/env changed".into());
            }
            Ok("touch /etc, ~, the checkout, /usr/bin; rm /bin/ls; chmod; mkdir in the checkout: all refused".into())
        }),
    );

    // /proc/sys and /sys: the write puts back the value that is there.
    let script = "v=$(cat /proc/sys/kernel/domainname)\n\
                  printf '%s\\n' \"$v\" > /proc/sys/kernel/domainname 2>/dev/null && echo WROTE-SYSCTL\n\
                  find /proc/sys /sys -writable 2>/dev/null | head -5\n\
                  find /proc -maxdepth 1 -writable ! -regex '/proc/[0-9]+' ! -name self ! -name thread-self 2>/dev/null | head -5\necho done";
    probe(
        "proc-sys-read-only",
        go(script).and_then(|o| expect_stdout(&o, "done").map(|_| "sysctl write refused; nothing writable in /proc/sys, /sys, /proc".into())),
    );

    probe(
        "caps-dropped",
        go("grep -E '^(CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs):' /proc/self/status").and_then(|o| {
            for l in o.stdout.lines() {
                let (k, v) = l.split_once(':').unwrap_or((l, ""));
                let v = v.trim();
                let good = if k == "NoNewPrivs" { v == "1" } else { v.bytes().all(|b| b == b'0') };
                if !good {
                    return Err(format!("{k} is {v}"));
                }
            }
            if o.stdout.lines().count() != 6 {
                return Err(format!("unexpected /proc/self/status: {:?}", o.stdout));
            }
            Ok("CapInh/Prm/Eff/Bnd/Amb 0, NoNewPrivs 1".into())
        }),
    );

    let script = "mount -o remount,bind,rw / 2>/dev/null && echo REMOUNTED\nmount -t tmpfs none /mnt 2>/dev/null && echo MOUNTED\n\
                  unshare -r true 2>/dev/null && echo USERNS\nunshare -m true 2>/dev/null && echo MOUNTNS\n\
                  awk '$2==\"/\"{split($4,o,\",\"); print o[1]}' /proc/self/mounts | tail -1";
    probe(
        "no-remount-no-userns",
        go(script).and_then(|o| expect_stdout(&o, "ro").map(|_| "remount rw, mount tmpfs, unshare -r, unshare -m refused; / is ro".into())),
    );

    probe(
        "keyring-isolated",
        match super::seccomp::keyctl_nr() {
            None => Err("no seccomp syscall table for this architecture".into()),
            Some(nr) => go(&format!("perl -e 'my $r = syscall({nr}, 0, -4, 0); print $r == -1 ? \"errno=\".($!+0) : \"id=$r\"'"))
                .and_then(|o| expect_stdout(&o, "errno=1").map(|_| "keyctl(GET_KEYRING_ID, user keyring) → EPERM (seccomp)".into())),
        },
    );

    let host_srv: Vec<_> = std::fs::read_dir("/srv").map(|d| d.flatten().map(|e| e.file_name()).collect()).unwrap_or_default();
    let script =
        format!("echo ok > {PROJECT}/{marker} && echo ok > /tmp/{marker} && cat {PROJECT}/{marker} /tmp/{marker} && test -f {PROJECT}/a.txt && echo template");
    probe(
        "scratch-writes-vanish",
        go(&script).and_then(|o| {
            expect_stdout(&o, "ok\nok\ntemplate")?;
            let now: Vec<_> = std::fs::read_dir("/srv").map(|d| d.flatten().map(|e| e.file_name()).collect()).unwrap_or_default();
            if Path::new(&format!("/tmp/{marker}")).exists() || now != host_srv {
                return Err("a scratch write reached the host".into());
            }
            Ok("writes in the cwd and /tmp work inside and are gone afterwards".into())
        }),
    );
    probe(
        "project-fresh-per-run",
        go(&format!("touch {PROJECT}/left-{marker}"))
            .and_then(|_| go(&format!("ls {PROJECT}/left-{marker} 2>/dev/null; echo done")))
            .and_then(|o| expect_stdout(&o, "done").map(|_| "a file left by one run is absent in the next".into())),
    );

    probe("no-network", network(&go));
    probe("host-sockets-hidden", host_socket(&go, &sb.work, &marker));
    probe(
        "no-inherited-fds",
        go("ls /proc/self/fd | tr '\\n' ' '").and_then(|o| {
            // ls's own fds: 0-2, the trace fd 3 (here /dev/null), and the directory it lists.
            let fds: Vec<u32> = o.stdout.split_whitespace().filter_map(|f| f.parse().ok()).collect();
            // 0-2 must be there: an empty listing (the probe did not run) is no pass.
            if [0, 1, 2].iter().all(|f| fds.contains(f)) && fds.iter().filter(|&&f| f > 3).count() <= 1 && fds.len() <= 5 {
                Ok(format!("fds inside: {:?}", fds))
            } else {
                Err(format!("inherited fds inside the sandbox: {:?}", o.stdout.trim()))
            }
        }),
    );

    let script = format!("kill -0 {} 2>/dev/null && echo HOST-PID-VISIBLE\nls -A /run\nenv | cut -d= -f1 | sort | tr '\\n' ' '", std::process::id());
    probe(
        "isolation",
        go(&script).and_then(|o| {
            let allowed = ["HOME", "LANG", "LOGNAME", "OLDPWD", "PATH", "PWD", "SHELL", "SHLVL", "TERM", "USER", "_"];
            let mut lines = o.stdout.lines();
            let env = lines.next_back().unwrap_or("");
            if lines.next().is_some() {
                return Err(format!("host pid visible or /run not empty: {:?}", o.stdout));
            }
            if let Some(k) = env.split_whitespace().find(|k| !allowed.contains(k)) {
                return Err(format!("environment not cleared: {k}"));
            }
            Ok("host pids invisible, /run empty, environment cleared".into())
        }),
    );

    let before = cg.pids_refused();
    probe(
        "pids-limit",
        go("for i in $(seq 400); do sleep 2 & done 2>/dev/null; echo spawned").and_then(|_| {
            let after = cg.pids_refused();
            match (before, after) {
                (Some(b), Some(a)) if a > b => Ok(format!("fork refused {} time(s) at pids.max {}", a - b, super::sandbox::PIDS_MAX)),
                _ => Err(format!("400 background sleeps were not stopped by the pids cgroup (pids.events max {before:?} → {after:?})")),
            }
        }),
    );

    probe(
        "memory-limit",
        go("perl -e '$x = \"a\" x (3 << 30); print \"ALLOCATED\"' 2>/dev/null; echo done")
            .and_then(|o| expect_stdout(&o, "done").map(|_| "a 3 GiB allocation fails".into())),
    );

    let script = format!("head -c {} /dev/zero > {PROJECT}/big 2>/dev/null; stat -c %s {PROJECT}/big", FSIZE_MAX + (10 << 20));
    probe(
        "file-size-limit",
        go(&script).and_then(|o| match o.stdout.trim().parse::<u64>() {
            Ok(n) if n <= FSIZE_MAX => Ok(format!("a {} MiB write stops at {} MiB", (FSIZE_MAX >> 20) + 10, n >> 20)),
            _ => Err(format!("file size limit did not bite: {:?}", o.stdout.trim())),
        }),
    );

    probe(
        "timeout",
        go("sleep 30").and_then(|o| {
            if o.timed_out && o.secs < (sb.timeout + Duration::from_secs(3)).as_secs_f64() {
                Ok(format!("sleep 30 stopped after {:.1} s", o.secs))
            } else {
                Err(format!("sleep 30 ran {:.1} s (timed out: {})", o.secs, o.timed_out))
            }
        }),
    );

    let trace = sb.work.join(format!("selftest-{marker}.trace"));
    let r = sb.run(&Run { command: &format!("touch /etc/{marker}; echo hi > a.txt"), project: Some(project), trace: Some(&trace), cgroup: cg });
    let text = std::fs::read_to_string(&trace).unwrap_or_default();
    let _ = std::fs::remove_file(&trace);
    probe(
        "strace-records",
        r.and_then(|_| {
            let erofs = text.lines().any(|l| l.contains(&format!("\"/etc/{marker}\"")) && l.contains("EROFS"));
            let cwd = text.lines().any(|l| l.contains("\"a.txt\"") && l.contains("O_WRONLY") && !l.contains("= -1"));
            if erofs && cwd {
                Ok("the EROFS write to /etc and the cwd write are both in the trace".into())
            } else {
                Err(format!("trace incomplete ({} lines; /etc EROFS {erofs}, cwd write {cwd})", text.lines().count()))
            }
        }),
    );
    out
}

fn expect_stdout(o: &Outcome, want: &str) -> Result<(), String> {
    if o.stdout.trim() == want {
        Ok(())
    } else {
        Err(format!("expected {want:?}, got {:?} (exit {:?}; stderr {:?})", o.stdout.trim(), o.code, o.stderr.chars().take(200).collect::<String>()))
    }
}

/// A listening Unix socket on the read-only root (the host's `target/oracle/`)
/// must not be connectable: a read-only mount does not stop connect().
/// The socket goes where the sandbox shows the host's files: `work` unless it lies
/// under one of the sandbox's own tmpfs (a checkout in `/tmp`), then `/var/tmp`.
fn host_socket(go: &dyn Fn(&str) -> Result<Outcome, String>, work: &Path, marker: &str) -> Result<String, String> {
    let dir = if super::sandbox::overlaid(work) { Path::new("/var/tmp") } else { work };
    if super::sandbox::overlaid(dir) {
        return Err(format!("no host directory outside the sandbox's tmpfs to put a socket in ({} and /var/tmp are covered)", work.display()));
    }
    let path = dir.join(format!("{marker}.sock"));
    let _ = std::fs::remove_file(&path);
    let l = std::os::unix::net::UnixListener::bind(&path).map_err(|e| format!("cannot open a host socket: {e}"))?;
    l.set_nonblocking(true).map_err(|e| e.to_string())?;
    let hidden = super::sandbox::host_sockets().len();
    let script = format!("perl -MIO::Socket::UNIX -e 'IO::Socket::UNIX->new(Peer => \"{}\") and print \"CONNECTED\"'; echo done", path.display());
    let o = go(&script);
    let accepted = l.accept().is_ok();
    drop(l);
    let _ = std::fs::remove_file(&path);
    let o = o?;
    if accepted || o.stdout.trim() != "done" {
        return Err(format!("a host Unix socket was reachable from inside ({:?})", o.stdout.trim()));
    }
    Ok(format!("a listening host socket on the ro root is refused ({hidden} host socket(s) covered)"))
}

/// Only `lo`, no routes, and a listener on the host's 127.0.0.1 sees no connection.
fn network(go: &dyn Fn(&str) -> Result<Outcome, String>) -> Result<String, String> {
    let l = TcpListener::bind("127.0.0.1:0").map_err(|e| format!("cannot open a host listener: {e}"))?;
    l.set_nonblocking(true).map_err(|e| e.to_string())?;
    let port = l.local_addr().map_err(|e| e.to_string())?.port();
    let script = format!(
        "awk -F: 'NR>2 {{gsub(/ /, \"\", $1); print $1}}' /proc/net/dev | tr '\\n' ' '; echo\n\
         awk 'NR>1' /proc/net/route /proc/net/ipv6_route 2>/dev/null | grep -v ' lo$' | head -3\n\
         (echo x > /dev/tcp/127.0.0.1/{port}) 2>/dev/null && echo CONNECTED\necho done"
    );
    let o = go(&script)?;
    let accepted = l.accept().is_ok();
    if o.stdout.trim() != "lo \ndone" && o.stdout.trim() != "lo\ndone" {
        return Err(format!("interfaces, routes or a connection: {:?}", o.stdout));
    }
    if accepted {
        return Err("the host listener accepted a connection from inside".into());
    }
    Ok(format!("only lo, no routes; host listener 127.0.0.1:{port} saw 0 connections"))
}
