//! Schema-migration and framework database tools: rails/rake `db:*`, alembic,
//! prisma, flyway, liquibase, knex, sequelize, dbmate, goose, golang-migrate,
//! diesel, sqlx, atlas, django-admin. Applying migrations is T3; status and
//! history read; dropping or resetting the database is the drop floor.

use crate::call::args::{asks_help, ArgSpec, Args, Help, Token};
use crate::call::Invocation;
use crate::rules::{Cx, Rule};
use crate::words;
use crate::words::Words;

use super::{READ, WRITE};

/// ## What it matches
/// Applying or reverting migrations and other schema or data changes: `rails db:migrate`, `alembic upgrade head`, `prisma migrate dev`, `flyway migrate`, `knex migrate:latest`, `dbmate up`, `django-admin migrate`.
/// ## Why this tier
/// Changes the live schema and data.
pub static MIGRATE: Rule = Rule::t3("db.migrate")
    .reason("applies or reverts database migrations, which change the live schema and data; ask the user first")
    .matches(words![
        "rails db:migrate", "alembic upgrade head", "prisma migrate dev", "flyway migrate", "knex migrate:latest", "dbmate up", "rake db:seed",
        "npx prisma migrate deploy", "rake db:migrate db:version", "flyway migrate info",
    ])
    .not_matches(words!["alembic history", "prisma migrate status", "rails db:migrate:status", "flyway info", "sqlx migrate info"]);

/// ## What it matches
/// Dropping or resetting the whole database through a framework: `rails db:drop|reset|purge|migrate:reset`, `prisma migrate reset`, `prisma db push --force-reset`, `flyway clean`, `sequelize db:drop`, `dbmate drop`.
/// ## Why this tier
/// Every table and row is gone: the drop-database floor. Never approvable.
pub static RESET: Rule = Rule::blocked("db.migrate.reset")
    .reason("drops or resets the whole database, which cannot be undone; dump it first and ask the user to run it by hand")
    .suggest("rails db:migrate:status")
    .matches(words![
        "rails db:drop", "rake db:reset", "prisma migrate reset", "npx prisma migrate reset --force", "flyway clean", "dbmate drop",
        "prisma db push --force-reset",
    ])
    .not_matches(words!["rails db:migrate", "prisma db push"]);

crate::table! {
    READ_WORDS = [
        "status", "history", "current", "heads", "branches", "show", "info", "list", "ls", "version", "help", "validate", "check", "print", "dump", "diff", "plan",
        "inspect", "describe", "routes", "about", "stats", "notes", "-T", "--tasks", "generate", "g", "format", "fmt", "new",
        "init", "server", "s", "test", "spec", "lint", "showmigrations", "sqlmigrate", "makemigrations", "dumpdata", "inspectdb", "diffsettings", "startapp",
        "startproject", "pending", "runserver", "collectstatic", "compilemessages", "makemessages", "revision", "edit", "merge", "heads", "make:migration",
        "make:model", "g:migration",
    ];
    probe "rails {}" => T0;
}
crate::table! {
    /// Words that drop or reset a whole database (Rails' `db:migrate:reset` is drop, create, migrate).
    RESET_WORDS = ["db:drop", "db:reset", "db:drop:all", "db:drop:_unsafe", "db:purge", "db:purge:all", "db:migrate:reset", "clean", "drop", "reset", "--force-reset"];
    probe "rails {}" => Blocked, "db.migrate.reset";
    except ["clean", "drop", "reset"]: "a tool's own reset word whose `rails` reading is a mutation, not a reset of every table";
    except ["--force-reset"]: "an option, not a command word: it marks the command it follows";
}

crate::table! {
    READ_OPTS = ["-T", "--tasks"];
    probe "rake {}=x" => T0, "db.read";
}

/// The help and version words a framework CLI prints and exits for.
const HELP: Help = Help::LONG.with(Help::DASH_H).with(Help::VERSION).with(Help::DASH_UPPER_V);

