//! Script files: `python3 deploy.py`, `node build.mjs`, `ruby x.rb`, and direct
//! execution (`./run.sh`, `scripts/x.py`, `/abs/tool`). The file is read through
//! `Cx::read` (relative to the `cd`-threaded cwd), its language picked by the
//! interpreter, its shebang or its extension, and its code classified like inline
//! code (shell scripts by the shell classifier). A simulation flag on the command
//! line lowers a mutating script to T2 only when the script's own code names it.
//!
//! It does not run anything; depth is bounded by the engine (`MAX_DEPTH`).

use crate::call::args::{ArgSpec, Args};
use crate::call::Invocation;
use crate::lanes::scripts::{lang_of_exec, load_candidates, mentions_flag, Lang};
use crate::rules::{Cx, FileText, Rule, WRITTEN_ON_LINE};
use crate::verdict::Tier;
use crate::words;

use super::code;

/// ## What it matches
/// A script file that was read and whose code only reads, computes or prints.
/// ## Why this tier
/// Its own code decides; nothing in it changes anything.
pub static READ: Rule = Rule::t0("interp.script.read").reason("the script was read and nothing in it changes anything");

/// ## What it matches
/// A script run by an interpreter or directly (`python3 deploy.py`, `./run.sh`) that cannot be read: missing, not text, too large, or a path held in a variable.
/// ## Why this tier
/// What it does is unknown until it is read.
pub static UNREADABLE: Rule = Rule::t3("interp.script.unreadable")
    .reason("runs a script tiergate cannot read (missing, binary or too large); review it and ask the user")
    .matches(words![
        "python3 deploy.py", "node build.mjs", "ruby x.rb", "./run.sh", "scripts/x.py --flag", "./unknown-binary --flag", "python3 \"$SCRIPT\"",
        "/tmp/x/git status", "./sed -n 1p file",
    ])
    .not_matches(words!["python3 -c 'print(1)'", "/usr/bin/env", "node --check app.js", "node_modules/.bin/tsc --noEmit", "/usr/local/bin/psql -c 'select 1'"]);

/// ## What it matches
/// A script whose `#!` line names an interpreter tiergate does not analyse (`#!/usr/bin/env julia`).
/// ## Why this tier
/// Its code cannot be read as any known language.
pub static UNKNOWN_INTERPRETER: Rule =
    Rule::t3("interp.script.unknown-interpreter").reason("the script's interpreter is not one tiergate can analyse; review the script and ask the user");

/// ## What it matches
/// A mutating script run with a simulation flag (`--dry-run`, `--plan`, `--check`, `--noop`, `--what-if`) that its own code handles.
/// ## Why this tier
/// Simulation, trusted only because the script reads the flag; a blocked effect stays blocked.
pub static DRY_RUN: Rule = Rule::t2("interp.script.dry-run").reason("the script mutates, but it was run with a simulation flag its own code handles");

/// ## What it matches
/// A script whose own file shows no effect, asked to do a mutating verb on its command line (`python manage.py migrate`, `node tool.js delete --all`, `python3 -m alembic upgrade head`).
/// ## Why this tier
/// The script's work is in modules tiergate does not read (its imports); the verb is the best evidence left, as in the original's verb scan.
/// ## Known gaps
/// Local files the script loads are followed (bounded; `follow_local`); installed libraries are not.
pub static MUTATING_VERB: Rule = Rule::t3("interp.script.mutating-verb")
    .reason("the command asks the script or module to do a mutating action whose code is not visible here; ask the user first")
    .matches(words!["python3 -m myapp deploy", "python3 -m mytool delete --all"])
    .not_matches(words!["python3 -m mytool list", "python3 -m json.tool x.json"]);

crate::table! {
    /// Words that mutate for framework CLIs, beyond the shared verb taxonomy.
    EXTRA_VERBS = ["flush", "loaddata", "seed", "createsuperuser", "changepassword", "makemigrations", "squashmigrations", "dbshell", "reset", "nuke"];
    probe "python3 -m myapp {}" => T3, "interp.script.mutating-verb";
}

