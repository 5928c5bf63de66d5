//! Renders `summary.md` from a `Report`: one-line verdict first, then the counts
//! table, caps table, per-rule table and budgeted examples (base and head verdicts
//! plus a `similar` diff of the reasons, "N more omitted"). Pure: same report in,
//! same text out. It does not write files.

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write;

use similar::{ChangeTag, TextDiff};

use super::Report;
use crate::diff::{counts, per_rule, Category, Count, RowResult};

/// Examples shown per rule, and in total.
pub const PER_RULE_BUDGET: usize = 5;
pub const TOTAL_BUDGET: usize = 60;
/// Failures listed before "N more omitted".
pub const FAILURE_BUDGET: usize = 50;

/// The first line of the summary.
pub fn verdict_line(r: &Report) -> String {
    let changed: BTreeMap<Category, u64> = r.rows.iter().filter(|x| x.category != Category::Unchanged).fold(BTreeMap::new(), |mut m, x| {
        *m.entry(x.category).or_default() += 1;
        m
    });
    let n_changed: u64 = changed.values().sum();
    let detail = if !r.diffed {
        "diff skipped (base not replayable)".to_owned()
    } else if n_changed == 0 {
        "no verdict changes".to_owned()
    } else {
        let parts: Vec<String> = changed.iter().map(|(c, n)| format!("{n} {}", c.as_str())).collect();
        format!("{n_changed} changed ({})", parts.join(", "))
    };
    if r.failures.is_empty() {
        format!("✅ replay {}: clean — {} rows, {detail}", r.dir_name(), r.rows.len())
    } else {
        let mut by_area: BTreeMap<&str, usize> = BTreeMap::new();
        for f in &r.failures {
            *by_area.entry(f.area).or_default() += 1;
        }
        let areas: Vec<String> = by_area.iter().map(|(a, n)| format!("{a} {n}")).collect();
        format!("❌ replay {}: {} policy failure(s) ({}) — {} rows, {detail}", r.dir_name(), r.failures.len(), areas.join(", "), r.rows.len())
    }
}

fn cell(c: Option<&Count>, weighted: bool) -> String {
    match c {
        None => "0".into(),
        Some(c) if weighted && c.weighted != c.rows => format!("{} ({})", c.rows, c.weighted),
        Some(c) => c.rows.to_string(),
    }
}

