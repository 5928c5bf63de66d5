//! Snapshot of `summary.md` rendering over a fixed report: an `insta` snapshot
//! (`snapshots/it__summary__summary_md.snap`). A change fails the test and, outside
//! CI, leaves a `.snap.new` for `cargo insta review` (README, "Snapshots").

use replay::caps::CapUse;
use replay::checks::Failure;
use replay::corpus::{peers, sessions, Answered, Kind, Row};
use replay::diff::{categorize, RowResult};
use replay::protocol::{Class, Verdict};
use replay::report::{markdown, Report};

fn v(class: Class, rule: &str, reason: &str) -> Option<Verdict> {
    Some(Verdict { class, rule: rule.into(), reason: reason.into(), error: None })
}

fn row(corpus: Kind, id: &str, command: &str, weight: u64, base: Option<Verdict>, head: Option<Verdict>) -> RowResult {
    let category = categorize(base.as_ref(), head.as_ref());
    RowResult { corpus, id: id.into(), command: command.into(), cwd: None, weight, category, base, head, label: None }
}

const PEER_CASES: &str = r#"{"id": "a", "command": "ls", "peer": "allows", "expect": "free"}
{"id": "b", "command": "rm -rf build", "peer": "asks", "expect": "gated+"}
{"id": "c", "command": "pip cache list", "peer": "allows", "expect": "free"}
{"id": "d", "command": "unzip -d /tmp a.zip", "peer": "asks", "excluded": "policy: /tmp is scratch space"}
"#;

const SESSION_STEPS: &str = r#"{"session": "s1", "step": 0, "cwd": "/testbed", "command": "cat > x.py <<'EOF'\nprint(1)\nEOF"}
{"session": "s1", "step": 1, "cwd": "/testbed", "command": "python3 x.py"}
{"session": "s1", "step": 2, "cwd": "/testbed", "command": "rm x.py"}
{"session": "s2", "step": 0, "cwd": "/testbed", "command": "python3 reproduce.py"}
"#;

/// The peers and sessions rows of the fixed report, with their sections as the
/// kinds render them: (rows as results, sections).
fn kinds_rows() -> (Vec<RowResult>, Vec<String>) {
    let peer_rows = peers::parse("guard", "corpus/peers/guard/cases.jsonl", PEER_CASES.as_bytes()).unwrap();
    let peer_answers = [
        (v(Class::T0, "default", "read"), v(Class::T0, "default", "read")),
        // Loosened away from the peer's label: a policy failure until declared.
        (v(Class::T3, "coreutils.rm", "deletes"), v(Class::T0, "default", "read")),
        (v(Class::T3, "packages.clean", "cache"), v(Class::T3, "packages.clean", "cache")),
        (v(Class::T0, "default", "read"), v(Class::T0, "default", "read")),
    ];
    let step_rows = sessions::parse("agent", "corpus/sessions/agent/sessions.jsonl", SESSION_STEPS.as_bytes()).unwrap();
    let step_answers = [
        (v(Class::T0, "paths.tree", "authoring"), v(Class::T0, "paths.tree", "authoring")),
        (v(Class::T3, "interp.script.unreadable", "missing"), v(Class::T0, "interp.code.read", "prints")),
        (v(Class::T3, "coreutils.rm", "deletes"), v(Class::T3, "coreutils.rm", "deletes")),
        (v(Class::T3, "interp.script.unreadable", "missing"), v(Class::T3, "interp.script.unreadable", "missing")),
    ];
    let mut results = Vec::new();
    let mut sections = Vec::new();
    for (kind, rows, answers) in [(Kind::Peers, &peer_rows, &peer_answers), (Kind::Sessions, &step_rows, &step_answers)] {
        let answered: Vec<Answered> =
            rows.iter().zip(answers.iter()).map(|(r, (b, h)): (&Row, _)| Answered { row: r, head: h.as_ref(), base: b.as_ref() }).collect();
        sections.extend(kind.def().section(&answered));
        for (r, (b, h)) in rows.iter().zip(answers.iter()) {
            let mut x = row(kind, &r.id, &r.command, 1, b.clone(), h.clone());
            x.label = kind.def().label(r);
            results.push(x);
        }
    }
    (results, sections)
}

