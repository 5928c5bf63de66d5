//! `tiergate programs` through the real binary: every line is one JSON object, every
//! family's cards and the policy tables are there, and a table's `file`/`line` point
//! at its declaration, so the bench can find it without reading Rust by regex.

use super::hook_harness::*;

fn dump() -> Vec<serde_json::Value> {
    let env = Env::new("programs");
    let (code, out, err) = env.cli(&["programs"]);
    assert_eq!(code, 0, "{err}");
    out.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}"))).collect()
}

#[test]
fn programs_dumps_cards_and_tables_with_their_probes_and_place() {
    let lines = dump();
    let kind = |v: &serde_json::Value| v["kind"].as_str().unwrap_or("").to_owned();
    let cards: Vec<_> = lines.iter().filter(|v| kind(v) == "card").collect();
    let tables: Vec<_> = lines.iter().filter(|v| kind(v) == "table").collect();
    assert_eq!(cards.len() + tables.len(), lines.len(), "every line is a card or a table");
    assert!(tables.len() > 100, "{} tables", tables.len());
    let curl = cards.iter().find(|c| c["names"].as_array().unwrap().iter().any(|n| n == "curl")).expect("curl's card");
    assert_eq!((curl["family"].as_str(), curl["owned"].as_bool()), (Some("http"), Some(true)));
    assert!(curl["traits"].as_array().unwrap().iter().any(|t| t == "network-sink"), "{curl}");
    let verbs = tables.iter().find(|t| t["name"] == "MUTATIVE_VERBS").expect("the one mutative-verb vocabulary");
    assert!(verbs["entries"].as_array().unwrap().iter().any(|e| e == "delete"));
    assert_eq!(verbs["probes"][0]["template"], "mytool {} item");
    assert_eq!(verbs["probes"][0]["expect"], "T3");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for t in &tables {
        let (file, line) = (t["file"].as_str().unwrap(), t["line"].as_u64().unwrap() as usize);
        let src = std::fs::read_to_string(root.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        let decl = src.lines().skip(line - 1).take(40).take_while(|l| !l.starts_with('}')).any(|l| l.contains(&format!("{} = [", t["name"].as_str().unwrap())));
        assert!(decl, "{file}:{line}: {} is declared in the `table!` that starts here", t["name"]);
    }
}
