//! Repository checks that run as tests (rust-analyzer's tidy): file-length cap,
//! module docs, no panics in the hook path (library purity is the compiler's:
//! `classifier/clippy.toml`, denied in `lib.rs`, run by CI's clippy), rule doc sections,
//! no hidden tests. Each check is a pure function over file text so a seeded
//! violation can prove it fails.

use std::path::{Path, PathBuf};

/// Longest a source file may grow.
pub const MAX_LINES: usize = 600;

/// Files allowed past the cap, each with its reason.
const LONG_FILE_EXCEPTIONS: &[(&str, &str)] = &[];

pub fn project_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("."))
}

/// Every `.rs` file under `dir`, sorted.
pub fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

pub fn check_length(rel: &str, text: &str) -> Option<String> {
    let n = text.lines().count();
    (n > MAX_LINES && !LONG_FILE_EXCEPTIONS.iter().any(|(f, _)| *f == rel)).then(|| format!("{rel}: {n} lines (cap {MAX_LINES}); split it by concern"))
}

pub fn check_module_doc(rel: &str, text: &str) -> Option<String> {
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    (!first.starts_with("//!")).then(|| format!("{rel}: starts without a `//!` module doc saying what it does and does not do"))
}

pub fn check_no_panics(rel: &str, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.contains("#[cfg(test)]") {
            break;
        }
        let code = line.split("//").next().unwrap_or("");
        if code.contains(".unwrap()") || code.contains(".expect(") {
            out.push(format!("{rel}:{}: unwrap/expect in the hook path; a panic exits non-zero and fails open", i + 1));
        }
    }
    out
}

pub fn check_rule_docs(rel: &str, text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim_start();
        if !(t.starts_with("pub static ") || t.starts_with("pub(crate) static ") || t.starts_with("pub(super) static ") || t.starts_with("static "))
            || !t.contains(": Rule = Rule::")
        {
            continue;
        }
        let mut doc = String::new();
        for prev in lines[..i].iter().rev() {
            let p = prev.trim_start();
            if let Some(d) = p.strip_prefix("///") {
                doc.push_str(d);
                doc.push('\n');
            } else if p.starts_with("#[") {
                continue;
            } else {
                break;
            }
        }
        for section in ["## What it matches", "## Why this tier"] {
            if !doc.contains(section) {
                out.push(format!("{rel}:{}: rule doc lacks `{section}`", i + 1));
            }
        }
    }
    out
}

pub fn check_hidden_tests(rel: &str, text: &str) -> Vec<String> {
    let ignore = ["#[", "ignore]"].concat();
    let should_panic = ["#[", "should_panic"].concat();
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.contains(&ignore) || l.contains(&should_panic))
        .map(|(i, _)| format!("{rel}:{}: ignored or should-panic test; assert today's behaviour instead", i + 1))
        .collect()
}

/// Runs every check over the repository; returns the problems and the file count.
pub fn run() -> (Vec<String>, usize) {
    let root = project_root();
    let mut problems = Vec::new();
    let mut files = 0;
    for krate in ["classifier", "replay", "xtask"] {
        for path in rust_files(&root.join(krate)) {
            let rel = path.strip_prefix(&root).unwrap_or(&path).to_string_lossy().replace('\\', "/");
            let Ok(text) = std::fs::read_to_string(&path) else {
                problems.push(format!("{rel}: unreadable"));
                continue;
            };
            files += 1;
            problems.extend(check_length(&rel, &text));
            problems.extend(check_hidden_tests(&rel, &text));
            let is_src = rel.contains("/src/");
            if is_src {
                problems.extend(check_module_doc(&rel, &text));
            }
            if rel.starts_with("classifier/src/") {
                problems.extend(check_rule_docs(&rel, &text));
            }
            if rel.starts_with("classifier/tiergate/src/hook") || rel == "classifier/tiergate/src/batch.rs" {
                problems.extend(check_no_panics(&rel, &text));
            }
        }
    }
    (problems, files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repository_is_tidy() {
        let (problems, files) = run();
        assert!(files > 20, "tidy scanned only {files} files; is the project root right?");
        assert!(problems.is_empty(), "tidy found {} problems:\n{}", problems.len(), problems.join("\n"));
    }

    #[test]
    fn seeded_violations_are_caught() {
        assert!(check_length("x.rs", &"a\n".repeat(MAX_LINES + 1)).is_some());
        assert!(check_module_doc("x.rs", "use std::fs;\n").is_some());
        assert_eq!(check_no_panics("x.rs", "let x = y.unwrap();\n").len(), 1);
        assert_eq!(check_rule_docs("x.rs", "/// ## What it matches\npub static R: Rule = Rule::t3(\"a.b\");\n").len(), 1);
        let bad = ["#[", "ignore]\nfn t() {}\n"].concat();
        assert_eq!(check_hidden_tests("x.rs", &bad).len(), 1);
    }
}
