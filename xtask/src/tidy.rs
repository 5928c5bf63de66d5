//! Repository checks that run as tests (rust-analyzer's tidy): file-length cap,
//! module docs, no panics in the hook path (library purity is the compiler's:
//! `classifier/clippy.toml`, denied in `lib.rs`, run by CI's clippy), rule doc sections,
//! no hidden tests. Each check is a pure function over file text so a seeded
//! violation can prove it fails.

use std::path::{Path, PathBuf};

/// Longest a source file may grow.
pub const MAX_LINES: usize = 600;

/// Most lines `xtask/src` may hold: xtask is argument parsing and a call into a
/// library crate (STYLE.md §3); a task's logic belongs beside `replay`.
pub const MAX_XTASK_LINES: usize = 2_500;

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

/// How a rule family reads options by hand: a dash test on a word, a `--` compared
/// by hand, or an option's value taken by hand (the next word, `args.get(i + 1)`, or
/// the text after a literal long option, `strip_prefix("--exec=")`). Option words,
/// values, operands and `--` are the argument layer's (`classifier/src/call/args.rs`):
/// declare an `ArgSpec` and read its tokens.
const HAND_READINGS: &[&str] = &[
    "starts_with('-')", "starts_with(\"-\")", "starts_with(\"--\")", "strip_prefix('-')", "strip_prefix(\"-\")", "strip_prefix(\"--", "is_flag()", "== \"--\"",
    "!= \"--\"", "args.get(i + 1)",
];

/// The readings in a rule family that are not option parsing, each counted and
/// with its reason. A file may hold at most its count; a new reading fails tidy.
pub const HAND_READING_ALLOWED: &[(&str, usize, &str)] = &[
    (
        "classifier/src/rules/coreutils/find.rs",
        2,
        "find's expression primaries (`-name`, `-exec CMD ;`, `-fprint FILE`, `(`) are single-dash words of its own grammar, each with its own arity, read as an expression, not as options",
    ),
    ("classifier/src/rules/exec/implicit.rs", 5, "an unmodelled program's argv has no spec: a word's neighbours (a preceding `--long`, a `--`) are the only hint whether it is an option's value or the command a runner is handed"),
    ("classifier/src/rules/exec/options.rs", 12, "the exec option table scans every word of any program against one cross-program table: there is no per-program spec to parse with, so each word is tried as a table option (through the layer's split_option and long_prefix), expand_abbreviation deliberately reads a `--prefix` as the dangerous option it could mean, an output option does not take a following option word as its path, and an option found by its name's shape takes the next word as its value only when it is no option and comes after no read subcommand"),
    ("classifier/src/rules/exec/values.rs", 2, "names_a_command judges an option word's name by its shape (`--gpu-launcher`, gcc's single-dash `-wrapper`) for programs that have no spec"),
    (
        "classifier/src/rules/coreutils/archive.rs",
        2,
        "zip's own parser takes the two-letter option `-TT` with its value attached (`-TTcmd`, `-TT=cmd`) or after other letters (`-qTT cmd`), a grammar the argument layer's readings do not have",
    ),
    (
        "classifier/src/rules/interp/others.rs",
        2,
        "PowerShell's parameters are case-insensitive single-dash words (`-Command`, `-ep`), a grammar the argument layer does not read",
    ),
    (
        "classifier/src/rules/system/process.rs",
        1,
        "`watchman -- trigger ROOT NAME PATTERNS -- CMD`: the second `--` is an operand of the trigger's own grammar (the first already ended watchman's options), and marks where the command it registers starts",
    ),
    ("classifier/src/rules/interp/pwsh.rs", 3, "reads PowerShell statement words inside code (`Remove-Item -Recurse`), not a program's argv"),
];

/// The hand readings of options in one file of `classifier/src/rules` (test modules excluded).
pub fn hand_readings(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        // The test module ends the scan; a `#[cfg(test)]` item elsewhere does not.
        if line.trim() == "#[cfg(test)]" && lines.get(i + 1).is_some_and(|l| l.trim_start().starts_with("mod ")) {
            break;
        }
        let code = line.split("//").next().unwrap_or("");
        for pattern in HAND_READINGS {
            out.extend(std::iter::repeat_n((i + 1, line.trim()), code.matches(pattern).count()));
        }
    }
    out
}