/// Hits `MUTATING_VERB` when the first operands in `args` name a mutating verb.
pub(crate) fn verb_check(cx: &mut Cx<'_>, args: &[crate::call::Arg]) -> bool {
    use crate::rules::vocab::verbs::{scan, Kind, Table};
    const NONE: Table = Table { read: words![], validate: words![], simulate: words![], mutate: EXTRA_VERBS, skip: words![] };
    let words: Vec<&str> = Args::parse(args, ArgSpec::values(words![])).operands().map(|o| o.arg.text.as_str()).collect();
    match scan(&words, &NONE, 2) {
        Some((Kind::Mutate, verb)) => {
            cx.hit_because(&MUTATING_VERB, format!("asks the script or module to `{verb}`, whose code is not visible here; ask the user first"));
            true
        }
        _ => false,
    }
}

crate::table! {
    /// Command-line flags that ask a script to simulate. Not probed here (a probe row has no
    /// cwd to read a script from): each has a truth row with the fixture `scripts/sync.sh`
    /// (scripts.csv, `scripts-mutants-004` to `-015`).
    SIM_FLAGS = ["--dry-run", "--dryrun", "--dry_run", "--plan", "--check", "--noop", "--no-op", "--simulate", "--what-if", "--whatif", "-WhatIf", "--preview"];
}

crate::table! {
    /// Program paths that are installed tools, not project scripts: dispatched by name
    /// (Homebrew on Linux lives under `/home/linuxbrew/.linuxbrew/`, a segment below).
    TOOL_DIRS = ["/usr/", "/bin/", "/sbin/", "/opt/", "/snap/", "/nix/", "/Applications/", "/Library/", "/System/", "/Users/Shared/"];
    probe "{}bin/zzqx" => T0, "default.elimination";
}
crate::table! {
    /// Tool directories inside a home or a project (`~/.cargo/bin/cargo`, `node_modules/.bin/jest`, Rails binstubs);
    /// `venv/bin/` also answers `.venv/bin/`.
    TOOL_SEGMENTS = [
        "node_modules/.bin/", "venv/bin/", "vendor/bin/", ".tox/", "/.cargo/bin/", "/.local/bin/", "/go/bin/", "/.bun/bin/", "/.deno/bin/", "/.npm-global/bin/",
        "/.volta/bin/", "/.pyenv/", "/.rbenv/", "/.asdf/", "/.nvm/", "/.sdkman/", "/.rustup/", "/.nix-profile/", "/.yarn/bin/", "/.pnpm/", "/.linuxbrew/",
        "bin/rails", "bin/rake", "bin/bundle", "bin/spring",
    ];
    probe "/home/u/{}zzqx" => T0, "default.elimination";
}

/// True when a program word is a path to a file to read rather than an installed tool.
pub(crate) fn runs_as_script(path: &str) -> bool {
    path.contains('/')
        && !TOOL_DIRS.iter().any(|d| path.starts_with(d))
        && !TOOL_SEGMENTS.iter().any(|s| path.contains(s) || path.ends_with(s.trim_end_matches('/')))
}

/// The dispatcher's hook for a program path outside the tool directories.
pub(crate) fn direct_exec(inv: &Invocation, cx: &mut Cx<'_>) {
    // `./gradlew test` is Gradle asked to test: classified by its tasks.
    if crate::rules::vocab::build_wrappers::build_tool(inv, cx) {
        return;
    }
    let path = inv.program_path.clone();
    run_path(inv, cx, &path, None, 0);
}

/// Runs the script operand `inv.args[idx]`.
pub(crate) fn run_operand(inv: &Invocation, cx: &mut Cx<'_>, idx: usize, lang: Option<Lang>) {
    run_arg(inv, cx, &inv.args[idx], lang, idx + 1);
}

/// Runs the script named by `a` (an operand, or an option's value such as `awk -f F`).
pub(crate) fn run_arg(inv: &Invocation, cx: &mut Cx<'_>, a: &crate::call::Arg, lang: Option<Lang>, args_from: usize) {
    if !a.exact {
        cx.hit_because(&UNREADABLE, format!("runs a script whose path (`{}`) is computed at run time; spell the path out", a.text));
        return;
    }
    run_path(inv, cx, &a.text, lang, args_from);
}

