//! The justfile lane: `just [RECIPE [ARGS…]…]` reads `justfile`/`Justfile`/`.justfile`
//! (or `--justfile F`) through the `FileSource`, follows the recipes' dependencies four
//! levels deep (a deeper one, or more than 64 recipes, is T3: unread), and classifies each recipe line as shell run in the justfile's
//! directory. `{{…}}` interpolations become unresolved expansions (never safe
//! literals), except a recipe parameter the command line gives no argument for,
//! which is its literal default (a variadic `*args` is empty); backtick
//! assignments are classified as the shell they run.
//!
//! It does not read imported or `mod` justfiles, and it does not search parent
//! directories: a recipe it cannot find is T3 (`packages.recipe-unresolved`).
//! Shebang recipes (`#!/usr/bin/env python`) run another language: T3.

use crate::rules::vocab::input::{self, Source};
use crate::words;
use std::collections::{HashMap, HashSet, VecDeque};

use super::{DRY_RUN, FORMAT, READ, RECIPE};
use crate::call::args::{ArgSpec, Args, Help, Token};
use crate::call::has_flag;
use crate::call::Invocation;
use crate::lanes::resolve;
use crate::rules::{Cx, FileText, Rule};

/// ## What it matches
/// `just [RECIPE]` whose justfile was read: the recipe lines (and dependencies) decide; this rule is the floor.
/// ## Why this tier
/// T1 (local task) unless a recipe line is stricter.
pub static JUST_RECIPE: Rule = Rule::t1("packages.just.recipe")
    .reason("runs justfile recipes whose commands were read and are local builds or checks")
    .matches(words!["just --justfile - <<'EOF'\ntest:\n    cargo test\nEOF"])
    .not_matches(words!["just deploy", "just --list"]);

#[derive(Default)]
struct Recipe {
    /// Parameter names in order, each with its value when no argument is given:
    /// a quoted literal default, empty for `*variadic`, `None` when unknown.
    params: Vec<(String, Option<String>)>,
    /// Dependencies, each with whether it is called with arguments (`(build "x")`).
    deps: Vec<(String, bool)>,
    body: Vec<String>,
}

#[derive(Default)]
struct Justfile {
    recipes: HashMap<String, Recipe>,
    order: Vec<String>,
    aliases: HashMap<String, String>,
    backticks: Vec<String>,
}

fn parse(text: &str) -> Justfile {
    let mut jf = Justfile::default();
    let mut current: Option<String> = None;
    for line in text.lines() {
        if line.starts_with([' ', '\t']) {
            if let Some(r) = current.as_ref().and_then(|n| jf.recipes.get_mut(n)) {
                if !line.trim().is_empty() {
                    r.body.push(line.trim().to_owned());
                }
            }
            continue;
        }
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        current = None;
        if t.starts_with('#') || t.starts_with('[') || t.starts_with("set ") || t.starts_with("import ") || t.starts_with("mod ") {
            continue;
        }
        if let Some(rest) = t.strip_prefix("alias ") {
            if let Some((a, target)) = rest.split_once(":=") {
                jf.aliases.insert(a.trim().to_owned(), target.trim().to_owned());
            }
            continue;
        }
        if t.contains(":=") {
            // `x := `git describe``: the backtick runs when the justfile is evaluated.
            let mut parts = t.split('`');
            parts.next();
            while let (Some(cmd), Some(_)) = (parts.next(), parts.next().or(Some(""))) {
                if !cmd.is_empty() {
                    jf.backticks.push(cmd.to_owned());
                }
            }
            continue;
        }
        if let Some((head, deps)) = t.split_once(':') {
            let mut words = head.trim_start_matches('@').split_whitespace();
            let Some(name) = words.next() else { continue };
            let recipe = Recipe {
                params: words.map(param).collect(),
                deps: deps
                    .split_whitespace()
                    .map(|d| (d.trim_matches(['(', ')', '&']).to_owned(), d.starts_with('(') && !d.ends_with(')')))
                    .filter(|(d, _)| !d.is_empty() && !d.starts_with(['"', '\'']))
                    .collect(),
                body: Vec::new(),
            };
            jf.order.push(name.to_owned());
            jf.recipes.insert(name.to_owned(), recipe);
            current = Some(name.to_owned());
        }
    }
    jf
}

