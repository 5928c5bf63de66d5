//! Coverage on a hand-made corpus: sides, controls by program, gaps, exemption-file strictness.

use super::*;
use crate::corpus::CuratedFamily;

fn truth(id: &str, command: &str, expect: Class, family: TruthFamily) -> Row {
    Row {
        kind: Kind::Truth,
        id: id.into(),
        command: command.into(),
        cwd: None,
        weight: 1,
        spec: Spec::Truth { expect, pinned: false, family, rule: None },
        file: "t.csv".into(),
        line: 2,
        note: String::new(),
    }
}

fn v(class: Class, rule: &str) -> Verdict {
    Verdict { class, rule: rule.into(), reason: "r".into(), error: None }
}

fn rule(id: &str, class: &str) -> RuleInfo {
    RuleInfo { id: id.into(), family: "git".into(), class: class.into(), matches: vec![], not_matches: vec![] }
}

fn fixture() -> (Vec<RuleInfo>, Vec<Row>, Vec<Verdict>) {
    let mut rules = vec![rule("git.push.force", "BLOCKED"), rule("git.read", "T0"), rule("git.lonely", "T3"), rule("rm.root", "BLOCKED"), rule("git.gc", "T3")];
    rules[4].matches = vec!["git gc --prune=now".into()];
    let mut rows = vec![
        truth("g1", "git push --force origin main", Class::Blocked, TruthFamily::Gated),
        truth("g2", "git status", Class::T0, TruthFamily::Free),
        truth("g3", "git push --dry-run origin main", Class::T2, TruthFamily::Free),
        truth("r1", "rm -rf /", Class::Blocked, TruthFamily::Gated),
    ];
    rows.push(Row {
        kind: Kind::Curated,
        spec: Spec::Curated { expect: Class::T3, family: CuratedFamily::Bypass },
        ..truth("c1", "git push -f", Class::T3, TruthFamily::Gated)
    });
    let verdicts = vec![
        v(Class::Blocked, "git.push.force"),
        v(Class::T0, "git.read"),
        v(Class::T2, "git.push.dry-run"),
        v(Class::Blocked, "rm.root"),
        v(Class::Blocked, "git.push.force"),
    ];
    (rules, rows, verdicts)
}

#[test]
fn counts_sides_controls_and_gaps() {
    let (rules, rows, verdicts) = fixture();
    let c = compute(&rules, &rows, &verdicts, &[]);
    let force = &c.rules[0];
    assert_eq!((force.truth_gated, force.truth_free, force.curated), (1, 0, 1));
    assert_eq!(force.controls, 2);
    assert_eq!(force.nearest_control.as_deref(), Some("g3"), "`git push --dry-run` shares two leading words");
    assert_eq!(c.rules[1].missing, Missing::None, "git.read: free row g2, gated control g1");
    assert_eq!(c.rules[2].missing, Missing::Both, "no rows, no examples");
    assert_eq!(c.rules[3].missing, Missing::Control, "nothing free runs rm");
    assert_eq!(c.rules[4].missing, Missing::Row, "its example stands next to free git rows");
    assert_eq!(c.rules[4].nearest_control.as_deref(), Some("g2"));
    assert_eq!(c.uncovered, ["git.lonely", "rm.root", "git.gc"]);
    assert_eq!(c.unregistered.get("git.push.dry-run"), Some(&1));
    let lines = exemption_lines(&c, &rules);
    assert_eq!(lines[1], "rm.root,control,todo: no free truth row runs the same program");
    let parsed = exempt::parse(format!("rule,missing,reason\n{}\n", lines.join("\n")).as_bytes()).unwrap();
    let again = compute(&rules, &rows, &verdicts, &parsed);
    assert_eq!(again.failures(), 0, "the proposed lines make the check pass: {:?}", again.stale);
}

#[test]
fn stale_and_unknown_exemptions_fail() {
    let (rules, rows, verdicts) = fixture();
    let ex = exempt::parse(b"rule,missing,reason\ngit.read,row,was missing\nrm.root,both,floor\nno.such,row,typo\ngit.lonely,row,half\n").unwrap();
    let c = compute(&rules, &rows, &verdicts, &ex);
    assert_eq!(c.uncovered, ["git.lonely", "git.gc"], "a `row` exemption does not cover `both`");
    assert_eq!(c.stale.len(), 3, "{:?}", c.stale);
    assert!(c.stale.iter().any(|s| s.contains("git.read") && s.contains("delete the line")));
    assert!(c.stale.iter().any(|s| s.contains("no.such is not a rule")));
}

#[test]
fn bless_keeps_reasons_narrows_and_drops() {
    let (rules, rows, verdicts) = fixture();
    let ex = exempt::parse(b"rule,missing,reason\ngit.read,row,was missing\nrm.root,both,\"floor, reviewed\"\nno.such,row,typo\n").unwrap();
    let c = compute(&rules, &rows, &verdicts, &ex);
    let text = blessed_file(&c, &rules, &ex);
    let again = exempt::parse(text.as_bytes()).unwrap();
    assert_eq!(compute(&rules, &rows, &verdicts, &again).failures(), 0, "{text}");
    assert!(text.contains("rm.root,control,\"floor, reviewed\"\n"), "narrowed, reason kept: {text}");
    assert!(!text.contains("git.read") && !text.contains("no.such"), "{text}");
    assert!(text.contains("git.lonely,both,todo:"), "{text}");
}

#[test]
fn exemption_file_is_strict() {
    assert!(exempt::parse(b"rule,why\n").is_err());
    let e = exempt::parse(b"rule,missing,reason\na,sometimes,x\nb,row,\nc,row,ok\nc,row,again\n").unwrap_err();
    assert_eq!(e.len(), 3, "{e:?}");
}

#[test]
fn neighbours_skip_assignments_and_paths() {
    assert_eq!(near::words("FOO=1 /usr/bin/git push"), ["git", "push"]);
    assert_eq!(near::closeness(&["git", "push", "-f"], &["git", "push", "-n"]).0, 2);
}
