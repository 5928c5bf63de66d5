//! Masks secrets in a command line before it is stored or shown: the one policy
//! for tiergate's audit log and pending codes and the bench's history importers
//! (`corpus/history/README.md` lists what is masked). Masks secrets so the line can be written: well-known
//! token shapes (GitHub `ghp_…`/`github_pat_…`, GitLab `glpat-…`, OpenAI/Anthropic
//! `sk-…`, Slack `xox?-…`, AWS `AKIA…`/`ASIA…`, Google `AIza…`, npm `npm_…`, PyPI
//! `pypi-…`, JWT-shaped `eyJ….….…`), `Bearer <token>`, credential headers
//! (`Authorization:`, `X-Api-Key:`, `Cookie:` …), `KEY=…`/`TOKEN=…`/`PASSWORD=…`
//! assignments, `--password x`/`--token=x`-style flags, and URL credentials
//! (`https://user:pass@host`). Each secret becomes `[REDACTED]`; the rest of the
//! command is kept so a reader still sees what ran. It is idempotent. It does not
//! promise to find every secret: it finds the common shapes, tested one by one.

const MASK: &str = "[REDACTED]";

/// Secret-bearing words in variable, flag and header names (compared lowercased).
const SECRET_WORDS: &[&str] = &[
    "password", "passwd", "passphrase", "secret", "token", "apikey", "api_key", "api-key", "access_key", "access-key", "private_key", "private-key",
    "credential", "cookie",
];

/// Token prefixes and the minimum number of token characters after them.
const TOKEN_PREFIXES: &[(&str, usize)] = &[
    ("github_pat_", 20),
    ("ghp_", 20),
    ("gho_", 20),
    ("ghu_", 20),
    ("ghs_", 20),
    ("ghr_", 20),
    ("glpat-", 16),
    ("sk-", 16),
    ("xoxb-", 10),
    ("xoxp-", 10),
    ("xoxa-", 10),
    ("xoxr-", 10),
    ("xoxs-", 10),
    ("AKIA", 16),
    ("ASIA", 16),
    ("AIza", 30),
    ("npm_", 30),
    ("pypi-", 30),
];

/// Masks secrets in `command` (see the module doc for what is recognised).
pub fn redact(command: &str) -> String {
    let b = command.as_bytes();
    let quotes = quote_state(b);
    let mut spans: Vec<(usize, usize)> = Vec::new();
    tokens(b, &mut spans);
    bearer(b, &quotes, &mut spans);
    headers(b, &quotes, &mut spans);
    assignments_and_flags(b, &quotes, &mut spans);
    url_credentials(b, &mut spans);
    apply(command, spans)
}

fn is_tok(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-'
}

fn secret_name(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    // `PWD` is the working directory; `*_FILE`/`*_PATH` name where a secret lives.
    if n == "pwd" || ["_file", "-file", "_path", "-path"].iter().any(|s| n.ends_with(s)) {
        return false;
    }
    SECRET_WORDS.iter().any(|w| n.contains(w))
        || ["key", "pass", "auth"].contains(&n.as_str())
        || ["_key", "-key", "_pass", "_pw", "_pwd", "-pwd", "_auth"].iter().any(|s| n.ends_with(s))
}

/// A credential header name: `Authorization`, `Cookie`, or a hyphenated name with a
/// secret word (`X-Api-Key`, `X-Auth-Token`, `Private-Token`). A bare `auth:` in a
/// commit message is not a header.
fn header_name(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    ["authorization", "proxy-authorization", "cookie"].contains(&n.as_str()) || (n.contains('-') && secret_name(&n))
}

/// For each byte: the quote it sits inside (`'` or `"`), or 0. Quote characters
/// themselves carry the state they open or close.
fn quote_state(b: &[u8]) -> Vec<u8> {
    let mut st = vec![0u8; b.len()];
    let mut q = 0u8;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        st[i] = q;
        match (q, c) {
            (0, b'\\') | (b'"', b'\\') => {
                if i + 1 < b.len() {
                    st[i + 1] = q;
                }
                i += 2;
                continue;
            }
            (0, b'\'') | (0, b'"') => {
                q = c;
                st[i] = c;
            }
            (q0, c0) if q0 != 0 && c0 == q0 => q = 0,
            _ => {}
        }
        i += 1;
    }
    st
}