/// A fence longer than any backtick run in `s`.
fn fence(s: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for ch in s.chars() {
        run = if ch == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    "`".repeat((longest + 1).max(3))
}

fn code(out: &mut String, lang: &str, body: &str) {
    let f = fence(body);
    let _ = writeln!(out, "{f}{lang}\n{}\n{f}", body.trim_end_matches('\n'));
}

/// `s` as inline code on one line (a table cell or a list item).
pub fn inline(s: &str) -> String {
    let s = s.replace('|', "\\|").replace('\n', "⏎");
    format!("`{}`", s.replace('`', "'"))
}

/// `inline` of at most `max` characters, `…` where it was cut.
pub fn inline_clipped(s: &str, max: usize) -> String {
    let mut clipped: String = s.chars().take(max).collect();
    if clipped.len() < s.len() {
        clipped.push('…');
    }
    inline(&clipped)
}

/// Prompts (ask or deny) per 1,000 commands, weighted by occurrence, for each side:
/// the friction a user would feel replaying this corpus.
fn friction(out: &mut String, r: &Report) {
    let _ = writeln!(out, "\n## Friction\n");
    let _ = writeln!(out, "Prompts (ask or deny) per 1,000 commands, weighted by occurrence.\n");
    let _ = writeln!(out, "| corpus | commands (weighted) | base | head |\n|---|---:|---:|---:|");
    for k in &r.corpora {
        let rows = r.rows.iter().filter(|x| x.corpus == *k);
        let (mut total, mut base, mut head, mut base_seen) = (0u64, 0u64, 0u64, false);
        for x in rows {
            total += x.weight;
            if let Some(v) = &x.base {
                base_seen = true;
                base += x.weight * u64::from(v.class.prompts());
            }
            if let Some(v) = &x.head {
                head += x.weight * u64::from(v.class.prompts());
            }
        }
        let per = |n: u64| if total == 0 { "–".to_owned() } else { format!("{:.1}", n as f64 * 1000.0 / total as f64) };
        let b = if base_seen && r.diffed { per(base) } else { "–".to_owned() };
        let _ = writeln!(out, "| {} | {total} | {b} | {} |", k.as_str(), per(head));
    }
}

pub fn render(r: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}\n", verdict_line(r));
    let _ = writeln!(out, "Base `{}` chosen by {}; head `{}`.", r.base, r.base_rule, r.head);
    for n in &r.notes {
        let _ = writeln!(out, "\n> {n}");
    }
    if !r.failures.is_empty() {
        let _ = writeln!(out, "\n## Policy failures\n");
        for f in r.failures.iter().take(FAILURE_BUDGET) {
            let _ = writeln!(out, "- **{}** {}", f.area, f.message.replace('\n', " "));
        }
        if r.failures.len() > FAILURE_BUDGET {
            let _ = writeln!(out, "\n_{} more omitted_", r.failures.len() - FAILURE_BUDGET);
        }
    }
    let _ = writeln!(out, "\n## Counts\n");
    let _ = writeln!(out, "History cells read `rows (weighted by occurrence)`.\n");
    let mut head = String::from("| corpus | rows |");
    let mut sep = String::from("|---|---:|");
    for c in Category::ALL {
        let _ = write!(head, " {} |", c.as_str());
        sep.push_str("---:|");
    }
    let _ = writeln!(out, "{head}\n{sep}");
    let counts = counts(&r.rows);
    for k in &r.corpora {
        let m = counts.get(k);
        let total: u64 = m.map(|m| m.values().map(|c| c.rows).sum()).unwrap_or(0);
        let _ = write!(out, "| {} | {total} |", k.as_str());
        for c in Category::ALL {
            let _ = write!(out, " {} |", cell(m.and_then(|m| m.get(&c)), true));
        }
        out.push('\n');
    }
    friction(&mut out, r);
    for section in &r.sections {
        let _ = writeln!(out, "\n{}", section.trim_end());
    }
    let _ = writeln!(out, "\n## Caps\n");
    if r.caps.is_empty() {
        let _ = writeln!(out, "Not measured: the diff was skipped.");
    } else {
        let _ = writeln!(out, "| corpus | cap | used/limit | |\n|---|---|---:|---|");
        for c in &r.caps {
            let mark = if c.exceeded() { "❌ exceeded" } else { "ok" };
            let _ = writeln!(out, "| {} | {} | {}/{} | {mark} |", c.corpus.as_str(), c.cap, c.used, c.limit);
        }
    }
    let rules = per_rule(&r.rows);
    let _ = writeln!(out, "\n## Changes by rule\n");
    if rules.is_empty() {
        let _ = writeln!(out, "No changed rows.");
    } else {
        let cats: Vec<Category> = Category::ALL.into_iter().filter(|c| *c != Category::Unchanged).collect();
        let mut h = String::from("| rule |");
        let mut s = String::from("|---|");
        for c in &cats {
            let _ = write!(h, " {} |", c.as_str());
            s.push_str("---:|");
        }
        let _ = writeln!(out, "{h} total |\n{s}---:|");
        for (rule, m) in &rules {
            let _ = write!(out, "| {} |", inline(rule));
            for c in &cats {
                let _ = write!(out, " {} |", cell(m.get(c), true));
            }
            let total: u64 = m.values().map(|c| c.rows).sum();
            let _ = writeln!(out, " {total} |");
        }
        examples(&mut out, r, &rules);
    }
    if let Some(c) = &r.coverage {
        out.push_str(&crate::coverage::section(c));
    }
    out
}

/// Where a changed row stands among the examples: policy failures and loosened or
/// error rows first, then tightened, then reason-only, then new and removed.
fn rank(x: &RowResult, failing: &HashSet<(&str, &str)>) -> u8 {
    if failing.contains(&(x.corpus.as_str(), x.id.as_str())) {
        return 0;
    }
    match x.category {
        Category::Loosened | Category::Error => 0,
        Category::Tightened => 1,
        Category::ReasonOnly => 2,
        Category::New | Category::Removed | Category::Unchanged => 3,
    }
}

