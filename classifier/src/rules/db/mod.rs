//! The `db` family: database clients and tools (psql, mysql/mariadb, sqlite3,
//! duckdb, clickhouse-client, sqlcmd, cqlsh, redis-cli/valkey-cli, mongo/mongosh,
//! influx, pg_dump/pg_restore/mysqldump, dropdb/createdb, pg_ctl, mysqladmin …).
//!
//! A client with no visible statement can do anything, so the default is T3;
//! T0 only when every inline statement (flags, positional SQL, heredoc bodies)
//! is read-only. Statement parsing is `sql.rs`; per-client argv is `clients.rs`,
//! `kv.rs` (redis, mongo, influx) and `admin.rs` (dump, restore, admin tools).
//! Piped stdin (`… | psql`) is the `flow` family's job.

use crate::words;

mod admin;
mod clients;
mod kv;
mod migrate;
mod sql;

pub use sql::Dialect;

use crate::call::args::Help;
use crate::call::Invocation;
use crate::rules::{Card, Cx, Family, InputUse, Rule, Traits};
use sql::Class;

pub static FAMILY: Family = Family::new("db", CARDS, RULES).answers_help(&VERSION);

/// `--help`, `--version` and `-V` print and exit; a help word that is an option's
/// value is not help (`sqlite3 -cmd --help app.db 'DROP TABLE t'` runs the DROP).
const HELP: Help = Help::LONG.with(Help::VERSION).with(Help::DASH_UPPER_V);
/// The key-value and document clients read `-V` otherwise.
const KV_HELP: Help = Help::LONG.with(Help::VERSION);

static CARDS: &[Card] = &[
    Card::of(words!["psql"], clients::psql).traits(Traits::DB_CLIENT).input(InputUse::Statements(statements_on_input)).help(HELP),
    // `mysql -?` is `--help`.
    Card::of(words!["mysql", "mariadb"], clients::mysql)
        .traits(Traits::DB_CLIENT)
        .input(InputUse::Statements(statements_on_input))
        .help(HELP.with(Help::QUESTION)),
    // sqlite3's options are single-dash words: `-help` and `-version` print.
    Card::of(words!["sqlite3", "sqlite", "duckdb"], clients::sqlite)
        .traits(Traits::DB_CLIENT)
        .input(InputUse::Statements(statements_on_input))
        .help(HELP.with(Help::SINGLE_DASH).with(Help::SINGLE_DASH_VERSION)),
    Card::of(words!["clickhouse-client", "clickhouse", "sqlcmd", "cqlsh"], clients::other_sql)
        .traits(Traits::DB_CLIENT)
        .input(InputUse::Statements(statements_on_input))
        .help(HELP),
    Card::of(words!["redis-cli", "valkey-cli", "keydb-cli"], kv::redis)
        .traits(Traits::DB_CLIENT)
        .input(InputUse::Statements(statements_on_input))
        .help(KV_HELP),
    Card::of(words!["mongo", "mongosh"], kv::mongo).traits(Traits::DB_CLIENT).input(InputUse::Statements(statements_on_input)).help(KV_HELP),
    Card::of(words!["influx"], kv::influx).traits(Traits::DB_CLIENT).input(InputUse::Statements(statements_on_input)).help(HELP),
    Card::of(
        words![
            "rails", "rake", "alembic", "prisma", "flyway", "liquibase", "knex", "sequelize", "sequelize-cli", "dbmate", "goose", "migrate", "diesel", "sqlx",
            "atlas", "django-admin",
        ],
        migrate::check,
    )
    .help(HELP),
    Card::of(words!["reindexdb", "vacuumdb", "clusterdb", "pgbench", "pg_recvlogical", "pg_receivewal"], |_, cx| cx.hit(&MAINTENANCE)).help(HELP),
    // Dump, restore and server administration.
    Card::of(
        words![
            "pg_dump", "pg_dumpall", "pg_restore", "mysqldump", "mariadb-dump", "mongodump", "mongorestore", "mongoexport", "mongoimport", "dropdb",
            "createdb", "createuser", "dropuser", "pg_ctl", "pg_ctlcluster", "initdb", "mysqladmin", "mariadb-admin", "pg_isready", "pg_upgrade",
            "redis-server",
        ],
        admin::check,
    )
    .help(HELP),
];

static RULES: &[&Rule] = &[
    &MAINTENANCE,
    &READ,
    &WRITE,
    &DROP_DATABASE,
    &DROP_TABLE,
    &FLUSH,
    &INTERACTIVE,
    &SCRIPT_FILE,
    &META,
    &clients::READONLY_MODE,
    &VERSION,
    &admin::DUMP,
    &admin::RESTORE,
    &admin::ADMIN,
    &migrate::MIGRATE,
    &migrate::RESET,
];

