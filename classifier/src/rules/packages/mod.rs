//! The `packages` family: language package managers (npm, pnpm, yarn, bun, pip,
//! uv, poetry, conda, cargo, go, gem, bundler, composer, maven, gradle, dotnet …),
//! build tools (make, cmake, ninja, meson, bazel, just, task), test runners,
//! linters and formatters, and the runners that execute another program (`npx`,
//! `uvx`, `uv run`, `bundle exec` …, whose target argv is classified).
//!
//! Tiers: queries T0; tests, lints, type-checks, builds and formatters that write
//! inside the tree T1; `--dry-run` where honoured T2; install/remove/update/
//! publish/login/config writes/clean T3; unpublishing a whole npm package blocked.
//! File lanes: `npm run X` reads package.json (`scripts.rs`), `make` reads the
//! Makefile (`make.rs`); `pre-commit run` asks (`precommit.rs`: the hooks' code is not read). OS package managers (apt, brew …) are the `system`
//! family's.

use crate::words;

mod just;
mod jvm;
mod make;
mod makefile;
mod npm;
mod precommit;
mod python;
mod runners;
mod rust_go;
mod scripts;
mod tools;

use crate::call::args::{asks_help, ArgSpec, Help};
use crate::call::Invocation;
use crate::rules::vocab::input;
use crate::rules::{Card, Cx, Family, InputUse, Rule, Traits};

pub static FAMILY: Family = Family::new("packages", CARDS, RULES);

static CARDS: &[Card] = &[
    Card::of(words!["npm", "pnpm", "yarn"], npm::check),
    // bun is a package manager and a JavaScript runtime: its input is code when it is given none.
    Card::of(words!["bun"], npm::check)
        .traits(Traits::INTERPRETER)
        .input(InputUse::Code(|inv| input::reads_code_unless(inv, words!["-e", "--eval", "-p", "--print"]))),
    Card::of(words!["npx", "pnpx", "bunx"], |inv, cx| runners::node_exec(inv, cx, &inv.args, false)),
    Card::of(words!["uvx"], |inv, cx| runners::python_remote(inv, cx, &inv.args)),
    Card::of(words!["pip", "pip3", "pipx", "uv", "poetry", "pdm", "pipenv", "hatch", "rye", "conda", "mamba", "micromamba", "twine"], python::check),
    Card::of(words!["cargo", "rustup", "go"], rust_go::check),
    Card::of(words!["gem", "bundle", "bundler", "composer", "mvn", "mvnw", "gradle", "gradlew", "dotnet"], jvm::check),
    Card::of(words!["make", "gmake"], make::check),
    Card::of(words!["just"], just::check),
    Card::of(words!["cpan", "cpanm"], cpan),
    Card::of(words!["pre-commit"], precommit::check),
    // Distribution package builders: they run the package's own build scripts (the recipe policy below).
    Card::of(
        words!["rpmbuild", "rpmspec", "debuild", "dpkg-buildpackage", "pdebuild", "pbuilder", "cowbuilder", "sbuild", "mock", "makepkg", "abuild"],
        package_build,
    ),
    // Build tools, test runners, linters and formatters.
    Card::of(
        words![
            "cmake", "ninja", "meson", "bazel", "bazelisk", "task", "tox", "nox", "pytest", "py.test", "jest", "vitest", "mocha", "playwright", "eslint",
            "prettier", "ruff", "black", "isort", "flake8", "pylint", "mypy", "pyright", "tsc", "biome", "shellcheck", "hadolint", "yamllint", "golangci-lint",
            "rubocop", "stylelint", "markdownlint", "gofmt", "rustfmt", "clang-format", "autopep8", "yapf", "ctest", "rspec", "phpunit", "dprint", "oxlint",
            "tflint", "actionlint", "codespell",
        ],
        tools::check,
    ),
];

/// `--help` and `-h`, where the reading leaves them options of their own (never an
/// undeclared option's possible value: `cargo --config --help publish` publishes).
pub(super) const HELP_WORDS: Help = Help::LONG.with(Help::DASH_H);
/// The reading a package tool's words (or a subcommand's) are asked for help under.
pub(super) const HELP_READING: ArgSpec = ArgSpec::values(words![]).help(HELP_WORDS);
/// `--help` alone (`npm install --help`; `-h` is a subcommand's own option there).
pub(super) const LONG_HELP_READING: ArgSpec = ArgSpec::values(words![]).help(Help::LONG);

