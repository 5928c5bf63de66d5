//! SQL clients' argv: psql, mysql/mariadb, sqlite3/duckdb, clickhouse-client,
//! sqlcmd, cqlsh. Each finds its inline statements (`-c`, `-e`, positional SQL),
//! statement files (`-f`, `< file`), heredoc bodies and output files, then lets
//! `sql.rs` sort the statements.

use crate::call::args::{ArgSpec, Args, Token};
use crate::call::{value_arg, Arg, Invocation};
use crate::rules::vocab::input::{self, Source};
use crate::rules::vocab::writes;
use crate::rules::{Cx, Rule};
use crate::words;
use crate::words::Words;

use super::sql::{self, Class, Dialect};
use super::{hit_classes, INTERACTIVE, READ, SCRIPT_FILE, WRITE};

/// ## What it matches
/// `sqlite3 -readonly` / duckdb `-readonly` with only SQL statements.
/// ## Why this tier
/// The database refuses writes; client commands that start shells or write files are still checked.
pub(super) static READONLY_MODE: Rule = Rule::t0("db.readonly-mode")
    .reason("the database is opened read-only, so statements cannot write")
    .matches(words!["sqlite3 -readonly app.db 'DELETE FROM t'"])
    .not_matches(words!["sqlite3 -readonly app.db '.shell rm x'"]);

/// Inline statements, statement files and what else the argv said.
#[derive(Default)]
struct Parsed {
    statements: Vec<Arg>,
    files: Vec<Arg>,
    writes: Vec<Arg>,
    shells: Vec<String>,
    positionals: Vec<Arg>,
    readonly: bool,
    list: bool,
}

/// Walks argv under `spec` (every value option declared): `code` options hold
/// statements, `file` options statement files, `write` options output files.
fn walk(inv: &Invocation, spec: ArgSpec, code: Words, file: Words, write: Words) -> Parsed {
    let mut p = Parsed::default();
    let args = &inv.args;
    for t in Args::parse(args, spec) {
        match t {
            Token::Operand(o) => p.positionals.push(o.arg.clone()),
            Token::Opt { index, name, value: Some(v) } => {
                let v = value_arg(args, index, v);
                if code.contains(name) {
                    p.statements.push(v);
                } else if file.contains(name) {
                    p.files.push(v);
                } else if write.contains(name) {
                    p.writes.push(v);
                } else if name == "--pager" {
                    p.shells.push(v.text);
                }
            }
            _ => {
                let name = t.name().unwrap_or("");
                p.readonly |= matches!(name, "-readonly" | "--readonly");
                p.list |= matches!(name, "-l" | "--list");
            }
        }
    }
    p
}

/// Sorts a client's inline statements (each a psql/sqlite command or SQL text).
fn classes_of(cx: &mut Cx<'_>, inv: &Invocation, dialect: Dialect, statements: &[Arg]) -> Vec<Class> {
    let mut classes = Vec::new();
    for s in statements {
        if !s.exact {
            classes.push(Class::Write("a statement held in a variable".to_owned()));
            continue;
        }
        classes.extend(script_classes(cx, inv, dialect, &s.text, true));
    }
    classes
}

/// Sorts a script body: backslash/dot commands on their own lines, SQL in between.
/// With `whole`, a psql `-c` string is either all one backslash command or all SQL.
pub(super) fn script_classes(cx: &mut Cx<'_>, inv: &Invocation, dialect: Dialect, text: &str, whole: bool) -> Vec<Class> {
    let mut classes = Vec::new();
    let mut sql_text = String::new();
    // A `-c` string that starts with a backslash command but carries more text on
    // later lines (`\dt` newline `UPDATE …`): how psql splits it is not worth
    // guessing, so every line is judged on its own and the strictest counts.
    let trailing = text.trim_start().starts_with('\\') && text.split_once('\n').is_some_and(|(_, rest)| !rest.trim().is_empty());
    let lines: Vec<&str> = if whole && dialect == Dialect::Postgres && !trailing { vec![text] } else { text.split('\n').collect() };
    for line in lines {
        let t = line.trim_start();
        let meta = match dialect {
            Dialect::Postgres if t.starts_with('\\') => Some(sql::psql_meta(t)),
            Dialect::MySql if t.starts_with("\\!") || t.to_ascii_lowercase().starts_with("system ") => {
                Some((Class::Meta("system".to_owned()), Some(t.trim_start_matches("\\!").trim_start_matches(|c: char| c.is_alphabetic()).trim().to_owned())))
            }
            Dialect::MySql if t.starts_with('\\') || t.to_ascii_lowercase().starts_with("source ") => Some((Class::Meta("source".to_owned()), None)),
            Dialect::Sqlite if t.starts_with('.') => Some(sql::dot_command(t)),
            _ => None,
        };
        match meta {
            Some((class, shell)) => {
                classes.push(class);
                if let Some(sh) = shell {
                    cx.shell(&sh, inv.cwd.as_deref());
                }
            }
            None => {
                sql_text.push_str(line);
                sql_text.push('\n');
            }
        }
    }
    classes.extend(sql::classify_text(dialect, &sql_text));
    classes
}

