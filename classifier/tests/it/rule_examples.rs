//! Every rule's own examples, run through the full `classify` (wrappers, data vs
//! execution and precedence included), so a shadowed rule fails on its example.

use classifier::rules;

use crate::check::verdict;

#[test]
fn every_rule_example_holds_through_the_full_pipeline() {
    let mut bad = Vec::new();
    let mut examples = 0;
    for r in rules::all() {
        for c in r.matches {
            examples += 1;
            let v = verdict(c);
            if v.rule != r.id {
                bad.push(format!("{}: misses `{c}` (got {} {})", r.id, v.rule, v.reason));
            }
        }
        for c in r.not_matches {
            examples += 1;
            let v = verdict(c);
            if v.rule == r.id {
                bad.push(format!("{}: hits `{c}`", r.id));
            }
        }
    }
    assert!(examples > 0, "no rule examples at all");
    assert!(bad.is_empty(), "{} rule examples failed:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn every_blocked_rule_says_what_to_do_instead() {
    // A blocked command is never approvable, so its reason must point somewhere:
    // a safer command (`suggest`), or words that name what to do instead.
    const POINTERS: &[&str] = &[
        "instead", "ask the user", "by hand", "use ", "run ", "list ", "name the", "write ", "download", "keep ", "back up", "print", "delete the", "review",
        "only the user",
    ];
    let vague: Vec<&str> = rules::all()
        .filter(|r| r.blocked && r.suggest.is_empty() && !POINTERS.iter().any(|p| r.reason.to_ascii_lowercase().contains(p)))
        .map(|r| r.id)
        .collect();
    assert!(vague.is_empty(), "blocked rules need a suggestion or a reason that says what to do instead: {vague:?}");
}

#[test]
fn suggestions_classify_lower_than_their_rule() {
    for r in rules::all().filter(|r| !r.suggest.is_empty()) {
        let v = verdict(r.suggest);
        assert!(!v.blocked && (v.tier < r.tier || r.blocked), "{}: suggestion `{}` is itself {} ({})", r.id, r.suggest, v.tier, v.rule);
    }
}
