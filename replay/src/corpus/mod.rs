//! Corpus loaders: CSV text in, typed rows out. Strict: the header must be exactly
//! the corpus's columns (unknown or missing columns are errors), every bad row is
//! reported as `path:line: column X: why`, ids are unique across a corpus, and a
//! corpus that yields zero rows is an error. Loaders never run anything.

mod curated;
mod history;
mod truth;

use std::collections::HashMap;
use std::io::Read;
use std::path::Path;

use rayon::prelude::*;

use crate::protocol::Class;

pub use curated::CuratedFamily;
pub use truth::{is_rule_id, TruthFamily};

/// The three committed corpora.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Truth,
    History,
    Curated,
}

impl Kind {
    pub const ALL: [Kind; 3] = [Kind::Truth, Kind::History, Kind::Curated];
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Truth => "truth",
            Kind::History => "history",
            Kind::Curated => "curated",
        }
    }
    pub fn parse(s: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_str() == s)
    }
    fn columns(self) -> &'static [&'static str] {
        match self {
            Kind::Truth => truth::COLUMNS,
            Kind::History => history::COLUMNS,
            Kind::Curated => curated::COLUMNS,
        }
    }
}

/// What a row asks of the head, beyond being replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Spec {
    /// `rule`: the rule that must decide the row, when the table names one.
    Truth {
        expect: Class,
        pinned: bool,
        family: TruthFamily,
        rule: Option<String>,
    },
    History,
    Curated {
        expect: Class,
        family: CuratedFamily,
    },
}

/// One corpus row. `cwd` is as written in the CSV (made absolute only when sent).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub kind: Kind,
    pub id: String,
    pub command: String,
    pub cwd: Option<String>,
    pub weight: u64,
    pub spec: Spec,
    /// Repository-relative file and 1-based line where the row starts.
    pub file: String,
    pub line: u64,
    pub note: String,
}

/// A loaded corpus: rows sorted by id.
#[derive(Clone, Debug, Default)]
pub struct Corpus {
    pub rows: Vec<Row>,
}

impl Corpus {
    pub fn by_id(&self) -> HashMap<&str, &Row> {
        self.rows.iter().map(|r| (r.id.as_str(), r)).collect()
    }
}

/// Parses one CSV file of `kind`. `file` is the repository-relative label used in
/// messages. Returns the rows or every problem found, each as `file:line: ...`.
pub fn parse(kind: Kind, file: &str, input: impl Read) -> Result<Vec<Row>, Vec<String>> {
    let mut rdr = csv::ReaderBuilder::new().has_headers(true).flexible(false).from_reader(input);
    let mut errors = Vec::new();
    let mut want = kind.columns();
    match rdr.headers() {
        Ok(h) => {
            let got: Vec<&str> = h.iter().collect();
            if kind == Kind::Truth && got == truth::COLUMNS_WITH_RULE {
                want = truth::COLUMNS_WITH_RULE;
            }
            if got != want {
                for g in &got {
                    if !want.contains(g) {
                        errors.push(format!("{file}:1: column {g}: unknown column (expected header `{}`)", want.join(",")));
                    }
                }
                for w in want {
                    if !got.contains(w) {
                        errors.push(format!("{file}:1: column {w}: missing (expected header `{}`)", want.join(",")));
                    }
                }
                if errors.is_empty() {
                    errors.push(format!("{file}:1: columns out of order: expected header `{}`", want.join(",")));
                }
                return Err(errors);
            }
        }
        Err(e) => return Err(vec![format!("{file}:1: cannot read header: {e}")]),
    }
    let mut rows = Vec::new();
    for rec in rdr.records() {
        let rec = match rec {
            Ok(r) => r,
            Err(e) => {
                let line = e.position().map(|p| p.line()).unwrap_or(0);
                errors.push(format!("{file}:{line}: {}", csv_error_text(&e)));
                continue;
            }
        };
        let line = rec.position().map(|p| p.line()).unwrap_or(0);
        let fields = Fields { rec: &rec, cols: want };
        let field = |name: &str| fields.get(name);
        let mut bad = |col: &str, why: String| errors.push(format!("{file}:{line}: column {col}: {why}"));
        let id = field("id").trim().to_owned();
        if id.is_empty() {
            bad("id", "empty id".into());
        }
        let command = field("command").to_owned();
        if command.trim().is_empty() {
            bad("command", "empty command".into());
        }
        let parsed = match kind {
            Kind::Truth => truth::spec(&fields, &mut bad),
            Kind::History => history::spec(&fields, &mut bad),
            Kind::Curated => curated::spec(&fields, &mut bad),
        };
        let Some((spec, weight, cwd, note)) = parsed else { continue };
        if id.is_empty() || command.trim().is_empty() {
            continue;
        }
        rows.push(Row { kind, id, command, cwd, weight, spec, file: file.to_owned(), line, note });
    }
    if errors.is_empty() {
        Ok(rows)
    } else {
        Err(errors)
    }
}

