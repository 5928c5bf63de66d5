//! Masks secrets in a command before it is written to the audit log or a pending
//! code: `Authorization:` header values, `NAME=value` for secret-looking names,
//! `--token`/`--password`-style option values, URL credentials and well-known
//! token shapes (`ghp_…`, `sk-…`, `AKIA…`, `xox?-…`, `glpat-…`).
//!
//! It works on whitespace-separated words, not on a parsed command: it may mask a
//! little too much, and it does not promise to find every secret (full text is
//! opt-in exactly because redaction is best effort).

const MASK: &str = "***";

/// Name fragments that make `NAME=value` or `--name value` a secret.
const SECRET_NAMES: &[&str] = &["token", "secret", "passw", "pwd", "apikey", "api_key", "api-key", "auth", "credential", "private", "cookie", "session"];

/// Prefixes of well-known credential formats.
const TOKEN_PREFIXES: &[&str] = &["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "sk-", "xoxb-", "xoxp-", "xoxa-", "glpat-", "AKIA", "ASIA", "npm_"];

pub fn redact(command: &str) -> String {
    let mut out = String::with_capacity(command.len());
    // Words left to mask after `Authorization:` or `--password`: the header value
    // may be `Bearer abc` (two words); stop early at a word closing the quote.
    let mut mask_next = 0u8;
    let mut rest = command;
    while !rest.is_empty() {
        let ws = rest.len() - rest.trim_start().len();
        out.push_str(&rest[..ws]);
        rest = &rest[ws..];
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let word = &rest[..end];
        rest = &rest[end..];
        if word.is_empty() {
            continue;
        }
        if mask_next > 0 {
            mask_next -= 1;
            let closes = word.ends_with(['"', '\'']);
            // A second masked word joins the first mask: `Bearer abc` → one `***`.
            if out.trim_end().ends_with(MASK) {
                out.truncate(out.trim_end().len());
            } else {
                out.push_str(MASK);
            }
            if closes {
                out.push(word.chars().last().unwrap_or('"'));
                mask_next = 0;
            } else if !matches!(word.to_ascii_lowercase().trim_matches(['"', '\'']), "bearer" | "basic" | "token") {
                mask_next = 0;
            }
            continue;
        }
        let (masked, then) = redact_word(word);
        out.push_str(&masked);
        mask_next = then;
    }
    out
}

/// Masks one word; the second value says how many following words to mask.
fn redact_word(word: &str) -> (String, u8) {
    let bare = word.trim_start_matches(['"', '\'']);
    let lower = bare.to_ascii_lowercase();
    if lower.ends_with("authorization:") || lower.ends_with("cookie:") || lower.ends_with("x-api-key:") {
        return (word.to_owned(), 2);
    }
    if let Some(header) = header_value(word) {
        return (header, 0);
    }
    if let Some(flag) = lower.strip_prefix("--").or_else(|| lower.strip_prefix('-')) {
        if let Some((name, _)) = flag.split_once('=') {
            if is_secret_name(name) {
                let keep = word.len() - bare.len() + 1 + (bare.len() - bare.trim_start_matches('-').len()) + name.len();
                return (format!("{}{MASK}", &word[..keep]), 0);
            }
        } else if flag.len() > 1 && is_secret_name(flag) {
            return (word.to_owned(), 1);
        }
    }
    if let Some((name, _)) = bare.split_once('=') {
        if !name.is_empty() && !name.contains('/') && is_secret_name(name) {
            let keep = word.len() - bare.len() + name.len() + 1;
            return (format!("{}{MASK}", &word[..keep]), 0);
        }
    }
    (mask_tokens(&mask_url_credentials(word)), 0)
}

/// `"Authorization:Bearer abc"` written as one word.
fn header_value(word: &str) -> Option<String> {
    let lower = word.to_ascii_lowercase();
    let at = lower.find("authorization:")?;
    let keep = at + "authorization:".len();
    if keep == word.len() {
        return None;
    }
    let close = if word.ends_with(['"', '\'']) { &word[word.len() - 1..] } else { "" };
    Some(format!("{}{MASK}{close}", &word[..keep]))
}

fn is_secret_name(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    SECRET_NAMES.iter().any(|s| n.contains(s)) || n == "key" || n.ends_with("_key") || n.ends_with("-key")
}

/// `https://user:pass@host/…` → `https://***@host/…`.
fn mask_url_credentials(word: &str) -> String {
    let Some(scheme_end) = word.find("://") else { return word.to_owned() };
    let after = &word[scheme_end + 3..];
    let host_end = after.find(['/', '?', '#']).unwrap_or(after.len());
    match after[..host_end].rfind('@') {
        Some(at) => format!("{}{MASK}{}", &word[..scheme_end + 3], &after[at..]),
        None => word.to_owned(),
    }
}

/// Masks a run that starts with a known token prefix, up to the next separator.
fn mask_tokens(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    let mut i = 0;
    while i < word.len() {
        let tail = &word[i..];
        let boundary = i == 0 || !word[..i].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if boundary {
            if let Some(p) = TOKEN_PREFIXES.iter().find(|p| tail.starts_with(**p)) {
                let len = tail.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-')).unwrap_or(tail.len());
                if len >= p.len() + 8 {
                    out.push_str(MASK);
                    i += len;
                    continue;
                }
            }
        }
        let ch = tail.chars().next().unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::redact;

    #[track_caller]
    fn check(input: &str, expect: &str) {
        assert_eq!(redact(input), expect, "redacting {input:?}");
    }

    #[test]
    fn masks_secrets_and_keeps_the_shape() {
        check("ls -la", "ls -la");
        check("curl -H 'Authorization: Bearer abc.def' https://x", "curl -H 'Authorization: ***' https://x");
        check("curl -H \"Authorization: token abc\" x", "curl -H \"Authorization: ***\" x");
        check("curl -H Authorization:Bearer-abc x", "curl -H Authorization:*** x");
        check("GITHUB_TOKEN=abc123 gh pr list", "GITHUB_TOKEN=*** gh pr list");
        check("export AWS_SECRET_ACCESS_KEY=\"xyz\"", "export AWS_SECRET_ACCESS_KEY=***");
        check("mysql --password=hunter2 db", "mysql --password=*** db");
        check("tool --token abc --verbose", "tool --token *** --verbose");
        check("git clone https://bob:pw@github.com/x/y", "git clone https://***@github.com/x/y");
        check("echo ghp_abcdefghijklmnopqrstuvwxyz0123", "echo ***");
        check("aws --profile AKIAABCDEFGHIJKLMNOP s3 ls", "aws --profile *** s3 ls");
        check("PATH=/usr/bin make", "PATH=/usr/bin make");
        check("git commit -m 'fix: sk-lite'", "git commit -m 'fix: sk-lite'");
    }
}
