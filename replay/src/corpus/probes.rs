//! The probes kind: one row per entry of every policy table that declares a probe,
//! derived at replay time from the binaries' `tiergate programs` (crate::dump), never
//! from a committed file (decisions 0009 and 0013 §4).
//!
//! A table says once, as typed fields of its `table!`, how any of its entries is used
//! on a command line and what that command's tier (and, where the tier cannot tell an
//! entry from its absence, deciding rule) is. `{}` in the template is the entry, `{-}`
//! the entry without its last character (tables read by prefix); a restricted probe
//! (`only`) takes the entries it names; `except` entries get no row.
//!
//! Where the rows come from, and how each is judged:
//! - **The base's dump** gives the rows both sides answer, and each row's expectation
//!   is the base's. A row whose tier on head is not the base's expected tier is a move
//!   that must be declared, like a pinned truth row's (`declared/*.json`, from the
//!   base's expected tier to head's): a table edit that moves a verdict is reviewed.
//! - **Head's dump** is head's own claim about its tables: a row head's dump has must
//!   get head's probe (tier and rule) on head, or the table and the code disagree.
//!   A row only head's dump has (an entry head added, a new probe) is a new row, judged
//!   by head's probe only.
//! - A row only the base's dump has (an entry head dropped, a probe head removed or
//!   rewrote) is still answered on both sides and judged by the base's tier: dropping
//!   an entry is free when no verdict moves, and declared when one does.
//! - Without a base dump (a base from before `tiergate programs`, an `--against`
//!   program that is not tiergate) the rows are head's, and the report says so.
//!
//! Loaders never run anything: `load` gives no rows; the replay adds them after
//! the Build step (`rows`).

use std::collections::{HashMap, HashSet};

use super::{AtBase, CorpusKind, Row, Source, Spec};
use crate::checks::Failure;
use crate::declare::{Move, MoveKind};
use crate::dump::Table;
use crate::protocol::{Class, Verdict};

/// What one side's dump expects of a probe row: the tier, and the rule when the
/// probe names one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProbeExpect {
    pub tier: Class,
    pub rule: Option<String>,
    /// `TABLE` at `file:line` of the table whose probe made the row.
    pub table: String,
}

impl ProbeExpect {
    fn says(&self) -> String {
        match &self.rule {
            Some(r) => format!("{} decided by {r}", self.tier),
            None => self.tier.to_string(),
        }
    }
}

/// How a probe row's undeclared move is named in its failure.
pub const CLAIM: &str = "probe row (the base's table probe)";

pub(super) struct Probes;

impl CorpusKind for Probes {
    fn location(&self) -> &'static str {
        "tiergate programs (the base binary's table probes)"
    }

    fn load(&self, _src: &dyn Source) -> Result<Vec<Row>, Vec<String>> {
        Ok(Vec::new())
    }

    fn rows_from_binary(&self) -> bool {
        true
    }

    /// Head's answer against head's own probe of the row, when head's dump has one.
    fn check(&self, r: &Row, v: &Verdict) -> Option<Failure> {
        let Spec::Probe { head: Some(h), .. } = &r.spec else { return None };
        let at = format!("{} {}", h.table, r.id);
        if let Some(e) = &v.error {
            return Some(Failure::new("probes", Some(&r.id), format!("{at}: head gave no verdict ({e})")));
        }
        let holds = v.class == h.tier && h.rule.as_ref().is_none_or(|rule| v.rule == *rule);
        (!holds).then(|| {
            Failure::new("probes", Some(&r.id), format!("{at}: head's probe expects {}, head says {} by {} ({})", h.says(), v.class, v.rule, v.reason))
        })
    }

    /// A row the base's dump probes moves when head's tier is not the base's
    /// expected tier; the move must be declared (from the base's tier to head's).
    fn moves(&self, r: &Row, head: &Verdict, _base: AtBase) -> Vec<Move> {
        let Spec::Probe { base: Some(b), .. } = &r.spec else { return Vec::new() };
        if head.is_error() || head.class == b.tier {
            return Vec::new();
        }
        vec![Move { row: r.id.clone(), from: b.tier, to: head.class, kind: MoveKind::Verdict, pinned: true, at: b.table.clone(), claim: CLAIM }]
    }

    fn section(&self, rows: &[super::Answered]) -> Option<String> {
        if rows.is_empty() {
            return None;
        }
        let (mut both, mut base_only, mut head_only, mut moved) = (0, 0, 0, 0);
        for a in rows {
            let Spec::Probe { base, head, .. } = &a.row.spec else { continue };
            match (base, head) {
                (Some(_), Some(_)) => both += 1,
                (Some(_), None) => base_only += 1,
                (None, _) => head_only += 1,
            }
            if let (Some(b), Some(v)) = (base, a.head) {
                moved += usize::from(!v.is_error() && v.class != b.tier);
            }
        }
        Some(format!(
            "## Table probes\n\n{} rows from `tiergate programs`: {both} probed by both dumps, {base_only} by the base's only (an entry or probe head dropped), {head_only} by head's only (new, judged by head's probe); {moved} row(s) whose tier on head is not the base's expected tier.\n",
            rows.len()
        ))
    }
}

