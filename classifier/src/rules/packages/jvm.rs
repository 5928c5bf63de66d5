//! Ruby, PHP, JVM and .NET tooling: `gem`, `bundle`/`bundler`, `composer`,
//! `mvn`/`mvnw`, `gradle`/`gradlew`, `dotnet`.
//!
//! Maven goals and Gradle tasks are named by the project, so they are sorted by
//! their words: lifecycle phases and `check`/`test`/`build` tasks are T1,
//! `install`/`deploy`/`publish*`/`release*`/`upload*` T3, `clean` T3 (deletion),
//! `run`/`bootRun`/`exec:java` T1 (project code); anything else a build runs is T1.
//! Decision: `dotnet ef database drop` is blocked like SQL `drop database`
//! (FEATURES.md §13 sql_critical).

use super::runners;
use super::HELP_READING;
use super::{ACCOUNT, BUILD, CLEAN, DRY_RUN, FORMAT, HELP, INSTALL, PUBLISH, READ, RECIPE, RUN_PROJECT, VALIDATE};
use crate::call::args::{asks_help, Help};
use crate::call::Invocation;
use crate::call::{has_flag, operand_words};
use crate::rules::vocab::writes;
use crate::rules::{Cx, Rule};
use crate::words;

/// ## What it matches
/// `dotnet ef database drop`: drops the application's database.
/// ## Why this tier
/// Same floor as SQL `drop database`: the data is gone. Never approvable.
pub static EF_DROP: Rule = Rule::blocked("packages.dotnet.ef-database-drop")
    .reason("drops the whole database; back it up and drop it by hand, or ask the user")
    .matches(words!["dotnet ef database drop", "dotnet ef database drop --force"])
    .not_matches(words!["dotnet ef database update", "dotnet ef migrations list"])
    .suggest("dotnet ef migrations list");

/// ## What it matches
/// A Gradle `install<Variant>` task (`gradle installDebug`, `./gradlew :app:installRelease`): the Android plugin's install onto a connected device or emulator.
/// ## Why this tier
/// It changes a device outside the working tree (replacing the app and its data there); `installDist` builds into the tree instead.
pub static DEVICE_INSTALL: Rule = Rule::t3("packages.gradle.install-device")
    .reason("installs the app onto a connected device or emulator, which changes that device; build with assemble<Variant> or ask the user")
    .matches(words!["gradle installDebug", "./gradlew :app:installRelease", "gradlew installDebugAndroidTest"])
    .not_matches(words!["gradle installDist", "./gradlew assembleDebug", "./gradlew testDebugUnitTest"]);

pub(super) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    let args = &inv.args;
    let program = inv.program.as_str();
    // Maven and Gradle read `-v`/`--version` as build options; the others print
    // their version for it as the whole argv.
    let own_help = match program {
        "mvn" | "mvnw" | "gradle" | "gradlew" => asks_help(args, HELP_READING),
        _ => asks_help(args, HELP_READING.help(HELP_READING.help.with(Help::VERSION.with(Help::DASH_V).alone()))),
    };
    if own_help {
        cx.hit(&HELP);
        return;
    }
    let value_opts = words![
        "-f", "--file", "-s", "--settings", "-P", "--activate-profiles", "-pl", "--projects", "-D", "-p", "--project", "-c", "--configuration", "-r",
        "--runtime", "--framework", "-o", "--output", "--gemfile", "--path", "-d", "--working-dir", "--init-script", "-I", "--build-file", "-b",
        "--project-dir", "--max-workers", "-x", "--exclude-task", "-T", "--threads", "-l", "--log-file", "-e",
    ];
    let pos = operand_words(args, value_opts);
    let w: Vec<&str> = pos.iter().map(|(_, w)| *w).collect();
    let rule: &'static Rule = match program {
        "gem" => gem(&w),
        "bundle" | "bundler" => match w.as_slice() {
            ["exec" | "e", ..] => return runners::local(inv, cx, &args[pos[0].0 + 1..]),
            ["check" | "list" | "show" | "outdated" | "info" | "doctor" | "platform" | "version" | "help" | "licenses" | "viz", ..] => &READ,
            ["config", ..] if w.len() <= 2 => &READ,
            ["config", ..] => &ACCOUNT,
            ["lock", ..] if !has_flag(args, words!["--update"]) => &BUILD,
            ["clean", ..] => &CLEAN,
            ["gem" | "init" | "binstubs", ..] => &BUILD,
            _ => &INSTALL,
        },
        "composer" => match w.as_slice() {
            ["show"
            | "info"
            | "outdated"
            | "depends"
            | "why"
            | "prohibits"
            | "why-not"
            | "licenses"
            | "search"
            | "diagnose"
            | "audit"
            | "fund"
            | "suggests"
            | "status"
            | "check-platform-reqs"
            | "help"
            | "list"
            | "about"
            | "browse"
            | "home", ..] => &READ,
            ["validate", ..] => &VALIDATE,
            ["dump-autoload" | "dumpautoload" | "init" | "archive", ..] => &BUILD,
            ["run-script" | "run" | "exec", ..] => &RECIPE,
            ["config", ..] if has_flag(args, words!["-l", "--list"]) || w.len() <= 2 && !has_flag(args, words!["--global", "-g", "--unset"]) => &READ,
            ["config", ..] => &ACCOUNT,
            ["clear-cache" | "clearcache" | "cc", ..] => &CLEAN,
            ["install" | "update" | "upgrade" | "require" | "remove" | "reinstall" | "bump", ..] if has_flag(args, words!["--dry-run"]) => &DRY_RUN,
            _ => &INSTALL,
        },
        "dotnet" => dotnet(inv, &w),
        // mvn, mvnw, gradle, gradlew: goals/tasks are words.
        _ => {
            if program.starts_with("gradle") && has_flag(args, words!["--dry-run", "-m"]) {
                &DRY_RUN
            } else {
                build_goals(&w, program.starts_with("gradle"))
            }
        }
    };
    cx.hit(rule);
    // `gradle -I FILE`: an init script is build code run before the project's; one in
    // the tree is the project's own (like build.gradle), one from elsewhere is unseen.
    if program.starts_with("gradle") {
        if let Some(init) = crate::call::option_arg(args, words!["-I", "--init-script"]) {
            if writes::authored(cx, &init, inv.cwd.as_deref()).is_none_or(|a| a.scratch) {
                cx.hit_because(
                    &RECIPE,
                    format!("`{program}` runs the init script `{}` from outside the working tree, which tiergate does not read; ask the user", init.text),
                );
            }
        }
    }
}

