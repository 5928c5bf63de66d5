//! Database tools that are not statement clients: dumps (read, with output files
//! checked as writes), restores and imports (write), and server or catalogue
//! administration (`createdb`, `pg_ctl restart`, `mysqladmin shutdown`,
//! `dropdb` on the floor).

use crate::call::args::ArgSpec;
use crate::call::Invocation;
use crate::rules::vocab::writes;
use crate::rules::{Cx, Rule};
use crate::words;
use crate::words::Words;

use super::{DROP_DATABASE, VERSION};

/// ## What it matches
/// Dumps and exports: `pg_dump`, `pg_dumpall`, `mysqldump`, `mongodump`, `mongoexport`, and `pg_restore` without `-d` (it only prints SQL). Output files (`-f`, `-r`, `-o`) are checked as writes.
/// ## Why this tier
/// Reading a database changes nothing; the dump lands in the tree (free) or elsewhere (write-target rules).
pub static DUMP: Rule = Rule::t0("db.dump")
    .reason("reads the database into a dump; nothing in the database changes")
    .matches(words!["pg_dump app", "mysqldump app", "pg_dump -f out.sql app", "mongodump --out dump/", "pg_restore -l app.dump"])
    .not_matches(words!["pg_dump -f /etc/x.sql app", "pg_restore -d app app.dump"]);

/// ## What it matches
/// Restores and imports into a live database: `pg_restore -d`, `mongorestore`, `mongoimport`.
/// ## Why this tier
/// Overwrites or adds live data.
pub static RESTORE: Rule = Rule::t3("db.restore")
    .reason("restores or imports data into a live database; ask the user first")
    .matches(words!["pg_restore -d app app.dump", "mongorestore dump/", "mongoimport --db app --collection c f.json"])
    .not_matches(words!["pg_restore -l app.dump"]);

/// ## What it matches
/// Server and catalogue administration: `createdb`, `createuser`, `dropuser`, `initdb`, `pg_ctl start|stop|restart`, `mysqladmin shutdown|create|flush-*`, `redis-server`, `pg_upgrade`.
/// ## Why this tier
/// Changes servers, users or databases.
pub static ADMIN: Rule = Rule::t3("db.admin")
    .reason("administers a database server, its users or databases; ask the user first")
    .matches(words!["createdb app_test", "pg_ctl restart -D /var/lib/pg", "mysqladmin shutdown", "createuser bob", "dropuser bob"])
    .not_matches(words!["pg_ctl status", "mysqladmin status"]);

crate::table! {
    DROPDB_VALUE = ["-h", "--host", "-p", "--port", "-U", "--username", "--maintenance-db"];
    probe "dropdb {} x" => T3, "db.admin";
}

crate::table! {
    MYSQLADMIN_VALUE = ["-h", "--host", "-P", "--port", "-u", "--user", "-S", "--socket", "--defaults-file", "-c", "--count", "-i", "--sleep"];
    probe "mysqladmin {} drop status" => T0, "db.info";
}

pub(super) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    let cwd = inv.cwd.clone();
    let write_of = |cx: &mut Cx<'_>, names: Words| {
        if let Some(t) = crate::call::option_arg(&inv.args, names) {
            writes::check_write(cx, &t, cwd.as_deref());
        }
    };
    match inv.program.as_str() {
        "pg_dump" | "pg_dumpall" => {
            cx.hit(&DUMP);
            write_of(cx, words!["-f", "--file"]);
        }
        "mysqldump" | "mariadb-dump" => {
            cx.hit(&DUMP);
            write_of(cx, words!["-r", "--result-file", "--tab", "-T"]);
        }
        "mongodump" | "mongoexport" => {
            cx.hit(&DUMP);
            write_of(cx, words!["-o", "--out"]);
        }
        "pg_restore" => {
            if inv.option(words!["-d", "--dbname"]).is_some() {
                cx.hit(&RESTORE);
            } else {
                cx.hit(&DUMP);
                write_of(cx, words!["-f", "--file"]);
            }
        }
        "mongorestore" | "mongoimport" => cx.hit(&RESTORE),
        "dropdb" => {
            // `dropdb [options] NAME`: options with values must not hide the name.
            let name = crate::call::first_operand(&inv.args, ArgSpec::values(DROPDB_VALUE)).map(|o| o.arg.text.as_str());
            match name {
                Some(n) => cx.hit_because(
                    &DROP_DATABASE,
                    format!("`dropdb {n}` drops the whole database, which cannot be undone; dump it first and ask the user to drop it by hand"),
                ),
                None => cx.hit(&ADMIN),
            }
        }
        "pg_ctl" | "pg_ctlcluster" => {
            if inv.bare_words().any(|w| w == "status") {
                cx.hit(&VERSION);
            } else {
                cx.hit(&ADMIN);
            }
        }
        "mysqladmin" | "mariadb-admin" => {
            // `mysqladmin -h db ping`: an option's value is not a command.
            let ops: Vec<&str> = crate::call::args::Args::parse(&inv.args, ArgSpec::values(MYSQLADMIN_VALUE)).operands().map(|o| o.arg.text.as_str()).collect();
            if let Some(k) = ops.iter().position(|w| *w == "drop") {
                let db = ops.get(k + 1).copied().unwrap_or("?");
                cx.hit_because(
                    &DROP_DATABASE,
                    format!("`mysqladmin drop {db}` drops the whole database, which cannot be undone; dump it first and ask the user"),
                );
            } else if !ops.is_empty() && ops.iter().all(|w| matches!(*w, "status" | "ping" | "version" | "processlist" | "variables" | "extended-status")) {
                cx.hit(&VERSION);
            } else {
                cx.hit(&ADMIN);
            }
        }
        "pg_isready" => cx.hit(&VERSION),
        _ => cx.hit(&ADMIN),
    }
}

crate::tables![DROPDB_VALUE, MYSQLADMIN_VALUE];
