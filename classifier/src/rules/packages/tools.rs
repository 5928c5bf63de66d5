//! Build tools (`cmake`, `ctest`, `ninja`, `meson`, `bazel`), recipe runners
//! (`just`, `task`), test runners (`pytest`, `jest`, `vitest`, `mocha`, `playwright`,
//! `tox`, `nox`, `rspec`, `phpunit`) and linters/formatters (`eslint`, `prettier`,
//! `ruff`, `black`, `isort`, `mypy`, `tsc`, `biome`, `gofmt`, `clang-format` …).
//!
//! Validation is T1, formatting that rewrites files is T1 with every operand
//! checked as a write target (so `black ~/.bashrc` is judged by where it writes),
//! recipe runners whose files tiergate does not read are T3.

use super::HELP_READING;
use super::{BUILD, CLEAN, DRY_RUN, FORMAT, HELP, INSTALL, READ, RECIPE, RUN_PROJECT, VALIDATE};
use crate::call::args::{asks_help, Help};
use crate::call::args::{ArgSpec, Args, Token};
use crate::call::{has_flag, has_short, operand_words};
use crate::call::{Arg, Invocation};
use crate::rules::vocab::writes;
use crate::rules::Cx;
use crate::words;
use crate::words::Words;

crate::table! {
    /// Formatter options that take a value (their values are not files to rewrite).
    FMT_VALUE_OPTS = [
        "--config", "-c", "--config-path", "--ignore-path", "--line-length", "-l", "--target-version", "-t", "--settings-path", "--stdin-filename", "--parser",
        "--plugin", "--style", "--assume-filename", "--ext", "--rule", "--format", "-f", "--exclude", "--extend-exclude", "--select", "--ignore", "--profile",
        "--src", "--cache-location", "--resolve-plugins-relative-to", "--log-level",
    ];
    probe "black {} /etc/x ." => T1, "packages.format";
}

pub(super) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    let args = &inv.args;
    let p = inv.program.as_str();
    // `--version`, `-V` (or the word `version`) as the whole argv; `task` reads `-h` and `--help` as listing options.
    let sole_version = args.len() == 1 && (args[0].text == "version" || Help::VERSION.with(Help::DASH_UPPER_V).holds(&args[0].text));
    if sole_version || asks_help(args, HELP_READING) && p != "task" {
        cx.hit(&HELP);
        return;
    }
    let flag = |names: Words| has_flag(args, names);
    let first = operand_words(
        args,
        words!["-C", "--directory", "-f", "--file", "-S", "-B", "-G", "-D", "-j", "--justfile", "-d", "--working-directory", "-t", "--taskfile"],
    )
    .first()
    .map(|(_, w)| *w);
    match p {
        "cmake" => cmake(inv, cx),
        "tox" | "nox" => cx.hit(if flag(words!["-l", "--list", "-a", "--listenvs-all", "--list-sessions"]) { &READ } else { &VALIDATE }),
        "playwright" => cx.hit(match first {
            Some("install" | "install-deps" | "uninstall") => &INSTALL,
            _ => &VALIDATE,
        }),
        "ninja" => {
            let tool = crate::call::value_of(args, words!["-t"]);
            cx.hit(match tool {
                Some("clean" | "cleandead") => &CLEAN,
                Some(_) => &READ,
                None if has_short(args, 'n') => &DRY_RUN,
                None if operand_words(args, words!["-C", "-f", "-j", "-k", "-l", "-d", "-w"])
                    .iter()
                    .any(|(_, t)| t.starts_with("install") || t.starts_with("uninstall")) =>
                {
                    &INSTALL
                }
                None => &BUILD,
            });
        }
        "meson" => cx.hit(match first {
            Some("test") => &VALIDATE,
            Some("install") => &INSTALL,
            Some("introspect" | "help" | "env2mfile") => &READ,
            Some("wrap") if operand_words(args, words![]).get(1).is_some_and(|(_, w)| matches!(*w, "install" | "update" | "promote")) => &INSTALL,
            _ => &BUILD,
        }),
        "bazel" | "bazelisk" => cx.hit(match first {
            Some("test" | "coverage") => &VALIDATE,
            Some("run") => &RUN_PROJECT,
            Some("clean") => &CLEAN,
            Some("mobile-install") => &INSTALL,
            Some("query" | "cquery" | "aquery" | "info" | "version" | "help" | "mod" | "dump" | "print_action" | "analyze-profile" | "license" | "config") => {
                &READ
            }
            _ => &BUILD,
        }),
        "task" => {
            let lists = words!["--list", "-l", "--summary", "--show", "-s", "--evaluate", "--dump", "--variables", "--list-all", "-a", "-h", "--groups",];
            let prints = super::HELP_WORDS.with(Help::VERSION).with(Help::USAGE);
            cx.hit(if flag(lists) || inv.flags().any(|f| prints.holds(f)) {
                &READ
            } else if flag(words!["--dry-run", "-n", "--dry"]) {
                &DRY_RUN
            } else if flag(words!["--fmt"]) {
                &FORMAT
            } else {
                &RECIPE
            });
        }
        // Test runners and linters (pytest, jest, mypy, shellcheck, …) are validation:
        // lint_or_format answers that for every program it does not know to rewrite.
        _ => lint_or_format(inv, cx, first),
    }
}

