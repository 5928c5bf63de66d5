//! Python packaging: `pip`/`pip3`, `pipx`, `uv`, `poetry`, `pdm`, `pipenv`,
//! `hatch`, `rye`, `conda`/`mamba`/`micromamba`, `twine`. (`python -m pip …` reaches `pip`
//! through the interpreter family, which re-dispatches the argv.)
//!
//! `--dry-run` is honoured where the tool implements it (`pip install`, `uv
//! sync|lock|add|remove|pip install`, `poetry install|add|remove|update|lock`,
//! `conda install|create|remove|update`, `pdm add|remove|update|lock|sync`).

use super::runners;
use super::HELP_READING;
use super::{ACCOUNT, BUILD, CLEAN, DRY_RUN, FORMAT, HELP, INSTALL, PUBLISH, READ, UNKNOWN, VALIDATE};
use crate::call::args::asks_help;
use crate::call::{has_flag, operand_words};
use crate::call::{Arg, Invocation};
use crate::rules::{Cx, Rule};
use crate::words;
use crate::words::Words;

crate::table! {
    /// Options that take a value, the subcommand's and the tools' global ones (pip's general
    /// options, hatch's `--env`/`--config`/`--data-dir`): the word after one is its value, not the subcommand.
    VALUE_OPTS = [
        "-r", "--requirement", "-c", "--constraint", "-e", "--editable", "-t", "--target", "--prefix", "--root", "-i", "--index-url", "--extra-index-url", "-f",
        "--find-links", "--log", "--proxy", "--timeout", "--cache-dir", "--python", "-p", "--directory", "-C", "--project", "-P", "--name", "--channel",
        "--platform", "--python-version", "--with", "--group", "--extra", "--format", "--config-file", "--spec", "--pip-args", "--keyring-provider", "--retries",
        "--exists-action", "--trusted-host", "--cert", "--client-cert", "--use-feature", "--use-deprecated", "--env", "--config", "--data-dir",
    ];
    probe "pip {} 3.12 list" => T0, "packages.read";
}

crate::table! {
    /// `-n` takes a value (pip's `--name`…) except where a tool spells a flag with it:
    /// `uv -n` is `--no-cache`, `poetry -n` `--no-interaction` and pdm's `-n` `--non-interactive`
    /// (`poetry -n add show` adds `show`).
    N_VALUE = ["-n"];
    probe "pip {} 3.12 list" => T0, "packages.read";
}
crate::table! {
    /// `--color` takes a value except in hatch (`--color/--no-color`).
    COLOR_VALUE = ["--color"];
    probe "pip {} 3.12 list" => T0, "packages.read";
}

/// [`VALUE_OPTS`] and the value options `program` does not spell as flags.
fn value_opts(program: &str) -> Words {
    match program {
        "uv" | "poetry" | "pdm" => crate::joined_words!(&[VALUE_OPTS, COLOR_VALUE]),
        "hatch" => crate::joined_words!(&[VALUE_OPTS, N_VALUE]),
        _ => crate::joined_words!(&[VALUE_OPTS, N_VALUE, COLOR_VALUE]),
    }
}

/// ## What it matches
/// `pip --python X`, `uv … --python X` (`-p X`) and `pipenv --python X` where X is not an interpreter name or
/// version (`3.12`, `python3.12`, `cpython@3.12`, `pypy`) but a file or directory (`./x.sh`, `.venv/bin/python`, `tool.sh`).
/// ## Why this tier
/// pip re-runs itself under that program and uv and pipenv run it to ask its version: its code runs, whatever
/// the subcommand does, so `pip --python ./x.sh list` is not a read.
pub(super) static INTERPRETER_PATH: Rule = Rule::t3("packages.python.interpreter-path")
    .reason("runs the program given to --python, whatever the subcommand does; name an interpreter (`--python 3.12`) or ask the user")
    .matches(words!["pip --python ./x.sh list", "uv --python .venv/bin/python tree", "uv venv -p tool.sh", "pipenv --python ~/x graph"])
    .not_matches(words!["uv --python 3.12 tree", "uv venv -p python3.12", "pip --python=cpython@3.11 list", "pip list"]);

