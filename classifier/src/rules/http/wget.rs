//! wget (methods, POST bodies, config, output files and directories) and aria2c
//! (download directories, completion hooks, peer-to-peer, RPC listener).

use crate::call::args::{ArgSpec, Help};
use crate::call::{Arg, Invocation};
use crate::rules::vocab::writes;
use crate::rules::{Cx, Rule};
use crate::words;

use super::{options, BODY, CONFIG, LISTEN, METHOD, READ};

/// ## What it matches
/// Peer-to-peer downloads: `aria2c` with a torrent, metalink or magnet link.
/// ## Why this tier
/// BitTorrent uploads to peers while it downloads (and seeds after).
pub(super) static P2P: Rule = Rule::t3("http.p2p")
    .reason("a peer-to-peer download also uploads to other peers; ask the user first")
    .matches(words!["aria2c 'magnet:?xt=urn:btih:abc'", "aria2c file.torrent"])
    .not_matches(words!["aria2c https://example.com/f.iso"]);

/// wget's options that take a value; letters pack (`-qO file`).
pub(super) const WGET_ARGS: ArgSpec = ArgSpec::values(words![
    "-O", "-P", "-o", "-a", "-U", "-e", "-i", "-t", "-T", "-w", "-Q", "-l", "-A", "-R", "-D", "-I", "-X", "-B", "--output-document", "--directory-prefix",
    "--output-file", "--append-output", "--post-data", "--post-file", "--method", "--body-data", "--body-file", "--header", "--user-agent", "--execute",
    "--input-file", "--tries", "--timeout", "--wait", "--quota", "--level", "--user", "--password", "--http-user", "--http-password", "--accept", "--reject",
    "--domains", "--exclude-domains", "--include-directories", "--exclude-directories", "--load-cookies", "--save-cookies", "--base", "--config", "--referer",
    "--limit-rate", "--bind-address", "--ca-certificate", "--certificate", "--private-key", "--proxy-user", "--proxy-password", "--restrict-file-names",
    "--default-page", "--warc-file",
])
.packed()
// Help and version print and exit (read by the card, never as an option's value).
.help(Help::LONG.with(Help::DASH_H).with(Help::VERSION).with(Help::DASH_UPPER_V));

pub(super) fn wget(inv: &Invocation, cx: &mut Cx<'_>) {
    let (opts, _) = options(&inv.args, WGET_ARGS);
    let cwd = inv.cwd.clone();
    let mut wrote = false;
    for o in &opts {
        let v = o.value.as_ref();
        match o.name {
            "--post-data" | "--post-file" | "--body-data" | "--body-file" => {
                cx.hit_because(&BODY, format!("`{}` sends a request body, which changes remote state or sends data away; ask the user first", o.name));
                wrote = true;
            }
            "--method" => {
                let m = v.map(|a| a.text.to_ascii_uppercase()).unwrap_or_default();
                if !matches!(m.as_str(), "GET" | "HEAD" | "OPTIONS") {
                    cx.hit_because(&METHOD, format!("sends a {m} request, which changes remote state; ask the user first"));
                    wrote = true;
                }
            }
            "--config" => {
                cx.hit(&CONFIG);
                wrote = true;
            }
            "-e" | "--execute" => {
                let cmd = v.map(|a| a.text.to_ascii_lowercase()).unwrap_or_default();
                if ["post", "method", "body", "header", "output", "dir_prefix", "config"].iter().any(|k| cmd.contains(k)) {
                    cx.hit_because(&CONFIG, format!("`-e {cmd}` sets a request option tiergate does not model; pass it as a flag"));
                    wrote = true;
                }
            }
            "-O" | "--output-document" | "-o" | "--output-file" | "-a" | "--append-output" | "--save-cookies" | "--warc-file" => {
                if let Some(a) = v.filter(|a| a.text != "-") {
                    writes::check_write(cx, &a.clone(), cwd.as_deref());
                }
            }
            "-P" | "--directory-prefix" => {
                if let Some(a) = v {
                    let inside = Arg { text: format!("{}/x", a.text.trim_end_matches('/')), ..a.clone() };
                    writes::check_write(cx, &inside, cwd.as_deref());
                }
            }
            _ => {}
        }
    }
    if !wrote {
        cx.hit(&READ);
    }
}

/// aria2c's options that take a value; letters pack.
const ARIA_ARGS: ArgSpec = ArgSpec::values(words![
    "-d", "-o", "-i", "-s", "-x", "-k", "-j", "-T", "-U", "-M", "--dir", "--out", "--input-file", "--split", "--max-connection-per-server", "--min-split-size",
    "--max-concurrent-downloads", "--torrent-file", "--metalink-file", "--on-download-complete", "--on-download-start", "--on-download-error",
    "--on-download-stop", "--on-download-pause", "--on-bt-download-complete", "--seed-time", "--seed-ratio", "--header", "--user-agent", "--rpc-secret",
    "--rpc-listen-port", "--conf-path", "--log", "--save-session",
])
.with_flags(words!["--enable-rpc"])
.packed();

pub(super) fn aria2c(inv: &Invocation, cx: &mut Cx<'_>) {
    let (opts, operands) = options(&inv.args, ARIA_ARGS);
    let cwd = inv.cwd.clone();
    let mut noted = false;
    for o in &opts {
        let v = o.value.as_ref();
        match o.name {
            "-d" | "--dir" | "-o" | "--out" | "-l" | "--log" | "--save-session" => {
                if let Some(a) = v.filter(|a| a.text != "-") {
                    writes::check_write(cx, &a.clone(), cwd.as_deref());
                }
            }
            n if n.starts_with("--on-") => {
                // The hook program runs after each download.
                if let Some(a) = v {
                    cx.argv(std::slice::from_ref(a), cwd.as_deref());
                }
            }
            "-T" | "--torrent-file" | "-M" | "--metalink-file" => {
                cx.hit(&P2P);
                noted = true;
            }
            "--enable-rpc" => {
                cx.hit_because(&LISTEN, "--enable-rpc opens a JSON-RPC listener that accepts downloads and commands; ask the user first".to_owned());
                noted = true;
            }
            "--conf-path" => {
                cx.hit(&CONFIG);
                noted = true;
            }
            _ => {}
        }
    }
    if operands.iter().any(|a| a.text.starts_with("magnet:") || a.text.ends_with(".torrent") || a.text.ends_with(".metalink") || a.text.ends_with(".meta4")) {
        cx.hit(&P2P);
        noted = true;
    }
    if !noted {
        cx.hit(&READ);
    }
}
