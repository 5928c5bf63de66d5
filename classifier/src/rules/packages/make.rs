//! The make lane: `make [TARGET…] [-C DIR] [-f FILE] [VAR=value…]` reads the
//! Makefile through the `FileSource`, follows the goals' prerequisites four levels
//! deep (a deeper target, or more than 64, is T3: unread), and classifies every recipe line as shell run in the make directory. Literally
//! named `include` files are read too (at most 8).
//!
//! Decisions: make variables are expanded from the Makefile, the command line and
//! make's built-ins; an unknown one becomes an unresolved shell expansion (never a
//! safe literal, so `$(TOOL) …` in command position is T3). A `$(shell …)` body (and
//! `VAR != cmd`) is classified as the shell it is; functions that can produce
//! commands (`call`, `eval`, `foreach`, `file` …) are T3. `make -n`/`-q` run no
//! recipe: T2. A missing or unreadable Makefile, or a goal with no rule, is T3.

use crate::rules::vocab::input;
use crate::words;
use std::collections::{HashMap, HashSet, VecDeque};

use super::makefile::{self, expand, Makefile, Scope};
use super::HELP;
use crate::call::args::{asks_help, ArgSpec, Args, Help, Token};
use crate::call::Invocation;
use crate::lanes::resolve;
use crate::rules::{Cx, FileText, Rule};

/// ## What it matches
/// `make [TARGET]` whose Makefile was read: the recipe lines of the goal and its prerequisites decide;
/// this rule is the floor (local build).
/// ## Why this tier
/// T1 (local build) unless a recipe line is stricter (`kubectl apply`, `rm -rf`, `npm publish` …).
pub static RECIPE: Rule = Rule::t1("packages.make.recipe")
    .reason("runs Makefile recipes whose commands were read and are local builds or checks")
    .matches(words!["make -f - <<'EOF'\nall:\n\tcargo build\nEOF"])
    .not_matches(words![
        "make -n deploy", "make -f - <<'EOF'\nall:\n\tnpm publish\nEOF", "make -f - <<< 'all: ; echo $(FOO_$(shell npm publish))'",
        "make -f - <<< 'all: ; echo $(X:$(shell npm publish)=y)'",
    ]);

/// ## What it matches
/// `make -n|--dry-run|--just-print|--recon` and `make -q|--question`.
/// ## Why this tier
/// Simulation: make prints (or checks) what it would run.
/// ## Known gaps
/// Even with `-n`, make runs recipe lines marked `+` and lines that invoke `$(MAKE)`.
pub static DRY_RUN: Rule = Rule::t2("packages.make.dry-run")
    .reason("make -n only prints the recipe commands")
    .matches(words!["make -n deploy", "make --dry-run", "make -q all"])
    .not_matches(words!["make deploy"]);

/// ## What it matches
/// `make …` when the Makefile cannot be read (missing, unreadable, no working directory), the goal has no rule in it,
/// or a recipe uses a make function tiergate does not evaluate (`$(call …)`, `$(eval …)`, `$(foreach …)`, `$(file …)`, `--eval`).
/// ## Why this tier
/// The recipe could run anything; unseen is not safe.
pub static UNRESOLVED: Rule = Rule::t3("packages.make.unresolved")
    .reason("runs Makefile recipes tiergate cannot read; check the Makefile and ask the user")
    .matches(words![
        "make build", "make", "make -C sub test", "make -f - <<'EOF'\nall:\n\t$(call run,x)\nEOF", "make --eval='x: ; echo hi' x",
        "make -f - <<'EOF'\nCC = gcc\nEOF", "make -f - deploy <<'EOF'\nall:\n\techo hi\nEOF",
    ])
    .not_matches(words!["make -n build", "make --help"]);