fn gem(w: &[&str]) -> &'static Rule {
    match w {
        ["list" | "search" | "info" | "query" | "specification" | "spec" | "contents" | "dependency" | "env" | "environment" | "which" | "outdated" | "help"
        | "fetch" | "check" | "stale", ..] => &READ,
        ["build", ..] => &BUILD,
        ["push" | "yank" | "owner", ..] => &PUBLISH,
        ["signin" | "signout" | "sources", ..] => &ACCOUNT,
        ["cleanup", ..] => &CLEAN,
        [] => &HELP,
        _ => &INSTALL,
    }
}

fn dotnet(inv: &Invocation, w: &[&str]) -> &'static Rule {
    // `dotnet --info`, `--list-sdks`, `--list-runtimes` are options, not operand words;
    // a bare `dotnet` prints its usage.
    if w.is_empty() {
        return if has_flag(&inv.args, words!["--info", "--list-sdks", "--list-runtimes"]) { &READ } else { &HELP };
    }
    match w {
        ["build" | "pack" | "publish" | "new" | "msbuild" | "sln" | "store", ..] => &BUILD,
        ["test" | "vstest", ..] => &VALIDATE,
        ["format", ..] if has_flag(&inv.args, words!["--verify-no-changes"]) => &VALIDATE,
        ["format", ..] => &FORMAT,
        ["run" | "watch", ..] => &RUN_PROJECT,
        ["clean", ..] => &CLEAN,
        ["list" | "help" | "sdk", ..] => &READ,
        ["nuget", "push" | "delete", ..] => &PUBLISH,
        ["nuget", "locals", ..] if has_flag(&inv.args, words!["--clear", "-c"]) => &CLEAN,
        ["nuget", "locals" | "verify" | "why", ..] => &READ,
        ["ef", "database", "drop", ..] => &EF_DROP,
        ["ef", "database", "update", ..] => &INSTALL,
        ["ef", "migrations", "list" | "has-pending-model-changes", ..] | ["ef", "dbcontext", "info" | "list", ..] => &READ,
        ["ef", "migrations" | "dbcontext", ..] => &BUILD,
        ["tool", "list" | "search", ..] | ["workload", "list" | "search", ..] => &READ,
        ["tool", "run", ..] => &RUN_PROJECT,
        _ => &INSTALL,
    }
}

/// Maven goals / Gradle tasks (`gradle`: Gradle's), strictest word wins.
fn build_goals(w: &[&str], gradle: bool) -> &'static Rule {
    let mut best: &'static Rule = if w.is_empty() { &BUILD } else { &READ };
    for goal in w {
        let g = goal.to_ascii_lowercase();
        // `plugin:goal` / `:sub:task` → the last word names the action.
        let action = g.rsplit(':').next().unwrap_or(&g).to_owned();
        let rule: &'static Rule = if ["deploy", "release", "publish", "upload"].iter().any(|p| action.starts_with(p)) || g.starts_with("release:") {
            &PUBLISH
        } else if gradle && action.len() > "install".len() && action.starts_with("install") && !action.starts_with("installdist") {
            &DEVICE_INSTALL
        } else if action.starts_with("install") && !action.starts_with("installdist")
            || action == "exec"
            || g.starts_with("flyway:")
            || g.starts_with("liquibase:")
        {
            &INSTALL
        } else if action == "clean" || action.starts_with("clean") {
            &CLEAN
        } else if [
            "tasks", "dependencies", "properties", "projects", "help", "dependencyinsight", "outputs", "buildenvironment", "tree", "effective-pom", "describe",
            "analyze", "display-dependency-updates", "display-plugin-updates", "list",
        ]
        .contains(&action.as_str())
        {
            &READ
        } else if ["test", "check", "verify", "validate", "lint", "spotbugs", "pmd", "checkstyle", "integration-test", "detekt", "ktlintcheck", "spotlesscheck"]
            .iter()
            .any(|p| action.starts_with(p))
        {
            &VALIDATE
        } else if matches!(action.as_str(), "run" | "bootrun" | "java" | "quarkusdev") {
            &RUN_PROJECT
        } else if action.starts_with("spotlessapply") || action.starts_with("ktlintformat") {
            &FORMAT
        } else {
            &BUILD
        };
        if rank(rule) > rank(best) {
            best = rule;
        }
    }
    best
}

fn rank(r: &Rule) -> u8 {
    match (r.blocked, r.tier) {
        (true, _) => 9,
        (_, t) => t as u8 * 2 + u8::from(std::ptr::eq(r, &BUILD) || std::ptr::eq(r, &RUN_PROJECT)),
    }
}
