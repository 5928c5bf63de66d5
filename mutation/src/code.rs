//! cargo-mutants as the code-mutant engine: `cargo mutants --list --json -p
//! classifier` (with `--in-diff FILE` for a change) lists every mutant of the
//! classifier library's code — function bodies replaced with defaults, operators
//! flipped, match arms and guards and struct fields deleted — honouring
//! `#[mutants::skip]` and `.cargo/mutants.toml`. Each listed mutant (file, span,
//! replacement, and cargo-mutants' own diff) becomes a [`Mutant`] the bench's gate
//! applies, builds and judges exactly like a table mutant (docs/decisions/0010).
//! This module never mutates anything itself: it only reads what cargo-mutants
//! lists, and checks that applying the span gives cargo-mutants' own diff.
//!
//! The `tiergate` package (hook, store, config) is outside the population: the gate
//! speaks `tiergate batch`, which that code does not decide; its own tests judge it.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use serde::Deserialize;
use sha2::{Digest, Sha256};

use crate::mutant::{line_of, Mutant, Population};

/// The package whose code is mutated.
pub const PACKAGE: &str = "classifier";

/// The version `.ci/run` installs; ids and the population depend on the generator.
pub const VERSION: &str = "27.1.0";

/// What cargo-mutants appends to every replacement in its diffs; applied the same
/// way here, so a survivor's diff in the report reads like cargo-mutants' own.
pub const MARKER: &str = " /* ~ changed by cargo-mutants ~ */";

#[derive(Debug, Deserialize)]
pub struct Listed {
    pub file: String,
    pub name: String,
    pub genre: String,
    pub replacement: String,
    pub span: Span,
    #[serde(default)]
    pub diff: String,
    /// The function the mutant is in (none for a few, e.g. a struct field of a constant).
    #[serde(default)]
    pub function: Option<Function>,
}

#[derive(Debug, Deserialize)]
pub struct Function {
    pub function_name: String,
    pub span: Option<Span>,
}

/// The function a mutant is in, as cargo-mutants names it (`Engine::walk`; empty
/// outside any function) and its first and last line.
#[derive(Clone, Debug, Default)]
pub struct InFunction {
    pub name: String,
    pub lines: Option<(usize, usize)>,
}

#[derive(Debug, Deserialize)]
pub struct Span {
    pub start: Pos,
    pub end: Pos,
}

/// 1-based line; 1-based column counted in characters (proc-macro2's, plus one).
#[derive(Debug, Deserialize)]
pub struct Pos {
    pub line: usize,
    pub column: usize,
}

/// The cargo-mutants command, or why there is none.
fn cargo_mutants() -> Result<Command, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(&cargo).args(["mutants", "--version"]).output().map_err(|e| format!("cannot run cargo: {e}"))?;
    if !out.status.success() {
        return Err(format!("cargo-mutants is not installed; the code population needs it: `cargo install cargo-mutants --locked --version {VERSION}`"));
    }
    let mut cmd = Command::new(cargo);
    cmd.arg("mutants");
    Ok(cmd)
}

