//! `tiergate programs`, read: the policy tables a binary dumps, each with its
//! entries, its probes (template, tier, rule, restricted entries), its exceptions and
//! its source position (decision 0013 §3). The probes corpus (corpus/probes.rs) makes
//! rows of it and the table mutants (the `mutation` crate) are enumerated from it, so
//! neither reads Rust as text. It runs the binary it is given; it does not build one.

use std::process::{Command, Stdio};

use serde::Deserialize;

/// A table of the dump (`"kind":"table"` lines of `tiergate programs`).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct Table {
    pub name: String,
    /// Repository-relative source file and line of the `table!` (`file!()`/`line!()`).
    pub file: String,
    pub line: u32,
    pub entries: Vec<String>,
    pub probes: Vec<Probe>,
    pub except: Vec<Except>,
}

#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct Probe {
    pub template: String,
    /// `T0` … `T3` or `BLOCKED`.
    pub expect: String,
    /// The rule id that must decide each row; empty: any rule at that tier.
    pub rule: String,
    /// The entries this probe covers; empty: the table's others.
    pub only: Vec<String>,
}

#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct Except {
    pub entries: Vec<String>,
    #[serde(default)]
    pub why: String,
}

/// The tables of a dump, in source order (file, then line). A line that is not JSON,
/// or a table line without the typed fields, is an error naming the line.
pub fn tables(dump: &str) -> Result<Vec<Table>, String> {
    let mut out = Vec::new();
    for (n, line) in dump.lines().enumerate() {
        let v: serde_json::Value = serde_json::from_str(line).map_err(|e| format!("tiergate programs, line {}: {e}", n + 1))?;
        if v.get("kind").and_then(|k| k.as_str()) == Some("table") {
            out.push(serde_json::from_value(v).map_err(|e| format!("tiergate programs, line {}: {e}", n + 1))?);
        }
    }
    out.sort_by(|a: &Table, b: &Table| (&a.file, a.line).cmp(&(&b.file, b.line)));
    Ok(out)
}

/// `BIN programs` for a subject's argv (`[bin, "batch"]`, or `--against`'s program
/// when it ends in `batch`), parsed: Err says why there is no dump (a build from
/// before `tiergate programs`, another program).
pub fn of_subject(argv: &[String]) -> Result<Vec<Table>, String> {
    let Some((last, front)) = argv.split_last() else { return Err("empty command".into()) };
    if last != "batch" || front.is_empty() {
        return Err(format!("`{}` is not `… batch`, so it has no `programs` to ask", argv.join(" ")));
    }
    let out = Command::new(&front[0]).args(&front[1..]).arg("programs").stdin(Stdio::null()).output().map_err(|e| format!("cannot run {}: {e}", front[0]))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!("`tiergate programs` failed ({}): {}", out.status, err.lines().next().unwrap_or("").trim()));
    }
    tables(&String::from_utf8_lossy(&out.stdout))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_read_in_source_order_and_cards_are_skipped() {
        let dump = r#"{"kind":"card","family":"git","names":["git"]}
{"kind":"table","name":"B","file":"x/b.rs","line":1,"entries":["b"],"probes":[],"except":[]}
{"kind":"table","name":"A","file":"x/a.rs","line":9,"entries":["a"],"probes":[{"template":"p {}","expect":"T3","rule":"","only":[]}],"except":[{"entries":["a"],"why":"w"}]}
"#;
        let t = tables(dump).unwrap();
        assert_eq!(t.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["A", "B"]);
        assert_eq!(t[0].probes[0].expect, "T3");
        assert_eq!(t[0].except[0].why, "w");
        assert!(tables("{\"kind\":\"table\"}\n").unwrap_err().starts_with("tiergate programs, line 1:"));
        assert!(of_subject(&["tiergate".into(), "serve".into()]).unwrap_err().contains("not `… batch`"));
    }
}
