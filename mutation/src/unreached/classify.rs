//! Each code mutant against the line map: `unreached` when code of its span's lines
//! is in the binary and none of it ran (no row can move a verdict through it: it
//! survives whatever it does), `reached` when some of it ran, `absent` when no line of
//! its whole function has code in the binary (tiergate never calls it, so the linker
//! dropped it: no row can reach it either; `const` when that function is a `const fn`,
//! evaluated at compile time into data the rows do read), `unknown` when its own lines have no code
//! (a constant, a field of a static table, an empty arm). Then the report: totals,
//! unreached and absent per file and per function, the ids.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

use super::lines::LineMap;
use crate::mutant::Mutant;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reach {
    Unreached,
    Absent,
    /// In a `const fn` with no code in the binary: evaluated at compile time, so what
    /// it computes is data the rows do read (a sorted table's order, a word list's ends).
    Const,
    Reached,
    Unknown,
}

impl Reach {
    /// Unreached or absent: no input of the bench runs its code.
    pub fn never_runs(self) -> bool {
        matches!(self, Reach::Unreached | Reach::Absent)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Reach::Unreached => "unreached",
            Reach::Absent => "absent",
            Reach::Const => "const",
            Reach::Reached => "reached",
            Reach::Unknown => "unknown",
        }
    }
}

/// One mutant of the population, placed.
pub struct Placed {
    pub mutant: Mutant,
    /// cargo-mutants' function name (`Engine::walk`), empty outside a function.
    pub function: String,
    /// The last line of the mutated span (the first is `mutant.line`).
    pub last_line: usize,
    pub reach: Reach,
}

/// A mutant spanning `file`'s lines `first..=last`, in a function spanning
/// `function` (when it is in one), against the map; `src` is the file's text.
pub fn reach(lines: &LineMap, file: &str, src: &str, (first, last): (usize, usize), function: Option<(usize, usize)>) -> Reach {
    let any = |a: usize, b: usize| (a..=b.max(a)).map(|n| lines.get(&(file.to_owned(), n)).copied()).fold(None, |acc, l| acc.max(l));
    match (any(first, last), function) {
        (Some(true), _) => Reach::Reached,
        (Some(false), _) => Reach::Unreached,
        (None, Some((a, b))) if any(a, b).is_none() && is_const_fn(src, a) => Reach::Const,
        (None, Some((a, b))) if any(a, b).is_none() => Reach::Absent,
        (None, _) => Reach::Unknown,
    }
}

/// Whether the function whose span starts at 1-based line `at` of `src` is a `const
/// fn`: its signature (the first line from `at` with `fn `, past attributes and
/// comments, which the span includes) says so.
fn is_const_fn(src: &str, at: usize) -> bool {
    src.lines()
        .skip(at.saturating_sub(1))
        .take(12)
        .find(|l| !l.trim_start().starts_with("//") && !l.trim_start().starts_with("#[") && l.contains("fn "))
        .is_some_and(|l| l.contains("const fn "))
}

/// A survivor of the last fresh sample (reports/mutants/results.jsonl) placed in
/// today's population by its key (stable under edits elsewhere in the file), else
/// by its id; None when today's code no longer has it.
pub fn survivor_reach<'a>(placed: &'a [Placed], id: &str, key: &str) -> Option<&'a Placed> {
    placed.iter().find(|p| p.mutant.key == key).or_else(|| placed.iter().find(|p| p.mutant.id == id))
}

fn pct(n: usize, of: usize) -> String {
    if of == 0 {
        return "–".into();
    }
    format!("{:.1} %", 100.0 * n as f64 / of as f64)
}

/// The survivors' line of the report: (id, key, what) of each survivor of the sample.
pub struct Survivors<'a> {
    pub source: &'a str,
    pub list: Vec<(String, String, String)>,
}

