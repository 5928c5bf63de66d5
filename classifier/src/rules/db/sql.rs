//! SQL text: a statement splitter that respects quotes (`'…'`, `"…"`, `` `…` ``,
//! `$tag$…$tag$`) and comments (`--`, `#` for MySQL, `/* */`), and a classifier
//! that sorts each statement into read, write, drop-database or drop-table by its
//! leading keywords. psql backslash commands and sqlite dot-commands are sorted
//! here too.
//!
//! Keywords inside strings and comments never count (`select 'drop table x'` reads).

/// Which client's syntax the text follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Postgres,
    MySql,
    Sqlite,
    Generic,
}

/// What one statement does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Class {
    Read,
    /// Writes, or a statement not known to be read-only; carries its leading keyword.
    Write(String),
    /// A client command that runs files, shells or writes files (`\i`, `.shell`); carries it.
    Meta(String),
    DropDatabase,
    DropTable(String),
}

/// One statement's words outside strings and comments, upper-cased.
pub(crate) struct Stmt {
    pub words: Vec<String>,
}

/// Splits SQL text into statements (empty ones dropped).
pub(crate) fn split(dialect: Dialect, src: &str) -> Vec<Stmt> {
    let c: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut i = 0;
    let mut flush = |words: &mut Vec<String>| {
        if !words.is_empty() {
            out.push(Stmt { words: std::mem::take(words) });
        }
    };
    while i < c.len() {
        let ch = c[i];
        let next = c.get(i + 1).copied();
        if ch == '-' && next == Some('-') || ch == '#' && dialect == Dialect::MySql {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if ch == '/' && next == Some('*') {
            i += 2;
            while i < c.len() && !(c[i] == '*' && c.get(i + 1) == Some(&'/')) {
                i += 1;
            }
            i += 2;
            continue;
        }
        if ch == '\'' || ch == '"' || ch == '`' {
            // Doubled quotes escape; MySQL also honours backslashes in strings.
            i += 1;
            while i < c.len() {
                if c[i] == '\\' && dialect == Dialect::MySql && ch != '`' {
                    i += 1;
                } else if c[i] == ch {
                    if c.get(i + 1) == Some(&ch) {
                        i += 1;
                    } else {
                        break;
                    }
                }
                i += 1;
            }
            i += 1;
            if ch == '"' || ch == '`' {
                words.push("\"ID\"".to_owned());
            }
            continue;
        }
        if ch == '$' && dialect != Dialect::MySql {
            // `$tag$ … $tag$` dollar quoting.
            let mut j = i + 1;
            while j < c.len() && (c[j].is_alphanumeric() || c[j] == '_') {
                j += 1;
            }
            if c.get(j) == Some(&'$') {
                let tag = &c[i..=j];
                let end = (j + 1..c.len()).find(|&k| c[k..].starts_with(tag)).unwrap_or(c.len());
                i = end + tag.len();
                continue;
            }
        }
        if ch == ';' {
            flush(&mut words);
            i += 1;
            continue;
        }
        if ch.is_alphabetic() || ch == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_' || c[i] == '$') {
                i += 1;
            }
            let w: String = c[start..i].iter().collect();
            let upper = w.to_ascii_uppercase();
            if dialect == Dialect::Generic && starts_unseparated(&words, &upper) {
                flush(&mut words);
            }
            words.push(upper);
            continue;
        }
        if ch == '=' || ch == '(' {
            words.push(ch.to_string());
        }
        i += 1;
    }
    flush(&mut words);
    out
}

crate::table! {
    /// Statements T-SQL (sqlcmd) runs without a `;` between them, beside `WRITE_WORDS`:
    /// `DISABLE|ENABLE TRIGGER`, `RECONFIGURE`, `WRITETEXT`/`UPDATETEXT` and Service
    /// Broker's `SEND`/`RECEIVE` change state as surely as an `EXEC` does.
    TSQL_STARTS = [
        "EXEC", "EXECUTE", "DBCC", "BACKUP", "RESTORE", "SHUTDOWN", "KILL", "DENY", "DISABLE", "ENABLE", "RECONFIGURE", "WRITETEXT", "UPDATETEXT", "SEND",
        "RECEIVE",
    ];
    probe "sqlcmd -Q 'SELECT 1 {} x'" => T3, "db.write";
}