/// ## What it matches
/// A `$(shell …)` call or `VAR != cmd` assignment whose command cannot be extracted (unbalanced parentheses).
/// ## Why this tier
/// Make runs it; what it runs is unknown.
pub static SHELL_FUNCTION: Rule = Rule::t3("packages.make.shell-function")
    .reason("the Makefile runs a $(shell …) command tiergate cannot extract; review it and ask the user")
    .matches(words!["make -f - <<'EOF'\nX := $(shell echo (\nall:\n\techo $(X)\nEOF"])
    .not_matches(words!["make -f - <<'EOF'\nV := $(shell git describe)\nall:\n\techo $(V)\nEOF"]);

/// Bounds on following prerequisites.
const MAX_TARGETS: usize = 64;
const MAX_DEPTH: usize = 4;

struct MakeArgs {
    dirs: Vec<String>,
    files: Vec<String>,
    goals: Vec<String>,
    overrides: HashMap<String, String>,
    dry: bool,
    eval: bool,
}

/// GNU make's options: these take a value, `-j`/`-l` an optional one (attached, or
/// the next word when it is a number); letters pack (`-sk`, `-nB`, `-Cdir`).
const MAKE_ARGS: ArgSpec = ArgSpec::values(words![
    "-C", "--directory", "-f", "--file", "--makefile", "-I", "--include-dir", "-o", "--old-file", "--assume-old", "-W", "--what-if", "--new-file",
    "--assume-new", "--eval",
])
.with_flags(words!["-n", "--just-print", "--dry-run", "--recon", "-q", "--question"])
.with_optional(words!["-j", "--jobs", "-l", "--load-average", "--max-load"])
.packed();

fn parse_args(inv: &Invocation) -> MakeArgs {
    let mut m = MakeArgs { dirs: Vec::new(), files: Vec::new(), goals: Vec::new(), overrides: HashMap::new(), dry: false, eval: false };
    let mut it = Args::parse(&inv.args, MAKE_ARGS);
    while let Some(t) = it.next() {
        match t {
            Token::Opt { name: "-C" | "--directory", value, .. } => m.dirs.extend(value.map(str::to_owned)),
            Token::Opt { name: "-f" | "--file" | "--makefile", value, .. } => m.files.extend(value.map(str::to_owned)),
            Token::Opt { name: "--eval", .. } | Token::Missing { name: "--eval", .. } => m.eval = true,
            Token::Opt { name: "-n" | "--just-print" | "--dry-run" | "--recon" | "-q" | "--question", .. } => m.dry = true,
            // `-j 4`: make takes the next word as the count only when it is a number.
            Token::Opt { index, name: "-j" | "--jobs" | "-l" | "--load-average" | "--max-load", value: None }
                if !it.mid_word() && inv.args.get(index + 1).is_some_and(|n| n.text.chars().all(|c| c.is_ascii_digit() || c == '.')) =>
            {
                it.skip_word();
            }
            Token::Operand(o) => {
                let w = o.arg.text.as_str();
                match w.split_once('=') {
                    Some((k, v)) => {
                        m.overrides.insert(k.trim_end_matches([':', '+', '?']).to_owned(), v.to_owned());
                    }
                    None => m.goals.push(w.to_owned()),
                }
            }
            _ => {}
        }
    }
    m
}

pub(super) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    // Not as a value: `make -C -h deploy` builds `deploy` in the directory `-h`.
    if asks_help(&inv.args, MAKE_ARGS.help(Help::LONG.with(Help::DASH_H).with(Help::DASH_V).with(Help::VERSION))) {
        cx.hit(&HELP);
        return;
    }
    let args = parse_args(inv);
    if args.dry {
        cx.hit(&DRY_RUN);
        return;
    }
    if args.eval {
        cx.hit_because(&UNRESOLVED, "make --eval adds Makefile text tiergate does not evaluate; ask the user".to_owned());
        return;
    }
    let home = cx.home();
    let mut dir = inv.cwd.clone();
    for d in &args.dirs {
        dir = resolve(d, dir.as_deref(), home.as_deref());
    }
    let text = match read_makefile(inv, cx, &args, dir.as_deref()) {
        Ok(t) => t,
        Err(why) => return cx.hit_because(&UNRESOLVED, why),
    };
    let text = with_includes(cx, text, dir.as_deref());
    let mk = makefile::parse(&text);
    let goals = if args.goals.is_empty() {
        match default_goal(&mk) {
            Some(g) => vec![g],
            None => return cx.hit_because(&UNRESOLVED, "the Makefile has no target to build; ask the user".to_owned()),
        }
    } else {
        args.goals.clone()
    };
    cx.hit(&RECIPE);
    for body in &mk.parse_time_shell {
        shell_body(cx, body, dir.as_deref());
    }
    run_goals(cx, &mk, &args, &goals, dir.as_deref());
}

