//! Text-level mutants of the rule tables (`classifier/src/rules/**.rs`), ours rather
//! than cargo-mutants' because policy lives in data: a rule's tier, its `cx.hit`
//! calls, and the policy tables. Four operators:
//!
//! - `tier`: a rule one step looser (BLOCKED→T3→T2→T1→T0), a T0 rule made T3;
//! - `skip-hit`: a `cx.hit(…)` / `cx.hit_because(…)` call replaced by `()`;
//! - `drop-entry`: one entry removed from a table;
//! - `widen`: an allow-side table given the first entry of a gated-side table of the
//!   same file.
//!
//! The tables are the unmutated binary's own (`tiergate programs`, decision 0013 §3):
//! its dump names every table, where it is declared and its entries, and a table's
//! side is its probes' tier (T0–T2 allow, T3 and BLOCKED gated), never a guess from
//! its name. The source is read only to place each edit, and a dump that disagrees
//! with it (a binary of another commit) is an error. Rules and their hits are code,
//! found in the source.
//!
//! Generation is pure and deterministic: files sorted, mutants in file order, ids
//! from their content, so `--shard i/n` splits the same list on every machine.

use std::collections::HashMap;
use std::path::Path;

use regex::Regex;
use sha2::{Digest, Sha256};

use corpora::rule_source::{close_paren, scope_of, tables};
use replay::dump;

use crate::mutant::{line_of, Mutant, Population};
pub use corpora::rule_source::{work_tree_sources, RULES_DIR};

struct Gen<'a> {
    file: &'a str,
    src: &'a str,
    out: Vec<Mutant>,
}

impl Gen<'_> {
    fn push(&mut self, op: &str, start: usize, end: usize, replacement: String, scope: String, what: String) {
        let mut h = Sha256::new();
        let (s, e) = (start.to_string(), end.to_string());
        let parts: [&str; 5] = [op, self.file, &s, &e, &replacement];
        for part in parts {
            h.update(part.as_bytes());
            h.update([0]);
        }
        let line = line_of(self.src, start);
        let hash = replay::build::hex(&h.finalize())[..8].to_owned();
        let id = format!("{op}:{}:{line}:{hash}", self.file.strip_prefix("classifier/src/").unwrap_or(self.file));
        self.out.push(Mutant {
            id,
            population: Population::Tables,
            op: op.into(),
            file: self.file.into(),
            line,
            start,
            end,
            original: self.src[start..end].into(),
            replacement,
            scope,
            what,
            key: String::new(),
        });
    }
}

/// Rule statics of one file: NAME → id.
fn statics(src: &str) -> Vec<(String, String, &'static str, usize, usize)> {
    let re = Regex::new(r#"static\s+([A-Z][A-Z0-9_]*)\s*:\s*Rule\s*=\s*Rule::(t0|t1|t2|t3|blocked)\(\s*"([^"]+)""#).expect("static regex");
    re.captures_iter(src)
        .map(|c| {
            let ctor = c.get(2).expect("group 2");
            let tier = match ctor.as_str() {
                "t0" => "t0",
                "t1" => "t1",
                "t2" => "t2",
                "t3" => "t3",
                _ => "blocked",
            };
            (c[1].to_owned(), c[3].to_owned(), tier, ctor.start(), ctor.end())
        })
        .collect()
}

/// A table's side, from the tier its table-wide probes give an entry: every one T0
/// to T2 is the allow side (an entry there is let through), every one T3 or BLOCKED
/// the gated side. A table without table-wide probes, or with both, has no side and
/// gets no `widen` mutant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Allow,
    Gated,
}

fn side(t: &dump::Table) -> Option<Side> {
    let wide: Vec<&str> = t.probes.iter().filter(|p| p.only.is_empty()).map(|p| p.expect.as_str()).collect();
    let gated = |e: &&str| matches!(*e, "T3" | "BLOCKED");
    match () {
        _ if wide.is_empty() => None,
        _ if wide.iter().all(gated) => Some(Side::Gated),
        _ if !wide.iter().any(gated) => Some(Side::Allow),
        _ => None,
    }
}

/// The text a Rust string literal (`"…"`, as the table's source spells it) stands for.
fn unquote(lit: &str) -> Option<String> {
    serde_json::from_str(lit).ok()
}

/// A dumped table placed in its source: its opening `[` and each entry's literal span.
struct Placed<'a> {
    table: &'a dump::Table,
    open: usize,
    entries: Vec<(usize, usize)>,
}