pub fn check_option_readings(rel: &str, text: &str) -> Vec<String> {
    let found = hand_readings(text);
    let allowed = HAND_READING_ALLOWED.iter().find(|(f, _, _)| *f == rel).map_or(0, |(_, n, _)| *n);
    if found.len() > allowed {
        return found
            .iter()
            .map(|(line, code)| {
                format!("{rel}:{line}: reads options by hand (`{code}`); declare an ArgSpec and read it with call::args (allowed here: {allowed})")
            })
            .collect();
    }
    if found.len() < allowed {
        return vec![format!("{rel}: {} hand readings, the allowlist says {allowed}; lower HAND_READING_ALLOWED", found.len())];
    }
    Vec::new()
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

/// The workspace's member folders, from the root `Cargo.toml` (`members = [...]`),
/// so a new crate is checked without being listed here too. A nested member
/// (`classifier/tiergate`) is scanned with its parent.
fn workspace_members(root: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(root.join("Cargo.toml")).unwrap_or_default();
    let list = text.split_once("members = [").and_then(|(_, rest)| rest.split_once(']')).map_or("", |(l, _)| l);
    let all: Vec<String> = list.split(',').map(|m| m.trim().trim_matches('"').to_owned()).filter(|m| !m.is_empty()).collect();
    all.iter().filter(|m| !all.iter().any(|p| m.starts_with(&format!("{p}/")))).cloned().collect()
}

/// Runs every check over the repository; returns the problems and the file count.
pub fn run() -> (Vec<String>, usize) {
    let root = project_root();
    let mut problems = Vec::new();
    let mut files = 0;
    let rule_folders: Vec<String> = std::fs::read_dir(root.join("classifier/src/rules"))
        .map(|d| d.filter_map(Result::ok).filter(|e| e.path().is_dir()).map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    if rule_folders.len() < 10 {
        problems.push(format!("classifier/src/rules: {} folders found; is the project root right?", rule_folders.len()));
    }
    for krate in workspace_members(&root) {
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
            if rel.starts_with("classifier/src/rules/") {
                problems.extend(check_option_readings(&rel, &text));
            }
            problems.extend(crate::tidy_layers::check_stdin_readings(&rel, &text));
            problems.extend(crate::tidy_layers::check_family_imports(&rel, &text, &rule_folders));
            problems.extend(crate::tidy_layers::check_help_readings(&rel, &text));
            if rel.starts_with("classifier/tiergate/src/hook") || rel == "classifier/tiergate/src/batch.rs" {
                problems.extend(check_no_panics(&rel, &text));
            }
        }
    }
    let xtask_lines: usize = rust_files(&root.join("xtask/src")).iter().filter_map(|p| std::fs::read_to_string(p).ok()).map(|t| t.lines().count()).sum();
    problems.extend(check_xtask_is_thin(xtask_lines));
    (problems, files)
}

pub fn check_xtask_is_thin(lines: usize) -> Option<String> {
    (lines > MAX_XTASK_LINES).then(|| {
        format!(
            "xtask/src: {lines} lines (cap {MAX_XTASK_LINES}); xtask parses arguments and calls a library: move the task's logic into a crate beside replay"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repository_is_tidy() {
        let (problems, files) = run();
        assert!(files > 20, "tidy scanned only {files} files; is the project root right?");
        assert!(check_xtask_is_thin(MAX_XTASK_LINES).is_none() && check_xtask_is_thin(MAX_XTASK_LINES + 1).is_some());
        let members = workspace_members(&project_root());
        assert!(members.iter().any(|m| m == "classifier") && members.iter().any(|m| m == "mutation"), "{members:?}");
        assert!(!members.iter().any(|m| m == "classifier/tiergate"), "a nested member is scanned with its parent: {members:?}");
        assert!(problems.is_empty(), "tidy found {} problems:\n{}", problems.len(), problems.join("\n"));
    }

    #[test]
    fn seeded_violations_are_caught() {
        assert!(check_length("x.rs", &"a\n".repeat(MAX_LINES + 1)).is_some());
        assert!(check_module_doc("x.rs", "use std::fs;\n").is_some());
        assert_eq!(check_no_panics("x.rs", "let x = y.unwrap();\n").len(), 1);
        assert_eq!(check_rule_docs("x.rs", "/// ## What it matches\npub static R: Rule = Rule::t3(\"a.b\");\n").len(), 1);
        // A reintroduced ad-hoc option loop in a rule family.
        let ad_hoc = "while i < args.len() {\n    if args[i].text.starts_with('-') { i += 2; continue; }\n    if args[i].text == \"--\" { break; }\n}\n";
        assert_eq!(check_option_readings("classifier/src/rules/x/y.rs", ad_hoc).len(), 2);
        let by_hand = "let v = if a.text == \"-x\" { args.get(i + 1) } else { a.text.strip_prefix(\"--exec=\") };\n";
        assert_eq!(check_option_readings("classifier/src/rules/x/y.rs", by_hand).len(), 2);
        assert!(check_option_readings("classifier/src/rules/x/y.rs", "let a = Args::parse(&inv.args, SPEC);\n").is_empty());
        let bad = ["#[", "ignore]\nfn t() {}\n"].concat();
        assert_eq!(check_hidden_tests("x.rs", &bad).len(), 1);
    }
}
