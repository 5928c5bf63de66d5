//! Protected paths for the Write / Edit / MultiEdit / NotebookEdit tools: the
//! hooks and settings under `.claude/`, `~/.claude.json`, tiergate's own config files, database and
//! binary, and the config's extra `protected_paths`.
//!
//! Paths are resolved against the event's cwd and normalised lexically (`..`,
//! `.`), and also through the file system when they exist (symlinks), and both
//! forms are checked; `.claude`, `hooks` and `settings*.json` match in any case.
//! It does not look at Bash commands (the classifier's paths family does that).

use std::path::{Component, Path, PathBuf};

/// What the hook protects besides the fixed `.claude` rules.
pub struct Protected {
    /// Exact files: config files, the binary.
    pub files: Vec<PathBuf>,
    /// Directory prefixes: the data directory.
    pub dirs: Vec<PathBuf>,
    /// Extra patterns from the config (already `~`- and cwd-expanded).
    pub patterns: Vec<String>,
}

/// `Some(reason)` when writing `path` must be denied.
pub fn check(path: &Path, prot: &Protected) -> Option<String> {
    let lexical = normalise(path);
    let real = resolve_existing(&lexical);
    for p in std::iter::once(&lexical).chain(real.as_ref().filter(|r| **r != lexical)) {
        if let Some(why) = claude_rule(p) {
            return Some(format!("{} is {why}; an agent must not change its own guard rails", p.display()));
        }
        for f in &prot.files {
            if p == f {
                return Some(format!("{} is tiergate's own config or binary; edit it yourself", p.display()));
            }
        }
        for d in &prot.dirs {
            if p.starts_with(d) {
                return Some(format!("{} is inside tiergate's data directory {}", p.display(), d.display()));
            }
        }
        let text = p.to_string_lossy();
        for pat in &prot.patterns {
            if matches_pattern(pat, &text) {
                return Some(format!("{} matches protected_paths entry {pat:?} in tiergate.toml", p.display()));
            }
        }
    }
    None
}

fn claude_rule(p: &Path) -> Option<&'static str> {
    let parts: Vec<String> = p.components().map(|c| c.as_os_str().to_string_lossy().to_lowercase()).collect();
    let name = parts.last()?;
    // `~/.claude.json` holds Claude Code's per-project state, allowed tools included.
    if name == ".claude.json" {
        return Some("Claude Code's user config");
    }
    let claude = parts.iter().position(|c| c == ".claude")?;
    if name.starts_with("settings") && name.ends_with(".json") {
        return Some("a Claude Code settings file");
    }
    let under = &parts[claude + 1..parts.len().saturating_sub(1)];
    if under.iter().any(|c| c == "hooks") && !name.ends_with(".md") {
        return Some("a Claude Code hook");
    }
    None
}

/// Absolute, with `.` and `..` removed lexically (`..` at the root stays at the root).
pub fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// Resolves symlinks for the longest existing ancestor and re-appends the rest.
fn resolve_existing(p: &Path) -> Option<PathBuf> {
    let mut base = p.to_path_buf();
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = base.canonicalize() {
            let mut out = real;
            out.extend(rest.iter().rev());
            return Some(out);
        }
        rest.push(base.file_name()?.to_owned());
        if !base.pop() {
            return None;
        }
    }
}

/// Expands `~/` and makes a relative pattern relative to `cwd`.
pub fn expand_pattern(pat: &str, home: Option<&str>, cwd: Option<&Path>) -> String {
    if let (Some(rest), Some(h)) = (pat.strip_prefix("~/"), home) {
        return format!("{}/{rest}", h.trim_end_matches('/'));
    }
    match cwd {
        Some(c) if !pat.starts_with('/') => format!("{}/{pat}", c.display()),
        _ => pat.to_owned(),
    }
}

/// A pattern without `*` is a prefix (the path itself or anything under it);
/// with `*` it is a glob: `*` within one component, `**` across components.
pub fn matches_pattern(pat: &str, path: &str) -> bool {
    let pat = pat.trim_end_matches('/');
    if !pat.contains('*') {
        return path == pat || path.strip_prefix(pat).is_some_and(|r| r.starts_with('/'));
    }
    let p: Vec<&str> = pat.split('/').collect();
    let s: Vec<&str> = path.split('/').collect();
    glob(&p, &s)
}

fn glob(p: &[&str], s: &[&str]) -> bool {
    match p.split_first() {
        None => s.is_empty(),
        Some((&"**", rest)) => (0..=s.len()).any(|i| glob(rest, &s[i..])),
        Some((first, rest)) => s.split_first().is_some_and(|(h, t)| component(first, h) && glob(rest, t)),
    }
}

fn component(p: &str, s: &str) -> bool {
    match p.split_once('*') {
        None => p == s,
        Some((pre, post)) => s.len() >= pre.len() && s.starts_with(pre) && component_tail(post, &s[pre.len()..]),
    }
}

fn component_tail(p: &str, s: &str) -> bool {
    // `p` is what follows a `*`: try every split point for the star.
    (0..=s.len()).filter(|&i| s.is_char_boundary(i)).any(|i| component(p, &s[i..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn none() -> Protected {
        Protected { files: vec![], dirs: vec![], patterns: vec![] }
    }

    #[test]
    fn claude_paths() {
        let deny = |p: &str| check(Path::new(p), &none()).is_some();
        assert!(deny("/w/.claude/settings.json"));
        assert!(deny("/w/.claude/settings.local.json"));
        assert!(deny("/w/.claude/x/settings-foo.json"));
        assert!(deny("/w/.Claude/Hooks/pre.py"));
        assert!(deny("/w/.claude/hooks/sub/x.sh"));
        assert!(deny("/w/a/../.claude/hooks/x.sh"));
        assert!(deny("/home/u/.claude.json"));
        assert!(!deny("/w/.claude/hooks/README.md"));
        assert!(!deny("/w/.claude/agents/x.md"));
        assert!(!deny("/w/src/settings.json"));
        assert!(!deny("/w/hooks/x.sh"));
    }

    #[test]
    fn patterns() {
        assert!(matches_pattern("/etc/tiergate", "/etc/tiergate/x"));
        assert!(!matches_pattern("/etc/tiergate", "/etc/tiergatex"));
        assert!(matches_pattern("/w/**/*.pem", "/w/a/b/k.pem"));
        assert!(matches_pattern("/w/**/*.pem", "/w/k.pem"));
        assert!(!matches_pattern("/w/*.pem", "/w/a/k.pem"));
        assert_eq!(expand_pattern("~/s/**", Some("/h"), None), "/h/s/**");
        assert_eq!(expand_pattern("secrets", None, Some(Path::new("/w"))), "/w/secrets");
    }
}