/// The markdown report. `head` names what was measured (commit, inputs, time).
pub fn markdown(placed: &[Placed], head: &str, survivors: Option<&Survivors>) -> String {
    let n = placed.len();
    let count = |r: Reach| placed.iter().filter(|p| p.reach == r).count();
    let mut s = String::new();
    let _ = writeln!(s, "# Code mutants no bench input executes\n\n{head}\n");
    let _ = writeln!(s, "| | mutants | of the population |\n|---|---:|---:|");
    for (name, r) in [
        ("unreached: its lines have code in the binary, none of it ran", Reach::Unreached),
        ("absent: no line of its function is in the binary (never called by tiergate)", Reach::Absent),
        ("const: in a `const fn` evaluated at compile time (its result is data rows read)", Reach::Const),
        ("reached", Reach::Reached),
        ("unknown: no code on its own lines", Reach::Unknown),
    ] {
        let k = count(r);
        let _ = writeln!(s, "| {name} | {k} | {} |", pct(k, n));
    }
    let _ = writeln!(s, "| population | {n} | |\n");
    if let Some(sv) = survivors {
        let _ = writeln!(s, "## The survivors of {}\n", sv.source);
        let mut by: BTreeMap<&str, usize> = BTreeMap::new();
        let mut rows = String::new();
        for (id, key, what) in &sv.list {
            let (r, now) = match survivor_reach(placed, id, key) {
                Some(p) => (p.reach.as_str(), format!("{}:{}", p.mutant.file.trim_start_matches("classifier/src/"), p.mutant.line)),
                None => ("not in today's population", String::new()),
            };
            *by.entry(r).or_default() += 1;
            let _ = writeln!(rows, "| {r} | `{id}` | {now} | {} |", what.replace('|', "\\|"));
        }
        let tally: Vec<String> = by.iter().map(|(r, k)| format!("{k} {r}")).collect();
        let _ = writeln!(s, "{} survivors: {}.\n\n| today | id | at | what |\n|---|---|---|---|\n{rows}", sv.list.len(), tally.join(", "));
    }
    // Per file and per function: (unreached, absent, all), sorted by the first two.
    type Tally = (usize, usize, usize);
    let add = |t: &mut Tally, r: Reach| {
        t.0 += usize::from(r == Reach::Unreached);
        t.1 += usize::from(r == Reach::Absent);
        t.2 += 1;
    };
    let mut files: HashMap<&str, Tally> = HashMap::new();
    let mut funcs: HashMap<(&str, &str), Tally> = HashMap::new();
    for p in placed {
        add(files.entry(&p.mutant.file).or_default(), p.reach);
        add(funcs.entry((&p.mutant.file, &p.function)).or_default(), p.reach);
    }
    let short = |f: &str| f.trim_start_matches("classifier/src/").to_owned();
    let mut files: Vec<_> = files.into_iter().filter(|(_, t)| t.0 + t.1 > 0).collect();
    files.sort_by(|a, b| (b.1 .0 + b.1 .1).cmp(&(a.1 .0 + a.1 .1)).then(a.0.cmp(b.0)));
    let _ = writeln!(s, "## Per file ({} files)\n\n| file | unreached | absent | of |\n|---|---:|---:|---:|", files.len());
    for (f, (u, a, t)) in &files {
        let _ = writeln!(s, "| {} | {u} | {a} | {t} |", short(f));
    }
    let mut funcs: Vec<_> = funcs.into_iter().filter(|(_, t)| t.0 + t.1 > 0).collect();
    funcs.sort_by(|a, b| (b.1 .0 + b.1 .1).cmp(&(a.1 .0 + a.1 .1)).then(a.0.cmp(&b.0)));
    let whole = funcs.iter().filter(|(_, (u, _, t))| u == t).count();
    let _ = writeln!(
        s,
        "\n## Per function ({} functions; *whole*: every mutant of it unreached, {whole} functions: rows can target the whole function; \
         *absent*: not in the binary, rows cannot reach it)\n\n| file | function | unreached | absent | of | |\n|---|---|---:|---:|---:|---|",
        funcs.len()
    );
    for ((f, func), (u, a, t)) in &funcs {
        let mark = if u == t {
            "whole"
        } else if a == t {
            "absent"
        } else {
            ""
        };
        let _ = writeln!(s, "| {} | `{}` | {u} | {a} | {t} | {mark} |", short(f), if func.is_empty() { "–" } else { func });
    }
    let _ = writeln!(s, "\nEvery mutant, placed: `unreached.tsv` beside this file; the unreached and absent ids: `unreached-ids.txt` (an `--ids` file).");
    s
}

