//! The peers kind: other guards' own labelled test cases,
//! `corpus/peers/<peer>/cases.jsonl`, one object per line:
//! `{"id", "command", "peer", "expect"}` for a scored row or
//! `{"id", "command", "peer", "excluded"}` for a row whose label does not carry
//! over to tiergate's policy, with the reason (`class: why`). `peer` is what the
//! peer decided (`allows`, `asks`, `blocks`, `gates` = asks or blocks, `unknown`),
//! `expect` tiergate's class: `free` (allow), `gated` (ask), `gated+` (ask or deny)
//! or `blocked` (deny). corpus/peers/README.md says how each peer's label maps.
//!
//! A scored row is judged like a truth row, as a separate account: head agrees,
//! is looser (allows what should be gated, asks what should be blocked) or
//! stricter. Disagreeing is not a failure by itself; moving away from agreement in
//! the looser direction is, unless declared. The summary's section is the account
//! per peer (agree, looser, stricter, excluded, and base → head).

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::Deserialize;

use super::{verdict_move, Answered, AtBase, CorpusKind, Kind, Row, Source, Spec};
use crate::checks::Failure;
use crate::declare::Move;
use crate::protocol::{Class, Verdict};
use crate::report::markdown::{inline, inline_clipped};

const DIR: &str = "corpus/peers";
const FILE: &str = "cases.jsonl";

/// tiergate's expectation of a peer's scored row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PeerExpect {
    /// Allowed: T0–T2.
    Free,
    /// Asked, never blocked: T3.
    Gated,
    /// Asked or denied: T3 or blocked.
    GatedPlus,
    /// Denied: blocked.
    Blocked,
}

impl PeerExpect {
    pub fn parse(s: &str) -> Option<PeerExpect> {
        Some(match s {
            "free" => PeerExpect::Free,
            "gated" => PeerExpect::Gated,
            "gated+" => PeerExpect::GatedPlus,
            "blocked" => PeerExpect::Blocked,
            _ => return None,
        })
    }
    pub fn as_str(self) -> &'static str {
        match self {
            PeerExpect::Free => "free",
            PeerExpect::Gated => "gated",
            PeerExpect::GatedPlus => "gated+",
            PeerExpect::Blocked => "blocked",
        }
    }
    /// The classes that agree with this expectation: `lo..=hi`.
    fn range(self) -> (Class, Class) {
        match self {
            PeerExpect::Free => (Class::T0, Class::T2),
            PeerExpect::Gated => (Class::T3, Class::T3),
            PeerExpect::GatedPlus => (Class::T3, Class::Blocked),
            PeerExpect::Blocked => (Class::Blocked, Class::Blocked),
        }
    }
    /// Where `class` stands against this expectation.
    pub fn account(self, class: Class) -> Account {
        let (lo, hi) = self.range();
        if class < lo {
            Account::Looser
        } else if class > hi {
            Account::Stricter
        } else {
            Account::Agree
        }
    }
}

/// Head against a peer's label.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Account {
    Agree,
    /// Allows (or only asks) what the label gates (or blocks).
    Looser,
    /// Gates (or blocks) what the label allows (or only gates).
    Stricter,
}

/// The peer's decisions this corpus records (corpus/peers/README.md).
const DECISIONS: &[&str] = &["allows", "asks", "blocks", "gates", "unknown"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    id: String,
    /// null in a few excluded cases: the peer's test passes no command at all.
    command: Option<String>,
    peer: String,
    #[serde(default)]
    expect: Option<String>,
    #[serde(default)]
    excluded: Option<String>,
}