/// Places each of `file`'s dumped tables in `src`: the table of that name declared
/// nearest at or after the dump's line, whose entries read as the dump's.
fn place<'a>(file: &str, src: &str, dumped: &[&'a dump::Table]) -> Result<Vec<Placed<'a>>, String> {
    let found = tables(src);
    let line_start = |line: u32| src.split_inclusive('\n').take(line.saturating_sub(1) as usize).map(str::len).sum::<usize>();
    let mut out = Vec::new();
    for t in dumped {
        let from = line_start(t.line);
        let at = found.iter().filter(|(n, open, _)| *n == t.name && *open >= from).min_by_key(|(_, open, _)| *open);
        let Some((_, open, entries)) = at else {
            return Err(format!("{file}:{}: the dump's table {} is not declared there (is the binary of this commit?)", t.line, t.name));
        };
        let read: Vec<Option<String>> = entries.iter().map(|&(s, e)| unquote(&src[s..e])).collect();
        if read.len() != t.entries.len() || read.iter().zip(&t.entries).any(|(r, d)| r.as_deref() != Some(d.as_str())) {
            return Err(format!(
                "{file}:{}: table {}: the source's {} entries are not the dump's {} (is the binary of this commit?)",
                t.line,
                t.name,
                entries.len(),
                t.entries.len()
            ));
        }
        out.push(Placed { table: t, open: *open, entries: entries.clone() });
    }
    Ok(out)
}

fn looser(tier: &str) -> &'static str {
    match tier {
        "blocked" => "t3",
        "t3" => "t2",
        "t2" => "t1",
        "t1" => "t0",
        _ => "t3",
    }
}

/// Every mutant of one file. `ids` maps a rule static's name to its id, by file stem and globally.
fn of_file(file: &str, src: &str, ids: &Ids, dumped: &[&dump::Table]) -> Result<Vec<Mutant>, String> {
    let mut g = Gen { file, src, out: Vec::new() };
    let scope = scope_of(file);
    for (_, id, tier, s, e) in statics(src) {
        let to = looser(tier);
        g.push("tier", s, e, to.into(), id.clone(), format!("`{id}` declared Rule::{to} instead of Rule::{tier}"));
    }
    let hit = Regex::new(r"cx\.hit(_because)?\(").expect("hit regex");
    let name = Regex::new(r"^&([A-Za-z_][A-Za-z0-9_:]*)\s*[,)]").expect("name regex");
    for m in hit.find_iter(src) {
        let line_start = src[..m.start()].rfind('\n').map_or(0, |i| i + 1);
        if src[line_start..m.start()].contains("//") {
            continue; // a comment that names a call
        }
        let Some(end) = close_paren(src, m.end() - 1, b'(', b')') else { continue };
        let arg = &src[m.end()..end];
        let target = name.captures(arg).map(|c| ids.resolve(file, &c[1]));
        let (sc, what) = match target {
            Some(Some(id)) => (id.clone(), format!("`{id}` never recorded here (call replaced by `()`)")),
            _ => (scope.clone(), format!("a computed hit in {scope} never recorded (call replaced by `()`)")),
        };
        g.push("skip-hit", m.start(), end, "()".into(), sc, what);
    }
    let tabs = place(file, src, dumped)?;
    for p in &tabs {
        let (tname, entries) = (&p.table.name, &p.entries);
        for (k, &(s, e)) in entries.iter().enumerate() {
            let (from, to) = match (entries.get(k + 1), k.checked_sub(1).map(|p| entries[p])) {
                (Some(&(next, _)), _) => (s, next),
                (None, Some((_, prev_end))) => (prev_end, e),
                (None, None) => (s, e),
            };
            g.push("drop-entry", from, to, String::new(), format!("{scope}:{tname}"), format!("{} dropped from {tname}", &src[s..e]));
        }
    }
    for p in tabs.iter().filter(|p| side(p.table) == Some(Side::Allow)) {
        let tname = &p.table.name;
        let have: Vec<&str> = p.entries.iter().map(|&(s, e)| &src[s..e]).collect();
        let donors = tabs.iter().filter(|d| d.table.name != *tname && !d.entries.is_empty() && side(d.table) == Some(Side::Gated));
        for d in donors.take(3) {
            let entry = &src[d.entries[0].0..d.entries[0].1];
            if have.contains(&entry) {
                continue;
            }
            let dname = &d.table.name;
            g.push("widen", p.open + 1, p.open + 1, format!("{entry}, "), format!("{scope}:{tname}"), format!("{entry} (from {dname}) added to {tname}"));
        }
    }
    Ok(g.out)
}

/// Rule static names → ids, per file and globally.
#[derive(Default)]
pub struct Ids {
    by_file: HashMap<(String, String), String>,
    global: HashMap<String, Vec<(String, String)>>,
}

