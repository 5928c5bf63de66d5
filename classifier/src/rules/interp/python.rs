//! Python's argv: `-c CODE`, `-m MODULE …`, a script, `-` / heredoc stdin, and
//! packed options (`-Bc`, `-um`). Modules are tools in disguise: `-m pip` is
//! `pip`, `-m pytest` is a test run, `-m http.server` serves files; a module in
//! the working tree is read like a script.

use crate::call::{Arg, Invocation};
use crate::lanes::scripts::Lang;
use crate::rules::{paths, Cx, FileText, Rule};

use super::{code, script, Source, REPL, SYNTAX_CHECK, VERSION};

/// ## What it matches
/// `python -m` test runners, type checkers and linters (`pytest`, `unittest`, `mypy`, `flake8`, `pylint`, `coverage`, `tox`).
/// ## Why this tier
/// Local validation: they run the project's tests and checks.
pub static MODULE_TEST: Rule = Rule::t1("interp.python.module-test")
    .reason("runs the project's tests or checks (local validation)")
    .matches(&["python3 -m pytest", "python -m pytest tests/ -q -rf", "python3 -m unittest discover -s tests", "python3 -m mypy src", "python -m py.test"])
    .not_matches(&["python3 -m pip install x"]);

/// ## What it matches
/// `python -m` modules that only read or print (`json.tool`, `http.server`, `timeit`, `platform`, `pydoc`, `zipfile -l`).
/// ## Why this tier
/// They change nothing. `http.server` serves the tree's files read-only (the original allows it too); see Known gaps.
/// ## Known gaps
/// `http.server` binds every interface by default, so files in the tree (a `.env`) are readable from the network while it runs.
pub static MODULE_READ: Rule = Rule::t0("interp.python.module-read")
    .reason("runs a standard-library module that only reads or prints")
    .matches(&["python3 -m json.tool data.json", "python3 -m timeit '1+1'", "python3 -m pydoc json"])
    .not_matches(&["python3 -m pip install x", "python3 -m http.server 8000"]);

/// ## What it matches
/// `python -m http.server`, `-m SimpleHTTPServer`, `-m smtpd`, `-m xmlrpc.server`, `-m pydoc -p PORT`/`-b`: a standard-library network server.
/// ## Why this tier
/// A listener serves the tree (a `.env`, keys) to whoever connects, on every interface by default; `nc -l` is T3 for the same reason.
pub static MODULE_SERVER: Rule = Rule::t3("interp.python.module-server")
    .reason("starts a network server that serves the working tree to whoever connects; ask the user first")
    .matches(&["python3 -m http.server", "python3 -m http.server 8000 --bind 0.0.0.0", "python -m SimpleHTTPServer", "python3 -m pydoc -p 8080"])
    .not_matches(&["python3 -m json.tool x.json", "python3 -m pydoc json"]);

/// ## What it matches
/// `python -m venv DIR` / `virtualenv DIR`: a virtual environment in the tree.
/// ## Why this tier
/// Local set-up that writes only the named directory (outside the tree the write-target rules apply).
pub static VENV: Rule = Rule::t1("interp.python.venv")
    .reason("creates a virtual environment in the working tree")
    .matches(&["python3 -m venv .venv", "python -m venv venv"])
    .not_matches(&["python3 -m venv /opt/env"]);

const TEST_MODULES: &[&str] = &[
    "pytest", "py.test", "unittest", "doctest", "mypy", "flake8", "pylint", "pyflakes", "pycodestyle", "pydocstyle", "coverage", "nose", "nose2", "bandit",
    "pyright", "tox", "nox", "pytype", "hypothesis",
];
const READ_MODULES: &[&str] = &[
    "json.tool", "site", "platform", "sysconfig", "this", "timeit", "pydoc", "tokenize", "ast", "dis", "calendar", "base64", "uuid", "pstats", "pickletools",
    "mimetypes", "locale", "webbrowser", "pyclbr", "inspect", "filecmp", "symtable", "quopri", "sysconfig", "encodings.rot_13", "unicodedata", "pip_audit",
];
const TOOL_MODULES: &[&str] = &[
    "pip", "pip3", "uv", "poetry", "pipx", "twine", "build", "hatch", "pdm", "flit", "conda", "black", "isort", "ruff", "autopep8", "yapf", "ansible",
    "awscli", "pre_commit", "mkdocs", "sphinx", "invoke", "fabric", "scrapy", "jupyter", "notebook", "nbconvert", "cookiecutter", "wheel", "setuptools",
    "ensurepip",
];
const RUNS_SCRIPT: &[&str] = &["cProfile", "profile", "trace"];

/// Options that take a value (`-W error`, `-X dev`).
const VALUE: &[char] = &['W', 'X'];

