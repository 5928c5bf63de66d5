//! Runners that execute another program: `npx`, `npm exec`, `pnpm dlx|exec`, `pnpx`,
//! `yarn dlx|exec`, `bunx`, `bun x`, `uvx`, `uv tool run`, `pipx run`, `uv run`,
//! `poetry run`, `pdm run`, `pipenv run`, `hatch run`, `conda run`, `bundle exec`,
//! `rustup run`. The target argv is classified through the engine with the
//! runner's own input and cwd (`cx.argv_inheriting`: the child inherits them), so
//! `npx prisma migrate deploy` is whatever `prisma migrate deploy` is, and
//! `uv run python - <<EOF` is whatever `python3 - <<EOF` is.
//!
//! Decision: a *downloading* runner (`npx`, `dlx`, `bunx`, `uvx`, `pipx run`)
//! whose target no family models and that is not installed locally
//! (`node_modules/.bin/NAME`) is T3: it fetches and runs registry code tiergate
//! cannot see. A local runner (`uv run`, `bundle exec` …) with an unmodelled target
//! gets that target's default (safe by elimination), as if run directly.
//! Options a runner does not declare are T3 (the target cannot be found exactly).

use super::{HELP, READ};
use crate::call::args::{ArgSpec, Args, Token};
use crate::call::{Arg, Invocation};
use crate::rules::{Cx, FileText, Rule};
use crate::words;

/// ## What it matches
/// `npx|bunx|pnpm dlx|yarn dlx|uvx|pipx run PKG …` where PKG is neither modelled by any family nor installed in
/// `node_modules/.bin`, and scaffolders (`npm create X`, `npm init X`, `npx create-react-app`).
/// ## Why this tier
/// Downloads a package from the registry and runs it: its effects are unknown (and scaffolders install dependencies).
pub static REMOTE_PACKAGE: Rule = Rule::t3("packages.runner.remote-package")
    .reason("downloads and runs a registry package whose effects tiergate does not know; ask the user first")
    .matches(words![
        "npx create-react-app my-app", "npx cowsay hello", "uvx ruff@latest check .", "npm create vite@latest my-app", "pipx run cowsay hello",
        "uvx some-tool", "bunx cowsay hi", "pnpm dlx degit x/y",
    ])
    .not_matches(words!["npx tsc --noEmit", "npx eslint .", "uvx ruff check ."]);

/// ## What it matches
/// A runner option tiergate does not know (`npx --frob x cmd`, `uv run --bogus v cmd`).
/// ## Why this tier
/// Without knowing whether the option takes a value, the program that runs is unknown.
pub static UNKNOWN_OPTION: Rule = Rule::t3("packages.runner.unknown-option")
    .reason("a runner option tiergate does not know hides which program runs; drop the option or run the program directly")
    .matches(words!["npx --frobnicate x ls", "uv run --bogus v pytest"])
    .not_matches(words!["npx -y eslint .", "uv run --frozen pytest"]);

/// How one runner's options look: all declared, so an undeclared one stops the
/// reading; `-c`/`--call` carries a shell string and `-m`/`--module` names a module
/// (read below), and the target argv starts at the first operand.
const NPX: ArgSpec = ArgSpec::strict(
    words![
        "-p", "--package", "-w", "--workspace", "--registry", "--cache", "--loglevel", "--userconfig", "--prefix", "--node-options", "--filter", "-F", "--dir",
        "-C", "--cwd", "-c", "--call",
    ],
    words![
        "-y", "--yes", "--no", "--no-install", "-q", "--quiet", "--prefer-offline", "--prefer-online", "--offline", "--ignore-existing", "--workspaces",
        "--include-workspace-root", "--silent", "-s", "--bun", "--shell-mode", "-r", "--recursive", "--parallel", "--no-bail", "--no-reporter-hide-prefix",
        "--report-summary", "--resume-from", "-ws", "-iwr", "--verbose", "-d", "--no-shell-mode", "--dry-run", "-m", "--module",
    ],
    words![],
    false,
);

