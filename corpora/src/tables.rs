//! Table probes: one truth row per entry of every rule table that declares a probe.
//!
//! Policy lives in `words![…]` tables (read verbs, mutative verbs, exempt programs,
//! floor paths…), and a table entry that no corpus row uses can be dropped with the
//! bench green: that is most of what `cargo xtask mutants` found surviving. A table
//! says once, in its doc comment, how any of its entries is used on a command line
//! and what that command's tier is:
//!
//! ```text
//! /// probe: `git {}` T3
//! /// probe-except: `tag` `reset`: decided before the table is read (git.read, git.local)
//! const MUTATIVE_VERBS: Words = words![…];
//! ```
//!
//! and `cargo xtask codegen` writes `corpus/truth/tables.csv`, one row per entry
//! (`{}` replaced by it), expecting that tier. Where the table's entries do not move
//! the tier (a read verb and an unknown word are both T0), the probe names the rule
//! that must decide instead — `/// probe: \`git {}\` T0 git.read` — and the row fails
//! when another rule answers. `{-}` is the entry without its last character (an
//! abbreviation, for tables matched by prefix), and `/// probe \`E\` \`F\`: \`…\` TIER`
//! gives the entries it names their own probe (they expand to an option that another
//! rule then decides, say). An entry whose row does not get it is
//! either listed in `probe-except:` with the reason, or a finding (a dead entry, or
//! one another check overrides). The rows are generated from the tables as they
//! are committed, so the replay that judges a change runs the rows of the tables
//! before it: an entry dropped by mistake moves its row, and the regenerated file's
//! diff shows the row leaving. A test holds the committed file to the sources.

use std::collections::HashSet;

use crate::rule_source;

pub const FILE: &str = "corpus/truth/tables.csv";

/// One probe line of a table.
#[derive(Debug, PartialEq, Eq)]
struct Probe {
    template: String,
    tier: String,
    /// The rule id that must decide each row; empty: any rule at that tier.
    rule: String,
    /// The entries this probe covers (`probe `E` …:`); empty: the table's others.
    only: Vec<String>,
}

/// `{}` is the entry; `{-}` the entry without its last character, an abbreviation
/// (for tables read by prefix, like GNU long options).
fn instantiate(template: &str, entry: &str) -> String {
    let short = entry.char_indices().last().map_or("", |(i, _)| &entry[..i]);
    template.replace("{-}", short).replace("{}", entry)
}

/// The probe and except lines in the doc comment just above the table at byte `at`.
fn doc_lines(src: &str, at: usize) -> Vec<(usize, &str)> {
    let line_start = src[..at].rfind('\n').map_or(0, |i| i + 1);
    let mut out = Vec::new();
    let mut end = line_start;
    while end > 0 {
        let start = src[..end - 1].rfind('\n').map_or(0, |i| i + 1);
        let line = src[start..end - 1].trim();
        if !(line.starts_with("///") || line.starts_with("#[")) {
            break;
        }
        out.push((src[..start].matches('\n').count() + 1, line.trim_start_matches('/').trim()));
        end = start;
    }
    out.reverse();
    out
}

fn backticked(s: &str) -> Vec<&str> {
    s.split('`').skip(1).step_by(2).collect()
}

/// `(entries, reason)` of a probe-except line: split at the first `:` outside backticks.
fn split_reason(s: &str) -> (&str, &str) {
    let mut ticked = false;
    for (i, c) in s.char_indices() {
        match c {
            '`' => ticked = !ticked,
            ':' if !ticked => return (&s[..i], &s[i + 1..]),
            _ => {}
        }
    }
    (s, "")
}

const TIERS: &[&str] = &["T0", "T1", "T2", "T3", "BLOCKED"];

