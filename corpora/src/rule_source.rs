//! Reading the rule sources as text: the files under `classifier/src/rules/`, each
//! file's scope (its dotted module path), and its `words![…]` tables with the byte
//! span of every entry. The table mutants (`mutation`) read the binary's dump for
//! which tables exist and what they hold, and this only to place each edit in the
//! source; nothing here compiles or links the classifier.

use std::path::Path;

use regex::Regex;

/// Where the rule sources live, from the project root.
pub const RULES_DIR: &str = "classifier/src/rules";

/// The rule sources of the work tree, sorted.
pub fn work_tree_sources(root: &Path) -> Result<Vec<(String, String)>, String> {
    let mut files = Vec::new();
    let mut stack = vec![root.join(RULES_DIR)];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))? {
            let p = e.map_err(|e| e.to_string())?.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let rel = p.strip_prefix(root).unwrap_or(&p).to_string_lossy().replace('\\', "/");
                files.push((rel, std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?));
            }
        }
    }
    files.sort();
    Ok(files)
}

/// A rule source's scope: its path under `rules/` as a dotted module path
/// (`classifier/src/rules/git/mod.rs` → `git`, `…/git/push.rs` → `git.push`).
pub fn scope_of(file: &str) -> String {
    let rel = file.strip_prefix(RULES_DIR).unwrap_or(file).trim_start_matches('/').trim_end_matches(".rs");
    rel.trim_end_matches("/mod").replace('/', ".")
}

/// The index just past the `)` matching the `(` at `open`, skipping strings and chars.
pub fn close_paren(src: &str, open: usize, open_ch: u8, close_ch: u8) -> Option<usize> {
    let b = src.as_bytes();
    let mut depth = 0usize;
    let mut i = open;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            c if c == open_ch => depth += 1,
            c if c == close_ch => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// A table (`words![…]`, or a `&[&str]` slice): its name, the byte offset of its opening `[`, and the (start, end) byte span of each string literal.
pub type Table = (String, usize, Vec<(usize, usize)>);

/// Tables in `src`: `table! { NAME = […]; … }` (classifier/src/table.rs), `const X:
/// Words = words![…]` (and the older `&[&str]` spelling).
pub fn tables(src: &str) -> Vec<Table> {
    let re = Regex::new(
        r"(?:(?:static|const)\s+([A-Z][A-Z0-9_]*)\s*:\s*(?:&\[&str\]\s*=\s*&|Words\s*=\s*words!)|table!\s*\{(?:\s*///[^\n]*)*\s*(?:pub(?:\([a-z]+\))?\s+)?([A-Z][A-Z0-9_]*)\s*=\s*)\[",
    )
    .expect("table regex");
    let mut out = Vec::new();
    for c in re.captures_iter(src) {
        let whole = c.get(0).expect("match");
        let open = whole.end() - 1;
        let Some(close) = close_paren(src, open, b'[', b']') else { continue };
        let body = &src[open + 1..close - 1];
        let mut entries = Vec::new();
        let b = body.as_bytes();
        let mut i = 0;
        let mut raw = false;
        while i < b.len() {
            match b[i] {
                // A raw string literal (`r"…"`, `r#"…"#`) starts here, outside any string:
                // not scanned, and the table is left alone. (An entry that merely ends in
                // `r`, such as `"tldr"`, is inside a string and never gets here.)
                b'r' if matches!(b.get(i + 1), Some(b'"' | b'#')) && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) => {
                    raw = true;
                    break;
                }
                b'"' => {
                    let s = i;
                    i += 1;
                    while i < b.len() && b[i] != b'"' {
                        i += if b[i] == b'\\' { 2 } else { 1 };
                    }
                    entries.push((open + 1 + s, open + 1 + i + 1));
                }
                b'/' if b.get(i + 1) == Some(&b'/') => {
                    while i < b.len() && b[i] != b'\n' {
                        i += 1;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        if !raw {
            out.push((c.get(1).or(c.get(2)).expect("a name").as_str().to_owned(), open, entries));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_ending_in_r_is_scanned_and_a_raw_string_table_is_not() {
        let src = "const READ_X: &[&str] = &[\"tldr\", \"--mirror\", \"a\"];\nconst READ_Y: &[&str] = &[r\"raw\", \"b\"];\n";
        let t = tables(src);
        assert_eq!(t.len(), 1, "the raw-string table is skipped, the other kept: {t:?}");
        assert_eq!(t[0].0, "READ_X");
        let words: Vec<&str> = t[0].2.iter().map(|&(s, e)| &src[s..e]).collect();
        assert_eq!(words, ["\"tldr\"", "\"--mirror\"", "\"a\""]);
    }

    #[test]
    fn a_table_macro_is_read_with_its_doc_comment() {
        let src = "crate::table! {\n    /// Verbs.\n    /// More.\n    pub(crate) MUTATIVE_VERBS = [\"land\", \"tag\"];\n    probe \"git {}\" => T3;\n}\ncrate::table! { X = [\"a\"]; }\n";
        let t = tables(src);
        let names: Vec<&str> = t.iter().map(|t| t.0.as_str()).collect();
        assert_eq!(names, ["MUTATIVE_VERBS", "X"]);
        let words: Vec<&str> = t[0].2.iter().map(|&(s, e)| &src[s..e]).collect();
        assert_eq!(words, ["\"land\"", "\"tag\""], "the probe's template is not an entry");
    }
}
