//! The probes kind end to end: rows from the base binary's `tiergate programs` (the
//! tiny tiergate dumps a `VERBS` table of its `tool W` rules, probed `tool {}`), a
//! table edit that moves a row fails until declared, a row only head's dump has is
//! judged by head's probe.

use replay::corpus::Kind;

use crate::repo::{check, failures, Repo, RULES};

fn probe_ids(r: &Result<replay::Outcome, replay::exit::ReplayError>) -> Vec<String> {
    let o = r.as_ref().expect("a replay outcome");
    let mut ids: Vec<String> = o.report.rows.iter().filter(|r| r.corpus == Kind::Probes).map(|r| r.id.clone()).collect();
    ids.sort();
    ids
}

#[test]
fn a_table_edit_that_moves_a_probe_row_fails_until_declared() {
    let repo = Repo::new();
    let tools = format!("{RULES}tool nuke\tT3\ttool.nuke\ntool wipe\tT3\ttool.wipe\n");
    repo.write("classifier/rules.txt", &tools);
    let base = repo.commit("a probed table");

    // Dropping `wipe` from the table moves its row (T3 → T0 on head): declare it.
    repo.write("classifier/rules.txt", &tools.replace("tool wipe\tT3\ttool.wipe\n", ""));
    let (code, r) = check(&repo.config(&base));
    assert_eq!(code, 1, "{}", failures(&r));
    let f = failures(&r);
    assert!(
        f.contains("[declare] classifier/src/main.rs:1 VERBS probe row (the base's table probe) table-tool_wipe: verdict moved T3 → T0 without a declaration"),
        "{f}"
    );
    assert_eq!(probe_ids(&r), ["table-tool_nuke", "table-tool_wipe"], "the dropped entry's row is still answered");
    let decl = r#"{"changes":[{"row":"table-tool_wipe","from":"T3","to":"T0","reason":"wipe is a read now"}]}"#;
    repo.write("declared/wipe.json", decl);
    let (code, r) = check(&repo.config(&base));
    assert_eq!(code, 0, "{}", failures(&r));
    let summary = &r.as_ref().unwrap().report.sections.join("\n");
    assert!(summary.contains("2 rows from `tiergate programs`: 1 probed by both dumps, 1 by the base's only"), "{summary}");
}

#[test]
fn a_row_only_heads_dump_has_is_new_and_judged_by_heads_probe() {
    let repo = Repo::new();
    let tools = format!("{RULES}tool nuke\tT3\ttool.nuke\n");
    repo.write("classifier/rules.txt", &tools);
    let base = repo.commit("a probed table");
    // `zap` joins the table and gets its tier: a new row, nothing to declare.
    repo.write("classifier/rules.txt", &format!("{tools}tool zap\tT3\ttool.zap\n"));
    let (code, r) = check(&repo.config(&base));
    assert_eq!(code, 0, "{}", failures(&r));
    assert_eq!(probe_ids(&r), ["table-tool_nuke", "table-tool_zap"]);
    // An entry whose row head's own probe does not get is a failure of its own.
    repo.write("classifier/rules.txt", &format!("{tools}tool peek\tT0\ttool.peek\n"));
    let (code, r) = check(&repo.config(&base));
    assert_eq!(code, 1, "{}", failures(&r));
    let f = failures(&r);
    assert!(f.contains("[probes] classifier/src/main.rs:1 VERBS table-tool_peek: head's probe expects T3, head says T0 by tool.peek"), "{f}");
}
