//! `--in-diff REV`: the mutants of what a change touched. The diff is `git diff
//! REV..COMMIT` of the committed tree; cargo-mutants reads it for the code population
//! (`--in-diff FILE`), and the table mutants are kept when their lines overlap a
//! line the change added or rewrote (this module). Lines only deleted touch no
//! mutant: what is gone cannot be mutated.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::mutant::Mutant;

/// The diff of `base..commit`, written to `target/mutants/in-diff.patch` for
/// cargo-mutants; returns its path and text.
pub fn write(root: &Path, base: &str, commit: &str) -> Result<(PathBuf, String), String> {
    let text = replay::git::git(root, &["diff", "--no-color", "--no-ext-diff", "-U0", &format!("{base}..{commit}")])?;
    let path = root.join("target").join("mutants").join("in-diff.patch");
    std::fs::create_dir_all(path.parent().unwrap_or(root)).map_err(|e| e.to_string())?;
    std::fs::write(&path, &text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((path, text))
}

/// New-side line ranges (1-based, inclusive) each file's hunks added or rewrote.
pub fn touched(diff: &str) -> BTreeMap<String, Vec<(usize, usize)>> {
    let mut out: BTreeMap<String, Vec<(usize, usize)>> = BTreeMap::new();
    let mut file: Option<String> = None;
    for line in diff.lines() {
        if let Some(path) = line.strip_prefix("+++ ") {
            file = path.strip_prefix("b/").map(str::to_owned);
        } else if let (Some(f), Some(hunk)) = (&file, line.strip_prefix("@@ ")) {
            // `@@ -a,b +c,d @@`: d lines from c on the new side (d omitted: 1; 0: none).
            let new = hunk.split_whitespace().find_map(|w| w.strip_prefix('+')).unwrap_or("");
            let (start, count) = new.split_once(',').unwrap_or((new, "1"));
            if let (Ok(start), Ok(count)) = (start.parse::<usize>(), count.parse::<usize>()) {
                if count > 0 {
                    out.entry(f.clone()).or_default().push((start, start + count - 1));
                }
            }
        }
    }
    out
}

/// Whether `m`'s lines overlap a touched range of its file.
pub fn touches(touched: &BTreeMap<String, Vec<(usize, usize)>>, m: &Mutant) -> bool {
    let last = m.line + m.original.matches('\n').count();
    touched.get(&m.file).is_some_and(|ranges| ranges.iter().any(|&(a, b)| m.line <= b && a <= last))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DIFF: &str = "diff --git a/classifier/src/rules/git/read.rs b/classifier/src/rules/git/read.rs\n\
--- a/classifier/src/rules/git/read.rs\n\
+++ b/classifier/src/rules/git/read.rs\n\
@@ -10,0 +11,2 @@ fn x()\n\
+a\n\
+b\n\
@@ -40 +42 @@\n\
-c\n\
+d\n\
@@ -50,3 +52,0 @@\n\
-e\n\
diff --git a/gone.rs b/gone.rs\n\
--- a/gone.rs\n\
+++ /dev/null\n\
@@ -1 +0,0 @@\n\
-x\n";

    #[test]
    fn added_and_rewritten_lines_are_touched_and_deleted_ones_are_not() {
        let t = touched(DIFF);
        assert_eq!(t.get("classifier/src/rules/git/read.rs"), Some(&vec![(11, 12), (42, 42)]));
        assert_eq!(t.len(), 1, "a deleted file touches nothing: {t:?}");
        let m = |line: usize, original: &str| Mutant { file: "classifier/src/rules/git/read.rs".into(), line, original: original.into(), ..Mutant::default() };
        assert!(touches(&t, &m(12, "x")));
        assert!(touches(&t, &m(40, "a\nb\nc")), "a span over lines 40-42 reaches line 42");
        assert!(!touches(&t, &m(13, "x")));
        assert!(!touches(&t, &m(52, "x")), "line 52 only lost lines");
    }
}
