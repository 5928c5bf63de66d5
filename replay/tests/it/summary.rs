//! Snapshot of `summary.md` rendering over a fixed report: the committed file
//! `snapshots/summary.md` must match byte for byte. Set `UPDATE_SNAPSHOTS=1` to
//! rewrite it (never under CI), then review the git diff.

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
    let text = markdown::render(&fixed_report());
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/snapshots/summary.md");
    // CI never writes: under CI the committed snapshot is the only truth.
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() && !replay::is_ci() {
        std::fs::write(&path, &text).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(text == want, "summary.md rendering changed; rerun with UPDATE_SNAPSHOTS=1 and review:\n{text}");
}

#[test]
fn summary_md_is_deterministic_and_budgeted() {
    let a = markdown::render(&fixed_report());
    let b = markdown::render(&fixed_report());
    assert_eq!(a, b);
    assert!(a.starts_with("❌ replay 0123456789..worktree: 1 policy failure(s)"), "{a}");
    assert!(a.contains("_3 more omitted for this rule_"), "{a}");
}