pub(super) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    let args = &inv.args;
    let mut s = Source::default();
    let mut module: Option<usize> = None;
    let mut i = 0;
    'outer: while i < args.len() {
        let a = args[i].text.as_str();
        match a {
            "--" => {
                i += 1;
                break;
            }
            "-" => {
                s.stdin = true;
                i += 1;
                break;
            }
            "--version" | "--help" | "-h" | "-V" | "-VV" | "--help-env" | "--help-xoptions" | "--help-all" => {
                cx.hit(&VERSION);
                return;
            }
            "--check-hash-based-pycs" => {
                i += 2;
                continue;
            }
            _ => {}
        }
        if !a.starts_with('-') || a.len() == 1 || a.starts_with("--") {
            if a.starts_with("--") {
                i += 1;
                continue;
            }
            break;
        }
        let letters: Vec<char> = a[1..].chars().collect();
        for (k, &c) in letters.iter().enumerate() {
            let rest: String = letters[k + 1..].iter().collect();
            match c {
                'c' | 'm' => {
                    let value = if rest.is_empty() { args.get(i + 1).cloned() } else { Some(Arg { text: rest, ..args[i].clone() }) };
                    let consumed = if letters.len() == k + 1 { 2 } else { 1 };
                    if c == 'c' {
                        s.code.extend(value);
                    } else {
                        module = Some(if consumed == 2 { i + 1 } else { i });
                    }
                    i += consumed;
                    break 'outer;
                }
                'i' => s.repl = true,
                _ if VALUE.contains(&c) => {
                    i += if rest.is_empty() { 2 } else { 1 };
                    continue 'outer;
                }
                _ => {}
            }
        }
        i += 1;
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
        // `python3 -m` with nothing after it: Python refuses to start, nothing runs.
        let Some(word) = args.get(m) else { return };
        let name = word.text.strip_prefix("-m").unwrap_or(&word.text).to_owned();
        run_module(inv, cx, &name, &args[s.rest..]);
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
    if TEST_MODULES.contains(&module) {
        cx.hit(&MODULE_TEST);
        return;
    }
    if matches!(module, "py_compile" | "compileall" | "tabnanny") {
        cx.hit(&SYNTAX_CHECK);
        return;
    }
    if matches!(module, "venv" | "virtualenv") {
        cx.hit(&VENV);
        if let Some(dir) = rest.iter().find(|a| !a.is_flag()) {
            paths::check_write(cx, dir, cwd.as_deref());
        }
        return;
    }
    if matches!(module, "zipfile" | "tarfile") {
        cx.hit(&MODULE_READ);
        let extracts = rest.iter().any(|a| matches!(a.text.as_str(), "-e" | "--extract" | "-c" | "--create"));
        if extracts {
            if let Some(target) = rest.iter().rev().find(|a| !a.is_flag()) {
                paths::check_write(cx, target, cwd.as_deref());
            }
        }
        return;
    }
    let pydoc_server = module == "pydoc" && rest.iter().any(|a| matches!(a.text.as_str(), "-p" | "-b") || a.text.starts_with("-p"));
    if matches!(module, "http.server" | "SimpleHTTPServer" | "CGIHTTPServer" | "smtpd" | "xmlrpc.server" | "aiosmtpd") || pydoc_server {
        cx.hit(&MODULE_SERVER);
        return;
    }
    if READ_MODULES.contains(&module) {
        cx.hit(&MODULE_READ);
        return;
    }
    if module == "pdb" {
        cx.hit_because(&REPL, "`python -m pdb` starts an interactive debugger; run the script directly".to_owned());
        return;
    }
    if RUNS_SCRIPT.contains(&module) {
        // `python -m cProfile [-o out] [-s key] script.py`: the script runs.
        let mut k = 0;
        while k < rest.len() && rest[k].is_flag() {
            k += if matches!(rest[k].text.as_str(), "-o" | "-s" | "--outfile" | "--sort") { 2 } else { 1 };
        }
        match rest.get(k) {
            Some(a) => {
                let path = a.text.clone();
                script::run_path(inv, cx, &path, Some(Lang::Python), inv.args.len());
            }
            None => cx.hit(&REPL),
        }
        return;
    }
    let mut argv = vec![Arg::lit(module)];
    if TOOL_MODULES.contains(&module) {
        argv.extend(rest.iter().cloned());
        cx.argv(&argv, cwd.as_deref());
        return;
    }
    // A module of the project itself (`python -m tools.report`) is read like a script.
    let base = module.replace('.', "/");
    for candidate in [format!("{base}.py"), format!("{base}/__main__.py")] {
        if let FileText::Text(src) = cx.read(&candidate, cwd.as_deref()) {
            let before = cx.hits.len();
            code::classify(inv, cx, Lang::Python, &src, code::Origin::Body);
            script::simulation(inv, cx, Lang::Python, &src, before);
            return;
        }
    }
    argv.extend(rest.iter().cloned());
    // A module no family knows (`python -m alembic upgrade head`): its verb is the evidence.
    let owned = crate::rules::FAMILIES.iter().any(|f| f.owns(module));
    if !owned && script::verb_check(cx, rest) {
        return;
    }
    cx.argv(&argv, cwd.as_deref());
}