const UV_RUN: ArgSpec = ArgSpec::strict(
    words![
        "--with", "--with-editable", "--with-requirements", "-p", "--python", "--package", "--extra", "--group", "--only-group", "--no-group", "--env-file",
        "--directory", "--project", "--index", "--default-index", "--index-url", "-i", "--extra-index-url", "--config-file", "--cache-dir", "--exclude-newer",
        "--prerelease", "--resolution", "--link-mode", "--refresh-package", "--reinstall-package", "--upgrade-package", "-P", "--color", "--from", "--spec",
        "--pip-args", "-n", "--name", "--prefix", "--cwd", "-C", "--gemfile", "--keep-file-descriptors", "--env", "-e", "--toolchain", "--install-dir", "-c",
        "--call",
    ],
    words![
        "--no-project", "--frozen", "--locked", "--isolated", "--no-sync", "--script", "--all-extras", "--no-dev", "--dev", "--active", "-q", "-v", "--quiet",
        "--verbose", "--offline", "--native-tls", "--no-cache", "--all-packages", "--no-default-groups", "--only-dev", "--no-editable", "--exact", "--inexact",
        "--gui-script", "--preview", "--no-config", "--no-env-file", "--managed-python", "--no-managed-python", "--reinstall", "--upgrade", "-U",
        "--compile-bytecode", "--no-build-isolation", "--refresh", "--no-capture-output", "--live-stream", "--pypackages", "--path", "--system-site-packages",
        "-s", "--site-packages", "--no-interaction", "--ansi", "--no-ansi", "--no-plugins", "--install", "--dry-run", "-m", "--module",
    ],
    words![],
    false,
);

/// Splits runner options from the target argv; `Err(option)` for an undeclared one.
fn split(args: &[Arg], spec: ArgSpec) -> Result<(&[Arg], Option<&str>), &str> {
    let mut call = None;
    for t in Args::parse(args, spec) {
        match t {
            // `--call=SCRIPT` or `-c SCRIPT`: the value is a shell string.
            Token::Opt { name: "-c" | "--call", value, .. } => call = value,
            Token::Operand(o) => return Ok((&args[o.index..], call)),
            Token::DashDash(d) => return Ok((&args[d + 1..], call)),
            Token::Unknown { word, .. } => return Err(word),
            _ => {}
        }
    }
    Ok((&[], call))
}

/// `@scope/name@1.2` → `name`; `prisma@5` → `prisma`.
fn bin_name(spec: &str) -> &str {
    let no_scope = match spec.strip_prefix('@') {
        Some(s) => s.split_once('/').map_or(s, |(_, n)| n),
        None => spec,
    };
    no_scope.split('@').next().unwrap_or(no_scope)
}

/// Classifies `target` (program + args) through the engine; `remote` runners with an
/// unmodelled target that is not installed locally are T3.
fn classify(inv: &Invocation, cx: &mut Cx<'_>, target: &[Arg], remote: bool) {
    let name = bin_name(&target[0].text).to_owned();
    if name.starts_with("create-") {
        cx.hit_because(&REMOTE_PACKAGE, format!("runs the scaffolder `{name}`, which writes a project and installs its dependencies; ask the user first"));
        return;
    }
    let mut argv = target.to_vec();
    argv[0] = Arg { text: name.clone(), ..target[0].clone() };
    // `ruff@latest`, `eslint@8`: a pinned spec is fetched from the registry even when installed.
    let spec = &target[0].text;
    if remote && spec.trim_start_matches('@').contains('@') {
        cx.hit_because(&REMOTE_PACKAGE, format!("fetches `{spec}` from the registry and runs it; ask the user first"));
    }
    let before = cx.hits.len();
    cx.argv_inheriting(&argv, inv);
    let modelled = cx.hits[before..].iter().any(|h| !std::ptr::eq(h.rule, &crate::rules::DEFAULT_ELIMINATION));
    if remote && !modelled && !matches!(cx.read(&format!("node_modules/.bin/{name}"), inv.cwd.as_deref()), FileText::Text(_)) {
        cx.hit_because(&REMOTE_PACKAGE, format!("downloads and runs the registry package `{name}`, whose effects tiergate does not know; ask the user first"));
    }
}