/// In the generic dialect (sqlcmd's T-SQL, Cassandra's `BEGIN BATCH … APPLY BATCH`,
/// a driver's unknown SQL) a statement needs no `;` before the next one:
/// `SELECT 1 DROP TABLE t` is two. A statement that starts with a read keyword
/// therefore ends where a write keyword starts the next (`SHOW CREATE TABLE` aside,
/// which only prints a definition).
fn starts_unseparated(words: &[String], next: &str) -> bool {
    words.first().is_some_and(|f| f != "SHOW" && READ_FIRST.contains(f.as_str())) && (WRITE_WORDS.contains(next) || TSQL_STARTS.contains(next))
}

crate::table! {
    /// First words that read; `PRAGMA`, `COPY`, `EXECUTE` and `PREPARE` have their own arms in `classify`.
    READ_FIRST = [
        "SELECT", "SHOW", "DESCRIBE", "DESC", "USE", "VALUES", "TABLE", "BEGIN", "START", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE", "LISTEN",
        "UNLISTEN", "FETCH", "CLOSE", "DECLARE", "DEALLOCATE", "RESET", "DISCARD", "HELP", "WITH", "EXPLAIN", "SET", "ABORT", "CHECK", "CHECKSUM",
    ];
    probe "psql -c '{} x'" => T0, "db.read";
    except ["CHECK"]: "`CHECK x` is not a statement of its own; it reads as a table constraint, and the write scan answers first";
    except ["CHECKSUM"]: "`CHECKSUM TABLE x` needs its TABLE word; alone it reads as a write";
}
crate::table! {
    /// Statements a `WITH` may lead into, or that start an unseparated T-SQL statement.
    /// (`MERGE` always carries `INTO` or an `INSERT`/`UPDATE`/`DELETE` action; `REPLACE`
    /// is also a string function, and `REPLACE INTO` carries `INTO`.)
    WRITE_WORDS = ["INSERT", "UPDATE", "DELETE", "DROP", "TRUNCATE", "ALTER", "CREATE", "GRANT", "REVOKE"];
    probe "psql -c 'WITH a AS (SELECT 1) {} x'" => T3, "db.write";
}
crate::table! {
    /// Functions with side effects even inside a SELECT. (`xp_cmdshell` is only ever
    /// called through `EXEC`, a T-SQL statement start; `set_config` is a session `SET`.)
    EFFECT_FUNCS = [
        "PG_TERMINATE_BACKEND", "PG_CANCEL_BACKEND", "PG_RELOAD_CONF", "PG_ROTATE_LOGFILE", "LO_IMPORT", "LO_EXPORT", "LO_UNLINK", "DBLINK_EXEC", "LOAD_EXTENSION",
        "WRITEFILE", "EDIT", "SYS_EXEC", "NEXTVAL", "SETVAL", "PG_CREATE_RESTORE_POINT", "PG_SWITCH_WAL", "PG_PROMOTE", "PG_ADVISORY_LOCK",
        "PG_DROP_REPLICATION_SLOT", "PG_CREATE_LOGICAL_REPLICATION_SLOT",
    ];
    probe "psql -c 'SELECT {}()'" => T3, "db.write";
}
crate::table! {
    /// Pragmas whose `(argument)` names what to read, not a value to set. Pragmas that
    /// take no argument (`database_list`, `compile_options` …) read without one: only
    /// `(` or `=` makes a pragma a write.
    READ_PRAGMAS = [
        "TABLE_INFO", "TABLE_XINFO", "INDEX_LIST", "INDEX_INFO", "INDEX_XINFO", "FOREIGN_KEY_LIST", "INTEGRITY_CHECK", "QUICK_CHECK", "FOREIGN_KEY_CHECK",
        "TABLE_LIST",
    ];
    probe "sqlite3 x.db 'PRAGMA {}(t)'" => T0, "db.read";
}