/// Reads and classifies the script at `path`; `args_from` is where its own arguments start.
pub(crate) fn run_path(inv: &Invocation, cx: &mut Cx<'_>, path: &str, lang: Option<Lang>, args_from: usize) {
    let texts = match cx.read(path, inv.cwd.as_deref()) {
        FileText::Text(src) => vec![src],
        FileText::Missing => {
            cx.hit_because(
                &UNREADABLE,
                format!("runs `{path}`, which tiergate cannot find; check the path (relative to the working directory) and ask the user"),
            );
            return;
        }
        FileText::Unusable(why) => match written_python(inv, cx, path, lang) {
            Some(texts) => texts,
            None => {
                cx.hit_because(&UNREADABLE, format!("runs `{path}`, which tiergate cannot read ({why}); review it and ask the user"));
                return;
            }
        },
    };
    for src in &texts {
        run_text(inv, cx, path, lang, args_from, src);
    }
}

/// A Python script the command line writes before it runs it (`cat > x.py <<EOF …
/// EOF` then `python x.py`): every text the file may hold by then (the old file, each
/// write's text: `Engine::read_versions`), when each is Python the line shows. Python
/// compiles the whole file before it runs any of it, so a write cut short leaves a
/// syntax error or a prefix of whole statements — code the full text holds already.
/// A shell script runs line by line, and its prefix need not be (`git push --dry-run`
/// cut to `git push`): this reads none but Python. `None`: ask.
fn written_python(inv: &Invocation, cx: &mut Cx<'_>, path: &str, lang: Option<Lang>) -> Option<Vec<String>> {
    let versions = cx.read_versions(path, inv.cwd.as_deref());
    let texts: Vec<String> = versions
        .into_iter()
        .map(|v| match v {
            // Without a `#!` line `./x.py` runs under the shell, whatever its name says.
            FileText::Text(src) if lang.map_or_else(|| lang_of_exec(&src) == Ok(Lang::Python), |l| l == Lang::Python) => Some(src),
            _ => None,
        })
        .collect::<Option<_>>()?;
    (!texts.is_empty()).then_some(texts)
}

/// Classifies one text of the script at `path` (see `run_path`).
fn run_text(inv: &Invocation, cx: &mut Cx<'_>, path: &str, lang: Option<Lang>, args_from: usize, src: &str) {
    let lang = match lang.map(Ok).unwrap_or_else(|| lang_of_exec(src)) {
        Ok(l) => l,
        Err(program) => {
            cx.hit_because(&UNKNOWN_INTERPRETER, format!("`{path}` runs under `{program}`, which tiergate cannot analyse; review it and ask the user"));
            return;
        }
    };
    let before = cx.hits.len();
    if lang == Lang::Shell {
        cx.shell(src, inv.cwd.as_deref());
    } else {
        let analysis = code::analyse(lang, src);
        code::apply(inv, cx, &analysis);
        let dir = path.rsplit_once('/').map(|(d, _)| format!("{d}/")).unwrap_or_default();
        follow_local(inv, cx, lang, &dir, &analysis.imports);
    }
    if lang != Lang::Shell && !cx.hits[before.min(cx.hits.len())..].iter().any(|h| h.rule.blocked || h.rule.tier >= Tier::T3) {
        let rest: Vec<crate::call::Arg> = inv.args.iter().skip(args_from).cloned().collect();
        verb_check(cx, &rest);
    }
    let flags: Vec<String> = inv.args.iter().skip(args_from).map(|a| a.text.clone()).collect();
    simulation_with(cx, lang, src, before, &flags);
    if cx.hits.len() == before {
        cx.hit(&READ);
    }
}

/// For `python -m local.module`: the same simulation check with the command's own flags.
pub(crate) fn simulation(inv: &Invocation, cx: &mut Cx<'_>, lang: Lang, src: &str, before: usize) {
    let flags: Vec<String> = inv.args.iter().map(|a| a.text.clone()).collect();
    simulation_with(cx, lang, src, before, &flags);
}

/// Replaces a script's T3 hits by `interp.script.dry-run` when a simulation flag
/// on the command line is one the script's code handles. Blocked hits stay.
fn simulation_with(cx: &mut Cx<'_>, lang: Lang, src: &str, before: usize, flags: &[String]) {
    let new = &cx.hits[before.min(cx.hits.len())..];
    if new.iter().any(|h| h.rule.blocked) || !new.iter().any(|h| h.rule.tier >= Tier::T3) {
        return;
    }
    let Some(flag) = flags.iter().find(|f| SIM_FLAGS.contains(f.split('=').next().unwrap_or(""))) else { return };
    let flag = flag.split('=').next().unwrap_or("").to_owned();
    if mentions_flag(lang, src, &flag) {
        cx.hits.truncate(before);
        cx.hit_because(&DRY_RUN, format!("the script mutates, but `{flag}` is a simulation flag its own code handles"));
    }
}