/// Budgeted examples, failures first: rules ordered by their most urgent row
/// (`rank`), then by how many rows changed; within a rule, the most urgent rows.
fn examples(out: &mut String, r: &Report, rules: &[(String, BTreeMap<Category, Count>)]) {
    let _ = writeln!(out, "\n## Examples\n");
    let _ = writeln!(out, "Policy failures and loosened rows first, then tightened, reason-only, new and removed.\n");
    // A failure names its row by id; rows are unique per corpus, and a failure's
    // area is its corpus (or a gate over any: declarations, errors).
    let failing_ids: HashSet<&str> = r.failures.iter().filter_map(|f| f.row.as_deref()).collect();
    let failing: HashSet<(&str, &str)> = r.rows.iter().filter(|x| failing_ids.contains(x.id.as_str())).map(|x| (x.corpus.as_str(), x.id.as_str())).collect();
    let mut ordered: Vec<(u8, &str, Vec<&RowResult>)> = rules
        .iter()
        .map(|(rule, _)| {
            let mut rows: Vec<&RowResult> = r.rows.iter().filter(|x| x.category != Category::Unchanged && x.rule() == rule).collect();
            rows.sort_by_key(|x| rank(x, &failing));
            (rows.first().map_or(3, |x| rank(x, &failing)), rule.as_str(), rows)
        })
        .collect();
    // `rules` is already by size then id; a stable sort keeps that within a rank.
    ordered.sort_by_key(|(rank, _, _)| *rank);
    let mut shown = 0usize;
    let mut omitted = 0usize;
    for (_, rule, rows) in &ordered {
        let room = PER_RULE_BUDGET.min(TOTAL_BUDGET.saturating_sub(shown));
        if room == 0 {
            omitted += rows.len();
            continue;
        }
        let _ = writeln!(out, "### {} ({} changed)\n", inline(rule), rows.len());
        for x in rows.iter().take(room) {
            example(out, x);
        }
        shown += rows.len().min(room);
        if rows.len() > room {
            let _ = writeln!(out, "_{} more omitted for this rule_\n", rows.len() - room);
            omitted += rows.len() - room;
        }
    }
    if omitted > 0 {
        let _ = writeln!(out, "_{omitted} more omitted in total; see `changed.csv` and `results.jsonl`_");
    }
}

fn example(out: &mut String, x: &RowResult) {
    let weight = if x.weight > 1 { format!(" (weight {})", x.weight) } else { String::new() };
    let label = x.label.as_ref().map(|l| format!(" — {l}")).unwrap_or_default();
    let _ = writeln!(out, "- **{}** `{}/{}`{weight}{label}\n", x.category.as_str(), x.corpus.as_str(), x.id);
    code(out, "sh", &x.command);
    let show = |v: &Option<crate::protocol::Verdict>| v.as_ref().map(|v| v.short()).unwrap_or_else(|| "—".into());
    let _ = writeln!(out, "\n  base: {} → head: {}\n", inline(&show(&x.base)), inline(&show(&x.head)));
    let (b, h) = (x.base.as_ref().map(|v| v.reason.as_str()), x.head.as_ref().map(|v| v.reason.as_str()));
    match (b, h) {
        (Some(b), Some(h)) if b != h => {
            let diff = TextDiff::from_lines(b, h);
            let mut body = String::new();
            for ch in diff.iter_all_changes() {
                let sign = match ch.tag() {
                    ChangeTag::Delete => '-',
                    ChangeTag::Insert => '+',
                    ChangeTag::Equal => ' ',
                };
                let _ = writeln!(body, "{sign}{}", ch.value().trim_end_matches('\n'));
            }
            code(out, "diff", &body);
            out.push('\n');
        }
        (Some(_), Some(_)) => {
            let _ = writeln!(out, "  reason unchanged\n");
        }
        _ => {}
    }
}