/// The extent of a value starting at `p`: inside its own quotes, to the end of the
/// quoted string it sits in, or to the next shell separator.
fn value_end(b: &[u8], quotes: &[u8], p: usize) -> (usize, usize) {
    if p >= b.len() {
        return (p, p);
    }
    if (b[p] == b'\'' || b[p] == b'"') && quotes[p] == b[p] && (p == 0 || quotes[p - 1] != b[p]) {
        let q = b[p];
        let end = (p + 1..b.len()).find(|&i| b[i] == q && quotes[i] == q && (q == b'\'' || b[i - 1] != b'\\')).unwrap_or(b.len());
        return (p + 1, end);
    }
    let q = quotes[p];
    if q != 0 {
        let end = (p..b.len()).find(|&i| b[i] == q && (q == b'\'' || i == 0 || b[i - 1] != b'\\')).unwrap_or(b.len());
        return (p, end);
    }
    let end = (p..b.len()).find(|&i| b[i].is_ascii_whitespace() || b";&|<>()'\"".contains(&b[i])).unwrap_or(b.len());
    (p, end)
}

fn tokens(b: &[u8], spans: &mut Vec<(usize, usize)>) {
    for i in 0..b.len() {
        if i > 0 && is_tok(b[i - 1]) {
            continue;
        }
        for (pre, min) in TOKEN_PREFIXES {
            if b[i..].starts_with(pre.as_bytes()) {
                let end = (i + pre.len()..b.len()).find(|&j| !is_tok(b[j])).unwrap_or(b.len());
                if end - i - pre.len() >= *min {
                    spans.push((i, end));
                }
            }
        }
        // JWT: three base64url segments, the first starting `eyJ`.
        if b[i..].starts_with(b"eyJ") {
            let seg = |from: usize| (from..b.len()).find(|&j| !is_tok(b[j])).unwrap_or(b.len());
            let e1 = seg(i);
            if b.get(e1) == Some(&b'.') {
                let e2 = seg(e1 + 1);
                if e2 > e1 + 1 && b.get(e2) == Some(&b'.') {
                    let e3 = seg(e2 + 1);
                    if e3 > e2 + 1 && e1 - i >= 10 {
                        spans.push((i, e3));
                    }
                }
            }
        }
    }
}

fn bearer(b: &[u8], quotes: &[u8], spans: &mut Vec<(usize, usize)>) {
    let lower = b.to_ascii_lowercase();
    for scheme in [&b"bearer "[..], b"basic ", b"token "] {
        let mut from = 0;
        while let Some(k) = find(&lower[from..], scheme) {
            let p = from + k + scheme.len();
            let (s, _) = value_end(b, quotes, p);
            let e = (s..b.len()).find(|&j| b[j].is_ascii_whitespace() || b"'\";&|".contains(&b[j])).unwrap_or(b.len());
            if e > s && (from + k == 0 || !b[from + k - 1].is_ascii_alphanumeric()) {
                spans.push((s, e));
            }
            from = p;
        }
    }
}