/// Classifies one statement by its words.
pub(crate) fn classify(dialect: Dialect, words: &[String]) -> Class {
    let Some(first) = words.first() else { return Class::Read };
    let has = |w: &str| words.iter().any(|x| x == w);
    let effect_fn = words.iter().any(|w| EFFECT_FUNCS.contains(w.as_str()));
    match first.as_str() {
        "DROP" => {
            let mut k = 1;
            while words.get(k).is_some_and(|w| matches!(w.as_str(), "TEMPORARY" | "TEMP")) {
                k += 1;
            }
            match words.get(k).map(String::as_str) {
                Some("DATABASE") | Some("KEYSPACE") => Class::DropDatabase,
                Some("SCHEMA") if dialect == Dialect::MySql => Class::DropDatabase,
                Some("SCHEMA") if has("CASCADE") => Class::DropTable("DROP SCHEMA … CASCADE".to_owned()),
                Some("TABLE") => Class::DropTable("DROP TABLE".to_owned()),
                _ => Class::Write("DROP".to_owned()),
            }
        }
        "SELECT" | "VALUES" | "TABLE" if has("INTO") || effect_fn => Class::Write("SELECT … INTO / side-effect function".to_owned()),
        "WITH" if WRITE_WORDS.iter().any(&has) || has("INTO") || effect_fn => Class::Write("WITH … (data-modifying)".to_owned()),
        "EXPLAIN" if has("ANALYZE") || has("ANALYSE") => {
            let inner: Vec<String> = words
                .iter()
                .skip(1)
                .skip_while(|w| {
                    matches!(
                        w.as_str(),
                        "ANALYZE"
                            | "ANALYSE"
                            | "VERBOSE"
                            | "("
                            | "FORMAT"
                            | "JSON"
                            | "TEXT"
                            | "COSTS"
                            | "BUFFERS"
                            | "TIMING"
                            | "SUMMARY"
                            | "SETTINGS"
                            | "WAL"
                            | "TRUE"
                            | "FALSE"
                            | "ON"
                            | "OFF"
                    )
                })
                .cloned()
                .collect();
            match classify(dialect, &inner) {
                Class::Read => Class::Read,
                _ => Class::Write("EXPLAIN ANALYZE (runs the statement)".to_owned()),
            }
        }
        "PRAGMA" => {
            let name = words.get(1).map(String::as_str).unwrap_or("");
            let sets = has("=") || (has("(") && !READ_PRAGMAS.contains(name));
            if sets {
                Class::Write("PRAGMA … =".to_owned())
            } else {
                Class::Read
            }
        }
        "SET"
            if has("GLOBAL")
                || has("PERSIST")
                || has("PERSIST_ONLY")
                || words.get(1).is_some_and(|w| w == "PASSWORD" || w == "ROLE" && dialect == Dialect::MySql) =>
        {
            Class::Write("SET GLOBAL".to_owned())
        }
        "COPY" => {
            if has("TO") && has("STDOUT") && !has("PROGRAM") {
                Class::Read
            } else {
                Class::Write("COPY".to_owned())
            }
        }
        "EXECUTE" | "PREPARE" => Class::Write(first.clone()),
        "CHECK" | "CHECKSUM" if dialect != Dialect::MySql => Class::Write(first.clone()),
        w if READ_FIRST.contains(w) => {
            if effect_fn {
                Class::Write("side-effect function".to_owned())
            } else {
                Class::Read
            }
        }
        w => Class::Write(w.to_owned()),
    }
}

/// Classifies SQL text statement by statement.
pub(crate) fn classify_text(dialect: Dialect, src: &str) -> Vec<Class> {
    split(dialect, src).iter().map(|s| classify(dialect, &s.words)).collect()
}

crate::table! {
    PSQL_READ = [
        "l", "l+", "list", "list+", "z", "sf", "sf+", "sv", "sv+", "conninfo", "?", "h", "help", "encoding", "timing", "x", "pset", "echo", "qecho", "warn", "q",
        "quit", "c", "connect", "a", "t", "H", "f", "C", "T", "set", "unset", "errverbose", "copyright", "p", "print", "r", "reset", "s", "if", "elif", "else",
        "endif", "gdesc", "crosstabview", "watch", "prompt", "bind",
    ];
    probe r#"psql -c '\{}'"# => T0, "db.read";
}

/// A psql backslash command line (`\dt public.*`, `\! ls`). Returns the class and,
/// for `\!`, the shell text it runs.
pub(crate) fn psql_meta(line: &str) -> (Class, Option<String>) {
    let body = line.trim_start().trim_start_matches('\\');
    let name_len = body
        .char_indices()
        .find(|(k, ch)| !(ch.is_ascii_alphanumeric() || *ch == '+' || *ch == '_' || (*k == 0 && matches!(ch, '?' | '!' | ';'))))
        .map_or(body.len(), |(k, _)| k);
    let name_len = if body.starts_with(['!', '?', ';']) { 1 } else { name_len };
    let (name, rest) = body.split_at(name_len);
    let label = format!("\\{name}");
    // Anything but a plain space or tab after the name (vertical tab, form feed,
    // U+2028 …) could make psql and this reader disagree on where the command ends.
    if rest.chars().next().is_some_and(|c| !matches!(c, ' ' | '\t' | '\n' | '\\'))
        || rest.chars().any(|c| (c.is_whitespace() && !matches!(c, ' ' | '\t' | '\n')) || c.is_control() && c != '\t' && c != '\n')
    {
        return (Class::Meta(format!("{label} with unusual whitespace")), None);
    }
    if name == "!" {
        return (Class::Meta(label), Some(rest.trim().to_owned()));
    }
    let read = name.starts_with('d') || PSQL_READ.contains(name);
    if !read {
        return (Class::Meta(label), None);
    }
    // `\dt \\ DROP TABLE x`: further commands after `\\` or another backslash.
    if let Some(p) = rest.find('\\') {
        let more = rest[p..].trim_start_matches('\\');
        if more.trim().is_empty() {
            return (Class::Read, None);
        }
        return if more.starts_with(|c: char| c.is_ascii_alphabetic() || c == '!' || c == '?') && rest[p..].starts_with('\\') && !rest[p..].starts_with("\\\\") {
            psql_meta(&rest[p..])
        } else {
            let classes = classify_text(Dialect::Postgres, more);
            (classes.into_iter().find(|c| *c != Class::Read).unwrap_or(Class::Read), None)
        };
    }
    (Class::Read, None)
}

