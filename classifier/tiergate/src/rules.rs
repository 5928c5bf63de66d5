//! `tiergate rules` and `tiergate programs`: what the classifier knows, as JSON
//! lines, so the bench (coverage, mutants, the table probes) reads the knowledge
//! of the very binary it replays without linking the classifier.
//!
//! - `rules`: every rule (id, family, class, examples);
//! - `programs`: every program card (names, whether a family checks them, traits,
//!   input use, how they read their argv, carried options) and every policy table
//!   (entries, probes, exceptions, source position).

use std::io::Write;
use std::process::ExitCode;

use classifier::call::args::ArgSpec;
use classifier::rules::{Card, FAMILIES};
use classifier::table::{About, Expect, Table};
use classifier::Words;
use serde_json::{json, Value};

pub fn run() -> ExitCode {
    let lines = FAMILIES.iter().flat_map(|f| {
        f.rules.iter().map(move |r| {
            let class = if r.blocked { "BLOCKED" } else { r.tier.as_str() };
            json!({"id": r.id, "family": f.name, "class": class, "matches": list(r.matches), "not_matches": list(r.not_matches)})
        })
    });
    write_lines(lines)
}

pub fn programs() -> ExitCode {
    write_lines(dump().into_iter())
}

/// `tiergate programs`' lines: every card, then every table. The bench reads them
/// from a binary; the mutation crate's tests read them here, from the tree itself.
pub fn dump() -> Vec<Value> {
    let mut lines: Vec<Value> = FAMILIES.iter().flat_map(|f| f.cards.iter().map(move |c| card(f.name, c))).collect();
    classifier::rules::tables(&mut |t: Table| lines.push(table(&t)));
    lines
}

fn write_lines(lines: impl Iterator<Item = Value>) -> ExitCode {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in lines {
        if writeln!(out, "{line}").is_err() {
            return ExitCode::SUCCESS;
        }
    }
    let _ = out.flush();
    ExitCode::SUCCESS
}

fn list(w: Words) -> Vec<&'static str> {
    w.iter().collect()
}

fn card(family: &str, c: &Card) -> Value {
    let carries: Vec<Value> = c.carries.iter().map(|k| json!({"carry": k.carry.as_str(), "names": list(k.names)})).collect();
    json!({
        "kind": "card",
        "family": family,
        "names": list(c.names),
        "owned": c.check.is_some(),
        "traits": c.traits.names().collect::<Vec<_>>(),
        "input": c.input.as_str(),
        "versioned": c.versioned,
        "args": args(&c.args),
        "carries": carries,
    })
}

fn args(a: &ArgSpec) -> Value {
    json!({
        "values": list(a.value),
        "flags": list(a.flags),
        "optional": list(a.optional),
        "values2": list(a.value2),
        "grammar": a.grammar.name(),
        "stops_at_operand": a.stops_at_operand(),
        "strict": a.strict,
        "help": help_words(a),
    })
}

/// The help words a reading honours: anywhere they stand alone, only as the
/// whole argv, and whether only without operands.
fn help_words(a: &ArgSpec) -> Value {
    let (anywhere, alone) = a.help.words();
    json!({"anywhere": anywhere, "alone": alone, "without_operands": a.help.needs_no_operands()})
}

/// What a table says about itself, collected.
#[derive(Default)]
struct Said {
    probes: Vec<Value>,
    except: Vec<Value>,
}

impl About for Said {
    fn probe(&mut self, template: &'static str, expect: Expect, rule: &'static str, only: Words) {
        self.probes.push(json!({"template": template, "expect": expect.as_str(), "rule": rule, "only": list(only)}));
    }
    fn except(&mut self, entries: Words, why: &'static str) {
        self.except.push(json!({"entries": list(entries), "why": why}));
    }
}

fn table(t: &Table) -> Value {
    let mut said = Said::default();
    (t.about)(&mut said);
    json!({
        "kind": "table",
        "name": t.name,
        "file": t.file,
        "line": t.line,
        "entries": list(t.words),
        "probes": said.probes,
        "except": said.except,
    })
}
