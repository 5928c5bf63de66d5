//! The CSV reading the table kinds share (truth, history, curated): one file per
//! concern under `corpus/<kind>/*.csv`, the header exactly the kind's columns
//! (unknown or missing columns are errors), every bad row reported as
//! `path:line: column X: why`. A kind supplies its columns and how a record's
//! fields become a `Spec`.

use std::io::Read;

use super::{Kind, Row, Source, Spec};

/// What a table kind's parser returns for one record: the spec, the weight, the cwd
/// and the note.
pub(super) type Parsed = (Spec, u64, Option<String>, String);

/// Reads one record's fields into a row's parts, reporting bad fields as (column, why).
pub(super) type SpecOf = fn(&Fields, &mut dyn FnMut(&str, String)) -> Option<Parsed>;

/// A table kind's columns and field reader.
pub(super) struct Table {
    pub kind: Kind,
    pub columns: &'static [&'static str],
    /// A second accepted header (truth's optional trailing `rule`), if any.
    pub alt_columns: Option<&'static [&'static str]>,
    pub spec: SpecOf,
}

/// Every `corpus/<kind>/*.csv` of `src`, parsed; all problems of all files.
pub(super) fn load(t: &Table, src: &dyn Source) -> Result<Vec<Row>, Vec<String>> {
    let dir = format!("corpus/{}", t.kind.as_str());
    let names = src.files(&dir, ".csv").map_err(|e| vec![e])?;
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    let parsed: Vec<Result<Vec<Row>, Vec<String>>> = {
        use rayon::prelude::*;
        names.par_iter().map(|n| src.read(n).map_err(|e| vec![e]).and_then(|b| parse(t, n, b.as_slice()))).collect()
    };
    for p in parsed {
        match p {
            Ok(r) => rows.extend(r),
            Err(e) => errors.extend(e),
        }
    }
    if errors.is_empty() {
        Ok(rows)
    } else {
        Err(errors)
    }
}

/// Parses one CSV file of table kind `t`. `file` is the repository-relative label
/// used in messages. Returns the rows or every problem found, each as `file:line: ...`.
pub(super) fn parse(t: &Table, file: &str, input: impl Read) -> Result<Vec<Row>, Vec<String>> {
    let mut rdr = csv::ReaderBuilder::new().has_headers(true).flexible(false).from_reader(input);
    let mut errors = Vec::new();
    let mut want = t.columns;
    match rdr.headers() {
        Ok(h) => {
            let got: Vec<&str> = h.iter().collect();
            if let Some(alt) = t.alt_columns.filter(|alt| got == *alt) {
                want = alt;
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
        let mut bad = |col: &str, why: String| errors.push(format!("{file}:{line}: column {col}: {why}"));
        let id = fields.get("id").trim().to_owned();
        if id.is_empty() {
            bad("id", "empty id".into());
        }
        let command = fields.get("command").to_owned();
        if command.trim().is_empty() {
            bad("command", "empty command".into());
        }
        let Some((spec, weight, cwd, note)) = (t.spec)(&fields, &mut bad) else { continue };
        if id.is_empty() || command.trim().is_empty() {
            continue;
        }
        rows.push(Row { kind: t.kind, id, command, cwd, weight, spec, file: file.to_owned(), line, note });
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

/// Shared by the table specs: empty = none, otherwise as written.
pub(super) fn cwd_of(s: &str) -> Option<String> {
    (!s.is_empty()).then(|| s.to_owned())
}