/// ## What it matches
/// A client whose every visible statement reads: `SELECT`, `EXPLAIN`, `SHOW`, `WITH … SELECT`, read `PRAGMA`s, psql `\dt \d \l`, sqlite `.tables .schema`, redis `GET KEYS SCAN INFO`, mongo `find`/`count`/`aggregate` without `$out`/`$merge`.
/// ## Why this tier
/// Reads change nothing; keywords inside strings and comments do not count.
pub static READ: Rule = Rule::t0("db.read")
    .reason("every statement only reads")
    .matches(words![
        "psql -c 'SELECT count(*) FROM users'", "psql -c \"select 'drop table x'\"", "sqlite3 app.db .tables", "redis-cli GET session:1",
        "mongosh --eval 'db.users.find()'", "mysql -e 'SHOW TABLES' app", "psql -d mydb -c '\\dt'", "psql -l", "duckdb app.duckdb -no-stdin",
        "redis-cli --cluster check 10.0.0.5:6379", "redis-cli --bigkeys", "influx query 'from(bucket:\"app\") |> range(start: -1h)'", "influx ping",
        "influx bucket list", "alembic current",
    ])
    .not_matches(words!["psql -c 'DELETE FROM t'", "redis-cli SET k v"]);

/// ## What it matches
/// Statements that write or are not known to be read-only: `INSERT UPDATE DELETE ALTER CREATE GRANT TRUNCATE`, `SELECT … INTO`, redis `SET DEL CONFIG SET`, mongo `insert*`/`update*`/`delete*`/`drop()`.
/// ## Why this tier
/// Changes live data. `TRUNCATE` and `DELETE` without `WHERE` stay T3 (recoverable from backups, and routine in test databases), unlike dropping a table or database.
pub static WRITE: Rule = Rule::t3("db.write")
    .reason("runs statements that change the database; ask the user first")
    .matches(words![
        "psql -d app -c \"UPDATE users SET admin = true\"", "sqlite3 app.db \"INSERT INTO t VALUES (1)\"", "redis-cli SET k v",
        "mongosh --eval 'db.users.deleteMany({})'", "psql -c 'TRUNCATE logs'", "psql -c 'DELETE FROM sessions'", "sqlite3 site.sqlar -A -x",
        "sqlcmd -Q 'SELECT 1 DISABLE TRIGGER trg ON t'",
    ])
    .not_matches(words!["psql -c 'SELECT 1'", "psql -c \"SELECT 'INSERT INTO t'\"", "sqlcmd -Q 'SELECT 1 SELECT 2'"]);

/// ## What it matches
/// `DROP DATABASE`/`DROP KEYSPACE` (and MySQL's `DROP SCHEMA`), `dropdb NAME`, `mysqladmin drop`, mongo `dropDatabase()`.
/// ## Why this tier
/// Irreversible: the whole database is gone. Never approvable; take a dump first and ask the user to drop it.
pub static DROP_DATABASE: Rule = Rule::blocked("db.drop-database")
    .reason("drops a whole database, which cannot be undone; dump it first and ask the user to drop it by hand")
    .suggest("pg_dump prod > prod-backup.sql")
    .matches(words![
        "psql -c 'DROP DATABASE prod'", "mysql -e 'drop database app'", "dropdb prod", "mongosh app --eval 'db.dropDatabase()'", "mysqladmin drop app"
    ])
    .not_matches(words!["psql -c \"SELECT 'DROP DATABASE x'\"", "dropdb --help"]);

/// ## What it matches
/// `DROP TABLE` (any client, any position in a script or heredoc) and `DROP SCHEMA … CASCADE`.
/// ## Why this tier
/// The table and its data are gone; on the original's floor. Never approvable.
pub static DROP_TABLE: Rule = Rule::blocked("db.drop-table")
    .reason("drops a table and its data, which cannot be undone; dump the table first and ask the user")
    .suggest("pg_dump -t users app > users-backup.sql")
    .matches(words![
        "psql -d app -c \"DROP TABLE users\"", "sqlite3 app.db 'DROP TABLE t'", "psql -c 'DROP SCHEMA app CASCADE'",
        "psql -d mydb -c '\\dt' -c 'DROP TABLE users'", "psql -d app <<'SQL'\nDROP TABLE users;\nSQL", "mongosh app --eval 'db.users.drop()'",
    ])
    .not_matches(words!["psql -c '-- DROP TABLE users\nSELECT 1'", "psql -c 'DROP VIEW v'", "mongosh app --eval 'db.users.dropIndex(\"x_1\")'"]);

/// ## What it matches
/// redis/valkey `FLUSHALL` and `FLUSHDB`.
/// ## Why this tier
/// Wipes every key of one or all databases: the drop-database floor.
pub static FLUSH: Rule = Rule::blocked("db.flush")
    .reason("wipes a whole Redis database; export what matters and ask the user to flush it by hand")
    .suggest("redis-cli --scan")
    .matches(words!["redis-cli FLUSHALL", "redis-cli -n 2 flushdb", "valkey-cli FLUSHALL ASYNC"])
    .not_matches(words!["redis-cli GET FLUSHALL"]);