/// The `--python` value of `pip`, `uv` (also `-p`) or `pipenv` when it is not an interpreter name or version.
fn interpreter_path(inv: &Invocation) -> Option<&str> {
    let spellings = match inv.program.as_str() {
        "uv" => words!["--python", "-p"],
        "pip" | "pip3" | "pipenv" => words!["--python"],
        _ => return None,
    };
    let v = crate::call::value_of(&inv.args, spellings)?;
    let rest = ["cpython", "python", "pypy", "graalpy", "pyodide"].iter().find_map(|p| v.strip_prefix(p)).unwrap_or(v);
    let version = rest.trim_start_matches(['@', '-']).chars().all(|c| c.is_ascii_digit() || ".<>=!~,*+t".contains(c));
    (!version).then_some(v)
}

/// Lowers an install-like change to T2 when the tool simulates it with `--dry-run`.
fn pick(args: &[Arg], rule: &'static Rule, simulate: bool) -> &'static Rule {
    if simulate && has_flag(args, words!["--dry-run"]) && std::ptr::eq(rule, &INSTALL) {
        &DRY_RUN
    } else {
        rule
    }
}

pub(super) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    let args = &inv.args;
    let pos: Vec<(usize, &str)> = operand_words(args, value_opts(&inv.program));
    let Some(&(sub_i, sub)) = pos.first() else {
        cx.hit(&HELP);
        return;
    };
    if asks_help(&args[..sub_i], HELP_READING) || (!matches!(sub, "run" | "exec") && asks_help(&args[sub_i..], HELP_READING)) {
        cx.hit(&HELP);
        return;
    }
    if let Some(path) = interpreter_path(inv) {
        cx.hit_because(&INTERPRETER_PATH, format!("`{} --python {path}` runs {path} as its interpreter; {}", inv.program, INTERPRETER_PATH.reason));
    }
    let w: Vec<&str> = pos.iter().map(|(_, w)| *w).collect();
    let rest = &args[sub_i + 1..];
    let rule: &'static Rule = match (inv.program.as_str(), w.as_slice()) {
        // Runners hand their target to the engine.
        ("pipx", ["run", ..]) => return runners::python_remote(inv, cx, rest),
        ("uv", ["tool", "run", ..]) => return runners::python_remote(inv, cx, &args[pos[1].0 + 1..]),
        ("uv" | "poetry" | "pdm" | "pipenv" | "hatch" | "conda" | "mamba" | "micromamba" | "rye", ["run", ..]) => return runners::local(inv, cx, rest),
        ("hatch", ["env", "run", ..]) => return runners::local(inv, cx, &args[pos[1].0 + 1..]),
        ("uv", ["pip", verb, ..]) => pip_verb(verb, w.get(2).copied()),
        ("uv", [verb, ..]) => uv_verb(verb, w.get(1).copied()),
        ("pip" | "pip3", [verb, ..]) => pip_verb(verb, w.get(1).copied()),
        ("rye", [verb, ..]) => rye_verb(verb, w.get(1).copied()),
        ("pipx", [verb, ..]) => match *verb {
            "list" | "environment" => &READ,
            _ => &INSTALL,
        },
        ("poetry", [verb, ..]) => poetry_verb(verb, w.get(1).copied()),
        ("pdm", [verb, ..]) => poetry_verb(verb, w.get(1).copied()),
        ("pipenv", [verb, ..]) => match *verb {
            "graph" | "check" | "requirements" | "verify" | "scripts" | "audit" => &READ,
            "shell" => &UNKNOWN,
            _ => &INSTALL,
        },
        ("hatch", [verb, ..]) => match *verb {
            "build" => &BUILD,
            "test" => &VALIDATE,
            "fmt" => &FORMAT,
            "publish" => &PUBLISH,
            "clean" => &CLEAN,
            "version" | "status" | "project" | "dep" | "config" | "env" => &READ,
            _ => &UNKNOWN,
        },
        ("twine", [verb, ..]) => match *verb {
            "check" => &VALIDATE,
            _ => &PUBLISH,
        },
        (_, [verb, ..]) => conda_verb(verb, w.get(1).copied(), rest),
        (_, []) => &HELP,
    };
    // `pip download -d DIR`, `pip wheel -w DIR`: the files land in DIR, a write like any other.
    let pip_verb_word = if inv.program == "uv" && sub == "pip" { w.get(1).copied() } else { Some(sub) };
    let output = match (inv.program.as_str(), pip_verb_word) {
        ("pip" | "pip3" | "uv", Some("download")) => words!["-d", "--dest", "--destination-directory"],
        ("pip" | "pip3" | "uv", Some("wheel")) => words!["-w", "--wheel-dir"],
        _ => words![],
    };
    if let Some(dir) = crate::call::option_arg(args, output) {
        crate::rules::vocab::writes::check_write(cx, &dir, inv.cwd.as_deref());
    }
    let simulate = rule_simulates(inv.program.as_str(), sub);
    cx.hit(pick(args, rule, simulate));
}

