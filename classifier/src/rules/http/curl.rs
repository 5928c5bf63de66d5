//! curl: the method (`-X`), bodies (`-d`, `--data*`, `--json`, `-F`), uploads
//! (`-T`, `--mail-rcpt`, `-Q`), config files (`-K`) and every option that writes
//! a local file (`-o`, `-O` with `--output-dir`, `-c`, `-D`, `--trace` …).

use crate::call::args::{ArgSpec, Help};
use crate::call::Invocation;
use crate::rules::vocab::writes;
use crate::rules::Cx;
use crate::words;

use super::{options, BODY, CONFIG, METHOD, READ, UPLOAD};

/// Short options that take a value.
/// curl's options that take a value; letters pack (`-sSLo file`). `-G` is read too.
pub(super) const CURL_ARGS: ArgSpec = ArgSpec::values(words![
    "-d", "-F", "-T", "-o", "-X", "-H", "-A", "-e", "-u", "-b", "-c", "-K", "-x", "-m", "-w", "-r", "-C", "-E", "-D", "-z", "-Y", "-y", "-Q", "-P", "-U", "-t",
    "--data", "--data-raw", "--data-binary", "--data-urlencode", "--data-ascii", "--json", "--form", "--form-string", "--upload-file", "--output",
    "--output-dir", "--request", "--header", "--user-agent", "--referer", "--user", "--cookie", "--cookie-jar", "--config", "--proxy", "--max-time",
    "--connect-timeout", "--write-out", "--range", "--continue-at", "--cert", "--key", "--cacert", "--capath", "--dump-header", "--trace", "--trace-ascii",
    "--stderr", "--retry", "--retry-delay", "--retry-max-time", "--time-cond", "--limit-rate", "--max-filesize", "--resolve", "--connect-to", "--interface",
    "--url", "--variable", "--oauth2-bearer", "--unix-socket", "--abstract-unix-socket", "--proto", "--proto-redir", "--ciphers", "--mail-from", "--mail-rcpt",
    "--mail-auth", "--quote", "--libcurl", "--etag-save", "--etag-compare", "--hsts", "--alt-svc", "--proxy-user", "--aws-sigv4", "--expect100-timeout",
    "--happy-eyeballs-timeout-ms", "--dns-servers", "--ftp-port", "--krb", "--netrc-file", "--noproxy", "--pass", "--pinnedpubkey", "--preproxy",
    "--proxy-header", "--request-target", "--sasl-authzid", "--service-name", "--socks4", "--socks4a", "--socks5", "--socks5-hostname", "--speed-limit",
    "--speed-time", "--tls-max", "--tlsuser", "--tlspassword", "--url-query", "--keepalive-time", "--local-port", "--max-redirs", "--parallel-max",
    "--trace-config",
])
.with_flags(words!["-G", "--get"])
.packed()
// Help, version and the manual print and exit; the card's reading finds them as
// options of their own, never as a value (`curl -d --help URL` posts the text).
.help(Help::LONG.with(Help::DASH_H).with(Help::VERSION).with(Help::DASH_UPPER_V).with(Help::MANUAL).with(Help::DASH_M));

pub(super) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    let (opts, _operands) = options(&inv.args, CURL_ARGS);
    let cwd = inv.cwd.clone();
    let get = opts.iter().any(|o| o.name == "-G" || o.name == "--get");
    let mut wrote = false;
    for o in &opts {
        let v = o.value.as_ref();
        match o.name {
            "-X" | "--request" => {
                let m = v.map(|a| a.text.to_ascii_uppercase()).unwrap_or_default();
                if !v.is_some_and(|a| a.exact) || !matches!(m.as_str(), "GET" | "HEAD" | "OPTIONS") {
                    cx.hit_because(&METHOD, format!("sends a {m} request, which changes remote state; ask the user first"));
                    wrote = true;
                }
            }
            "-d" | "--data" | "--data-raw" | "--data-binary" | "--data-urlencode" | "--data-ascii" if !get => {
                cx.hit_because(&BODY, format!("`{}` sends a request body (a POST), which changes remote state or sends data away; ask the user first", o.name));
                wrote = true;
            }
            "--json" | "-F" | "--form" | "--form-string" => {
                cx.hit_because(&BODY, format!("`{}` sends a request body (a POST), which changes remote state or sends data away; ask the user first", o.name));
                wrote = true;
            }
            "-T" | "--upload-file" | "--mail-rcpt" | "-Q" | "--quote" => {
                cx.hit_because(&UPLOAD, format!("`{}` uploads or sends data to the remote host; ask the user first", o.name));
                wrote = true;
            }
            "-K" | "--config" => {
                cx.hit(&CONFIG);
                wrote = true;
            }
            "-o" | "--output" | "--output-dir" | "-c" | "--cookie-jar" | "-D" | "--dump-header" | "--trace" | "--trace-ascii" | "--stderr" | "--libcurl"
            | "--etag-save" | "--hsts" | "--alt-svc" => {
                if let Some(a) = v.filter(|a| a.text != "-" && a.text != "%") {
                    writes::check_write(cx, &a.clone(), cwd.as_deref());
                }
            }
            _ => {}
        }
    }
    if !wrote {
        cx.hit(&READ);
    }
}