fn headers(b: &[u8], quotes: &[u8], spans: &mut Vec<(usize, usize)>) {
    for i in 0..b.len() {
        if b[i] != b':' || i == 0 {
            continue;
        }
        let start = (0..i).rev().find(|&j| !(b[j].is_ascii_alphanumeric() || b[j] == b'-' || b[j] == b'_')).map_or(0, |j| j + 1);
        let name = std::str::from_utf8(&b[start..i]).unwrap_or("");
        // A header value follows `Name:`; `https://` and `host:port` do not qualify.
        if name.is_empty() || !header_name(name) || b.get(i + 1).is_some_and(|&c| c == b'/') {
            continue;
        }
        let mut p = i + 1;
        while p < b.len() && b[p] == b' ' {
            p += 1;
        }
        let (s, e) = value_end(b, quotes, p);
        // Keep an auth scheme word visible (`Authorization: Bearer [REDACTED]`).
        let word_end = (s..e).find(|&j| b[j] == b' ').unwrap_or(e);
        let scheme = std::str::from_utf8(&b[s..word_end]).unwrap_or("").to_ascii_lowercase();
        let s = if ["bearer", "basic", "token", "digest"].contains(&scheme.as_str()) && word_end < e { word_end + 1 } else { s };
        if e > s {
            spans.push((s, e));
        }
    }
}

fn assignments_and_flags(b: &[u8], quotes: &[u8], spans: &mut Vec<(usize, usize)>) {
    let mut i = 0;
    while i < b.len() {
        let at_word = i == 0 || b[i - 1].is_ascii_whitespace() || b";&|('\"".contains(&b[i - 1]);
        if !at_word || !(b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'-') {
            i += 1;
            continue;
        }
        let end = (i..b.len()).find(|&j| !(b[j].is_ascii_alphanumeric() || b[j] == b'_' || b[j] == b'-')).unwrap_or(b.len());
        let name = std::str::from_utf8(&b[i..end]).unwrap_or("");
        let is_flag = name.starts_with("--") || (name.starts_with('-') && name.len() > 2);
        if secret_name(name.trim_start_matches('-')) {
            if b.get(end) == Some(&b'=') {
                let (s, e) = value_end(b, quotes, end + 1);
                if e > s {
                    spans.push((s, e));
                }
            } else if is_flag && b.get(end).is_some_and(|c| *c == b' ') {
                let mut p = end;
                while p < b.len() && b[p] == b' ' {
                    p += 1;
                }
                // `--token -` or a following flag is not a value.
                if p < b.len() && b[p] != b'-' {
                    let (s, e) = value_end(b, quotes, p);
                    if e > s {
                        spans.push((s, e));
                    }
                }
            }
        }
        i = end.max(i + 1);
    }
}

