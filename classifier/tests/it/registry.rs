//! The rule registry as a whole: unique ids, ids named for their family, every
//! program owned by one family, reasons present.

use std::collections::HashSet;

use classifier::rules::{self, ENGINE_PREFIXES, FAMILIES};

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
        for p in f.programs {
            if let Some(prev) = owner.insert(*p, f.name) {
                panic!("program {p} is claimed by {prev} and {}", f.name);
            }
        }
    }
}

/// Every `static NAME: Rule = Rule::…("id")` in the rules tree is registered in
/// its family's `RULES` (so it reaches `rules::all()`, the docs and the rule
/// examples): a rule declared and fired but never listed would be invisible.
#[test]
fn every_declared_rule_is_registered() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules");
    let mut stack = vec![root];
    let mut declared = Vec::new();
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap();
            for line in text.lines() {
                let Some((_, rest)) = line.split_once(": Rule = Rule::") else { continue };
                if !line.trim_start().starts_with("pub") && !line.trim_start().starts_with("static") {
                    continue;
                }
                let id = rest.split('"').nth(1).unwrap_or("");
                declared.push((id.to_owned(), p.display().to_string()));
            }
        }
    }
    assert!(declared.len() > 100, "the scan found only {} rule statics; has the declaration shape changed?", declared.len());
    let registered: HashSet<&str> = rules::all().map(|r| r.id).collect();
    let missing: Vec<String> = declared.iter().filter(|(id, _)| !registered.contains(id.as_str())).map(|(id, f)| format!("{id} ({f})")).collect();
    assert!(missing.is_empty(), "rules declared but not in any family's RULES: {missing:?}");
}