/// `cargo mutants --version`, for the report's meta.
pub fn version() -> Result<String, String> {
    let out = cargo_mutants()?.arg("--version").output().map_err(|e| e.to_string())?;
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// Every code mutant of the checkout at `dir` (only those in the code `in_diff`
/// touches, when given: a unified diff file, as `git diff` writes it).
pub fn list(dir: &Path, in_diff: Option<&Path>) -> Result<Vec<Mutant>, String> {
    let listed = listed(dir, in_diff, true)?;
    convert(&listed, |f| std::fs::read_to_string(dir.join(f)).map_err(|e| format!("{f}: {e}")))
}

/// Every code mutant of the checkout at `dir`, each with the function it is in.
pub fn list_with_functions(dir: &Path) -> Result<Vec<(Mutant, InFunction)>, String> {
    let listed = listed(dir, None, true)?;
    let mutants = convert(&listed, |f| std::fs::read_to_string(dir.join(f)).map_err(|e| format!("{f}: {e}")))?;
    let functions = listed.iter().map(|l| match &l.function {
        Some(f) => InFunction { name: f.function_name.clone(), lines: f.span.as_ref().map(|s| (s.start.line, s.end.line)) },
        None => InFunction::default(),
    });
    Ok(mutants.into_iter().zip(functions).collect())
}

/// How many mutants `.cargo/mutants.toml` leaves out of the whole population, per
/// file: reported apart, next to the reasons the file gives.
pub fn excluded_by_config(dir: &Path) -> Result<BTreeMap<String, usize>, String> {
    let kept: std::collections::HashSet<String> = listed(dir, None, true)?.into_iter().map(|l| l.name).collect();
    let mut out = BTreeMap::new();
    for l in listed(dir, None, false)? {
        if !kept.contains(&l.name) {
            *out.entry(l.file).or_insert(0) += 1;
        }
    }
    Ok(out)
}

fn listed(dir: &Path, in_diff: Option<&Path>, config: bool) -> Result<Vec<Listed>, String> {
    let mut cmd = cargo_mutants()?;
    cmd.args(["--list", "--json", "--colors=never", "-p", PACKAGE, "--dir"]).arg(dir);
    if let Some(d) = in_diff {
        cmd.arg("--in-diff").arg(d);
    }
    if !config {
        cmd.arg("--no-config");
    }
    let out = cmd.output().map_err(|e| format!("cannot run cargo mutants: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        // An empty diff (no Rust code touched) is not an error to cargo-mutants' listing
        // in every version; a failure with nothing listed is reported as it said it.
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!("cargo mutants --list failed: {}", err.lines().take(3).collect::<Vec<_>>().join("; ")));
    }
    parse_listing(&stdout)
}

/// cargo-mutants' `--list --json` output. With `--in-diff` a diff that touches no
/// mutable code of the package makes it print nothing on stdout (`No mutants to
/// filter` on stderr, exit 0), not `[]`: that is an empty listing.
fn parse_listing(stdout: &str) -> Result<Vec<Listed>, String> {
    if stdout.trim().is_empty() {
        return Ok(Vec::new());
    }
    serde_json::from_str(stdout.trim()).map_err(|e| format!("cargo mutants --list --json: {e}"))
}

/// Listed mutants as the gate's [`Mutant`]s, in listing order, each checked against
/// cargo-mutants' own diff. `read` gives a file's text by its workspace-relative path.
pub fn convert(listed: &[Listed], read: impl Fn(&str) -> Result<String, String>) -> Result<Vec<Mutant>, String> {
    let mut texts: BTreeMap<&str, String> = BTreeMap::new();
    let mut out = Vec::with_capacity(listed.len());
    for l in listed {
        if !texts.contains_key(l.file.as_str()) {
            texts.insert(&l.file, read(&l.file)?);
        }
        let src = &texts[l.file.as_str()];
        let (Some(start), Some(end)) = (offset(src, &l.span.start), offset(src, &l.span.end)) else {
            return Err(format!(
                "{}: span {}:{}–{}:{} is outside the file",
                l.name, l.span.start.line, l.span.start.column, l.span.end.line, l.span.end.column
            ));
        };
        if end < start {
            return Err(format!("{}: span ends before it starts", l.name));
        }
        let m = mutant(l, src, start, end);
        if let Some(line) = unmatched_line(&m, src, &l.diff) {
            return Err(format!("{}: applying its span does not give cargo-mutants' diff (line `{line}`); is cargo-mutants {VERSION} installed?", l.name));
        }
        out.push(m);
    }
    crate::mutant::assign_keys(&mut out);
    Ok(out)
}

fn mutant(l: &Listed, src: &str, start: usize, end: usize) -> Mutant {
    let replacement = format!("{}{MARKER}", l.replacement);
    let rel = l.file.strip_prefix("classifier/src/").unwrap_or(&l.file);
    let op = operator(&l.genre);
    let mut h = Sha256::new();
    for part in [op.as_str(), l.file.as_str(), &start.to_string(), &end.to_string(), &replacement] {
        h.update(part.as_bytes());
        h.update([0]);
    }
    let line = line_of(src, start);
    // `file:line:col: replace …` → `replace …`: what it does, wherever it sits.
    let what = l.name.splitn(4, ':').nth(3).map_or(l.name.as_str(), str::trim).to_owned();
    Mutant {
        id: format!("code:{rel}:{line}:{}", &replay::build::hex(&h.finalize())[..8]),
        population: Population::Code,
        op,
        file: l.file.clone(),
        line,
        start,
        end,
        original: src[start..end].to_owned(),
        replacement,
        scope: module_of(&l.file),
        what,
        key: String::new(),
    }
}

/// cargo-mutants' genre as an operator name (`BinaryOperator` → `binary-op`).
fn operator(genre: &str) -> String {
    match genre {
        "FnValue" => "fn-value".into(),
        "BinaryOperator" => "binary-op".into(),
        "UnaryOperator" => "unary-op".into(),
        "MatchArm" => "match-arm".into(),
        "MatchArmGuard" => "match-guard".into(),
        "StructField" => "struct-field".into(),
        other => other.to_ascii_lowercase(),
    }
}

/// `classifier/src/rules/exec/options.rs` → `rules.exec.options`; `…/units/mod.rs` → `units`.
pub fn module_of(file: &str) -> String {
    let rel = file.strip_prefix("classifier/src/").unwrap_or(file).trim_end_matches(".rs");
    rel.trim_end_matches("/mod").replace('/', ".")
}

/// The byte offset of a 1-based (line, character column) position.
fn offset(src: &str, p: &Pos) -> Option<usize> {
    let line_start = if p.line <= 1 { 0 } else { src.match_indices('\n').nth(p.line - 2)?.0 + 1 };
    let line = &src[line_start..src[line_start..].find('\n').map_or(src.len(), |i| line_start + i)];
    let col = p.column.checked_sub(1)?;
    let within = line.char_indices().map(|(i, _)| i).chain(std::iter::once(line.len())).nth(col)?;
    Some(line_start + within)
}

/// The first `+` line of cargo-mutants' diff that the mutated text lacks, if any.
fn unmatched_line(m: &Mutant, src: &str, diff: &str) -> Option<String> {
    let after = m.apply(src)?;
    let added = diff.lines().filter(|l| l.starts_with('+') && !l.starts_with("+++")).map(|l| &l[1..]);
    let have: std::collections::HashSet<&str> = after.lines().collect();
    added.into_iter().find(|l| !have.contains(l)).map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "fn f(a: u8) -> bool {\n    a == 1 && ok(\"é\", a)\n}\n";

    fn listed(name: &str, genre: &str, (sl, sc): (usize, usize), (el, ec): (usize, usize), replacement: &str, diff: &str) -> Listed {
        Listed {
            file: "classifier/src/units/mod.rs".into(),
            name: name.into(),
            genre: genre.into(),
            replacement: replacement.into(),
            span: Span { start: Pos { line: sl, column: sc }, end: Pos { line: el, column: ec } },
            diff: diff.into(),
            function: None,
        }
    }

    /// A commit that touches no mutable code (only `mutation/`, say) lists nothing,
    /// as cargo-mutants 27.1.0 says it (empty stdout), and CI's per-change step runs none.
    #[test]
    fn an_empty_listing_is_no_mutants_and_bad_json_is_an_error() {
        assert_eq!(parse_listing("").unwrap().len(), 0);
        assert_eq!(parse_listing(" \n").unwrap().len(), 0);
        assert_eq!(parse_listing("[]").unwrap().len(), 0);
        assert!(parse_listing("[{").unwrap_err().contains("cargo mutants --list --json"));
    }

    #[test]
    fn a_listed_span_applies_to_the_bytes_cargo_mutants_meant() {
        let body = listed(
            "classifier/src/units/mod.rs:2:5: replace f -> bool with true",
            "FnValue",
            (2, 5),
            (2, 25),
            "true",
            "--- a\n+++ b\n@@ -1,3 +1,3 @@\n fn f(a: u8) -> bool {\n-    a == 1 && ok(\"é\", a)\n+    true /* ~ changed by cargo-mutants ~ */\n }\n",
        );
        // The comma sits after `é`, two bytes and one column.
        let op = listed(
            "classifier/src/units/mod.rs:2:21: delete ,",
            "BinaryOperator",
            (2, 21),
            (2, 22),
            "",
            "+    a == 1 && ok(\"é\" /* ~ changed by cargo-mutants ~ */ a)\n",
        );
        let ms = convert(&[body, op], |_| Ok(SRC.to_owned())).unwrap();
        assert_eq!(ms[0].original, "a == 1 && ok(\"é\", a)");
        assert_eq!(ms[0].what, "replace f -> bool with true");
        assert_eq!((ms[0].op.as_str(), ms[0].scope.as_str(), ms[0].line), ("fn-value", "units", 2));
        assert!(ms[0].id.starts_with("code:units/mod.rs:2:"), "{}", ms[0].id);
        assert_eq!(ms[0].key, "code:units/mod.rs replace f -> bool with true");
        assert_eq!(ms[1].original, ",", "the column after `é` counts characters");
        assert_eq!(crate::mutant::family(&ms[0]), "units");
    }

    #[test]
    fn a_span_that_does_not_give_the_listed_diff_is_an_error() {
        let wrong = listed("f:1:1: replace f -> bool with true", "FnValue", (2, 6), (2, 25), "true", "+    true /* ~ changed by cargo-mutants ~ */\n");
        let err = convert(&[wrong], |_| Ok(SRC.to_owned())).unwrap_err();
        assert!(err.contains("does not give cargo-mutants' diff"), "{err}");
        let outside = listed("f:9:1: x", "FnValue", (9, 1), (9, 2), "", "");
        assert!(convert(&[outside], |_| Ok(SRC.to_owned())).unwrap_err().contains("outside the file"));
    }

    #[test]
    fn modules_are_dotted_paths_and_rules_keep_their_family() {
        assert_eq!(module_of("classifier/src/rules/exec/options.rs"), "rules.exec.options");
        assert_eq!(module_of("classifier/src/units/mod.rs"), "units");
        assert_eq!(module_of("classifier/src/lib.rs"), "lib");
        let m = |scope: &str| Mutant { population: Population::Code, scope: scope.into(), ..Mutant::default() };
        assert_eq!(crate::mutant::family(&m("rules.exec.options")), "rules.exec");
        assert_eq!(crate::mutant::family(&m("rules.git")), "rules.git");
        assert_eq!(crate::mutant::family(&m("lanes.python_ast")), "lanes");
    }
}