/// Follows the local files a script (or inline code) loads from `dir` (`""` for
/// inline code): Python imports, Node's relative `require`/`import`, and the
/// loaders of Ruby, Perl, PHP and Lua (`lanes::scripts::load_candidates` says where
/// each looks). Each file found is classified as code of the same language, and
/// its own loads followed, within `MAX_IMPORT_DEPTH` and `MAX_LOCAL_MODULES`. A
/// name found nowhere local is a library, as `import json` is.
pub(crate) fn follow_local(inv: &Invocation, cx: &mut Cx<'_>, lang: Lang, dir: &str, imports: &[String]) {
    // `ruby -Ilib`, `perl -I lib`: the load path is the interpreter's, for every file it loads.
    let include = super::preload::include_dirs(inv);
    let mut walk = Walk { include: &include, budget: MAX_LOCAL_MODULES, seen: Vec::new() };
    follow(inv, cx, lang, dir, imports, 1, &mut walk);
}

/// Local modules read per script, in all (imports of imports included).
const MAX_LOCAL_MODULES: usize = 12;
/// How deep imports of imports are followed.
const MAX_IMPORT_DEPTH: u8 = 3;

/// What one `follow_local` walk shares: the load path's extra directories, the
/// modules left to read, and the files read so far.
struct Walk<'w> {
    include: &'w [String],
    budget: usize,
    seen: Vec<String>,
}

fn follow(inv: &Invocation, cx: &mut Cx<'_>, lang: Lang, dir: &str, imports: &[String], depth: u8, walk: &mut Walk<'_>) {
    for spec in imports {
        for group in load_candidates(lang, dir, spec, walk.include) {
            for candidate in group {
                // Every text the file may hold: the line may write it before it is loaded
                // (each of these languages compiles a whole file before running it).
                let versions = cx.read_versions(&candidate, inv.cwd.as_deref());
                if versions.iter().all(|v| matches!(v, FileText::Missing) || matches!(v, FileText::Unusable(w) if *w != WRITTEN_ON_LINE)) {
                    continue;
                }
                // A file already read (a cycle, or two importers) was classified once.
                let key = crate::lanes::resolve(&candidate, Some("/"), None).unwrap_or_else(|| candidate.clone());
                if walk.seen.contains(&key) {
                    break;
                }
                if past_bounds(cx, &candidate, walk.budget, depth) {
                    return;
                }
                walk.seen.push(key);
                walk.budget -= 1;
                let sub = candidate.rsplit_once('/').map(|(d, _)| format!("{d}/")).unwrap_or_default();
                for v in versions {
                    match v {
                        FileText::Text(src) => {
                            let analysis = code::analyse(lang, &src);
                            code::apply(inv, cx, &analysis);
                            follow(inv, cx, lang, &sub, &analysis.imports, depth + 1, walk);
                        }
                        // Written by the line with text it does not show: it runs, unseen. (A file
                        // unreadable on disk is passed over, as a library would be: a known gap.)
                        FileText::Unusable(why) if why == WRITTEN_ON_LINE => {
                            cx.hit_because(&UNREADABLE, format!("loads `{candidate}`, which tiergate cannot read ({why}); review it and ask the user"))
                        }
                        FileText::Unusable(_) | FileText::Missing => {}
                    }
                }
                break;
            }
        }
    }
}

/// A local module found past the bounds (deeper than `MAX_IMPORT_DEPTH` imports of
/// imports, or after `MAX_LOCAL_MODULES` modules) is unread, and what is unread may
/// run: it asks, as the just and make lanes do past theirs.
fn past_bounds(cx: &mut Cx<'_>, candidate: &str, budget: usize, depth: u8) -> bool {
    let past = depth > MAX_IMPORT_DEPTH || budget == 0;
    if past {
        cx.hit_because(
            &UNREADABLE,
            format!("imports `{candidate}`, past the {MAX_IMPORT_DEPTH} levels of imports and {MAX_LOCAL_MODULES} local modules tiergate reads; review it and ask the user"),
        );
    }
    past
}

crate::tables![EXTRA_VERBS, SIM_FLAGS, TOOL_DIRS, TOOL_SEGMENTS];
