//! Snapshot of `summary.md` rendering over a fixed report: an `insta` snapshot
//! (`snapshots/it__summary__summary_md.snap`). A change fails the test and, outside
//! CI, leaves a `.snap.new` for `cargo insta review` (README, "Snapshots").

use replay::caps::CapUse;
use replay::checks::Failure;
use replay::corpus::Kind;
use replay::diff::{categorize, RowResult};
use replay::protocol::{Class, Verdict};
use replay::report::{markdown, Report};

fn v(class: Class, rule: &str, reason: &str) -> Option<Verdict> {
    Some(Verdict { class, rule: rule.into(), reason: reason.into(), error: None })
}

fn row(corpus: Kind, id: &str, command: &str, weight: u64, base: Option<Verdict>, head: Option<Verdict>) -> RowResult {
    let category = categorize(base.as_ref(), head.as_ref());
    RowResult { corpus, id: id.into(), command: command.into(), cwd: None, weight, category, base, head }
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
        failures: vec![Failure::new("caps", None, "caps.json history.new_prompts: 8/5 exceeded".into())],
        pending: Vec::new(),
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
    assert!(a.starts_with("❌ replay 0123456789..worktree: 1 policy failure(s)"), "{a}");
    assert!(a.contains("_3 more omitted for this rule_"), "{a}");
}