crate::table! {
    SQLITE_READ = [
        "schema", "tables", "table", "databases", "indexes", "indices", "index", "dbinfo", "show", "fullschema", "dump", "help", "mode", "headers", "header",
        "width", "timer", "echo", "nullvalue", "separator", "print", "stats", "eqp", "explain", "changes", "bail", "prompt", "quit", "exit", "version", "vfsinfo",
        "vfslist", "vfsname", "sha3sum", "lint", "binary", "limit", "dbconfig", "expert", "scanstats",
    ];
    probe "sqlite3 app.db '.{}'" => T0, "db.read";
}

/// A sqlite/duckdb dot-command (`.tables`, `.shell ls`); for `.shell`/`.system`, the shell text.
pub(crate) fn dot_command(line: &str) -> (Class, Option<String>) {
    let body = line.trim_start().trim_start_matches('.');
    let (name, rest) = body.split_once(char::is_whitespace).unwrap_or((body, ""));
    if matches!(name, "shell" | "system") {
        return (Class::Meta(format!(".{name}")), Some(rest.trim().to_owned()));
    }
    if SQLITE_READ.contains(name) {
        (Class::Read, None)
    } else {
        (Class::Meta(format!(".{name}")), None)
    }
}

crate::tables![TSQL_STARTS, READ_FIRST, WRITE_WORDS, EFFECT_FUNCS, READ_PRAGMAS, PSQL_READ, SQLITE_READ];

#[cfg(test)]
mod tests {
    use super::*;

    fn one(sql: &str) -> Class {
        classify_text(Dialect::Postgres, sql).into_iter().find(|c| *c != Class::Read).unwrap_or(Class::Read)
    }

    #[test]
    fn keywords_in_strings_and_comments_do_not_count() {
        assert_eq!(one("select 'drop table x'"), Class::Read);
        assert_eq!(one("-- DROP TABLE users\nSELECT 1"), Class::Read);
        assert_eq!(one("/* drop database x */ select 1"), Class::Read);
        assert_eq!(one("select $$ ; drop table x $$"), Class::Read);
        assert_eq!(one("select 1; drop table x"), Class::DropTable("DROP TABLE".to_owned()));
    }

    #[test]
    fn statements_are_sorted() {
        assert_eq!(one("WITH x AS (SELECT 1) SELECT * FROM x"), Class::Read);
        assert!(matches!(one("WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d"), Class::Write(_)));
        assert!(matches!(one("SELECT * INTO backup FROM t"), Class::Write(_)));
        assert!(matches!(one("EXPLAIN ANALYZE DELETE FROM t"), Class::Write(_)));
        assert_eq!(one("EXPLAIN ANALYZE SELECT 1"), Class::Read);
        assert_eq!(one("DROP DATABASE prod"), Class::DropDatabase);
        assert!(matches!(one("TRUNCATE logs"), Class::Write(_)));
        assert_eq!(classify_text(Dialect::Sqlite, "PRAGMA table_info(users)"), vec![Class::Read]);
        assert!(matches!(classify_text(Dialect::Sqlite, "PRAGMA journal_mode = WAL")[0], Class::Write(_)));
    }

    #[test]
    fn psql_meta_commands() {
        assert_eq!(psql_meta("\\dt public.*").0, Class::Read);
        assert_eq!(psql_meta("\\d+ mytable").0, Class::Read);
        assert!(matches!(psql_meta("\\i x.sql").0, Class::Meta(_)));
        assert!(matches!(psql_meta("\\dt\u{b}UPDATE t SET x=1").0, Class::Meta(_)));
        assert_eq!(psql_meta("\\! rm -rf /tmp/x").1.as_deref(), Some("rm -rf /tmp/x"));
    }
}