const TIERS: &str = "T0 T1 T2 T3 BLOCKED";

/// `{}` is the entry; `{-}` the entry without its last character, an abbreviation
/// (for tables read by prefix, like GNU long options).
fn instantiate(template: &str, entry: &str) -> String {
    let short = entry.char_indices().last().map_or("", |(i, _)| &entry[..i]);
    template.replace("{-}", short).replace("{}", entry)
}

/// A probed command with its expectation, its table's file and line.
pub type Probed = (String, ProbeExpect, String, u64);

/// The probed commands of one dump in source order (a command two tables probe: the
/// first), each with its expectation and its table's position; or every probe the
/// rows cannot come from, as `file:line: TABLE: why`.
pub fn expectations(tables: &[Table]) -> Result<Vec<Probed>, Vec<String>> {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    let mut seen = HashSet::new();
    for t in tables {
        let at = format!("{}:{}: {}", t.file, t.line, t.name);
        let mut ok = true;
        for p in &t.probes {
            if !(p.template.contains("{}") || p.template.contains("{-}")) {
                errors.push(format!("{at}: the probe `{}` has no {{}} or {{-}} for the entry", p.template));
                ok = false;
            }
            if Class::parse(&p.expect).is_none() || !(p.rule.is_empty() || super::is_rule_id(&p.rule)) {
                errors.push(format!("{at}: the probe `{}` expects `{}` by `{}`: a tier ({TIERS}) and a rule id", p.template, p.expect, p.rule));
                ok = false;
            }
        }
        let except: HashSet<&str> = t.except.iter().flat_map(|e| e.entries.iter().map(String::as_str)).collect();
        // An entry a restricted probe names gets that probe instead of the table's.
        let restricted: HashSet<&str> = t.probes.iter().flat_map(|p| p.only.iter().map(String::as_str)).collect();
        if let Some(w) = except.iter().chain(&restricted).find(|w| !t.entries.iter().any(|e| e == *w)) {
            errors.push(format!("{at}: a probe or except names `{w}`, which is not in the table"));
            ok = false;
        }
        if !ok {
            continue;
        }
        for p in &t.probes {
            let Some(tier) = Class::parse(&p.expect) else { continue };
            let mine = |w: &&String| if p.only.is_empty() { !except.contains(w.as_str()) && !restricted.contains(w.as_str()) } else { p.only.contains(w) };
            for w in t.entries.iter().filter(mine) {
                let command = instantiate(&p.template, w);
                if !seen.insert(command.clone()) {
                    continue; // two tables probe the same command line: one row
                }
                let rule = (!p.rule.is_empty()).then(|| p.rule.clone());
                let table = format!("{}:{} {}", t.file, t.line, t.name);
                out.push((command, ProbeExpect { tier, rule, table }, format!("probe of `{w}` in {}", t.name), u64::from(t.line)));
            }
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// A row id part from an entry: letters and digits kept, the rest `_`.
fn slug(s: &str) -> String {
    s.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect()
}

/// The probe rows of a replay: the base's dump's commands first (in its order), then
/// those only head's dump has. Ids are `table-<slug of the command>`, numbered on a
/// clash in that order. `base` is None when there is no base dump.
pub fn rows(base: Option<&[Table]>, head: &[Table]) -> Result<Vec<Row>, Vec<String>> {
    let base = match base {
        Some(b) => expectations(b).map_err(|e| e.into_iter().map(|e| format!("the base's dump: {e}")).collect::<Vec<_>>())?,
        None => Vec::new(),
    };
    let head = expectations(head)?;
    let head_by: HashMap<&str, &ProbeExpect> = head.iter().map(|(c, e, _, _)| (c.as_str(), e)).collect();
    let in_base: HashSet<&str> = base.iter().map(|(c, ..)| c.as_str()).collect();
    let mut ids = HashSet::new();
    let mut out = Vec::new();
    let base_rows = base.iter().map(|(c, e, note, line)| (c, Some(e), head_by.get(c.as_str()).copied(), note, line));
    let head_only = head.iter().filter(|(c, ..)| !in_base.contains(c.as_str())).map(|(c, e, note, line)| (c, None, Some(e), note, line));
    for (command, b, h, note, line) in base_rows.chain(head_only) {
        let stem = format!("table-{}", slug(command));
        let mut id = stem.clone();
        let mut n = 2;
        while !ids.insert(id.clone()) {
            id = format!("{stem}-{n}");
            n += 1;
        }
        let file = b.or(h).map(|e| e.table.split(':').next().unwrap_or("").to_owned()).unwrap_or_default();
        out.push(Row {
            kind: super::Kind::Probes,
            id,
            command: command.clone(),
            cwd: None,
            weight: 1,
            spec: Spec::Probe { base: b.cloned(), head: h.cloned() },
            file,
            line: *line,
            note: note.clone(),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dump::{Except, Probe};

    fn table(entries: &[&str], probes: Vec<Probe>, except: &[&str]) -> Table {
        Table {
            name: "MUTATIVE_VERBS".into(),
            file: "classifier/src/rules/git/read.rs".into(),
            line: 4,
            entries: entries.iter().map(|s| s.to_string()).collect(),
            probes,
            except: if except.is_empty() { vec![] } else { vec![Except { entries: except.iter().map(|s| s.to_string()).collect(), why: "w".into() }] },
        }
    }

    fn probe(template: &str, expect: &str, rule: &str, only: &[&str]) -> Probe {
        Probe { template: template.into(), expect: expect.into(), rule: rule.into(), only: only.iter().map(|s| s.to_string()).collect() }
    }

    fn verdict(class: Class, rule: &str) -> Verdict {
        Verdict { class, rule: rule.into(), reason: "r".into(), error: None }
    }

    #[test]
    fn one_row_per_entry_except_the_listed_ones_and_restricted_probes_take_theirs() {
        let t = table(&["land", "tag", "patch"], vec![probe("git {}", "T3", "git.mutate", &[]), probe("git {-} x", "T0", "git.unknown", &["patch"])], &["tag"]);
        let rows = rows(None, &[t]).unwrap();
        let got: Vec<(&str, &str)> = rows.iter().map(|r| (r.id.as_str(), r.command.as_str())).collect();
        assert_eq!(got, [("table-git_land", "git land"), ("table-git_patc_x", "git patc x")]);
        assert!(matches!(&rows[1].spec, Spec::Probe { base: None, head: Some(h) } if h.tier == Class::T0 && h.rule.as_deref() == Some("git.unknown")));
    }

    #[test]
    fn a_probe_rows_cannot_come_from_names_file_and_line() {
        for p in [probe("git x", "T3", "", &[]), probe("git {}", "T9", "", &[]), probe("git {}", "T3", "Git.Mutate", &[])] {
            let err = rows(None, &[table(&["land"], vec![p], &[])]).unwrap_err();
            assert!(err[0].starts_with("classifier/src/rules/git/read.rs:4: MUTATIVE_VERBS:"), "{err:?}");
        }
        let err = rows(None, &[table(&["land"], vec![probe("git {}", "T3", "", &[])], &["tig"])]).unwrap_err();
        assert!(err[0].contains("`tig`, which is not in the table"), "{err:?}");
    }

    /// The base's rows are judged by the base's tier (a move must be declared), head's
    /// probe by head; an entry head dropped still has its row, one head added is new.
    #[test]
    fn base_rows_move_against_the_base_and_head_rows_check_against_head() {
        let base = table(&["land", "nuke"], vec![probe("git {}", "T3", "", &[])], &[]);
        let head = table(&["land", "ship"], vec![probe("git {}", "T3", "", &[])], &[]);
        let rows = rows(Some(&[base]), &[head]).unwrap();
        let ids: Vec<&str> = rows.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, ["table-git_land", "table-git_nuke", "table-git_ship"]);
        let def = super::super::Kind::Probes.def();
        // `git nuke` (dropped at head) answers T0 on head: an undeclared move, no head check.
        let t0 = verdict(Class::T0, "git.unknown");
        assert!(def.check(&rows[1], &t0).is_none());
        let mv = def.moves(&rows[1], &t0, None);
        assert_eq!((mv.len(), mv[0].from, mv[0].to, mv[0].pinned), (1, Class::T3, Class::T0, true));
        // `git ship` (added at head): head's probe judges it, nothing to declare.
        assert!(def.moves(&rows[2], &t0, None).is_empty());
        assert!(def.check(&rows[2], &t0).unwrap().message.contains("head's probe expects T3, head says T0 by git.unknown"));
        // `git land` holds on both.
        let t3 = verdict(Class::T3, "git.mutate");
        assert!(def.check(&rows[0], &t3).is_none() && def.moves(&rows[0], &t3, None).is_empty());
    }
}