/// Statements or files or stdin, in that order; the interactive default otherwise.
fn finish(cx: &mut Cx<'_>, inv: &Invocation, dialect: Dialect, p: &Parsed) {
    for w in &p.writes {
        writes::check_write(cx, w, inv.cwd.as_deref());
    }
    for sh in &p.shells {
        cx.shell(sh, inv.cwd.as_deref());
    }
    if matches!(input::of(inv), Source::File(_)) {
        cx.hit(&SCRIPT_FILE);
    }
    if p.files.iter().any(|f| f.text != "-") {
        cx.hit_because(&SCRIPT_FILE, format!("runs statements from `{}`, which tiergate does not check; review it and ask the user", p.files[0].text));
    }
    if !p.statements.is_empty() {
        let mut classes = classes_of(cx, inv, dialect, &p.statements);
        if p.readonly {
            let n = classes.len();
            classes.retain(|c| matches!(c, Class::Read | Class::Meta(_)));
            if classes.len() < n {
                cx.hit(&READONLY_MODE);
                if classes.iter().all(|c| *c == Class::Read) {
                    return;
                }
            }
        }
        hit_classes(cx, &classes);
        return;
    }
    if !p.files.is_empty() && p.files.iter().any(|f| f.text != "-") {
        return;
    }
    if p.list {
        cx.hit(&READ);
        return;
    }
    match input::of(inv) {
        Source::Shown { text, .. } => {
            let classes = script_classes(cx, inv, dialect, text, false);
            hit_classes(cx, &classes);
        }
        Source::File(_) => {}
        // `… | psql`: the `flow` family judges the pipeline.
        Source::Pipe => {}
        Source::None => cx.hit(&INTERACTIVE),
    }
}

pub(super) fn psql(inv: &Invocation, cx: &mut Cx<'_>) {
    const PSQL: ArgSpec = ArgSpec::values(words![
        "-c", "--command", "-f", "--file", "-o", "--output", "-L", "--log-file", "-d", "--dbname", "-h", "--host", "-p", "--port", "-U", "--username", "-v",
        "--set", "--variable", "-P", "--pset", "-F", "--field-separator", "-R", "--record-separator", "-T", "--table-attr",
    ]);
    let p = walk(inv, PSQL, words!["-c", "--command"], words!["-f", "--file"], words!["-o", "--output", "-L", "--log-file"]);
    finish(cx, inv, Dialect::Postgres, &p);
}

pub(super) fn mysql(inv: &Invocation, cx: &mut Cx<'_>) {
    const MYSQL: ArgSpec = ArgSpec::values(words![
        "-e", "--execute", "--init-command", "--tee", "-h", "--host", "-u", "--user", "-P", "--port", "-S", "--socket", "-D", "--database", "--defaults-file",
        "--defaults-extra-file", "--login-path", "--pager", "--default-character-set", "--ssl-ca", "--ssl-cert", "--ssl-key", "--protocol",
        "--connect-timeout",
    ]);
    let p = walk(inv, MYSQL, words!["-e", "--execute", "--init-command"], words![], words!["--tee"]);
    finish(cx, inv, Dialect::MySql, &p);
}

pub(super) fn sqlite(inv: &Invocation, cx: &mut Cx<'_>) {
    let duck = inv.program == "duckdb";
    // sqlite3's options are single-dash words (`-cmd`, `-csv`, `-readonly`): none packs.
    // `-lookaside SIZE N` and `-pagecache SIZE N` take two values.
    const SQLITE: ArgSpec = ArgSpec {
        value2: words!["-lookaside", "--lookaside", "-pagecache", "--pagecache"],
        ..ArgSpec::values(words![
            "-cmd", "--cmd", "-c", "-s", "-init", "--init", "-f", "-separator", "--separator", "-newline", "--newline", "-nullvalue", "--nullvalue", "-vfs",
            "--vfs", "-mmap", "--mmap", "-heap", "-maxsize", "-escape",
        ])
        .single_dash_long()
    };
    let mut p = walk(inv, SQLITE, words!["-cmd", "--cmd", "-c", "-s"], words!["-init", "--init", "-f"], words![]);
    if inv.args.iter().any(|a| matches!(a.text.as_str(), "-A" | "--archive")) {
        cx.hit_because(&WRITE, "sqlite3 -A manages an archive inside the database (it can extract and write files); ask the user".to_owned());
        return;
    }
    // `sqlite3 FILE SQL…`: the first operand is the database, the rest are statements.
    let mut ops = std::mem::take(&mut p.positionals).into_iter();
    let _database = ops.next();
    p.statements.extend(ops);
    if duck && p.statements.is_empty() && p.files.is_empty() && input::of(inv) == Source::None && inv.args.iter().any(|a| a.text == "-no-stdin") {
        cx.hit(&READ);
        return;
    }
    finish(cx, inv, Dialect::Sqlite, &p);
}

pub(super) fn other_sql(inv: &Invocation, cx: &mut Cx<'_>) {
    let p = match inv.program.as_str() {
        "sqlcmd" => walk(
            inv,
            ArgSpec::values(words!["-Q", "-q", "-i", "-o", "-S", "-U", "-P", "-d", "-H", "-l", "-t", "-s", "-w", "-v", "-f"]),
            words!["-Q", "-q"],
            words!["-i"],
            words!["-o"],
        ),
        "cqlsh" => walk(
            inv,
            ArgSpec::values(words![
                "-e", "--execute", "-f", "--file", "-u", "--username", "-p", "--password", "-k", "--keyspace", "--cqlshrc", "--cqlversion",
                "--protocol-version", "--connect-timeout", "--request-timeout", "--encoding",
            ]),
            words!["-e", "--execute"],
            words!["-f", "--file"],
            words![],
        ),
        _ => walk(
            inv,
            ArgSpec::values(words![
                "-q", "--query", "--queries-file", "-h", "--host", "--port", "-u", "--user", "--password", "-d", "--database", "--format", "-f",
                "--config-file", "-C",
            ]),
            words!["-q", "--query"],
            words!["--queries-file"],
            words![],
        ),
    };
    // The operands (`clickhouse client …`'s mode among them) are never statements here:
    // `finish` reads only the `-q`/`-Q`/`-e` values, the statement files and stdin.
    finish(cx, inv, Dialect::Generic, &p);
}