static RULES: &[&Rule] = &[
    &READ,
    &HELP,
    &VALIDATE,
    &BUILD,
    &FORMAT,
    &RUN_PROJECT,
    &DRY_RUN,
    &INSTALL,
    &PUBLISH,
    &ACCOUNT,
    &CLEAN,
    &RECIPE,
    &UNKNOWN,
    &npm::UNPUBLISH_ALL,
    &python::INTERPRETER_PATH,
    &jvm::EF_DROP,
    &jvm::DEVICE_INSTALL,
    &just::JUST_RECIPE,
    &scripts::UNRESOLVED,
    &scripts::SCRIPT_READ,
    &scripts::LIST,
    &make::RECIPE,
    &make::DRY_RUN,
    &make::UNRESOLVED,
    &make::SHELL_FUNCTION,
    &runners::REMOTE_PACKAGE,
    &runners::UNKNOWN_OPTION,
    &precommit::HOOKS,
];

/// ## What it matches
/// Package queries: `npm ls|view|outdated|audit|why|config get`, `pip list|show|freeze`, `cargo tree|metadata|search`,
/// `go list|env|version`, `gem list`, `poetry show`, `uv tree`, `composer show`, `bundle list`, `mvn dependency:tree`.
/// ## Why this tier
/// They read manifests, lock files or registries; nothing is installed.
pub static READ: Rule = Rule::t0("packages.read")
    .reason("queries packages or the registry only")
    .matches(words![
        "npm ls", "npm -g ls", "npm view react version", "pip list", "pip show requests", "cargo tree", "go env", "gem list", "poetry show --tree",
        "uv pip list", "yarn why lodash", "npm config get registry", "npm audit", "just --list", "just --summary", "cpan -l", "cpanm -l",
        // One per site that answers packages.read (tools.rs, rust_go.rs, npm.rs, runners.rs).
        "cmake -E env", "ruff rule F401", "rustup show", "rustup toolchain list", "npm pkg get name", "npm version", "npm outdated", "npm cache verify",
        "bun pm ls", "yarn npm info react", "npx", "uv run", "pip config list", "pip cache list", "uv pip cache dir", "rye show",
    ])
    .not_matches(words!["npm install", "pip install x", "npm audit fix", "pip config unset global.index-url", "pip cache remove x", "rye sync"]);

/// ## What it matches
/// `--help`/`-h`/`--version` on a package manager or build tool (`pip -h install requests`, `npm --version`).
/// ## Why this tier
/// Prints usage; runs nothing.
pub static HELP: Rule = Rule::t0("packages.help")
    .reason("prints help or version only")
    .matches(words![
        "npm --version", "pip -h install requests", "pip --help list", "cargo --version", "make --help", "npm install --help", "cargo build -h",
        "ruff --version", "gradle --help", "pip", "rustup --version", "go build -h", "dotnet", "rpmbuild --version", "dpkg-buildpackage --help",
        "makepkg --help",
    ])
    .not_matches(words!["npm install left-pad", "make -C -h deploy"]);

/// ## What it matches
/// Tests, lints, checks and type-checks: `cargo test|check|clippy|bench`, `go test|vet`, `pytest`, `jest`, `vitest`,
/// `ruff check`, `eslint`, `mypy`, `tsc --noEmit`, `shellcheck`, `tox`, `nox`, `cargo fmt --check`.
/// ## Why this tier
/// T1 (local validation). They run the project's own code and tools and write only caches inside the tree.
/// ## Known gaps
/// A test suite can do anything its code does; tests are treated as validation by convention.
pub static VALIDATE: Rule = Rule::t1("packages.validate")
    .reason("local validation (tests, lint, type-check); nothing outside the tree changes")
    .matches(words![
        "cargo test --workspace", "cargo clippy -- -D warnings", "go test ./...", "pytest -q", "ruff check .", "eslint src/", "mypy src/", "tsc --noEmit -p .",
        "pytest tests/test_install.py::TestStop", "shellcheck scripts/x.sh", "uv run pytest -q", "tox -e py312", "playwright test", "bun test",
    ])
    .not_matches(words!["cargo install ripgrep", "pytest --help"]);

