//! Writes a report folder atomically (each file to a temporary name, then renamed):
//! `summary.md`, `results.jsonl`, `changed.csv`, `pending.json`; appends the summary
//! to `$GITHUB_STEP_SUMMARY` when asked. Writes only under `reports/`.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::{markdown, Report};
use crate::diff::Category;

/// Writes `bytes` to `path` through a temporary file in the same directory.
pub fn atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("out");
    let tmp = dir.join(format!(".{name}.tmp{}", std::process::id()));
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)
}

/// Renders `results.jsonl`: one row per line, sorted.
pub fn results_jsonl(r: &Report) -> String {
    let mut s = String::new();
    for row in &r.rows {
        s.push_str(&serde_json::to_string(row).unwrap_or_default());
        s.push('\n');
    }
    s
}

/// Renders `changed.csv`: every row that is not unchanged (history commands arrive
/// already redacted).
pub fn changed_csv(r: &Report) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record(["corpus", "id", "category", "weight", "base", "base_rule", "head", "head_rule", "command"]);
    let v = |x: &Option<crate::protocol::Verdict>| match x {
        None => ("".to_owned(), "".to_owned()),
        Some(v) if v.is_error() => ("error".to_owned(), v.reason.clone()),
        Some(v) => (v.class.to_string(), v.rule.clone()),
    };
    for row in r.rows.iter().filter(|x| x.category != Category::Unchanged) {
        let (b, br) = v(&row.base);
        let (h, hr) = v(&row.head);
        let _ = w.write_record([row.corpus.as_str(), &row.id, row.category.as_str(), &row.weight.to_string(), &b, &br, &h, &hr, &row.command]);
    }
    w.into_inner().unwrap_or_default()
}

/// Writes the report folder under `<root>/reports/`; returns its path.
pub fn write(root: &Path, r: &Report) -> std::io::Result<PathBuf> {
    let dir = root.join("reports").join(r.dir_name());
    atomic(&dir.join("summary.md"), markdown::render(r).as_bytes())?;
    atomic(&dir.join("results.jsonl"), results_jsonl(r).as_bytes())?;
    atomic(&dir.join("changed.csv"), &changed_csv(r))?;
    let pending = serde_json::to_string_pretty(&r.pending).unwrap_or_default() + "\n";
    atomic(&dir.join("pending.json"), pending.as_bytes())?;
    Ok(dir)
}

/// Appends the summary to the GitHub step summary file.
pub fn step_summary(path: &Path, r: &Report) -> std::io::Result<()> {
    let mut f = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
    f.write_all(markdown::render(r).as_bytes())
}
