//! tiergate itself: an agent must never approve its own request nor touch the
//! store that holds grants. The human runs `tiergate approve`; an agent running it
//! (directly, as `./target/release/tiergate`, through a wrapper, a script or
//! interpreter code) is blocked.
//!
//! `self_defence` is the one predicate. The family applies it to units it owns, and
//! the engine (`Eng::defend`) applies it to every unit as it completes, including
//! program paths the dispatcher reads as scripts and units no family saw (`sudo
//! --odd tiergate approve X`), in one pass for traced and verdict-only runs, so
//! `tiergate batch`, `classify`, `explain` and the hook give one answer.

use crate::call::{basename, Invocation};
use crate::protect::{Guard, Protected};
use crate::rules::{Card, Cx, Family, Rule};
use crate::words;

pub static FAMILY: Family = Family::new("tiergate", &[Card::of(words!["tiergate"], check)], RULES);

static RULES: &[&Rule] = &[&SELF_APPROVAL, &STORE, &READ];

/// ## What it matches
/// `tiergate approve CODE` (any program named `tiergate`, at any path, with an `approve` word), run by the agent rather than the human.
/// ## Why this tier
/// A grant the agent mints for itself is no consent at all. Never approvable.
pub static SELF_APPROVAL: Rule = Rule::blocked("tiergate.self-approval")
    .reason("an agent may not approve its own request; only the user approves a code, in their own terminal")
    .matches(words![
        "tiergate approve K7QF2M", "sudo /usr/local/bin/tiergate approve ABC123", "bash -c 'tiergate approve X'", "./target/release/tiergate approve X",
        "target/debug/tiergate approve X",
    ])
    .not_matches(words!["tiergate approvals list", "tiergate explain 'ls'", "echo tiergate approve X"]);

/// ## What it matches
/// Any command naming tiergate's approval store: an argument holding `tiergate.db` or the hook's data directory.
/// ## Why this tier
/// The store holds grants and pending codes; an agent reading or editing it could approve itself. Never approvable.
pub static STORE: Rule = Rule::blocked("tiergate.store")
    .reason("names tiergate's approval store, which the agent may not read or change; ask the user")
    .matches(words!["sqlite3 ~/.local/share/tiergate/tiergate.db 'delete from grants'", "cat /var/lib/x/tiergate.db"])
    .not_matches(words!["cat tiergate.toml", "tiergate log -n 5", "cp a tiergate.db.txt"]);

/// ## What it matches
/// The rest of tiergate's commands: classify, explain, batch, log, and approvals that only remove grants.
/// ## Why this tier
/// They read or only reduce what was granted.
pub static READ: Rule = Rule::t0("tiergate.read")
    .reason("tiergate command that reads or only removes grants")
    .matches(words!["tiergate classify 'git push -f'", "tiergate approvals revoke 3", "tiergate log -n 5"])
    .not_matches(words!["tiergate approve X"]);

/// Self-approval and the store are not recorded here: the pass over every unit
/// (`Eng::defend`, as each unit completes, in traced and verdict-only runs alike) records them,
/// whichever family saw the unit, so this family only answers the rest.
fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    if self_defence(&inv.program_path, inv.args.iter().map(|a| a.text.as_str()), cx.protected()).is_none() {
        cx.hit(&READ);
    }
}

/// The one self-defence check, on a unit's program word (as written) and its
/// arguments: `Some(rule, reason)` when the agent approves its own request
/// (a program named `tiergate` with an `approve` word) or names the approval
/// store (`tiergate.db`, or a data directory the request's `Protected` carries).
pub fn self_defence<'a>(program: &'a str, args: impl Iterator<Item = &'a str> + Clone, protect: &Protected) -> Option<(&'static Rule, String)> {
    if crate::names::program(program) == "tiergate" && args.clone().any(|a| a == "approve") {
        return Some((&SELF_APPROVAL, SELF_APPROVAL.reason.to_owned()));
    }
    // Called for every unit: no allocation, and the token split only for a word
    // that holds a store file name at all (every name below contains `tiergate.db`).
    let dirs = || protect.dirs(Guard::TiergateStore).filter(|d| d.len() > 1);
    // A word names the store when a path-like token in it ends in the store's file name
    // (`/x/tiergate.db`, `open('tiergate.db-wal')`), not `tiergate.db.txt`.
    let store_file = |t: &str| {
        let name = basename(t);
        matches!(name, "tiergate.db" | "tiergate.db-wal" | "tiergate.db-shm" | "tiergate.db-journal" | "tiergate.db-log")
            || name.starts_with("tiergate.db-log.fold-")
    };
    let token = |c: char| !(c.is_ascii_alphanumeric() || "._-/~+@%:".contains(c));
    // (A word shorter than what it is searched for cannot hold it: most words are skipped on their length.)
    let names_store =
        |a: &str| (a.len() >= 11 && a.contains("tiergate.db") && a.split(token).any(store_file)) || dirs().any(|d| a.len() >= d.len() && a.contains(d));
    let hit = std::iter::once(program).chain(args).find(|a| names_store(a))?;
    Some((&STORE, format!("`{hit}` names tiergate's approval store, which the agent may not read or change; ask the user")))
}

/// The same check on text tiergate cannot parse into units (PowerShell, an
/// unknown tool's command): there no word boundaries are known, so any mention
/// counts — `tiergate` with `approve` anywhere, a store file name anywhere, or a
/// data directory the request's `Protected` carries. Looser than `self_defence`
/// on purpose: for opaque text a false match only turns an ask into a deny.
pub fn self_defence_in_text(text: &str, protect: &Protected) -> Option<(&'static Rule, String)> {
    let lower = text.to_lowercase();
    if lower.contains("tiergate") && lower.contains("approve") {
        return Some((&SELF_APPROVAL, SELF_APPROVAL.reason.to_owned()));
    }
    let names_store = lower.contains("tiergate.db") || protect.dirs(Guard::TiergateStore).filter(|d| d.len() > 1).any(|d| lower.contains(&d.to_lowercase()));
    names_store.then(|| (&STORE, STORE.reason.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opaque_text_is_judged_by_mention() {
        let p = Protected::builtin().with_dir("/home/u/.local/share/tiergate", Guard::TiergateStore);
        let id = |t: &str| self_defence_in_text(t, &p).map(|(r, _)| r.id);
        assert_eq!(id("& 'C:\\bin\\TierGate.exe' Approve K7QF2M"), Some("tiergate.self-approval"));
        assert_eq!(id("Get-Content $env:APPDATA\\tiergate.db"), Some("tiergate.store"));
        assert_eq!(id("Remove-Item /home/u/.local/share/tiergate/grants"), Some("tiergate.store"));
        assert_eq!(id("Get-ChildItem ."), None);
        assert_eq!(id("tiergate explain 'ls'"), None);
    }
}