/// Parses one peer's `cases.jsonl`; every bad line is reported as `file:line: why`.
pub fn parse(peer: &str, file: &str, bytes: &[u8]) -> Result<Vec<Row>, Vec<String>> {
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let n = i as u64 + 1;
        if raw.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let l: Line = match serde_json::from_slice(raw) {
            Ok(l) => l,
            Err(e) => {
                errors.push(format!("{file}:{n}: {e}"));
                continue;
            }
        };
        let mut bad = |col: &str, why: String| errors.push(format!("{file}:{n}: column {col}: {why}"));
        if l.id.trim().is_empty() {
            bad("id", "empty id".into());
            continue;
        }
        // A case without a command (null, empty) can only be an exclusion: it is
        // replayed as the empty command and counted, never scored.
        let command = l.command.unwrap_or_default();
        if command.trim().is_empty() && l.excluded.is_none() {
            bad("command", "empty command in a scored row".into());
            continue;
        }
        if !DECISIONS.contains(&l.peer.as_str()) {
            bad("peer", format!("{:?} is not one of {}", l.peer, DECISIONS.join(" ")));
            continue;
        }
        let (expect, note) = match (l.expect.as_deref(), l.excluded) {
            (Some(e), None) => match PeerExpect::parse(e) {
                Some(e) => (Some(e), String::new()),
                None => {
                    bad("expect", format!("{e:?} is not one of free gated gated+ blocked"));
                    continue;
                }
            },
            (None, Some(why)) if why.split_once(": ").is_some_and(|(class, reason)| !class.is_empty() && !reason.trim().is_empty()) => (None, why),
            (None, Some(why)) => {
                bad("excluded", format!("{why:?} is not a reason `class: why` (an excluded row keeps a written reason)"));
                continue;
            }
            _ => {
                bad("expect", "a row has either `expect` (scored) or `excluded` (with its reason), not both or neither".into());
                continue;
            }
        };
        rows.push(Row {
            kind: Kind::Peers,
            id: format!("{peer}/{}", l.id),
            command,
            cwd: None,
            weight: 1,
            spec: Spec::Peer { peer: peer.to_owned(), decision: l.peer, expect },
            file: file.to_owned(),
            line: n,
            note,
        });
    }
    if errors.is_empty() {
        Ok(rows)
    } else {
        Err(errors)
    }
}

pub(super) struct Peers;

fn account_of(row: &Row, v: Option<&Verdict>) -> Option<Account> {
    let Spec::Peer { expect: Some(e), .. } = &row.spec else { return None };
    v.filter(|v| !v.is_error()).map(|v| e.account(v.class))
}

impl CorpusKind for Peers {
    fn location(&self) -> &'static str {
        "corpus/peers/*/cases.jsonl"
    }

    fn load(&self, src: &dyn Source) -> Result<Vec<Row>, Vec<String>> {
        super::source::load_per_folder(src, (DIR, FILE, "peer"), parse)
    }

    /// Disagreeing with a peer is an account, not a failure; a row head cannot
    /// answer is.
    fn third_party(&self) -> bool {
        true
    }

    fn check(&self, r: &Row, v: &Verdict) -> Option<Failure> {
        let e = v.error.as_ref()?;
        Some(Failure::new("peers", Some(&r.id), format!("{}:{} {}: head gave no verdict ({e})", r.file, r.line, r.id)))
    }

    /// A verdict move that leaves head looser than the label where the base was
    /// not (or makes a looser row looser still) must be declared.
    fn moves(&self, r: &Row, head: &Verdict, base: AtBase) -> Vec<Move> {
        let base_verdict = base.and_then(|(_, v)| v);
        let away = match (account_of(r, base_verdict), account_of(r, Some(head))) {
            (Some(b), Some(Account::Looser)) => b != Account::Looser || base_verdict.is_some_and(|bv| head.class < bv.class),
            _ => false,
        };
        let mut mv: Vec<Move> = verdict_move(r, head, base, away).into_iter().collect();
        if away {
            for m in &mut mv {
                m.claim = "row moving away from its peer's label (looser)";
            }
        }
        mv
    }

    fn label(&self, r: &Row) -> Option<String> {
        let Spec::Peer { peer, decision, expect } = &r.spec else { return None };
        Some(match expect {
            Some(e) => format!("{peer} {decision}; tiergate expects {}", e.as_str()),
            None => format!("{peer} {decision}; excluded: {}", r.note),
        })
    }

    fn section(&self, rows: &[Answered]) -> Option<String> {
        section(rows)
    }
}