/// ## What it matches
/// Local builds: `cargo build`, `go build`, `npm pack`, `tsc` (emitting), `cmake -B build`, `cmake --build`, `ninja`,
/// `meson compile`, `bazel build`, `mvn package|compile`, `gradle build`, `dotnet build`, `cargo new|init`, `npm init`.
/// ## Why this tier
/// T1 (local build): writes build outputs inside the tree (`target/`, `dist/`, `build/`); nothing is installed or deployed.
pub static BUILD: Rule = Rule::t1("packages.build")
    .reason("builds inside the working tree; nothing is installed or deployed")
    .matches(words![
        "cargo build --release", "go build ./...", "npm pack", "cmake --build build", "gradle build", "dotnet build", "bazel build //...", "mvn package",
        "ninja -C build", "meson compile -C build", "cmake -E copy a.txt b.txt", "bun build ./src/index.ts --outdir dist",
    ])
    .not_matches(words!["cargo install --path .", "mvn deploy"]);

/// ## What it matches
/// Formatters and fixers that rewrite files: `cargo fmt`, `prettier --write`, `ruff format`, `black .`, `isort`,
/// `eslint --fix`, `gofmt -w`, `go fmt`, `clang-format -i`.
/// ## Why this tier
/// Authoring inside the tree is not mutation (T1); a formatter aimed outside the tree is judged by the write target.
pub static FORMAT: Rule = Rule::t1("packages.format")
    .reason("rewrites source files inside the tree (formatting); nothing outside it changes")
    .matches(words!["cargo fmt", "prettier --write src", "ruff format .", "black .", "gofmt -w main.go", "eslint --fix src", "just --fmt --unstable"])
    .not_matches(words!["black ~/.bashrc", "cargo fmt --check"]);

/// ## What it matches
/// Running the project's own program: `cargo run`, `go run`, `bazel run`, `dotnet run`, `gradle run|bootRun`, `mvn spring-boot:run`.
/// ## Why this tier
/// T1, the same trust as the project's tests: it is the code under development, run locally. Decision: the original
/// leaves `run` out of its mutative verbs; a run that deploys is named by its own command (`cargo run --bin deploy` is
/// still T1, a known gap).
/// ## Known gaps
/// The program can do anything; tiergate cannot read compiled code.
pub static RUN_PROJECT: Rule = Rule::t1("packages.run-project")
    .reason("runs the project's own program locally, like its tests")
    .matches(words!["cargo run", "cargo run --release -- --port 8080", "go run main.go", "dotnet run", "bazel run //app"])
    .not_matches(words!["cargo install ripgrep"]);

/// ## What it matches
/// `--dry-run` (or the CLI's own simulation flag) on a change the CLI really simulates: `npm install|publish|ci --dry-run`,
/// `cargo publish --dry-run`, `pip install --dry-run`, `uv sync --dry-run`, `poetry add --dry-run`, `composer update --dry-run`,
/// `gradle build --dry-run`, `npm pack --dry-run`.
/// ## Why this tier
/// Simulation: the manager reports what it would do.
pub static DRY_RUN: Rule = Rule::t2("packages.dry-run")
    .reason("dry run: reports what would change and changes nothing")
    .matches(words![
        "npm pack --dry-run", "npm publish --dry-run", "cargo publish --dry-run", "pip install --dry-run requests", "uv sync --dry-run",
        "npm unpublish my-package --dry-run", "just -n deploy",
    ])
    .not_matches(words!["npm publish", "cargo publish"]);