pub(super) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    let words: Vec<&str> = inv.words().collect();
    if words.iter().any(|w| RESET_WORDS.contains(w)) {
        // `rails db:reset`, `prisma migrate reset`, `flyway clean`, `sequelize db:drop`, `dbmate drop`.
        let what = words.iter().find(|w| RESET_WORDS.contains(w)).copied().unwrap_or("reset");
        let framework_drop = match inv.program.as_str() {
            "rails" | "rake" | "bin/rails" => what.starts_with("db:"),
            "prisma" => what == "reset" || what == "--force-reset",
            "flyway" => what == "clean",
            "sequelize" | "sequelize-cli" => what == "db:drop",
            "dbmate" | "liquibase" => what == "drop" || what == "dropAll",
            _ => false,
        };
        if framework_drop {
            cx.hit_because(
                &RESET,
                format!("`{} {what}` drops or resets the whole database, which cannot be undone; dump it first and ask the user", inv.program),
            );
            return;
        }
    }
    // Liquibase 4 spells every command in kebab case too (`drop-all`).
    if inv.program == "liquibase" && words.iter().any(|w| matches!(*w, "dropAll" | "drop-all")) {
        cx.hit(&RESET);
        return;
    }
    // Help and version (the card answers them before the check; `-h` is left here,
    // where it never lowers a reset or a migration: `rails db:migrate -h`).
    let help = asks_help(&inv.args, ArgSpec::values(words![]).with_flags(READ_OPTS).help(HELP));
    // The operands, and the options that ask only to read (`rake -T`).
    let ops: Vec<&str> = Args::parse(&inv.args, ArgSpec::values(words![]).with_flags(READ_OPTS))
        .filter_map(|t| match t {
            Token::Operand(o) => Some(o.arg.text.as_str()),
            Token::Opt { name, .. } => Some(name),
            _ => None,
        })
        .collect();
    // A help, read or status word reads when nothing mutates (`rails db:migrate:status`).
    let reads = help || (!ops.is_empty() && ops.iter().any(|w| READ_WORDS.contains(w) || w.ends_with(":status") || w.ends_with(":version")));
    // A status word decides only as the command of a `migrate` group (`prisma migrate
    // status`). Anywhere else a mutating word still runs: rake and rails run every
    // operand as a task of its own and flyway every command word in turn (`rake
    // db:migrate db:version`, `flyway migrate info`), and the other CLIs run their first
    // command whatever words follow it (`knex migrate:latest migrate:status`).
    let group = MIGRATE_GROUPS.contains(inv.program.as_str());
    let mutates = ops.iter().enumerate().any(|(i, w)| mutating(w) && !(group && *w == "migrate" && ops.get(i + 1).is_some_and(|n| status_word(n))));
    if mutates {
        cx.hit(&MIGRATE);
    } else if ops.is_empty() && !help && inv.program == "rake" {
        cx.hit_because(&MIGRATE, "`rake` runs the Rakefile's default task, which tiergate does not read; name the task".to_owned());
    } else if reads || ops.is_empty() {
        cx.hit(&READ);
    } else if matches!(inv.program.as_str(), "rails" | "rake") && ops.first().is_some_and(|w| matches!(*w, "console" | "c" | "dbconsole" | "runner" | "r")) {
        cx.hit_because(&WRITE, format!("`{} {}` runs code or statements tiergate cannot see; ask the user first", inv.program, ops[0]));
    } else {
        cx.hit_because(&MIGRATE, format!("`{} {}` is a framework task tiergate does not know as read-only; ask the user first", inv.program, ops.join(" ")));
    }
}

/// CLIs whose `migrate` is a command group, so the word after it is the command:
/// `prisma migrate status`, `sqlx migrate info`, `atlas migrate status` only read.
const MIGRATE_GROUPS: Words = words!["prisma", "sqlx", "atlas"];

/// A word that applies, reverts or otherwise changes migrations, schema or data.
fn mutating(w: &str) -> bool {
    matches!(
        w,
        "migrate"
            | "upgrade"
            | "downgrade"
            | "up"
            | "down"
            | "redo"
            | "rollback"
            | "apply"
            | "deploy"
            | "push"
            | "seed"
            | "update"
            | "run"
            | "revert"
            | "stamp"
            | "flush"
            | "loaddata"
            | "repair"
            | "baseline"
            | "undo"
            | "migrate:latest"
            | "migrate:rollback"
            | "migrate:up"
            | "migrate:down"
            | "db:migrate"
            | "db:seed"
            | "db:rollback"
            | "db:setup"
            | "db:create"
            | "db:schema:load"
            | "db:migrate:redo"
            | "db:migrate:up"
            | "db:migrate:down"
            | "db:prepare"
            | "db:seed:all"
            | "seed:run"
    )
}

/// A command of a `migrate` group that asks for the migrations' state only (`prisma
/// migrate status`, `sqlx migrate info`). The groups' commands are plain words, never
/// rake's `db:migrate:status` shape.
fn status_word(w: &str) -> bool {
    matches!(w, "status" | "history" | "current" | "info" | "heads" | "pending" | "validate")
}

crate::tables![READ_WORDS, RESET_WORDS, READ_OPTS];
