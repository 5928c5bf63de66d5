//! Coverage as markdown (the full table for `cargo xtask coverage`, a short section
//! for the replay's summary.md) and as exemption-file lines for the gaps.

use std::fmt::Write;

use super::{Coverage, Missing, RuleCoverage, RuleInfo, EXEMPTIONS};

fn side_words(gated: bool) -> (&'static str, &'static str) {
    if gated {
        ("gated", "free")
    } else {
        ("free", "gated")
    }
}

/// The line `cargo xtask coverage` proposes for an uncovered rule: a `todo:` reason
/// that a reviewer replaces with why the gap is right, or closes with a truth row.
fn proposal(c: &RuleCoverage, gated: bool) -> String {
    let (own, other) = side_words(gated);
    let why = match c.missing {
        Missing::Row => format!("todo: no {own} truth row reaches this rule"),
        Missing::Control => format!("todo: no {other} truth row runs the same program"),
        Missing::Both => format!("todo: no {own} truth row reaches this rule and no {other} control"),
        Missing::None => String::new(),
    };
    format!("{},{},{}", c.id, c.missing.as_str(), csv_field(&why))
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

/// The exemption file `--bless` writes: every kept line whose rule still has that
/// gap (narrowed to what is missing now, reason kept), lines for covered or unknown
/// rules dropped, a `todo:` line for each new gap; in registry order.
pub fn blessed_file(cov: &Coverage, rules: &[RuleInfo], old: &[super::Exemption]) -> String {
    let mut out = String::from("rule,missing,reason\n");
    for (c, r) in cov.rules.iter().zip(rules) {
        if c.missing == Missing::None {
            continue;
        }
        match old.iter().find(|e| e.id_is(&c.id)) {
            Some(e) if e.missing.covers(c.missing) => out.push_str(&format!("{},{},{}\n", c.id, c.missing.as_str(), csv_field(&e.reason))),
            _ => out.push_str(&format!("{}\n", proposal(c, r.gated()))),
        }
    }
    out
}

/// Exemption-file lines for every uncovered rule (what `--check` would fail on).
pub fn exemption_lines(cov: &Coverage, rules: &[RuleInfo]) -> Vec<String> {
    cov.rules.iter().zip(rules).filter(|(c, _)| cov.uncovered.contains(&c.id)).map(|(c, r)| proposal(c, r.gated())).collect()
}

struct Totals {
    rules: usize,
    covered: usize,
    exempt: usize,
    todo: usize,
    uncovered: usize,
}

fn totals(cov: &Coverage) -> Totals {
    let exempt: Vec<&RuleCoverage> = cov.rules.iter().filter(|c| c.exempt.is_some()).collect();
    let todo = exempt.iter().filter(|c| c.exempt.as_deref().is_some_and(|r| r.starts_with("todo:"))).count();
    let covered = cov.rules.iter().filter(|c| c.missing == Missing::None).count();
    Totals { rules: cov.rules.len(), covered, exempt: exempt.len() - todo, todo, uncovered: cov.uncovered.len() }
}

/// The short section appended to the replay's summary.md.
pub fn section(cov: &Coverage) -> String {
    let t = totals(cov);
    let mut out = String::from("\n## Rule coverage\n\n");
    let _ = writeln!(
        out,
        "{} rules: {} covered by a truth row of their own side and a control of the other, {} exempted with a reason, {} exempted as `todo:` gaps, {} uncovered and not exempted ({} stale exemption line(s)). `cargo xtask coverage` has the table.",
        t.rules,
        t.covered,
        t.exempt,
        t.todo,
        t.uncovered,
        cov.stale.len()
    );
    if !cov.uncovered.is_empty() {
        let list: Vec<String> = cov.uncovered.iter().take(20).map(|id| format!("`{id}`")).collect();
        let more = if cov.uncovered.len() > 20 { format!(" and {} more", cov.uncovered.len() - 20) } else { String::new() };
        let _ = writeln!(out, "\nUncovered: {}{more}.", list.join(", "));
    }
    out
}

/// The full coverage report (`reports/coverage/summary.md`).
pub fn markdown(cov: &Coverage, rules: &[RuleInfo]) -> String {
    let t = totals(cov);
    let mut out = String::from("# Rule coverage\n\n");
    let verdict = if cov.failures() == 0 { "✅" } else { "❌" };
    let _ = writeln!(
        out,
        "{verdict} {} rules over {} truth rows: {} covered, {} exempted with a reason, {} `todo:` gaps, {} uncovered, {} stale exemption line(s).\n",
        t.rules,
        cov.truth_rows,
        t.covered,
        t.exempt,
        t.todo,
        t.uncovered,
        cov.stale.len()
    );
    out.push_str(
        "A row *hits* a rule when head's verdict names it. `gated`/`free`: truth rows of that family hitting it. \
`controls`: truth rows of the other side running the same program as one of the rule's own rows (a heuristic), with the nearest. \
`curated`/`history`: rows hitting it (history weighted in parentheses).\n\n",
    );
    for s in &cov.stale {
        let _ = writeln!(out, "- stale: {s}");
    }
    if !cov.uncovered.is_empty() {
        let _ = writeln!(out, "\nUncovered, in `{EXEMPTIONS}` form (replace `todo:` with a reason or add a truth row):\n\n```csv");
        for l in exemption_lines(cov, rules) {
            let _ = writeln!(out, "{l}");
        }
        out.push_str("```\n");
    }
    out.push_str("\n| rule | class | gated | free | controls | nearest control | curated | history | missing | exemption |\n|---|---|---:|---:|---:|---|---:|---:|---|---|\n");
    for c in &cov.rules {
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} | {} | {} | {} | {} ({}) | {} | {} |",
            c.id,
            c.class,
            c.truth_gated,
            c.truth_free,
            c.controls,
            c.nearest_control.as_deref().map(|s| format!("`{s}`")).unwrap_or_default(),
            c.curated,
            c.history,
            c.history_weighted,
            if c.missing == Missing::None { "" } else { c.missing.as_str() },
            c.exempt.as_deref().unwrap_or("").replace('|', "\\|")
        );
    }
    if !cov.unregistered.is_empty() {
        let _ = writeln!(
            out,
            "\nVerdict rule ids outside the registry: {}.",
            cov.unregistered.iter().map(|(k, v)| format!("`{k}` ({v})")).collect::<Vec<_>>().join(", ")
        );
    }
    out
}