/// Per peer: (scored, excluded, head account counts, base agree when known).
#[derive(Default)]
struct Tally {
    scored: u64,
    excluded: u64,
    head: BTreeMap<Account, u64>,
    base_agree: Option<u64>,
    looser: Vec<String>,
}

/// Examples of looser rows listed per peer.
const LOOSER_SHOWN: usize = 5;

/// The agreement table: per peer, agree / looser / stricter (share of scored rows),
/// excluded, and agreement at the base; then each peer's first looser rows.
fn section(rows: &[Answered]) -> Option<String> {
    let mut by: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut diffed = false;
    for a in rows {
        let Spec::Peer { peer, decision, expect } = &a.row.spec else { continue };
        let t = by.entry(peer.as_str()).or_default();
        let Some(e) = expect else {
            t.excluded += 1;
            continue;
        };
        t.scored += 1;
        if let Some(acc) = account_of(a.row, a.head) {
            *t.head.entry(acc).or_default() += 1;
            if acc == Account::Looser {
                let v = a.head.map(|v| v.short()).unwrap_or_default();
                t.looser.push(format!("{} {} — {peer} {decision}, expect {}, head `{v}`", inline(&a.row.id), inline_clipped(&a.row.command, 100), e.as_str()));
            }
        }
        if a.base.is_some() {
            diffed = true;
            *t.base_agree.get_or_insert(0) += u64::from(account_of(a.row, a.base) == Some(Account::Agree));
        }
    }
    if by.is_empty() {
        return None;
    }
    let mut out = String::from("## Peers\n\nHead against each peer's own labels (corpus/peers/README.md): shares of the scored rows.\n\n");
    out.push_str("| peer | scored | agree | looser | stricter | excluded | agree at base → head |\n|---|---:|---:|---:|---:|---:|---|\n");
    let pct = |n: u64, of: u64| if of == 0 { "–".to_owned() } else { format!("{n} ({:.1} %)", n as f64 * 100.0 / of as f64) };
    for (peer, t) in &by {
        let n = |a: Account| t.head.get(&a).copied().unwrap_or(0);
        let change = match (t.base_agree, diffed) {
            (Some(b), true) => format!("{b} → {}", n(Account::Agree)),
            _ => "– (no base)".to_owned(),
        };
        let _ = writeln!(
            out,
            "| {peer} | {} | {} | {} | {} | {} | {change} |",
            t.scored,
            pct(n(Account::Agree), t.scored),
            pct(n(Account::Looser), t.scored),
            pct(n(Account::Stricter), t.scored),
            t.excluded
        );
    }
    for (peer, t) in by.iter().filter(|(_, t)| !t.looser.is_empty()) {
        let _ = writeln!(out, "\nLooser than {peer} ({}):\n", t.looser.len());
        for l in t.looser.iter().take(LOOSER_SHOWN) {
            let _ = writeln!(out, "- {l}");
        }
        if t.looser.len() > LOOSER_SHOWN {
            let _ = writeln!(out, "- _{} more in `results.jsonl`_", t.looser.len() - LOOSER_SHOWN);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_expectation_has_its_agreeing_classes() {
        let accounts = |e: PeerExpect| Class::ALL.map(|c| e.account(c));
        use Account::{Agree as A, Looser as L, Stricter as S};
        assert_eq!(accounts(PeerExpect::Free), [A, A, A, S, S]);
        assert_eq!(accounts(PeerExpect::Gated), [L, L, L, A, S]);
        assert_eq!(accounts(PeerExpect::GatedPlus), [L, L, L, A, A]);
        assert_eq!(accounts(PeerExpect::Blocked), [L, L, L, L, A]);
    }
}