fn cmake(inv: &Invocation, cx: &mut Cx<'_>) {
    let args = &inv.args;
    // `cmake -E TOOL ARGS…`: a command mode; the tool's own words start after it.
    let mut it = Args::parse(args, ArgSpec::values(words!["-E"]));
    let mode = it.find_map(|t| match t {
        Token::Opt { name: "-E", value, .. } => Some(value),
        Token::Missing { name: "-E", .. } => Some(None),
        _ => None,
    });
    if let Some(tool) = mode {
        let tool = tool.unwrap_or("");
        let i = it.pos();
        match tool {
            "rm" | "remove" | "remove_directory" => cx.hit(&CLEAN),
            // `cmake -E env [VAR=value…] cmd …` runs cmd.
            "env" => {
                let start = Args::parse(&args[i..], ArgSpec::values(words![])).operands().find(|o| !o.arg.text.contains('=')).map(|o| i + o.index);
                match start {
                    Some(s) => cx.argv(&args[s..], inv.cwd.as_deref()),
                    None => cx.hit(&READ),
                }
            }
            _ => cx.hit(&BUILD),
        }
        return;
    }
    cx.hit(if has_flag(args, words!["--install"]) {
        &INSTALL
    } else if has_flag(args, words!["-P"]) {
        &RECIPE
    } else if has_flag(args, words!["--system-information", "--find-package"])
        || args.iter().any(|a| Help::LONG.holds(&a.text) || a.text.starts_with("--help-"))
    {
        &READ
    } else {
        &BUILD
    });
}

/// Linters and formatters: rewrite mode → `FORMAT` plus a write check on each operand.
fn lint_or_format(inv: &Invocation, cx: &mut Cx<'_>, first: Option<&str>) {
    let args = &inv.args;
    let flag = |names: Words| has_flag(args, names);
    let check_only = flag(words!["--check", "--check-only", "--diff", "--list-different", "--verify-no-changes", "--dry-run"]);
    let rewrites = match inv.program.as_str() {
        "eslint" | "stylelint" | "markdownlint" | "oxlint" | "golangci-lint" => flag(words!["--fix", "--fix-dry-run"]) && !flag(words!["--fix-dry-run"]),
        "prettier" => flag(words!["--write", "-w"]),
        "ruff" => match first {
            Some("format") => !check_only,
            Some("clean") => return cx.hit(&CLEAN),
            Some("rule" | "config" | "linter" | "version" | "analyze") => return cx.hit(&READ),
            _ => flag(words!["--fix", "--unsafe-fixes"]) && !flag(words!["--no-fix"]),
        },
        "black" | "rustfmt" | "dprint" if inv.program != "dprint" || first == Some("fmt") => !check_only && !flag(words!["--print-config"]),
        "isort" => !check_only && !has_short(args, 'c'),
        "gofmt" => has_short(args, 'w'),
        "clang-format" | "autopep8" | "yapf" => has_short(args, 'i') || flag(words!["--in-place"]),
        "rubocop" => has_short(args, 'a') || has_short(args, 'A') || flag(words!["--autocorrect", "--autocorrect-all", "--auto-correct"]),
        "biome" => flag(words!["--write", "--fix", "--apply", "--apply-unsafe"]),
        "codespell" => has_short(args, 'w') || flag(words!["--write-changes"]),
        _ => false,
    };
    if !rewrites {
        // `tsc` without --noEmit writes its outDir: a build inside the tree.
        let emits = inv.program == "tsc" && !flag(words!["--noEmit", "--noemit"]) && !has_short(args, 'v');
        cx.hit(if emits { &BUILD } else { &VALIDATE });
        return;
    }
    cx.hit(&FORMAT);
    for (i, w) in operand_words(args, FMT_VALUE_OPTS) {
        let target: &Arg = &args[i];
        // A relative glob (`src/*.c`) expands inside the tree; variables and absolute globs are still checked.
        let tree_glob = !target.exact && !w.contains('$') && !w.contains('`') && !w.starts_with(['/', '~']) && !w.contains("..");
        if !matches!(w, "format" | "check" | "fmt" | "lint") && !tree_glob {
            writes::check_write(cx, target, inv.cwd.as_deref());
        }
    }
}

crate::tables![FMT_VALUE_OPTS];