fn read_makefile(inv: &Invocation, cx: &mut Cx<'_>, args: &MakeArgs, dir: Option<&str>) -> Result<String, String> {
    let mut text = String::new();
    if args.files.is_empty() {
        let mut unusable = None;
        for name in ["GNUmakefile", "makefile", "Makefile"] {
            match cx.read(name, dir) {
                FileText::Text(t) => return Ok(t),
                FileText::Missing => {}
                FileText::Unusable(why) => unusable = Some(why),
            }
        }
        return Err(match unusable {
            Some(why) => format!("make reads a Makefile tiergate cannot read ({why}); check it and ask the user"),
            None => "there is no Makefile here, so what make runs is unknown; ask the user".to_owned(),
        });
    }
    for f in &args.files {
        if f == "-" {
            match input::shown(inv) {
                Some(shown) => text.push_str(shown),
                None => return Err("make reads its Makefile from standard input, which tiergate cannot see; ask the user".to_owned()),
            }
            text.push('\n');
            continue;
        }
        match cx.read(f, dir) {
            FileText::Text(t) => text.push_str(&t),
            FileText::Missing => return Err(format!("make -f {f}: tiergate cannot find that Makefile; ask the user")),
            FileText::Unusable(why) => return Err(format!("make -f {f}: tiergate cannot read it ({why}); ask the user")),
        }
        text.push('\n');
    }
    Ok(text)
}

/// Most files an `include` chain may add.
const MAX_INCLUDES: usize = 8;

/// Appends the text of literally named `include`d files (no variables or globs), so
/// their rules and variables are seen; others stay unseen (`Makefile::includes`).
fn with_includes(cx: &mut Cx<'_>, mut text: String, dir: Option<&str>) -> String {
    let mut done = 0;
    let mut scanned = 0;
    while scanned < text.len() && done < MAX_INCLUDES {
        let mut names = Vec::new();
        for line in text[scanned..].lines() {
            let line = line.trim_start();
            let rest = line.strip_prefix("include ").or_else(|| line.strip_prefix("-include ")).or_else(|| line.strip_prefix("sinclude "));
            if let Some(rest) = rest {
                names.extend(rest.split_whitespace().filter(|n| !n.contains(['$', '*', '?', '['])).map(str::to_owned));
            }
        }
        scanned = text.len();
        for name in names {
            if done >= MAX_INCLUDES {
                break;
            }
            if let FileText::Text(t) = cx.read(&name, dir) {
                text.push('\n');
                text.push_str(&t);
                done += 1;
            }
        }
    }
    text
}

fn default_goal(mk: &Makefile) -> Option<String> {
    if let Some(g) = mk.default_goal.as_ref().filter(|g| !g.is_empty()) {
        return Some(g.clone());
    }
    mk.rules.iter().flat_map(|r| r.targets.iter()).find(|t| (!t.starts_with('.') || t.contains('/')) && !t.contains('%')).cloned()
}

fn shell_body(cx: &mut Cx<'_>, body: &str, dir: Option<&str>) {
    if body.matches('(').count() != body.matches(')').count() {
        cx.hit(&SHELL_FUNCTION);
    } else {
        cx.shell(body, dir);
    }
}

