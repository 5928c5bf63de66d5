//! The peers corpus kind through a real replay: a peer's scored case is an account
//! (agree, looser, stricter), excluded cases keep their reason, and a head that
//! moves a case away from its peer's label in the looser direction fails until the
//! move is declared.

use crate::repo::{check, failures, Repo, PEERS, RULES};

#[test]
fn a_looser_move_away_from_a_peers_label_must_be_declared() {
    let repo = Repo::new();
    let base = repo.git(&["rev-parse", "HEAD"]);
    let (code, r) = check(&repo.config(&base));
    assert_eq!(code, 0, "{}", failures(&r));
    let summary = std::fs::read_to_string(r.unwrap().report_dir.unwrap().join("summary.md")).unwrap();
    assert!(summary.contains("| guard | 3 | 3 (100.0 %) | 0 (0.0 %) | 0 (0.0 %) | 1 | 3 → 3 |"), "{summary}");

    // Head lets `mytool delete` through: the peer asks, so this is looser than its label.
    repo.write("classifier/rules.txt", &RULES.replace("mytool delete\tT3", "mytool delete\tT0"));
    let (code, r) = check(&repo.config(&base));
    assert_eq!(code, 1);
    let f = failures(&r);
    assert!(f.contains("row moving away from its peer's label (looser) guard/delete: verdict moved T3 → T0 without a declaration"), "{f}");
    let o = r.unwrap();
    assert_eq!(o.report.pending.len(), 1, "accept would declare it");
    let summary = std::fs::read_to_string(o.report_dir.unwrap().join("summary.md")).unwrap();
    assert!(summary.contains("| guard | 3 | 2 (66.7 %) | 1 (33.3 %) | 0 (0.0 %) | 1 | 3 → 2 |"), "{summary}");
    assert!(summary.contains("`guard/delete` `mytool delete x` — guard asks, expect gated+, head `T0 mytool.delete`"), "{summary}");

    repo.write(
        "declared/peer.json",
        r#"{"changes":[{"row":"guard/delete","from":"T3","to":"T0","reason":"mytool delete only deletes its own scratch files"}]}"#,
    );
    let (code, r) = check(&repo.config(&base));
    assert_eq!(code, 0, "declared: {}", failures(&r));
}

#[test]
fn peer_cases_are_checked_with_their_line() {
    let repo = Repo::new();
    repo.write(
        "corpus/peers/guard/cases.jsonl",
        &PEERS.replace(r#""excluded": "policy: frobbing is authoring (a fixture's reason)""#, r#""excluded": "policy""#),
    );
    let (code, r) = check(&repo.config("HEAD"));
    assert_eq!(code, 2);
    assert!(failures(&r).contains("corpus/peers/guard/cases.jsonl:3: column excluded: \"policy\" is not a reason `class: why`"), "{}", failures(&r));
    repo.write("corpus/peers/guard/cases.jsonl", &PEERS.replace(r#""peer": "allows", "expect": "free""#, r#""peer": "approves", "expect": "free""#));
    let (code, r) = check(&repo.config("HEAD"));
    assert_eq!(code, 2);
    assert!(failures(&r).contains("cases.jsonl:1: column peer: \"approves\" is not one of allows asks blocks gates unknown"), "{}", failures(&r));
}