/// `npx …`, `npm exec …`, `pnpm dlx|exec …`, `yarn dlx|exec …`, `bunx …`; `local` for `exec`
/// forms that only run installed binaries.
pub(super) fn node_exec(inv: &Invocation, cx: &mut Cx<'_>, args: &[Arg], local: bool) {
    match split(args, NPX) {
        Err(opt) => cx.hit_because(
            &UNKNOWN_OPTION,
            format!("`{opt}` is a runner option tiergate does not know, so the program that runs is unknown; drop it or run the program directly"),
        ),
        Ok((_, Some(script))) => cx.shell(script, inv.cwd.as_deref()),
        Ok(([], None)) => cx.hit(if args.iter().any(|a| super::HELP_WORDS.holds(&a.text)) { &HELP } else { &READ }),
        Ok((target, None)) => classify(inv, cx, target, !local),
    }
}

/// `npm create X`, `npm init X`, `yarn create X`: runs the `create-X` package.
pub(super) fn create(cx: &mut Cx<'_>, name: Option<&str>) {
    let what = name.map_or_else(|| "a create-* package".to_owned(), |n| format!("create-{}", bin_name(n)));
    cx.hit_because(&REMOTE_PACKAGE, format!("runs the scaffolder `{what}`, which writes a project and installs its dependencies; ask the user first"));
}

/// `bun FILE` / `bun run FILE`: the file is JavaScript or TypeScript; the node lane reads it.
pub(super) fn bun_file(inv: &Invocation, cx: &mut Cx<'_>, argv: &[Arg]) {
    let mut node = vec![Arg { text: "node".to_owned(), ..argv[0].clone() }];
    node.extend(argv.iter().cloned());
    let before = cx.hits.len();
    cx.argv_inheriting(&node, inv);
    if cx.hits[before..].iter().all(|h| std::ptr::eq(h.rule, &crate::rules::DEFAULT_ELIMINATION)) {
        cx.hit_because(&REMOTE_PACKAGE, format!("bun runs `{}`, which tiergate could not analyse; review it and ask the user", argv[0].text));
    }
}

/// `uvx …`, `uv tool run …`, `pipx run …`: download into a cached environment and run.
pub(super) fn python_remote(inv: &Invocation, cx: &mut Cx<'_>, args: &[Arg]) {
    python_target(inv, cx, args, true);
}

/// `uv run …`, `poetry run …`, `pdm run …`, `pipenv run …`, `hatch run …`, `conda run …`,
/// `bundle exec …`, `rustup run TOOLCHAIN …`: run a program from the project's environment.
pub(super) fn local(inv: &Invocation, cx: &mut Cx<'_>, args: &[Arg]) {
    python_target(inv, cx, args, false);
}

fn python_target(inv: &Invocation, cx: &mut Cx<'_>, args: &[Arg], remote: bool) {
    let (target, _) = match split(args, UV_RUN) {
        Ok(t) => t,
        Err(opt) => {
            return cx.hit_because(
                &UNKNOWN_OPTION,
                format!("`{opt}` is a runner option tiergate does not know, so the program that runs is unknown; drop it or run the program directly"),
            )
        }
    };
    let module = Args::parse(args, UV_RUN).has(&["-m", "--module"]);
    if target.is_empty() {
        cx.hit(&READ);
        return;
    }
    // `uv run -m pytest`, `uv run deploy.py`: the interpreter runs them.
    if module || target[0].text.ends_with(".py") {
        let mut argv = vec![Arg { text: "python".to_owned(), ..target[0].clone() }];
        if module {
            argv.push(Arg { text: "-m".to_owned(), ..target[0].clone() });
        }
        argv.extend(target.iter().cloned());
        cx.argv_inheriting(&argv, inv);
        return;
    }
    classify(inv, cx, target, remote);
}
