//! `corpus/oracle/baseline.csv`: reviewed signatures that do not fail the oracle.
//! Columns `program,category,detail,status,reason`: `program` is the command's
//! first word (or `*`), `detail` matches exactly or as a prefix when it ends in
//! `*`, `status` is `benign` (a false signal: cache, probe, tool implementation)
//! or `known` (a real finding recorded elsewhere, its reason names the truth row
//! or issue, kept so the next run reports only what is new). Every line needs a reason.

use std::path::Path;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub program: String,
    pub category: String,
    pub detail: String,
    pub status: String,
    pub reason: String,
    pub line: usize,
}

impl Entry {
    pub fn matches(&self, program: &str, category: &str, detail: &str) -> bool {
        (self.program == "*" || self.program == program)
            && self.category == category
            && match self.detail.strip_suffix('*') {
                Some(prefix) => detail.starts_with(prefix),
                None => self.detail == detail,
            }
    }
}

pub const HEADER: [&str; 5] = ["program", "category", "detail", "status", "reason"];

pub fn load(path: &Path) -> Result<Vec<Entry>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

pub fn parse(text: &str) -> Result<Vec<Entry>, String> {
    let mut r = csv::ReaderBuilder::new().from_reader(text.as_bytes());
    let header: Vec<String> = r.headers().map_err(|e| e.to_string())?.iter().map(str::to_owned).collect();
    if header != HEADER {
        return Err(format!("header must be {}", HEADER.join(",")));
    }
    let mut out = Vec::new();
    for (i, rec) in r.records().enumerate() {
        let rec = rec.map_err(|e| e.to_string())?;
        let line = i + 2;
        let f = |k: usize| rec.get(k).unwrap_or("").to_owned();
        let e = Entry { program: f(0), category: f(1), detail: f(2), status: f(3), reason: f(4), line };
        if e.program.is_empty() || e.category.is_empty() || e.reason.trim().len() < 10 {
            return Err(format!("line {line}: program, category and a reason (10+ characters) are required"));
        }
        if e.status != "benign" && e.status != "known" {
            return Err(format!("line {line}: status {:?} is not benign or known", e.status));
        }
        out.push(e);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_and_wildcard_matching_and_strict_rows() {
        let b = parse("program,category,detail,status,reason\nman,hidden-shell-c,sh: *,benign,man pipes pages through groff\n*,unix-daemon,unix:/dev/log,known,truth row oracle-0001\n").unwrap();
        assert!(b[0].matches("man", "hidden-shell-c", "sh: groff"));
        assert!(!b[0].matches("git", "hidden-shell-c", "sh: groff"));
        assert!(b[1].matches("logger", "unix-daemon", "unix:/dev/log"));
        assert!(!b[1].matches("logger", "unix-daemon", "unix:/dev/logx"));
        assert!(parse("program,category,detail,status,reason\nx,y,z,benign,short\n").is_err());
        assert!(parse("program,category,detail,status,reason\nx,y,z,maybe,a long enough reason\n").is_err());
        assert!(parse("program,category,detail,reason\n").is_err());
    }
}
