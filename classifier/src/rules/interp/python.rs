//! Python's argv: `-c CODE`, `-m MODULE …`, a script, `-` / heredoc stdin, and
//! packed options (`-Bc`, `-um`). Modules are tools in disguise: `-m pip` is
//! `pip`, `-m pytest` is a test run, `-m http.server` serves files; a module in
//! the working tree is read like a script, before any of that: `-m` puts the
//! working directory first on `sys.path`, so a project `pytest.py` runs instead
//! of pytest.

use crate::call::args::{ArgSpec, Args, Help, Token};
use crate::call::{first_operand, value_arg, Arg, Invocation};
use crate::lanes::scripts::Lang;
use crate::rules::vocab::writes;
use crate::rules::{Cx, FileText, Rule, WRITTEN_ON_LINE};
use crate::words;

use super::{code, script, Source, REPL, SYNTAX_CHECK, VERSION};

/// ## What it matches
/// `python -m` test runners, type checkers and linters (`pytest`, `unittest`, `mypy`, `flake8`, `pylint`, `coverage`, `tox`).
/// ## Why this tier
/// Local validation: they run the project's tests and checks.
pub static MODULE_TEST: Rule = Rule::t1("interp.python.module-test")
    .reason("runs the project's tests or checks (local validation)")
    .matches(words![
        "python3 -m pytest", "python -m pytest tests/ -q -rf", "python3 -m unittest discover -s tests", "python3 -m mypy src", "python -m py.test",
        "python3 -m doctest README.md", "python3 -m flake8 src", "python3 -m pylint src", "python3 -m pyflakes src", "python3 -m pycodestyle src",
        "python3 -m pydocstyle src", "python3 -m coverage run -m pytest", "python -m nose", "python3 -m nose2 -v", "python3 -m bandit -r src",
        "python3 -m pyright", "python3 -m tox -e py312", "python3 -m nox -s tests", "python3 -m pytype src", "python3 -m hypothesis write json.dumps",
    ])
    .not_matches(words!["python3 -m pip install x"]);

/// ## What it matches
/// `python -m` modules that only read or print (`json.tool`, `http.server`, `timeit`, `platform`, `pydoc`, `zipfile -l`).
/// ## Why this tier
/// They change nothing. `http.server` serves the tree's files read-only (the original allows it too); see Known gaps.
/// ## Known gaps
/// `http.server` binds every interface by default, so files in the tree (a `.env`) are readable from the network while it runs.
pub static MODULE_READ: Rule = Rule::t0("interp.python.module-read")
    .reason("runs a standard-library module that only reads or prints")
    .matches(words!["python3 -m json.tool data.json", "python3 -m timeit '1+1'", "python3 -m pydoc json", "python3 -m zipfile -l dist/app.whl"])
    .not_matches(words!["python3 -m pip install x", "python3 -m http.server 8000"]);

/// ## What it matches
/// `python -m http.server`, `-m SimpleHTTPServer`, `-m smtpd`, `-m xmlrpc.server`, `-m pydoc -p PORT`/`-b`: a standard-library network server.
/// ## Why this tier
/// A listener serves the tree (a `.env`, keys) to whoever connects, on every interface by default; `nc -l` is T3 for the same reason.
pub static MODULE_SERVER: Rule = Rule::t3("interp.python.module-server")
    .reason("starts a network server that serves the working tree to whoever connects; ask the user first")
    .matches(words!["python3 -m http.server", "python3 -m http.server 8000 --bind 0.0.0.0", "python -m SimpleHTTPServer", "python3 -m pydoc -p 8080"])
    .not_matches(words!["python3 -m json.tool x.json", "python3 -m pydoc json"]);

/// ## What it matches
/// `python -m venv DIR` / `virtualenv DIR`: a virtual environment in the tree.
/// ## Why this tier
/// Local set-up that writes only the named directory (outside the tree the write-target rules apply).
pub static VENV: Rule = Rule::t1("interp.python.venv")
    .reason("creates a virtual environment in the working tree")
    .matches(words!["python3 -m venv .venv", "python -m venv venv"])
    .not_matches(words!["python3 -m venv /opt/env"]);