fn csv_error_text(e: &csv::Error) -> String {
    match e.kind() {
        csv::ErrorKind::UnequalLengths { expected_len, len, .. } => {
            format!("row has {len} fields, the header has {expected_len}")
        }
        _ => e.to_string(),
    }
}

/// One record's fields by column name.
pub(super) struct Fields<'a> {
    rec: &'a csv::StringRecord,
    cols: &'static [&'static str],
}

impl<'a> Fields<'a> {
    pub(super) fn get(&self, name: &str) -> &'a str {
        // A column this file's header does not have (the optional truth `rule`) is empty.
        self.cols.iter().position(|c| *c == name).and_then(|i| self.rec.get(i)).unwrap_or("")
    }
}

/// Shared by the three specs: empty = none, otherwise as written.
fn cwd_of(s: &str) -> Option<String> {
    (!s.is_empty()).then(|| s.to_owned())
}

/// Files of one corpus from a source (the work tree or a git commit), parsed in
/// parallel and merged. Errors from all files are collected; duplicate ids fail.
pub fn load_files(kind: Kind, files: Vec<(String, Vec<u8>)>) -> Result<Corpus, Vec<String>> {
    let parsed: Vec<Result<Vec<Row>, Vec<String>>> = files.par_iter().map(|(name, bytes)| parse(kind, name, bytes.as_slice())).collect();
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    for p in parsed {
        match p {
            Ok(r) => rows.extend(r),
            Err(e) => errors.extend(e),
        }
    }
    let mut seen: HashMap<&str, (&str, u64)> = HashMap::new();
    for r in &rows {
        if let Some((f, l)) = seen.insert(&r.id, (&r.file, r.line)) {
            errors.push(format!("{}:{}: column id: duplicate id {:?} (first at {f}:{l})", r.file, r.line, r.id));
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    rows.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(Corpus { rows })
}

/// Reads `corpus/<kind>/*.csv` from the work tree under `root`. Zero rows is an error.
pub fn load_worktree(root: &Path, kind: Kind) -> Result<Corpus, Vec<String>> {
    let dir = root.join("corpus").join(kind.as_str());
    let label = format!("corpus/{}/*.csv", kind.as_str());
    let mut names: Vec<String> = match std::fs::read_dir(&dir) {
        Ok(rd) => rd.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()).filter(|n| n.ends_with(".csv")).collect(),
        Err(e) => return Err(vec![format!("{label}: cannot read {}: {e}", dir.display())]),
    };
    names.sort();
    let mut files = Vec::new();
    for n in names {
        let rel = format!("corpus/{}/{n}", kind.as_str());
        match std::fs::read(root.join(&rel)) {
            Ok(b) => files.push((rel, b)),
            Err(e) => return Err(vec![format!("{rel}:1: cannot read: {e}")]),
        }
    }
    let corpus = load_files(kind, files)?;
    if corpus.rows.is_empty() {
        return Err(vec![format!("{label}: matched no rows (a corpus that is empty hides gaps; add rows or pass --corpus without it)")]);
    }
    Ok(corpus)
}

/// A digest of every file under corpus/fixtures/ (paths and contents), sorted.
pub fn fixtures_digest(root: &Path) -> String {
    use sha2::{Digest, Sha256};
    let mut files = Vec::new();
    let mut stack = vec![root.join("corpus").join("fixtures")];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut h = Sha256::new();
    for f in files {
        h.update(f.strip_prefix(root).unwrap_or(&f).to_string_lossy().as_bytes());
        h.update([0]);
        h.update(std::fs::read(&f).unwrap_or_default());
        h.update([0]);
    }
    crate::build::hex(&h.finalize())[..16].to_owned()
}