/// ## What it matches
/// A client started with no statement to run (`psql`, `sqlite3 app.db`, `redis-cli`, `mongosh`).
/// ## Why this tier
/// An interactive session can run any statement.
pub static INTERACTIVE: Rule = Rule::t3("db.interactive")
    .reason("opens an interactive database session; run the statement with -c/-e instead")
    .matches(words!["psql", "sqlite3 app.db", "redis-cli", "mongosh", "mysql -u root app"])
    .not_matches(words!["psql -c 'SELECT 1'"]);

/// ## What it matches
/// Statements from a file: `psql -f x.sql`, `mysql db < dump.sql`, `sqlite3 app.db < schema.sql`, `mongosh app script.js`.
/// ## Why this tier
/// The file's statements are not checked here; they may write or drop.
pub static SCRIPT_FILE: Rule = Rule::t3("db.script-file")
    .reason("runs statements from a file tiergate does not check; review the file and ask the user")
    .matches(words!["psql -d app -f migrate.sql", "mysql app < dump.sql", "sqlite3 app.db < schema.sql", "psql -d mydb -c '\\dt' < /tmp/x.sql"])
    .not_matches(words!["psql -c 'SELECT 1'"]);

/// ## What it matches
/// Client commands that run files or shells or write files: psql `\i \o \copy \! \gexec \gset`, sqlite `.read .import .restore .shell .system .output .once .load .save`, a backslash command with unusual whitespace.
/// ## Why this tier
/// They reach past the statement into files and processes.
pub static META: Rule = Rule::t3("db.client-command")
    .reason("runs a client command that reads or writes files or starts a shell; ask the user first")
    .matches(words![
        "psql -d mydb -c \"\\i /tmp/migration.sql\"", "sqlite3 /tmp/x.db \".import data.csv t\"", "psql -d mydb -c \"\\! ls\"",
        "sqlite3 x.db '.output /tmp/out.txt'",
    ])
    .not_matches(words!["psql -d mydb -c '\\l'", "sqlite3 x.db .schema"]);

/// ## What it matches
/// `--version`/`--help` on a database tool, and status probes (`pg_isready`, `pg_ctl status`, `mysqladmin status`).
/// ## Why this tier
/// Prints information only.
pub static VERSION: Rule = Rule::t0("db.info")
    .reason("prints version, help or server status only")
    .matches(words!["psql --version", "redis-cli --version", "pg_ctl status", "pg_isready -h db", "dropdb --help", "mysqladmin ping"])
    .not_matches(words!["pg_ctl restart", "sqlite3 -cmd --help app.db 'DELETE FROM users'"]);

/// ## What it matches
/// PostgreSQL maintenance and replication clients: `reindexdb`, `vacuumdb`, `clusterdb`, `pgbench` (its default run writes, `-i` creates tables), `pg_recvlogical`, `pg_receivewal`. (`pg_basebackup` only reads the server; its `-D` directory is a write target in the option table.)
/// ## Why this tier
/// Each connects and writes (VACUUM, REINDEX, CLUSTER, benchmark tables, replication slots); the sandbox oracle saw them reach for the server's socket (ORACLE.md §4 row 20).
pub static MAINTENANCE: Rule = Rule::t3("db.maintenance")
    .reason("runs database maintenance or replication that writes to the server (VACUUM, REINDEX, CLUSTER, benchmark tables, replication slots); ask the user")
    .matches(words!["vacuumdb mydb", "reindexdb -a", "pgbench -i mydb"])
    .not_matches(words!["vacuumdb --version", "psql -c 'select 1'"]);

/// True when a database client reads the statements it runs from its input: it is
/// given none with `-c`, `-e`, `--eval`, `--command` or `--execute` (`… | psql db`).
fn statements_on_input(inv: &Invocation) -> bool {
    !inv.has_any(words!["-c", "-e", "--eval", "--command", "--execute"])
}

/// Hits for a list of statement classes; `db.read` when all read.
pub(crate) fn hit_classes(cx: &mut Cx<'_>, classes: &[Class]) {
    let mut wrote = false;
    for c in classes {
        match c {
            Class::Read => {}
            Class::Write(kw) => {
                wrote = true;
                cx.hit_because(&WRITE, format!("runs `{kw}`, which changes the database (or is not known to be read-only); ask the user first"));
            }
            Class::Meta(cmd) => {
                wrote = true;
                cx.hit_because(&META, format!("runs the client command `{cmd}`, which reaches files or a shell; ask the user first"));
            }
            Class::DropDatabase => {
                wrote = true;
                cx.hit(&DROP_DATABASE);
            }
            Class::DropTable(what) => {
                wrote = true;
                cx.hit_because(&DROP_TABLE, format!("`{what}` deletes tables and their data, which cannot be undone; dump them first and ask the user"));
            }
        }
    }
    if !wrote {
        cx.hit(&READ);
    }
}

/// Classifies SQL another family found (Python `cursor.execute("…")`).
pub fn classify_sql(cx: &mut Cx<'_>, dialect: Dialect, text: &str) {
    let classes = sql::classify_text(dialect, text);
    hit_classes(cx, &classes);
}

crate::tables![; admin, kv, migrate, sql];