impl Ids {
    fn resolve(&self, file: &str, path: &str) -> Option<&String> {
        let mut parts: Vec<&str> = path.split("::").collect();
        let name = parts.pop()?.to_owned();
        if let Some(id) = self.by_file.get(&(file.to_owned(), name.clone())) {
            if parts.is_empty() {
                return Some(id);
            }
        }
        let cands = self.global.get(&name)?;
        if let Some(module) = parts.last() {
            if let Some((_, id)) = cands.iter().find(|(f, _)| f.ends_with(&format!("/{module}.rs")) || f.ends_with(&format!("/{module}/mod.rs"))) {
                return Some(id);
            }
        }
        let dir = Path::new(file).parent();
        if let Some((_, id)) = cands.iter().find(|(f, _)| Path::new(f).parent() == dir) {
            return Some(id);
        }
        (cands.len() == 1).then(|| &cands[0].1)
    }
}

/// Every mutant of `files` ((repository-relative path, text), any order), the tables
/// being `dumped` (the unmutated binary's `tiergate programs`). A dumped table in a
/// file not among `files`, or not found as the dump says, is an error.
pub fn generate(files: &[(String, String)], dumped: &[dump::Table]) -> Result<Vec<Mutant>, String> {
    let mut files: Vec<&(String, String)> = files.iter().collect();
    files.sort();
    if let Some(t) = dumped.iter().find(|t| !files.iter().any(|(f, _)| *f == t.file)) {
        return Err(format!("{}:{}: the dump's table {} is in no rule source read", t.file, t.line, t.name));
    }
    let mut ids = Ids::default();
    for (f, src) in &files {
        for (name, id, ..) in statics(src) {
            ids.by_file.insert((f.clone(), name.clone()), id.clone());
            ids.global.entry(name).or_default().push((f.clone(), id));
        }
    }
    let mut all = Vec::new();
    for (f, src) in &files {
        let of: Vec<&dump::Table> = dumped.iter().filter(|t| t.file == *f).collect();
        all.extend(of_file(f, src, &ids, &of)?);
    }
    crate::mutant::assign_keys(&mut all);
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutant::{family, per_family, sample, sample_seeded, shard};

    const SRC: &str = r#"
pub static FORCE: Rule = Rule::blocked("git.push.force")
    .reason("x");
pub static READ: Rule = Rule::t0("git.read");
crate::table! {
    /// Reads.
    READ_SUBS = ["status", "log", // comment, "fake"
    "diff"];
    probe "git {}" => T0;
}
crate::table! {
    MUTATING = ["push"];
    probe "git {} x" => T3;
}
crate::table! {
    NAMED_READ_BUT_UNPROBED = ["x"];
}
fn check(cx: &mut Cx) {
    if a { cx.hit(&FORCE); }
    cx.hit_because(&READ, format!("{}", f(1, (2))));
    cx.hit(if b { &READ } else { &FORCE });
}
"#;
    const FILE: &str = "classifier/src/rules/git/push.rs";

    fn table(file: &str, name: &str, line: u32, entries: &[&str], tiers: &[&str]) -> dump::Table {
        let probes = tiers.iter().map(|t| dump::Probe { template: "p {}".into(), expect: t.to_string(), rule: String::new(), only: vec![] }).collect();
        dump::Table { name: name.into(), file: file.into(), line, entries: entries.iter().map(|e| e.to_string()).collect(), probes, except: vec![] }
    }

    /// The dump an unmutated binary of `SRC` gives.
    fn dumped() -> Vec<dump::Table> {
        vec![
            table(FILE, "READ_SUBS", 5, &["status", "log", "diff"], &["T0"]),
            table(FILE, "MUTATING", 11, &["push"], &["T3"]),
            table(FILE, "NAMED_READ_BUT_UNPROBED", 15, &["x"], &[]),
        ]
    }

    fn gen() -> Vec<Mutant> {
        generate(&[(FILE.into(), SRC.into())], &dumped()).unwrap()
    }

    #[test]
    fn every_operator_fires_and_applies() {
        let ms = gen();
        let by = |op: &str| ms.iter().filter(|m| m.op == op).collect::<Vec<_>>();
        assert_eq!(by("tier").iter().map(|m| m.replacement.as_str()).collect::<Vec<_>>(), ["t3", "t3"]);
        let hits = by("skip-hit");
        assert_eq!(hits.iter().map(|m| m.scope.as_str()).collect::<Vec<_>>(), ["git.push.force", "git.read", "git.push"]);
        assert!(hits[1].original.ends_with("f(1, (2))))"), "{}", hits[1].original);
        assert_eq!(by("drop-entry").len(), 5, "3 READ_SUBS entries (not the commented one), 1 MUTATING, 1 of the unprobed table");
        let w = by("widen");
        assert_eq!(w.len(), 1, "only the probed allow side is widened, whatever a table's name says");
        assert_eq!((w[0].replacement.as_str(), w[0].scope.as_str()), ("\"push\", ", "git.push:READ_SUBS"));
        for m in &ms {
            let out = m.apply(SRC).unwrap();
            assert_ne!(out, SRC, "{}", m.id);
            assert!(m.diff(SRC).lines().any(|l| l.starts_with('-') && !l.starts_with("---")), "{}", m.diff(SRC));
        }
        let t = by("tier").into_iter().next().unwrap().diff(SRC);
        assert!(t.contains("-pub static FORCE: Rule = Rule::blocked(\"git.push.force\")\n+pub static FORCE: Rule = Rule::t3(\"git.push.force\")\n"), "{t}");
        let last = by("drop-entry").into_iter().find(|m| m.what.contains("\"diff\"")).unwrap();
        assert!(last.apply(SRC).unwrap().contains("\"log\"];"), "{}", last.apply(SRC).unwrap());
    }

    #[test]
    fn ids_are_stable_and_shards_partition() {
        let a = gen();
        assert_eq!(a, gen());
        let ids: std::collections::HashSet<&str> = a.iter().map(|m| m.id.as_str()).collect();
        assert_eq!(ids.len(), a.len(), "ids are unique");
        let mut joined: Vec<Mutant> = (1..=3).flat_map(|i| shard(&a, i, 3)).collect();
        joined.sort_by(|x, y| x.id.cmp(&y.id));
        let mut all = a.clone();
        all.sort_by(|x, y| x.id.cmp(&y.id));
        assert_eq!(joined, all);
        assert_eq!(sample(&a, 3).len(), 3);
    }

    #[test]
    fn per_family_takes_k_of_each_family() {
        let mut files = vec![("classifier/src/rules/git/push.rs".to_owned(), SRC.to_owned())];
        files.push(("classifier/src/rules/http/x.rs".into(), "crate::table! { READ_X = [\"a\", \"b\", \"c\"]; }\n".into()));
        let mut tables = dumped();
        tables.push(table("classifier/src/rules/http/x.rs", "READ_X", 1, &["a", "b", "c"], &[]));
        let all = generate(&files, &tables).unwrap();
        let picked = per_family(&all, 2);
        let fams: Vec<&str> = picked.iter().map(family).collect();
        assert_eq!(fams, ["git", "http", "git", "http"], "round-robin over families");
        assert_eq!(per_family(&all, 100).len(), all.len());
    }

    #[test]
    fn a_seeded_sample_is_reproducible_ordered_and_moves_with_the_seed() {
        let a = gen();
        assert!(a.len() >= 4, "the fixture yields enough mutants to sample from");
        let one = sample_seeded(&a, 3, "2026-12-04");
        assert_eq!(one, sample_seeded(&a, 3, "2026-12-04"), "same seed, same sample");
        assert_eq!(one.len(), 3);
        let pos = |m: &Mutant| a.iter().position(|x| x == m).expect("drawn from the list");
        assert!(one.windows(2).all(|w| pos(&w[0]) < pos(&w[1])), "kept in list order");
        let other = (0..50).map(|k| sample_seeded(&a, 3, &format!("seed-{k}"))).find(|s| *s != one);
        assert!(other.is_some(), "some other seed draws another sample");
        assert_eq!(sample_seeded(&a, a.len() + 1, "x"), a);
    }

    #[test]
    fn the_side_is_the_probes_tier() {
        assert_eq!(side(&table(FILE, "DEVICE_SINKS", 1, &["/dev/null"], &["T0"])), Some(Side::Allow), "a name that sounds gated");
        assert_eq!(side(&table(FILE, "HARMLESS", 1, &["x"], &["BLOCKED", "T3"])), Some(Side::Gated), "a name that sounds free");
        assert_eq!(side(&table(FILE, "X", 1, &["x"], &["T1", "T3"])), None, "both sides");
        let mut only = table(FILE, "X", 1, &["x"], &["T3"]);
        only.probes[0].only = vec!["x".into()];
        assert_eq!(side(&only), None, "a probe restricted to some entries says nothing of the table");
    }

    #[test]
    fn a_dump_that_is_not_the_sources_is_an_error_naming_the_place() {
        let files = [(FILE.to_owned(), SRC.to_owned())];
        let mut other = dumped();
        other[1].entries.push("pull".into());
        let e = generate(&files, &other).unwrap_err();
        assert!(e.starts_with("classifier/src/rules/git/push.rs:11: table MUTATING"), "{e}");
        let mut gone = dumped();
        gone[0].name = "WRITE_SUBS".into();
        assert!(generate(&files, &gone).unwrap_err().contains("WRITE_SUBS is not declared there"));
        let mut elsewhere = dumped();
        elsewhere[2].file = "classifier/src/rules/git/other.rs".into();
        assert!(generate(&files, &elsewhere).unwrap_err().contains("is in no rule source read"));
    }
}