/// Every probe row of one file, or `file:line: why` for a malformed probe line.
fn of_file(file: &str, src: &str, out: &mut Vec<[String; 4]>) -> Result<(), String> {
    let scope = rule_source::scope_of(file);
    let mut attached = 0;
    for (name, open, entries) in rule_source::tables(src) {
        let decl = src[..open].rfind(name.as_str()).unwrap_or(open);
        let mut probes = Vec::new();
        let mut except: HashSet<&str> = HashSet::new();
        for (line, text) in doc_lines(src, decl) {
            // `probe: …` covers the table; `probe `E` `F`: …` only the entries it names.
            let restricted = text.strip_prefix("probe ").filter(|r| r.starts_with('`')).map(split_reason);
            if let Some(rest) = text.strip_prefix("probe:").or(restricted.map(|(_, r)| r)) {
                let only: Vec<String> = restricted.map(|(list, _)| backticked(list).into_iter().map(str::to_owned).collect()).unwrap_or_default();
                let t = backticked(rest);
                let tail: Vec<&str> = rest.rsplit('`').next().unwrap_or("").split_whitespace().collect();
                let (tier, rule) = match tail[..] {
                    [tier] => (tier, ""),
                    [tier, rule] => (tier, rule),
                    _ => ("", ""),
                };
                let rule_ok = rule.is_empty() || replay::corpus::is_rule_id(rule);
                let placeholder = t.first().is_some_and(|t| t.contains("{}") || t.contains("{-}"));
                if t.len() != 1 || !placeholder || !TIERS.contains(&tier) || !rule_ok || (restricted.is_some() && only.is_empty()) {
                    return Err(format!(
                        "{file}:{line}: a probe line is `probe: `TEMPLATE` TIER [RULE]` or `probe `ENTRY` …: `TEMPLATE` TIER [RULE]` \
                         (TEMPLATE with {{}} or {{-}}; TIER one of {}; RULE a rule id)",
                        TIERS.join(" ")
                    ));
                }
                probes.push(Probe { template: t[0].to_owned(), tier: tier.to_owned(), rule: rule.to_owned(), only });
                attached += 1;
            } else if let Some(rest) = text.strip_prefix("probe-except:") {
                let (list, why) = split_reason(rest);
                if backticked(list).is_empty() || why.trim().is_empty() {
                    return Err(format!("{file}:{line}: a probe-except line is `probe-except: `ENTRY` …: why`"));
                }
                except.extend(backticked(list));
                attached += 1;
            }
        }
        let words: Vec<&str> = entries.iter().map(|&(s, e)| &src[s + 1..e - 1]).collect();
        let named = probes.iter().flat_map(|p| p.only.iter().map(String::as_str));
        if let Some(w) = except.iter().copied().chain(named).find(|w| !words.contains(w)) {
            return Err(format!("{file}: {name}: a probe line names `{w}`, which is not in the table"));
        }
        // An entry a restricted probe names gets that probe instead of the table's.
        let restricted: HashSet<&str> = probes.iter().flat_map(|p| p.only.iter().map(String::as_str)).collect();
        for p in &probes {
            let mine = |w: &&&str| if p.only.is_empty() { !except.contains(**w) && !restricted.contains(**w) } else { p.only.iter().any(|o| o == **w) };
            for w in words.iter().filter(mine) {
                let note = format!("probe of `{w}` in {scope}:{name} (generated by cargo xtask codegen from the table's probe line)");
                out.push([instantiate(&p.template, w), p.tier.clone(), p.rule.clone(), note]);
            }
        }
    }
    // A probe line anywhere else (a plain comment between it and its table, a table the
    // mutator's parser does not read) would generate nothing, silently.
    let written = src.lines().filter(|l| l.trim_start().starts_with("/// probe")).count();
    if written != attached {
        let line = src.lines().position(|l| l.trim_start().starts_with("/// probe")).map_or(0, |i| i + 1);
        return Err(format!(
            "{file}:{line}: {written} probe line(s), {attached} directly above a `words![…]` table (doc comment and attributes only between them)"
        ));
    }
    Ok(())
}

/// A row id part from an entry: letters and digits kept, the rest `_`.
fn slug(s: &str) -> String {
    s.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect()
}

/// The CSV text for `files` (path, source), sorted by path as the table mutants sort them.
pub fn render(files: &[(String, String)]) -> Result<String, String> {
    let mut rows = Vec::new();
    for (file, src) in files {
        of_file(file, src, &mut rows)?;
    }
    let mut w = csv::WriterBuilder::new().from_writer(Vec::new());
    let _ = w.write_record(["id", "command", "cwd", "expect", "pinned", "family", "note", "rule"]);
    let mut commands = HashSet::new();
    let mut ids = HashSet::new();
    for [command, tier, rule, note] in rows {
        if !commands.insert(command.clone()) {
            continue; // two tables probe the same command line: one row
        }
        let base = format!("table-{}", slug(&command));
        let mut id = base.clone();
        let mut n = 2;
        while !ids.insert(id.clone()) {
            id = format!("{base}-{n}");
            n += 1;
        }
        let family = if tier == "T3" || tier == "BLOCKED" { "gated" } else { "free" };
        let _ = w.write_record([id.as_str(), &command, "", &tier, "false", family, &note, &rule]);
    }
    let bytes = w.into_inner().map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|e| e.to_string())
}