/// One recipe parameter from its header word: `name`, `name="default"`,
/// `*args`, `+args`, `$name` (exported).
fn param(word: &str) -> (String, Option<String>) {
    let word = word.trim_start_matches('$');
    let variadic = word.starts_with('*');
    let (name, default) = match word.trim_start_matches(['*', '+', '$']).split_once('=') {
        Some((n, d)) => (n, literal(d)),
        None => (word.trim_start_matches(['*', '+', '$']), variadic.then(String::new)),
    };
    (name.to_owned(), default)
}

/// A quoted just string with nothing to evaluate (`"x"`, `'x'`).
fn literal(expr: &str) -> Option<String> {
    let q = expr.chars().next().filter(|c| matches!(c, '"' | '\''))?;
    let inner = expr.strip_prefix(q)?.strip_suffix(q)?;
    (!inner.contains(['"', '\'', '\\', '`', '{', '}'])).then(|| inner.to_owned())
}

/// Replaces `{{ … }}` with an unresolved expansion, or with the value `known`
/// holds for a bare name (`{{ args }}` of a parameter given no argument).
fn interpolate(line: &str, known: &[(String, Option<String>)]) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(i) = rest.find("{{") {
        out.push_str(&rest[..i]);
        match rest[i..].find("}}") {
            Some(j) => {
                let name = rest[i + 2..i + j].trim();
                match known.iter().find(|(n, _)| n == name).and_then(|(_, v)| v.as_deref()) {
                    Some(v) => out.push_str(v),
                    None => out.push_str("${JUST_VALUE}"),
                }
                rest = &rest[i + j + 2..];
            }
            None => {
                out.push_str("${JUST_VALUE}");
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// Bounds on following recipes: how many in all, and how deep dependencies nest.
const MAX_RECIPES: usize = 64;
const MAX_DEPTH: usize = 4;

/// just's options that take a value (`--set NAME VALUE` two); the operands are
/// recipes, their arguments and `NAME=VALUE` overrides.
const JUST_ARGS: ArgSpec = ArgSpec {
    value2: words!["--set"],
    ..ArgSpec::values(words![
        "-f", "--justfile", "-d", "--working-directory", "--shell", "--shell-arg", "--dotenv-filename", "--dotenv-path", "--color", "--chooser",
        "--command-color", "--list-heading", "--list-prefix",
    ])
};

pub(super) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    let args = &inv.args;
    // Listing options, and the help and version words (anywhere before `--`), only print.
    let prints = super::HELP_WORDS.with(Help::USAGE).with(Help::VERSION).with(Help::DASH_UPPER_V);
    if has_flag(args, words!["--list", "-l", "--summary", "--show", "-s", "--dump", "--variables", "--groups", "--completions", "--man"])
        || inv.flags().any(|f| prints.holds(f))
    {
        return cx.hit(&READ);
    }
    if has_flag(args, words!["--dry-run", "-n"]) {
        return cx.hit(&DRY_RUN);
    }
    if has_flag(args, words!["--fmt"]) {
        return cx.hit(&FORMAT);
    }
    let mut file: Option<String> = None;
    let mut dir = inv.cwd.clone();
    let mut positionals = Vec::new();
    for t in Args::parse(args, JUST_ARGS) {
        match t {
            Token::Opt { name: "-f" | "--justfile", value, .. } => file = value.map(str::to_owned),
            Token::Opt { name: "-d" | "--working-directory", value: Some(v), .. } => {
                let home = cx.home();
                dir = resolve(v, dir.as_deref(), home.as_deref());
            }
            Token::Missing { name: "-d" | "--working-directory", .. } => dir = None,
            // `NAME=VALUE` overrides a variable; it is not a recipe.
            Token::Operand(o) if !o.arg.text.contains('=') => positionals.push(o.arg.text.clone()),
            _ => {}
        }
    }
    let text = match file.as_deref() {
        Some("-") => match input::of(inv) {
            Source::Shown { text, heredoc: true, .. } => text.to_owned(),
            _ => return cx.hit_because(&RECIPE, "just reads its justfile from standard input, which tiergate cannot see; ask the user".to_owned()),
        },
        Some(f) => match cx.read(f, dir.as_deref()) {
            FileText::Text(t) => t,
            _ => return cx.hit_because(&RECIPE, format!("just --justfile {f}: tiergate cannot read it; ask the user")),
        },
        None => {
            let found = ["justfile", "Justfile", ".justfile", "JUSTFILE"].iter().find_map(|n| match cx.read(n, dir.as_deref()) {
                FileText::Text(t) => Some(t),
                _ => None,
            });
            match found {
                Some(t) => t,
                None => return cx.hit_because(&RECIPE, "there is no readable justfile here, so what just runs is unknown; ask the user".to_owned()),
            }
        }
    };
    let jf = parse(&text);
    // `just --evaluate` prints the variables, and computing them runs every backtick.
    let evaluate = has_flag(args, words!["--evaluate"]);
    cx.hit(if evaluate { &READ } else { &JUST_RECIPE });
    for b in &jf.backticks {
        cx.shell(b, dir.as_deref());
    }
    if evaluate {
        return;
    }
    let resolve_name = |n: &str| jf.aliases.get(n).cloned().unwrap_or_else(|| n.to_owned());
    // Each goal, and whether the command line gives it arguments.
    let mut goals: Vec<(String, bool)> = Vec::new();
    let mut takes_args = false;
    for p in &positionals {
        let name = resolve_name(p);
        if jf.recipes.contains_key(&name) && !takes_args {
            takes_args = jf.recipes.get(&name).is_some_and(|r| !r.params.is_empty());
            goals.push((name, false));
        } else if let Some(last) = goals.last_mut() {
            last.1 = true;
        } else {
            return cx.hit_because(&RECIPE, format!("the justfile has no recipe `{p}` (it may come from an import or a parent directory); ask the user"));
        }
    }
    if goals.is_empty() {
        // just runs the first recipe in the file when none is named.
        match jf.order.first().cloned() {
            Some(g) => goals.push((g, false)),
            None => return,
        }
    }
    let mut seen = HashSet::new();
    // A dependency named without arguments runs with its parameters' defaults.
    let mut queue: VecDeque<(String, usize, bool)> = goals.into_iter().map(|(g, given)| (g, 0, given)).collect();
    while let Some((name, depth, given)) = queue.pop_front() {
        if !seen.insert(name.clone()) {
            continue;
        }
        // Past the bounds the rest is unread, and what is unread may run: ask.
        if seen.len() > MAX_RECIPES {
            return cx.hit_because(&RECIPE, format!("the recipes named run more than {MAX_RECIPES} recipes, which tiergate does not read; ask the user"));
        }
        let Some(recipe) = jf.recipes.get(&resolve_name(&name)) else { continue };
        if depth > MAX_DEPTH {
            return cx.hit_because(
                &RECIPE,
                format!("recipe `{name}` is a dependency nested deeper than {MAX_DEPTH} levels, which tiergate does not read; ask the user"),
            );
        }
        if recipe.body.first().is_some_and(|l| l.starts_with("#!")) {
            cx.hit_because(&RECIPE, format!("recipe `{name}` is a script in another language (shebang); review it and ask the user"));
            continue;
        }
        let known: &[(String, Option<String>)] = if given { &[] } else { &recipe.params };
        for line in &recipe.body {
            let cmd = interpolate(line.trim_start_matches(['@', '-']), known);
            if !cmd.trim().is_empty() && !cmd.trim_start().starts_with('#') {
                cx.shell(&cmd, dir.as_deref());
            }
        }
        queue.extend(recipe.deps.iter().map(|(d, with_args)| (d.clone(), depth + 1, *with_args)));
    }
}