fn fixed_report() -> Report {
    let mut rows = vec![
        row(Kind::Truth, "ls", "ls -la", 1, v(Class::T0, "default", "read-only"), v(Class::T0, "default", "read-only")),
        row(
            Kind::Truth,
            "push-force",
            "git push --force origin main",
            1,
            v(Class::T3, "git.push", "pushing changes the remote; ask first"),
            v(Class::Blocked, "git.push.force", "force push rewrites remote history; use --force-with-lease"),
        ),
        row(Kind::History, "h-make", "make install", 7, v(Class::T0, "default", "unknown program"), v(Class::T3, "make.install", "installs files system-wide")),
        row(Kind::History, "h-cat", "cat a | grep `b`", 2, v(Class::T0, "default", "read"), v(Class::T0, "default", "read-only pipeline")),
        row(Kind::History, "h-gone", "old", 1, v(Class::T0, "default", "read"), None),
        row(Kind::Curated, "fp-echo", "echo rm -rf /", 1, v(Class::T3, "fs.rm", "deletes"), v(Class::T0, "default", "data")),
        row(Kind::Curated, "new-row", "sudo rm x", 1, None, v(Class::T3, "fs.rm", "deletes")),
        row(Kind::Curated, "err", "boom", 1, v(Class::T0, "default", "x"), Some(Verdict::error("no answer within 10 s"))),
    ];
    rows.extend(
        (0..7).map(|i| {
            row(Kind::History, &format!("h-rm-{i}"), &format!("rm file{i}"), 1, v(Class::T0, "default", "r"), v(Class::T3, "fs.rm", "deletes a file"))
        }),
    );
    let (kind_rows, sections) = kinds_rows();
    rows.extend(kind_rows);
    let mut r = Report {
        base: "0123456789".into(),
        head: "worktree".into(),
        base_rule: "--base main".into(),
        notes: vec!["an example note".into()],
        corpora: Kind::ALL.to_vec(),
        diffed: true,
        rows,
        caps: vec![
            CapUse { corpus: Kind::History, cap: "new_prompts", used: 8, limit: 5 },
            CapUse { corpus: Kind::Curated, cap: "loosened", used: 1, limit: 0 },
        ],
        failures: vec![
            Failure::new("caps", None, "caps.json history.new_prompts: 8/5 exceeded".into()),
            Failure::new(
                "declare",
                Some("guard/b"),
                "corpus/peers/guard/cases.jsonl:2 row moving away from its peer's label (looser) guard/b: verdict moved T3 → T0 without a declaration".into(),
            ),
        ],
        pending: Vec::new(),
        sections,
        coverage: None,
    };
    r.sort();
    r
}

#[test]
fn summary_md_renders_as_committed() {
    insta::assert_snapshot!("summary_md", markdown::render(&fixed_report()));
}

#[test]
fn summary_md_is_deterministic_and_budgeted() {
    let a = markdown::render(&fixed_report());
    let b = markdown::render(&fixed_report());
    assert_eq!(a, b);
    assert!(a.starts_with("❌ replay 0123456789..worktree: 2 policy failure(s)"), "{a}");
    // Failures first: the loosened peer row's rule leads the examples, ahead of the
    // rule with the most changed rows.
    let examples = &a[a.find("## Examples").unwrap()..];
    assert!(examples.find("`default`").unwrap() < examples.find("`fs.rm`").unwrap(), "{examples}");
    assert!(a.contains("| guard | 3 | 1 (33.3 %) | 1 (33.3 %) | 1 (33.3 %) | 1 | 2 → 1 |"), "{a}");
    assert!(a.contains("| agent | 2 | 4 | 2 | 750.0 | 500.0 |"), "{a}");
    assert!(a.contains("_3 more omitted for this rule_"), "{a}");
}