/// ## What it matches
/// Installing, removing or updating dependencies, tools or toolchains: `npm install|ci|uninstall|update|link|audit fix`,
/// `yarn add`, `pnpm install`, `pip install|uninstall`, `pipx install`, `uv add|sync|lock|pip install`, `poetry install|add|lock`,
/// `conda install|create`, `cargo install|add|update`, `go install|get|mod tidy`, `gem install`, `bundle install`,
/// `composer install|require`, `rustup update|toolchain install`, `mvn install`, `dotnet restore|add package|tool install`.
/// ## Why this tier
/// Fetches and runs third-party code (install scripts), changes lock files from the registry, or writes outside the tree.
pub static INSTALL: Rule = Rule::t3("packages.install")
    .reason("installs, removes or updates packages (fetches and may run third-party code); ask the user first")
    .matches(words![
        "npm install left-pad", "npm -g install left-pad", "npm ci", "npm i lodash", "yarn add react", "pnpm add -D vitest", "pip install requests",
        "pip3 install --upgrade pip", "cargo install ripgrep", "go install golang.org/x/tools/gopls@latest", "uv sync", "poetry add requests",
        "bundle install", "npm audit fix", "yarn", "rustup update", "cpanm Moose", "yarn global add typescript", "pnpm store prune",
        // npm.rs INSTALLS: each subcommand (an npm alias or a pnpm/yarn command) would otherwise be
        // npm's unknown-subcommand or, for pnpm and yarn, a script name.
        "npm install-test", "npm uninstall left-pad", "npm update", "npm dedupe", "npm ddp", "npm prune", "npm rebuild", "npm rb", "npm link ../lib",
        "npm ln ../lib", "pnpm import", "pnpm patch-commit /tmp/patch-dir", "pnpm setup", "pnpm self-update", "pnpm approve-builds",
        "yarn upgrade-interactive", "yarn plugin import workspace-tools", "pnpm patch express",
    ])
    .not_matches(words!["npm ls", "npm install --dry-run"]);

/// ## What it matches
/// Publishing to a registry: `npm publish`, `npm unpublish PKG@VERSION`, `npm deprecate`, `npm dist-tag add`, `npm version X`,
/// `cargo publish|yank|owner --add|--remove`, `twine upload`, `gem push|yank`, `poetry publish`, `uv publish`, `mvn deploy`, `dotnet nuget push`.
/// ## Why this tier
/// Others download what is published; approvable (one version can be deprecated or yanked).
pub static PUBLISH: Rule = Rule::t3("packages.publish")
    .reason("publishes to (or changes) a package registry others install from; ask the user first")
    .matches(words![
        "npm publish", "npm -g publish", "npm unpublish my-package@1.0.0", "cargo publish", "twine upload dist/*", "gem push x.gem", "poetry publish",
        "npm deprecate my-pkg@1.0.0 'old'", "npm unpublish", "yarn npm publish", "npm star react", "npm unstar react", "pnpm undeprecate my-pkg@1.0.0",
        "npm author add bob my-pkg",
    ])
    .not_matches(words!["npm publish --dry-run", "npm unpublish my-package"]);

/// ## What it matches
/// Credentials and configuration of package tools: `npm login|logout|token create|config set|set`, `yarn config set`,
/// `pip config set`, `cargo login`, `poetry config`, `gem signin`, `composer config --global`, `go env -w`.
/// ## Why this tier
/// Writes credentials or user-wide configuration outside the tree (`~/.npmrc`, `~/.cargo/credentials`).
pub static ACCOUNT: Rule = Rule::t3("packages.account")
    .reason("changes registry credentials or user-wide package configuration; ask the user first")
    .matches(words![
        "npm login", "npm config set registry https://example.invalid", "npm config delete registry", "npm config edit", "cargo login",
        "go env -w GOPROXY=direct", "pip config set global.index-url https://x", "yarn npm login",
        // npm.rs ACCOUNTS, each of which npm would otherwise call an unknown subcommand.
        "npm logout", "npm token create", "npm profile set email me@example.com", "npm set registry https://registry.example.com", "npm edit lodash",
        "npm explore lodash -- ls",
    ])
    .not_matches(words!["npm config get registry", "npm config list"]);

/// ## What it matches
/// Deleting build outputs or caches: `cargo clean`, `go clean -cache|-modcache`, `mvn clean`, `gradle clean`,
/// `npm cache clean`, `pip cache purge`, `uv cache clean`, `bazel clean`, `dotnet clean`, `ninja -t clean`.
/// ## Why this tier
/// Deleting is T3 anywhere (DESIGN.md), even regenerable outputs: a clean can take hours of build cache with it.
pub static CLEAN: Rule = Rule::t3("packages.clean")
    .reason("deletes build outputs or package caches; ask the user first")
    .matches(words![
        "cargo clean", "go clean -modcache", "mvn clean install", "gradle clean", "pip cache purge", "bazel clean --expunge", "cmake -E rm -rf build",
        "ruff clean",
    ])
    .not_matches(words!["cargo build", "go clean -n"]);