/// Every mutant, one per line: reach, id, file, first and last line, function, operator, what.
pub fn tsv(placed: &[Placed]) -> String {
    let mut s = String::from("reach\tid\tfile\tline\tlast_line\tfunction\top\twhat\n");
    for p in placed {
        let m = &p.mutant;
        let what = m.what.replace(['\t', '\n'], " ");
        let _ = writeln!(s, "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{what}", p.reach.as_str(), m.id, m.file, m.line, p.last_line, p.function, m.op);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines() -> LineMap {
        let f = "classifier/src/a.rs".to_owned();
        [((f.clone(), 10), true), ((f.clone(), 11), false), ((f.clone(), 12), false), ((f, 20), false)].into_iter().collect()
    }

    #[test]
    fn a_span_is_reached_by_any_line_that_ran_and_absent_without_its_function() {
        let l = lines();
        let f = "classifier/src/a.rs";
        let src = "// a\n/// doc\n#[inline]\npub const fn f() -> u8 {\n    1 + 1\n}\nfn g() -> bool {\n    false\n}\n";
        assert_eq!(reach(&l, f, src, (11, 12), Some((9, 13))), Reach::Unreached);
        assert_eq!(reach(&l, f, src, (11, 13), None), Reach::Unreached, "a line with no code does not make it unknown");
        assert_eq!(reach(&l, f, src, (9, 11), None), Reach::Reached, "line 10 ran");
        assert_eq!(reach(&l, f, src, (13, 19), Some((9, 19))), Reach::Unknown, "its function is in the binary");
        assert_eq!(reach(&l, f, src, (13, 19), None), Reach::Unknown);
        assert_eq!(reach(&l, f, src, (15, 15), Some((7, 9))), Reach::Absent, "no line of its function has code");
        assert_eq!(reach(&l, "classifier/src/b.rs", src, (5, 5), Some((2, 6))), Reach::Const, "`const fn` under its doc and attribute");
        assert_eq!(reach(&l, "classifier/src/b.rs", src, (8, 8), Some((7, 9))), Reach::Absent, "another file's line 8");
    }

    fn placed(id: &str, file: &str, function: &str, reach: Reach) -> Placed {
        let mutant = Mutant { id: id.into(), key: format!("k-{id}"), file: file.into(), line: 1, ..Mutant::default() };
        Placed { mutant, function: function.into(), last_line: 1, reach }
    }

    #[test]
    fn the_report_counts_per_file_and_function_and_places_survivors() {
        let p = vec![
            placed("m1", "classifier/src/lanes/make.rs", "Reader::line", Reach::Unreached),
            placed("m2", "classifier/src/lanes/make.rs", "Reader::line", Reach::Unreached),
            placed("m3", "classifier/src/lanes/make.rs", "parse", Reach::Reached),
            placed("m4", "classifier/src/rules/git.rs", "push", Reach::Unreached),
            placed("m5", "classifier/src/rules/git.rs", "push", Reach::Unknown),
            placed("m6", "classifier/src/rules/git.rs", "pull", Reach::Absent),
        ];
        let sv = Survivors {
            source: "the sample",
            list: vec![("old-id".into(), "k-m3".into(), "x".into()), ("m4".into(), "gone".into(), "y".into()), ("z".into(), "z".into(), "z".into())],
        };
        let md = markdown(&p, "head", Some(&sv));
        assert!(md.contains("| unreached: its lines have code in the binary, none of it ran | 3 | 50.0 % |"), "{md}");
        assert!(md.contains("3 survivors: 1 not in today's population, 1 reached, 1 unreached."), "{md}");
        let git = md.find("| rules/git.rs | 1 | 1 | 3 |").expect(&md);
        let make = md.find("| lanes/make.rs | 2 | 0 | 3 |").expect(&md);
        assert!(make < git, "two each: by name");
        assert!(md.contains("| lanes/make.rs | `Reader::line` | 2 | 0 | 2 | whole |"), "{md}");
        assert!(md.contains("| rules/git.rs | `push` | 1 | 0 | 2 |  |"), "{md}");
        assert!(md.contains("| rules/git.rs | `pull` | 0 | 1 | 1 | absent |"), "{md}");
        assert!(!md.contains("`parse`"), "a function with nothing unreached is not listed");
        assert_eq!(tsv(&p).lines().count(), 7);
    }
}