fn rule_simulates(program: &str, sub: &str) -> bool {
    match program {
        "pip" | "pip3" => sub == "install",
        "uv" | "poetry" | "pdm" | "conda" | "mamba" | "micromamba" => true,
        _ => false,
    }
}

fn pip_verb(verb: &str, next: Option<&str>) -> &'static Rule {
    match (verb, next) {
        ("list" | "show" | "freeze" | "check" | "search" | "index" | "inspect" | "debug" | "hash" | "help" | "download" | "tree", _) => &READ,
        // `pip config list|get|debug` and `pip cache dir|info|list` only print (issue 29).
        ("config", Some("list" | "get" | "debug")) | ("cache", Some("dir" | "info" | "list")) => &READ,
        ("wheel" | "compile", _) => &BUILD,
        ("config", _) => &ACCOUNT,
        ("cache", _) => &CLEAN,
        _ => &INSTALL,
    }
}

/// rye: `rye run` is a runner (above); its project commands sort like uv's.
fn rye_verb(verb: &str, next: Option<&str>) -> &'static Rule {
    match (verb, next) {
        ("show" | "list" | "version" | "help", _) | ("tools" | "toolchain", Some("list")) | ("config", Some("--show-path" | "--get")) => &READ,
        ("test" | "lint" | "check", _) => &VALIDATE,
        ("fmt" | "format", _) => &FORMAT,
        ("build" | "init", _) => &BUILD,
        ("publish", _) => &PUBLISH,
        ("config", _) => &ACCOUNT,
        _ => &INSTALL,
    }
}

fn uv_verb(verb: &str, next: Option<&str>) -> &'static Rule {
    match (verb, next) {
        ("tree" | "export" | "version" | "help", _) => &READ,
        ("python", Some("list" | "find" | "dir")) | ("tool", Some("list" | "dir")) | ("cache", Some("dir")) => &READ,
        ("venv" | "init" | "build", _) | ("python", Some("pin")) => &BUILD,
        ("publish", _) => &PUBLISH,
        ("cache", _) => &CLEAN,
        ("format", _) => &FORMAT,
        ("self", Some("version")) => &READ,
        _ => &INSTALL,
    }
}

fn poetry_verb(verb: &str, next: Option<&str>) -> &'static Rule {
    match (verb, next) {
        ("show" | "search" | "export" | "about" | "list" | "info" | "outdated" | "help", _) | ("env", Some("info" | "list")) => &READ,
        ("version", None) | ("config", Some("--list")) => &READ,
        ("check", _) => &VALIDATE,
        ("build" | "new" | "init" | "version", _) => &BUILD,
        ("publish", _) => &PUBLISH,
        ("config", _) => &ACCOUNT,
        ("cache", Some("list")) => &READ,
        ("cache", _) => &CLEAN,
        ("shell", _) => &UNKNOWN,
        _ => &INSTALL,
    }
}

fn conda_verb(verb: &str, next: Option<&str>, rest: &[Arg]) -> &'static Rule {
    match (verb, next) {
        ("list" | "info" | "search" | "doctor" | "compare" | "help", _) | ("env", Some("list" | "export")) => &READ,
        ("config", _) if has_flag(rest, words!["--show", "--get", "--describe", "--show-sources", "--validate"]) => &READ,
        ("config" | "init", _) => &ACCOUNT,
        ("clean", _) => &CLEAN,
        ("build", _) => &BUILD,
        ("activate" | "deactivate", _) => &READ,
        _ => &INSTALL,
    }
}

crate::tables![VALUE_OPTS, N_VALUE, COLOR_VALUE];