fn run_goals(cx: &mut Cx<'_>, mk: &Makefile, args: &MakeArgs, goals: &[String], dir: Option<&str>) {
    let mut seen: HashSet<String> = HashSet::new();
    let mut read = 0;
    let mut queue: VecDeque<(String, usize)> = goals.iter().map(|g| (g.clone(), 0)).collect();
    while let Some((target, depth)) = queue.pop_front() {
        if !seen.insert(target.clone()) {
            continue;
        }
        let rules: Vec<(&makefile::MkRule, Option<String>)> =
            mk.rules.iter().filter(|r| r.targets.iter().any(|t| *t == target || names_target(mk, args, t, &target))).map(|r| (r, None)).collect();
        let rules = if rules.is_empty() { pattern_rules(mk, &target) } else { rules };
        if rules.is_empty() {
            // A prerequisite with no rule is a source file; a goal with no rule is unknown.
            if depth == 0 {
                let more = if mk.includes { " (it may come from an included file or make's built-in rules)" } else { " (make may use a built-in rule)" };
                cx.hit_because(&UNRESOLVED, format!("the Makefile has no rule for `{target}`{more}; ask the user"));
            }
            continue;
        }
        // Past the bounds the rest is unread, and what is unread may run: ask. (Source
        // files, prerequisites with no rule, are not counted: they run nothing.)
        read += 1;
        if read > MAX_TARGETS {
            return cx.hit_because(&UNRESOLVED, format!("the goals need more than {MAX_TARGETS} targets, which tiergate does not read; ask the user"));
        }
        if depth > MAX_DEPTH {
            return cx.hit_because(
                &UNRESOLVED,
                format!("target `{target}` is a prerequisite nested deeper than {MAX_DEPTH} levels, which tiergate does not read; ask the user"),
            );
        }
        for (rule, stem) in rules {
            let scope = Scope { vars: &mk.vars, overrides: &args.overrides, target: &target, prereqs: &rule.prereqs };
            for line in &rule.recipe {
                let e = expand(line, &scope);
                for body in &e.shell {
                    shell_body(cx, body, dir);
                }
                if let Some(f) = e.opaque.first() {
                    cx.hit_because(&UNRESOLVED, format!("recipe `{target}` uses {f}, which tiergate does not evaluate; ask the user"));
                }
                let cmd = e.text.trim_start().trim_start_matches(['@', '-', '+', ' ', '\t']);
                let cmd = match &stem {
                    Some(s) => cmd.replace("${MAKE_STEM}", s),
                    None => cmd.to_owned(),
                };
                if !cmd.trim().is_empty() {
                    cx.shell(&cmd, dir);
                }
            }
            queue.extend(rule.prereqs.iter().map(|p| (p.clone(), depth + 1)));
        }
    }
}

/// True when a target written with variables (`$(BIN):`) expands to `target`.
fn names_target(mk: &Makefile, args: &MakeArgs, written: &str, target: &str) -> bool {
    if !written.contains('$') {
        return false;
    }
    let scope = Scope { vars: &mk.vars, overrides: &args.overrides, target: "", prereqs: &[] };
    expand(written, &scope).text.split_whitespace().any(|t| t == target)
}

/// Pattern rules (`%.o: %.c`) whose target pattern matches `target`, each with its
/// stem (which replaces `$*`). `%` matches a nonempty stem, as in make. Of several
/// matches make runs one, chosen by the shortest stem and by which prerequisites exist
/// or can be made, which tiergate cannot see: every match is read, the strictest decides
/// (`deploy-%` after a `%:` that only prints is still read for `make deploy-prod`).
/// A pattern rule without a recipe cancels an implicit rule and runs nothing.
fn pattern_rules<'m>(mk: &'m Makefile, target: &str) -> Vec<(&'m makefile::MkRule, Option<String>)> {
    let stem = |pat: &str| {
        let (pre, post) = pat.split_once('%')?;
        let matches = target.len() > pre.len() + post.len() && target.starts_with(pre) && target.ends_with(post);
        matches.then(|| target[pre.len()..target.len() - post.len()].to_owned())
    };
    mk.rules.iter().filter(|r| !r.recipe.is_empty()).filter_map(|r| r.targets.iter().find_map(|t| stem(t)).map(|s| (r, Some(s)))).collect()
}