fn url_credentials(b: &[u8], spans: &mut Vec<(usize, usize)>) {
    let mut from = 0;
    while let Some(k) = find(&b[from..], b"://") {
        let auth = from + k + 3;
        let end = (auth..b.len()).find(|&j| b"/?# \t\n'\"".contains(&b[j])).unwrap_or(b.len());
        if let Some(at) = (auth..end).rev().find(|&j| b[j] == b'@') {
            let colon = (auth..at).find(|&j| b[j] == b':');
            spans.push((colon.map_or(auth, |c| c + 1), at));
        }
        from = auth;
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Replaces the (merged) spans with the mask; spans never split a UTF-8 character
/// because every boundary found above is an ASCII byte or the end.
fn apply(s: &str, mut spans: Vec<(usize, usize)>) -> String {
    spans.retain(|&(a, e)| e > a && s.is_char_boundary(a) && s.is_char_boundary(e));
    spans.sort();
    let mut out = String::with_capacity(s.len());
    let mut at = 0;
    for (a, e) in spans {
        if e <= at {
            continue;
        }
        let a = a.max(at);
        out.push_str(&s[at..a]);
        out.push_str(MASK);
        at = e;
    }
    out.push_str(&s[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::redact;

    #[track_caller]
    fn check(input: &str, want: &str) {
        let got = redact(input);
        assert_eq!(got, want, "redact({input:?})");
        assert_eq!(redact(&got), got, "redact is not idempotent on {input:?}");
    }

    /// The one table: what the hook log and the importers both promise.
    #[test]
    fn masks_secrets_and_keeps_the_shape() {
        check("ls -la", "ls -la");
        check("curl -H 'Authorization: Bearer abc.def' https://x", "curl -H 'Authorization: Bearer [REDACTED]' https://x");
        check("curl -H \"Authorization: token abc\" x", "curl -H \"Authorization: token [REDACTED]\" x");
        check("GITHUB_TOKEN=abc123 gh pr list", "GITHUB_TOKEN=[REDACTED] gh pr list");
        check("export AWS_SECRET_ACCESS_KEY=\"xyz\"", "export AWS_SECRET_ACCESS_KEY=\"[REDACTED]\"");
        check("mysql --password=hunter2 db", "mysql --password=[REDACTED] db");
        check("tool --token abc --verbose", "tool --token [REDACTED] --verbose");
        check("git clone https://bob:pw@github.com/x/y", "git clone https://bob:[REDACTED]@github.com/x/y");
        check("echo ghp_abcdefghijklmnopqrstuvwxyz0123", "echo [REDACTED]");
        check("aws --profile AKIAABCDEFGHIJKLMNOP s3 ls", "aws --profile [REDACTED] s3 ls");
        check("curl -b 'session=x' --cookie abc https://h", "curl -b 'session=x' --cookie [REDACTED] https://h");
        check("DB_PWD=hunter2 ./migrate", "DB_PWD=[REDACTED] ./migrate");
    }

    /// Decided once: the working directory and authors are not secrets.
    #[test]
    fn keeps_what_is_not_secret() {
        for c in ["PATH=/usr/bin make", "git commit -m 'fix: sk-lite'", "cd $PWD && PWD=/tmp make", "git log --author=alice", "OLDPWD=/x ls"] {
            check(c, c);
        }
    }

    // Moved from the history importers' tests: the same assertions, one table.
    #[test]
    fn redact_masks_token_shapes() {
        check("git clone https://x/ghp_0123456789abcdefghijABCDEFGHIJ", "git clone https://x/[REDACTED]");
        check("export OPENAI=sk-proj-abcdefghijklmnopqrstuvwxyz", "export OPENAI=[REDACTED]");
        check("aws --access AKIAIOSFODNN7EXAMPLE s3 ls", "aws --access [REDACTED] s3 ls");
        check("slack xoxb-1234567890-abcdefghij post", "slack [REDACTED] post");
        check("curl -d t=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig_nature-1 https://h", "curl -d t=[REDACTED] https://h");
        check("echo glpat-abcdefghij0123456789", "echo [REDACTED]");
    }

    #[test]
    fn redact_masks_headers_assignments_flags_and_url_credentials() {
        check("curl -H 'Authorization: Bearer abc.def' https://api", "curl -H 'Authorization: Bearer [REDACTED]' https://api");
        check("curl -H \"X-Api-Key: s3cr3t\" -H 'Accept: json' https://api", "curl -H \"X-Api-Key: [REDACTED]\" -H 'Accept: json' https://api");
        check("curl -H 'Authorization: s3cr3t' x", "curl -H 'Authorization: [REDACTED]' x");
        check("API_KEY=abc123 GITHUB_TOKEN=\"t o k\" ./run", "API_KEY=[REDACTED] GITHUB_TOKEN=\"[REDACTED]\" ./run");
        check("export DB_PASSWORD='hunter2'; psql", "export DB_PASSWORD='[REDACTED]'; psql");
        check("mysql --password hunter2 -u root", "mysql --password [REDACTED] -u root");
        check("vault login --token=abc", "vault login --token=[REDACTED]");
        check("git clone https://user:pa55@github.com/o/r.git", "git clone https://user:[REDACTED]@github.com/o/r.git");
        check("git clone https://tok@github.com/o/r", "git clone https://[REDACTED]@github.com/o/r");
    }

    #[test]
    fn redact_leaves_ordinary_commands_alone() {
        for c in [
            "git commit -m 'auth: fix login'", "ls -la ~/.ssh", "cd $PWD && PWD=/tmp make", "kubectl get pods -n prod", "git log --author=alice",
            "TOKEN_FILE=/run/secrets/t ./run", "pip install scikit-learn", "curl https://example.com:8443/path", "echo 你好",
        ] {
            check(c, c);
        }
    }
}
