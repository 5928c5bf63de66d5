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