crate::table! {
    TEST_MODULES = [
        "pytest", "py.test", "unittest", "doctest", "mypy", "flake8", "pylint", "pyflakes", "pycodestyle", "pydocstyle", "coverage", "nose", "nose2", "bandit",
        "pyright", "tox", "nox", "pytype", "hypothesis",
    ];
    probe "python3 -m {}" => T1, "interp.python.module-test";
}
crate::table! {
    /// An unknown module is T0 too (`default.elimination`, like an installed program), so the probe names the rule.
    READ_MODULES = [
        "json.tool", "site", "platform", "sysconfig", "this", "timeit", "pydoc", "tokenize", "ast", "dis", "calendar", "base64", "uuid", "pstats", "pickletools",
        "mimetypes", "locale", "webbrowser", "pyclbr", "inspect", "filecmp", "symtable", "quopri", "encodings.rot_13", "unicodedata", "pip_audit",
    ];
    probe "python3 -m {}" => T0, "interp.python.module-read";
}
crate::table! {
    /// Installed tools no family owns, run as their program (`python -m mkdocs build` is
    /// `mkdocs build`, judged by the fallback) rather than by the module verb scan. A tool
    /// a family owns (`pip`, `black`, `ansible` …) needs no entry: an owned module is
    /// always handed to its family.
    TOOL_MODULES = [
        "build", "flit", "pre_commit", "mkdocs", "sphinx", "invoke", "fabric", "scrapy", "jupyter", "notebook", "nbconvert", "cookiecutter", "wheel", "setuptools",
        "ensurepip",
    ];
    probe "python3 -m {} delete x" => T3, "fallback.mutative-verb";
}
/// Modules that are a program of another name: `python -m awscli` is the `aws` CLI.
const MODULE_PROGRAMS: &[(&str, &str)] = &[("awscli", "aws")];
crate::table! {
    RUNS_SCRIPT = ["cProfile", "profile", "trace"];
    probe "python3 -m {} x.py" => T3, "interp.script.unreadable";
}

/// Python's options: `-c CODE` and `-m MODULE` end the options, `-W`/`-X` take a
/// value; letters pack (`-Bc CODE`, `-Werror`, `-Im mod`).
const PYTHON_ARGS: ArgSpec = ArgSpec::values(words!["-c", "-m", "-W", "-X", "--check-hash-based-pycs"]).with_flags(words!["-i"]).packed().posix();

/// The help and version words python prints for and runs nothing.
const PYTHON_HELP: Help = Help::VERSION.with(Help::LONG).with(Help::DASH_H).with(Help::DASH_UPPER_V);

crate::table! {
    /// The other words that only print (`-VV` is two `-V`s, still a version).
    VERSION_WORDS = ["-VV", "--help-env", "--help-xoptions", "--help-all"];
    probe "python3 -m pip {}" => T0, "packages.help";
}

/// True when an option named `name` only prints.
fn prints(name: &str) -> bool {
    PYTHON_HELP.holds(name) || VERSION_WORDS.contains(name)
}

/// True when python takes its code from stdin: no `-c`, no `-m`, no script (or the
/// script `-`), not a version.
pub(super) fn reads_code_from_stdin(inv: &Invocation) -> bool {
    for t in Args::parse(&inv.args, PYTHON_ARGS) {
        match t {
            Token::Opt { name: "-c" | "-m", .. } => return false,
            Token::Operand(o) => return o.arg.text == "-",
            Token::DashDash(d) => return inv.args.get(d + 1).is_none_or(|o| o.text == "-"),
            _ if t.name().is_some_and(prints) => return false,
            _ => {}
        }
    }
    true
}

pub(super) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    let args = &inv.args;
    let mut s = Source::default();
    let mut module: Option<Result<&str, ()>> = None;
    let mut i = args.len();
    let mut it = Args::parse(args, PYTHON_ARGS);
    while let Some(t) = it.next() {
        match t {
            Token::Opt { index, name: "-c", value: Some(v) } => {
                s.code.push(value_arg(args, index, v));
                i = it.pos();
                break;
            }
            Token::Opt { name: "-m", value: Some(v), .. } => {
                module = Some(Ok(v));
                i = it.pos();
                break;
            }
            // `python3 -m` with nothing after it: Python refuses to start, nothing runs.
            Token::Missing { name: "-m", .. } => module = Some(Err(())),
            Token::Opt { name: "-i", .. } => s.repl = true,
            Token::Operand(o) => {
                // `-` is the script operand that means stdin.
                s.stdin = o.arg.text == "-";
                i = o.index + usize::from(s.stdin);
                break;
            }
            Token::DashDash(d) => {
                i = d + 1;
                break;
            }
            _ if t.name().is_some_and(prints) => {
                cx.hit(&VERSION);
                return;
            }
            _ => {}
        }
    }
    s.rest = i.min(args.len());
    if s.repl {
        cx.hit(&REPL);
    }
    if !s.code.is_empty() {
        super::inline(inv, cx, Lang::Python, &s.code);
        return;
    }
    if let Some(m) = module {
        let Ok(name) = m else { return };
        run_module(inv, cx, name, &args[s.rest..]);
        return;
    }
    if !s.stdin && i < args.len() {
        script::run_operand(inv, cx, i, Some(Lang::Python));
        return;
    }
    super::from_stdin(inv, cx, Lang::Python);
}

