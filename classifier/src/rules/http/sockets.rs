//! Raw sockets and file transfer: nc/ncat/netcat (listen, exec, probe,
//! connect), socat addresses, telnet, scp (upload vs download by which side is
//! remote), and sftp/ftp sessions.

use crate::call::Invocation;
use crate::rules::{paths, Cx};

use super::{CONNECT, EXEC, LISTEN, PROBE, READ, SESSION, UPLOAD};

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
