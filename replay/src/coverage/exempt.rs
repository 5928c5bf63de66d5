//! `corpus/coverage-exemptions.csv` — `rule,missing,reason`: one reviewed line per
//! rule the corpora cannot (or do not yet) cover. `missing` is `row` (no truth row
//! of the rule's own side reaches it), `control` (no truth row of the other side
//! stands next to it) or `both`. A reason starting `todo:` is a known gap, not a
//! justification; the report counts those apart.

use std::path::Path;

use serde::Serialize;

pub const EXEMPTIONS: &str = "corpus/coverage-exemptions.csv";
const COLUMNS: &[&str] = &["rule", "missing", "reason"];

/// What a rule lacks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub enum Missing {
    #[default]
    None,
    Row,
    Control,
    Both,
}

impl Missing {
    pub fn of(row: bool, control: bool) -> Missing {
        match (row, control) {
            (false, false) => Missing::None,
            (true, false) => Missing::Row,
            (false, true) => Missing::Control,
            (true, true) => Missing::Both,
        }
    }
    pub fn parse(s: &str) -> Option<Missing> {
        Some(match s {
            "row" => Missing::Row,
            "control" => Missing::Control,
            "both" => Missing::Both,
            _ => return None,
        })
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Missing::None => "none",
            Missing::Row => "row",
            Missing::Control => "control",
            Missing::Both => "both",
        }
    }
    /// True when an exemption for `self` excuses the gap `m`.
    pub fn covers(self, m: Missing) -> bool {
        matches!((self, m), (_, Missing::None) | (Missing::Both, _)) || self == m
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exemption {
    pub rule: String,
    pub missing: Missing,
    pub reason: String,
    pub line: u64,
}

impl Exemption {
    pub fn id_is(&self, id: &str) -> bool {
        self.rule == id
    }
    pub fn is_todo(&self) -> bool {
        self.reason.starts_with("todo:")
    }
}

/// Parses the exemption file; a missing file is an empty list. Errors name `file:line`.
pub fn parse(input: &[u8]) -> Result<Vec<Exemption>, Vec<String>> {
    let mut rdr = csv::ReaderBuilder::new().has_headers(true).from_reader(input);
    let header: Vec<String> = match rdr.headers() {
        Ok(h) => h.iter().map(str::to_owned).collect(),
        Err(e) => return Err(vec![format!("{EXEMPTIONS}:1: {e}")]),
    };
    if header != COLUMNS {
        return Err(vec![format!("{EXEMPTIONS}:1: header must be `{}`, found `{}`", COLUMNS.join(","), header.join(","))]);
    }
    let mut out: Vec<Exemption> = Vec::new();
    let mut errors = Vec::new();
    for rec in rdr.records() {
        let rec = match rec {
            Ok(r) => r,
            Err(e) => {
                errors.push(format!("{EXEMPTIONS}: {e}"));
                continue;
            }
        };
        let line = rec.position().map(|p| p.line()).unwrap_or(0);
        let (rule, missing, reason) = (rec.get(0).unwrap_or(""), rec.get(1).unwrap_or(""), rec.get(2).unwrap_or("").trim());
        let Some(m) = Missing::parse(missing) else {
            errors.push(format!("{EXEMPTIONS}:{line}: column missing: {missing:?} is not one of row control both"));
            continue;
        };
        if reason.is_empty() {
            errors.push(format!("{EXEMPTIONS}:{line}: {rule}: an exemption needs a reason"));
        }
        if let Some(prev) = out.iter().find(|e| e.rule == rule) {
            errors.push(format!("{EXEMPTIONS}:{line}: {rule} is already exempted at line {}", prev.line));
        }
        out.push(Exemption { rule: rule.to_owned(), missing: m, reason: reason.to_owned(), line });
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

pub fn load(root: &Path) -> Result<Vec<Exemption>, Vec<String>> {
    match std::fs::read(root.join(EXEMPTIONS)) {
        Ok(b) => parse(&b),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(vec![format!("{EXEMPTIONS}: {e}")]),
    }
}
