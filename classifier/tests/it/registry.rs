//! The rule registry as a whole: unique ids, ids named for their family, every
//! program owned by one family, reasons present.

use std::collections::HashSet;

use classifier::rules::{self, FAMILIES};

/// The id prefixes the engine's own rules may use (every other family uses its name).
/// Only this test reads them, so they live here, not among the rule tables.
const ENGINE_PREFIXES: &[&str] = &["parse", "limits", "wrapper", "default", "internal"];

#[test]
fn rule_ids_are_unique_and_dotted_lowercase() {
    let mut seen = HashSet::new();
    for r in rules::all() {
        assert!(seen.insert(r.id), "duplicate rule id {}", r.id);
        assert!(r.id.contains('.') && r.id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '.' | '-' | '_')), "bad id {}", r.id);
        assert!(!r.reason.is_empty(), "{} has no reason", r.id);
    }
}

#[test]
fn rule_ids_start_with_their_family() {
    for f in FAMILIES {
        for r in f.rules {
            let first = r.id.split('.').next().unwrap_or("");
            let ok = if f.name == "engine" { ENGINE_PREFIXES.contains(&first) } else { first == f.name };
            assert!(ok, "rule {} lives in family {}", r.id, f.name);
        }
    }
}

#[test]
fn every_program_belongs_to_one_family() {
    let mut owner = std::collections::HashMap::new();
    for f in FAMILIES {
        for p in f.names() {
            if let Some(prev) = owner.insert(p, f.name) {
                panic!("program {p} is claimed by {prev} and {}", f.name);
            }
        }
    }
}

/// Every `static NAME: Rule = Rule::…("id")` under `src/rules/<family>/` (or in
/// `src/rules/<family>.rs`) is registered in that family's own `RULES`, so it reaches
/// `rules::all()`, the docs and the rule examples: a rule declared and fired but
/// never listed would be invisible, and one listed by another family would be
/// documented under the wrong name. The scan reads whole declarations, not lines:
/// rustfmt breaks long ones after the `=`.
#[test]
fn every_declared_rule_is_registered_in_its_family() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules");
    let declared = rule_statics(&root);
    assert!(declared.len() > 300, "the scan found only {} rule statics; has the declaration shape changed?", declared.len());
    let mut problems = Vec::new();
    for (id, file, family) in &declared {
        let Some(f) = FAMILIES.iter().find(|f| f.name == family) else {
            problems.push(format!("{id} ({file}): no family named {family:?}"));
            continue;
        };
        if !f.rules.iter().any(|r| r.id == id) {
            let elsewhere: Vec<&str> = FAMILIES.iter().filter(|g| g.rules.iter().any(|r| r.id == id)).map(|g| g.name).collect();
            problems.push(format!("{id} ({file}): not in {family}'s RULES (listed by: {elsewhere:?})"));
        }
    }
    assert!(problems.is_empty(), "rules declared but not registered in their family's RULES: {problems:#?}");
    // And the other way: every registered rule is declared where the scan looks.
    let ids: HashSet<&str> = declared.iter().map(|(id, _, _)| id.as_str()).collect();
    let undeclared: Vec<&str> = rules::all().map(|r| r.id).filter(|id| !ids.contains(id)).collect();
    assert!(undeclared.is_empty(), "registered rules the scan did not find declared: {undeclared:?}");
}

/// (id, file, family) of every `static NAME: Rule = Rule::kind("id", …)` under `root`.
fn rule_statics(root: &std::path::Path) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let rel = p.strip_prefix(root).unwrap();
            let family = match rel.components().count() {
                1 => rel.file_stem().unwrap().to_string_lossy().into_owned(),
                _ => rel.components().next().unwrap().as_os_str().to_string_lossy().into_owned(),
            };
            let text = std::fs::read_to_string(&p).unwrap();
            for (at, _) in text.match_indices(": Rule =") {
                let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
                let head = text[line_start..at].trim_start();
                if head.starts_with("//") || !head.split_whitespace().any(|w| w == "static") {
                    continue;
                }
                let rest = &text[at..];
                let id = rest.strip_prefix(": Rule =").map(str::trim_start).filter(|r| r.starts_with("Rule::")).and_then(|r| r.split('"').nth(1));
                let id = id.unwrap_or_else(|| panic!("{}: a rule static whose id the scan cannot read: {}", p.display(), &rest[..rest.len().min(80)]));
                out.push((id.to_owned(), rel.display().to_string(), family.clone()));
            }
        }
    }
    out
}