/// Writes (or, with `check`, compares) `corpus/truth/tables.csv`: 0 fresh or written, 1 stale, 3 error.
pub fn run(root: &std::path::Path, check: bool) -> i32 {
    let text = match rule_source::work_tree_sources(root).and_then(|f| render(&f)) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("xtask codegen: {e}");
            return 3;
        }
    };
    let path = root.join(FILE);
    let old = std::fs::read_to_string(&path).unwrap_or_default();
    if old == text {
        return 0;
    }
    if check {
        eprintln!("xtask codegen: {FILE} is stale: the rule tables' probe lines or entries changed; run `cargo xtask codegen`");
        return 1;
    }
    match replay::report::write::atomic(&path, text.as_bytes()) {
        Ok(()) => {
            println!("wrote {FILE} ({} rows)", text.lines().count().saturating_sub(1));
            0
        }
        Err(e) => {
            eprintln!("xtask codegen: {FILE}: {e}");
            3
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `render` of one source file at git/read.rs.
    fn one(src: &str) -> Result<String, String> {
        render(&[("classifier/src/rules/git/read.rs".into(), src.into())])
    }

    const SRC: &str = "/// Verbs.\n/// probe: `git {}` T3\n/// probe-except: `tag`: git.read decides first\nconst MUTATIVE_VERBS: Words = words![\"land\", \"tag\", \"patch\"];\n";

    #[test]
    fn one_row_per_entry_except_the_listed_ones() {
        let csv = one(SRC).unwrap();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 3, "{csv}");
        assert!(lines[1].starts_with("table-git_land,git land,,T3,false,gated,"), "{csv}");
        assert!(lines[2].starts_with("table-git_patch,git patch,,T3,false,gated,"), "{csv}");
    }

    #[test]
    fn a_probe_naming_a_rule_writes_it_in_the_rule_column() {
        let src = SRC.replace("T3\n", "T3 git.mutate\n");
        let csv = one(&src).unwrap();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[0], "id,command,cwd,expect,pinned,family,note,rule");
        assert!(lines[1].starts_with("table-git_land,git land,,T3,false,gated,") && lines[1].ends_with(",git.mutate"), "{csv}");
        let plain = one(SRC).unwrap();
        assert!(plain.lines().nth(1).unwrap().ends_with(','), "no rule named: the column is empty\n{plain}");
    }

    #[test]
    fn a_restricted_probe_takes_its_entries_and_abbreviations_drop_a_character() {
        let src = SRC.replace("/// probe-except", "/// probe `patch`: `git {-} x` T0 git.unknown\n/// probe-except");
        let csv = one(&src).unwrap();
        let rows: Vec<&str> = csv.lines().skip(1).collect();
        assert_eq!(rows.len(), 2, "{csv}");
        assert!(rows[0].starts_with("table-git_land,git land,,T3,false,gated,"), "{csv}");
        assert!(rows[1].starts_with("table-git_patc_x,git patc x,,T0,false,free,") && rows[1].ends_with(",git.unknown"), "{csv}");
    }

    #[test]
    fn a_malformed_probe_line_names_file_and_line() {
        let bad = SRC.replace("T3\n", "T9\n");
        let err = one(&bad).unwrap_err();
        assert!(err.starts_with("classifier/src/rules/git/read.rs:2:"), "{err}");
        let detached = SRC.replace("/// probe-except", "// a plain comment\n/// probe-except");
        let err = one(&detached).unwrap_err();
        assert!(err.contains("2 probe line(s), 1 directly above"), "{err}");
        let bad_rule = SRC.replace("T3\n", "T3 Git.Mutate\n");
        let err = one(&bad_rule).unwrap_err();
        assert!(err.starts_with("classifier/src/rules/git/read.rs:2:"), "{err}");
        let two_rules = SRC.replace("T3\n", "T3 git.a git.b\n");
        assert!(one(&two_rules).is_err());
        let stale = SRC.replace("`tag`", "`tig`");
        let err = one(&stale).unwrap_err();
        assert!(err.contains("`tig`, which is not in the table"), "{err}");
        let unknown_only = SRC.replace("/// probe-except", "/// probe `lnd`: `git {}` T0\n/// probe-except");
        let err = one(&unknown_only).unwrap_err();
        assert!(err.contains("`lnd`, which is not in the table"), "{err}");
    }

    /// The committed corpus/truth/tables.csv is what the committed probe lines generate.
    #[test]
    fn the_committed_table_rows_match_the_sources() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let want = render(&rule_source::work_tree_sources(root).unwrap()).unwrap();
        let have = std::fs::read_to_string(root.join(FILE)).unwrap_or_default();
        assert!(have == want, "{FILE} is stale: run `cargo xtask codegen`");
    }
}