fn run_module(inv: &Invocation, cx: &mut Cx<'_>, module: &str, rest: &[Arg]) {
    let cwd = inv.cwd.clone();
    // `-m` puts the working directory first on `sys.path`: a module of the project
    // (`python -m tools.report`, but also a `pytest.py` or `pip/__main__.py` in the
    // tree) runs instead of any installed one, so it is read like a script.
    // `PYTHONPATH`'s directories come next, before any installed module.
    let base = module.replace('.', "/");
    let dirs = std::iter::once(String::new()).chain(super::preload::include_dirs(inv));
    for candidate in dirs.flat_map(|d| [format!("{d}{base}.py"), format!("{d}{base}/__main__.py")]) {
        // Every text the module may hold (the line may write it first, `Engine::read_versions`);
        // one the line writes with text it does not show runs unseen, so it asks. (One
        // unreadable on disk falls through to the library lanes below, as before: a known gap.)
        let versions = cx.read_versions(&candidate, cwd.as_deref());
        if versions.iter().all(|v| matches!(v, FileText::Missing) || matches!(v, FileText::Unusable(w) if *w != WRITTEN_ON_LINE)) {
            continue;
        }
        for v in versions {
            match v {
                FileText::Text(src) => {
                    let before = cx.hits.len();
                    code::classify(inv, cx, Lang::Python, &src, code::Origin::Body);
                    script::simulation(inv, cx, Lang::Python, &src, before);
                }
                FileText::Unusable(why) if why == WRITTEN_ON_LINE => cx.hit_because(
                    &script::UNREADABLE,
                    format!("runs module `{module}` from `{candidate}`, which tiergate cannot read ({why}); review it and ask the user"),
                ),
                FileText::Unusable(_) | FileText::Missing => {}
            }
        }
        return;
    }
    if TEST_MODULES.contains(module) {
        cx.hit(&MODULE_TEST);
        return;
    }
    if matches!(module, "py_compile" | "compileall" | "tabnanny") {
        cx.hit(&SYNTAX_CHECK);
        return;
    }
    if matches!(module, "venv" | "virtualenv") {
        cx.hit(&VENV);
        // `--prompt NAME` (venv, virtualenv) and virtualenv's `-p PYTHON` take a value.
        if let Some(dir) = first_operand(rest, ArgSpec::values(words!["--prompt", "-p", "--python"])) {
            writes::check_write(cx, dir.arg, cwd.as_deref());
        }
        return;
    }
    if matches!(module, "zipfile" | "tarfile") {
        cx.hit(&MODULE_READ);
        let extracts = rest.iter().any(|a| matches!(a.text.as_str(), "-e" | "--extract" | "-c" | "--create"));
        if extracts {
            if let Some(target) = Args::parse(rest, ArgSpec::values(words![])).operands().last() {
                writes::check_write(cx, target.arg, cwd.as_deref());
            }
        }
        return;
    }
    // pydoc's getopt string is `bk:n:p:w`: `-p PORT` (or `-p0`) and `-b` serve.
    let pydoc_server =
        module == "pydoc" && Args::parse(rest, ArgSpec::values(words!["-k", "-n", "-p"]).with_flags(words!["-b", "-w"]).packed()).has(&["-p", "-b"]);
    if matches!(module, "http.server" | "SimpleHTTPServer" | "CGIHTTPServer" | "smtpd" | "xmlrpc.server" | "aiosmtpd") || pydoc_server {
        cx.hit(&MODULE_SERVER);
        return;
    }
    if READ_MODULES.contains(module) {
        cx.hit(&MODULE_READ);
        return;
    }
    if module == "pdb" {
        cx.hit_because(&REPL, "`python -m pdb` starts an interactive debugger; run the script directly".to_owned());
        return;
    }
    if RUNS_SCRIPT.contains(module) {
        // `python -m cProfile [-o out] [-s key] script.py`: the script runs.
        match first_operand(rest, ArgSpec::values(words!["-o", "-s", "--outfile", "--sort"]).posix()) {
            Some(a) => {
                let path = a.arg.text.clone();
                script::run_path(inv, cx, &path, Some(Lang::Python), inv.args.len());
            }
            None => cx.hit(&REPL),
        }
        return;
    }
    let program = MODULE_PROGRAMS.iter().find(|(m, _)| *m == module).map_or(module, |(_, p)| p);
    let mut argv = vec![Arg::lit(program)];
    argv.extend(rest.iter().cloned());
    // A module no family knows (`python -m alembic upgrade head`): its verb is the evidence.
    let owned = TOOL_MODULES.contains(module) || crate::rules::owned(program);
    if !owned && script::verb_check(cx, rest) {
        return;
    }
    cx.argv(&argv, cwd.as_deref());
}

crate::tables![TEST_MODULES, READ_MODULES, TOOL_MODULES, RUNS_SCRIPT, VERSION_WORDS];