/// ## What it matches
/// Tools that run recipes or generators tiergate does not read: `task NAME` (Taskfile), `go generate`, `cmake -P`,
/// `composer run-script`, `cargo make`, `just RECIPE` when the justfile or recipe cannot be read (or is a shebang script),
/// and distribution package builders (`rpmbuild -ba x.spec`, `rpmspec -q x.spec`, `debuild`, `dpkg-buildpackage`, `mock`,
/// `pbuilder`, `sbuild`, `makepkg`, `abuild`), which run a spec file's `%prep`/`%build`/`%install` sections and `%(…)`
/// macros, `debian/rules` or a PKGBUILD.
/// ## Why this tier
/// The commands they run are in a file tiergate does not parse; unseen is not safe. Package builders also write
/// outside the tree (`~/rpmbuild`, `../*.deb`, a chroot as root) and `makepkg -i` installs.
pub static RECIPE: Rule = Rule::t3("packages.recipe-unresolved")
    .reason("runs recipe commands from a file tiergate does not read (justfile, Taskfile, go:generate); review them and ask the user")
    .matches(words![
        "just deploy",
        "task build",
        "go generate ./...",
        "composer run-script deploy",
        "just --justfile - build < justfile",
        "just --justfile ci.just test",
        "just --justfile - deploy <<'EOF'\ntest:\n    cargo test\nEOF",
        "just --justfile - <<'EOF'\nplot:\n    #!/usr/bin/env python3\n    print(1)\nEOF",
        "rpmbuild -ba x.spec",
        "rpmspec -q x.spec",
        "debuild -us -uc",
        "dpkg-buildpackage -b",
        "mock -r fedora-40-x86_64 x.src.rpm",
        "pdebuild",
        "pbuilder build x.dsc",
        "cowbuilder --build x.dsc",
        "sbuild -d unstable",
        "makepkg -si",
        "abuild -r",
        "rpmbuild -ba x.spec --help",
    ])
    .not_matches(words!["just --list", "task --list", "rpmbuild --help", "dpkg-buildpackage --version"]);

/// ## What it matches
/// A subcommand of a package tool tiergate does not model (`npm frobnicate`, `cargo some-plugin`).
/// ## Why this tier
/// These CLIs install and publish; an unmodelled verb is not assumed safe.
pub static UNKNOWN: Rule = Rule::t3("packages.unknown-subcommand")
    .reason("a package-tool subcommand tiergate does not model; ask the user before running it")
    .matches(words!["npm frobnicate", "cargo frobnicate", "npm -D SOME-VALUE install left-pad", "go frobnicate"])
    .not_matches(words!["npm ls"]);

/// How a package builder is asked for help: `--help` or `--version` with no operand (`rpmbuild -ba x.spec --help` is
/// judged as the build; under this lenient reading a help word right after an undeclared option is its value).
const PACKAGE_BUILD_HELP: ArgSpec = ArgSpec::values(words![]).help(Help::LONG.with(Help::VERSION).without_operands());

/// A distribution package builder: `--help`/`--version` print; anything else runs the package's build scripts,
/// which tiergate does not read (the recipe policy).
fn package_build(inv: &Invocation, cx: &mut Cx<'_>) {
    if asks_help(&inv.args, PACKAGE_BUILD_HELP) {
        return cx.hit(&HELP);
    }
    let why = format!(
        "`{}` runs the package's own build scripts (a spec file's sections and %(…) macros, debian/rules, a PKGBUILD), which tiergate does not read, and writes outside the tree; review them and ask the user",
        inv.program
    );
    cx.hit_because(&RECIPE, why);
}

/// `cpan -i X`, `cpanm X`, `cpan -u`: installs into the Perl library (ORACLE.md §4 row 8);
/// `cpan -l`, `-D`, `-v`, `-h` only print.
fn cpan(inv: &Invocation, cx: &mut Cx<'_>) {
    let cpan_help = HELP_WORDS.with(Help::VERSION).with(Help::DASH_V).with(Help::DASH_UPPER_V);
    let mut flags = inv.flags().peekable();
    let prints = flags.peek().is_some() && flags.all(|f| matches!(f, "-l" | "-L" | "-D" | "--info") || cpan_help.holds(f));
    if prints {
        cx.hit(&READ);
    } else {
        cx.hit_because(&INSTALL, format!("`{}` installs or upgrades Perl modules outside the tree; {}", inv.program, INSTALL.reason));
    }
}

crate::tables![; makefile, npm, python, rust_go, tools];
