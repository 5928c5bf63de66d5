//! tiergate itself: an agent must never approve its own request. The human runs
//! `tiergate approve`; an agent running it (directly, through a wrapper, a
//! script or interpreter code) is blocked.

use crate::call::Invocation;
use crate::rules::{Cx, Family, Rule};

pub static FAMILY: Family = Family { name: "tiergate", programs: &["tiergate"], check, rules: RULES };

static RULES: &[&Rule] = &[&SELF_APPROVAL, &READ];

/// ## What it matches
/// `tiergate approve CODE`, run by the agent rather than the human.
/// ## Why this tier
/// A grant the agent mints for itself is no consent at all. Never approvable.
pub static SELF_APPROVAL: Rule = Rule::blocked("tiergate.self-approval")
    .reason("an agent may not approve its own request; ask the user to run `tiergate approve CODE` in their own terminal")
    .matches(&["tiergate approve K7QF2M", "sudo /usr/local/bin/tiergate approve ABC123", "bash -c 'tiergate approve X'"])
    .not_matches(&["tiergate approvals list", "tiergate explain 'ls'"]);

/// ## What it matches
/// The rest of tiergate's commands: classify, explain, batch, log, and approvals that only remove grants.
/// ## Why this tier
/// They read or only reduce what was granted.
pub static READ: Rule = Rule::t0("tiergate.read")
    .reason("tiergate command that reads or only removes grants")
    .matches(&["tiergate classify 'git push -f'", "tiergate approvals revoke 3", "tiergate log -n 5"])
    .not_matches(&["tiergate approve X"]);

fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    match inv.bare_words().next() {
        Some("approve") => cx.hit(&SELF_APPROVAL),
        _ => cx.hit(&READ),
    }
}
