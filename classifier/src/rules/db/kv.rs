//! Non-SQL clients: redis-cli/valkey-cli command words, mongo/mongosh JavaScript
//! (`--eval`, heredocs), and influx subcommands and queries.

use crate::call::args::{ArgSpec, Args, Token};
use crate::call::{value_arg, Arg, Invocation};
use crate::lanes::lexer::{tokenize, Tok};
use crate::lanes::scripts::Lang;
use crate::rules::vocab::input::{self, Source};
use crate::rules::vocab::writes;
use crate::rules::Cx;
use crate::words;

use super::sql::{self, Class, Dialect};
use super::{hit_classes, FLUSH, INTERACTIVE, READ, SCRIPT_FILE, WRITE};

crate::table! {
    /// One-word reads. (`XINFO` is always read with its subcommand, below.)
    REDIS_READ = [
        "GET", "MGET", "KEYS", "SCAN", "SSCAN", "HSCAN", "ZSCAN", "INFO", "TTL", "PTTL", "TYPE", "EXISTS", "HGET", "HGETALL", "HMGET", "HKEYS", "HVALS", "HLEN",
        "HEXISTS", "HSTRLEN", "HRANDFIELD", "LRANGE", "LLEN", "LINDEX", "LPOS", "SMEMBERS", "SISMEMBER", "SMISMEMBER", "SCARD", "SRANDMEMBER", "SINTER", "SUNION",
        "SDIFF", "ZRANGE", "ZRANGEBYSCORE", "ZRANGEBYLEX", "ZREVRANGE", "ZREVRANGEBYSCORE", "ZSCORE", "ZMSCORE", "ZCARD", "ZCOUNT", "ZLEXCOUNT", "ZRANK",
        "ZREVRANK", "STRLEN", "GETRANGE", "SUBSTR", "DBSIZE", "PING", "ECHO", "TIME", "LASTSAVE", "XRANGE", "XREVRANGE", "XLEN", "XREAD", "XPENDING", "PUBSUB",
        "COMMAND", "ROLE", "MONITOR", "SUBSCRIBE", "PSUBSCRIBE", "SSUBSCRIBE", "BITCOUNT", "BITPOS", "GETBIT", "PFCOUNT", "GEOPOS", "GEODIST", "GEOHASH",
        "GEOSEARCH", "RANDOMKEY", "LOLWUT", "AUTH", "SELECT", "HELLO", "DUMP", "OBJECT", "WAIT", "READONLY", "JSON.GET", "JSON.MGET", "JSON.TYPE", "JSON.STRLEN",
        "JSON.OBJKEYS", "FT.SEARCH", "FT.INFO", "FT._LIST", "TS.GET", "TS.RANGE", "TS.INFO", "SORT_RO", "EVAL_RO", "EVALSHA_RO", "FCALL_RO", "LCS", "TOUCH",
    ];
    probe "redis-cli {}" => T0, "db.read";
}
/// Two-word commands that read (`CONFIG GET`, `CLIENT LIST`).
const REDIS_READ_SUB: &[(&str, &[&str])] = &[
    ("CONFIG", &["GET", "HELP"]),
    ("CLIENT", &["LIST", "INFO", "GETNAME", "ID", "HELP", "TRACKINGINFO", "GETREDIR"]),
    (
        "CLUSTER",
        &[
            "INFO", "NODES", "SLOTS", "SHARDS", "MYID", "MYSHARDID", "KEYSLOT", "COUNTKEYSINSLOT", "GETKEYSINSLOT", "LINKS", "HELP", "REPLICAS", "SLAVES",
            "COUNT-FAILURE-REPORTS",
        ],
    ),
    ("MEMORY", &["USAGE", "STATS", "DOCTOR", "MALLOC-STATS", "HELP"]),
    ("SLOWLOG", &["GET", "LEN", "HELP"]),
    ("SCRIPT", &["EXISTS", "HELP"]),
    ("FUNCTION", &["LIST", "DUMP", "STATS", "HELP"]),
    ("ACL", &["LIST", "WHOAMI", "CAT", "USERS", "GETUSER", "LOG", "HELP", "DRYRUN"]),
    ("MODULE", &["LIST", "HELP"]),
    ("LATENCY", &["LATEST", "HISTORY", "DOCTOR", "GRAPH", "HISTOGRAM", "HELP"]),
    ("COMMAND", &["COUNT", "DOCS", "INFO", "LIST", "GETKEYS", "HELP"]),
    ("XINFO", &["STREAM", "GROUPS", "CONSUMERS", "HELP"]),
];

/// One redis command line (its words) as a statement class.
pub(super) fn redis_class(words: &[String]) -> Option<Class> {
    let cmd = words.first()?.to_ascii_uppercase();
    let sub = words.get(1).map(|w| w.to_ascii_uppercase()).unwrap_or_default();
    if cmd == "FLUSHALL" || cmd == "FLUSHDB" {
        return Some(Class::DropDatabase);
    }
    if REDIS_READ.contains(cmd.as_str()) || REDIS_READ_SUB.iter().any(|(c, subs)| *c == cmd && subs.contains(&sub.as_str())) {
        return Some(Class::Read);
    }
    let label = if REDIS_READ_SUB.iter().any(|(c, _)| *c == cmd) { format!("{cmd} {sub}") } else { cmd };
    Some(Class::Write(label))
}

/// redis-cli's options that take a value (`--cluster SUBCOMMAND` among them); the
/// command starts at the first operand and runs to the end.
const REDIS_ARGS: ArgSpec = ArgSpec::values(words![
    "-h", "-p", "-s", "-a", "-u", "-n", "-r", "-i", "-d", "-D", "-t", "--user", "--pass", "--sni", "--cacert", "--cacertdir", "--cert", "--key",
    "--tls-ciphers", "--tls-ciphersuites", "--pattern", "--count", "--quoted-pattern", "--memkeys-samples", "--functions-rdb", "--cluster-yes", "--lru-test",
    "--intrinsic-latency", "--eval", "--rdb", "--cluster",
])
.posix();

pub(super) fn redis(inv: &Invocation, cx: &mut Cx<'_>) {
    let args = &inv.args;
    let mut command: &[Arg] = &[];
    let mut probe = false;
    for t in Args::parse(args, REDIS_ARGS) {
        let value = match t {
            Token::Operand(o) => {
                command = &args[o.index..];
                break;
            }
            Token::DashDash(d) => {
                command = &args[d + 1..];
                break;
            }
            Token::Opt { index, value: Some(v), .. } => Some(value_arg(args, index, v)),
            _ => None,
        };
        match t.name().unwrap_or("") {
            "--eval" => {
                cx.hit_because(&SCRIPT_FILE, "runs a Lua script file on the server; review it and ask the user".to_owned());
                return;
            }
            "--pipe" => {
                cx.hit_because(&WRITE, "--pipe mass-inserts commands from stdin; ask the user first".to_owned());
                return;
            }
            "--rdb" | "--functions-rdb" => {
                if let Some(f) = value {
                    writes::check_write(cx, &f, inv.cwd.as_deref());
                }
                probe = true;
            }
            "--cluster" => {
                let sub = value.map(|a| a.text.to_ascii_lowercase()).unwrap_or_default();
                if matches!(sub.as_str(), "check" | "info" | "help") {
                    cx.hit(&READ);
                } else {
                    cx.hit_because(&WRITE, format!("`--cluster {sub}` changes the cluster's layout; ask the user first"));
                }
                return;
            }
            "--scan" | "--bigkeys" | "--memkeys" | "--hotkeys" | "--keystats" | "--stat" | "--latency" | "--latency-history" | "--latency-dist"
            | "--replica" | "--slave" => probe = true,
            _ => {}
        }
    }
    let words: Vec<String> = command.iter().map(|a| a.text.clone()).collect();
    let words_exact = command.iter().all(|a| a.exact);
    if !words.is_empty() {
        if !words_exact {
            cx.hit_because(&WRITE, "the redis command holds a variable, so what runs is unseen; spell it out".to_owned());
            return;
        }
        let class = redis_class(&words).unwrap_or(Class::Read);
        if class == Class::DropDatabase {
            cx.hit(&FLUSH);
            return;
        }
        hit_classes(cx, &[class]);
        return;
    }
    if probe {
        cx.hit(&READ);
        return;
    }
    match input::of(inv) {
        Source::Shown { text: body, .. } => {
            let mut classes = Vec::new();
            for line in body.lines() {
                let words: Vec<String> = line.split_whitespace().map(|w| w.trim_matches(|c| c == '"' || c == '\'').to_owned()).collect();
                if let Some(c) = redis_class(&words) {
                    classes.push(c);
                }
            }
            if classes.contains(&Class::DropDatabase) {
                cx.hit(&FLUSH);
                return;
            }
            hit_classes(cx, &classes);
        }
        Source::File(_) => cx.hit(&SCRIPT_FILE),
        Source::Pipe => {}
        Source::None => cx.hit(&INTERACTIVE),
    }
}

crate::table! {
    MONGO_READ = [
        "find", "findOne", "count", "countDocuments", "estimatedDocumentCount", "aggregate", "distinct", "getCollectionNames", "getCollectionInfos",
        "listCollections", "stats", "dataSize", "storageSize", "totalSize", "totalIndexSize", "explain", "toArray", "forEach", "map", "limit", "sort", "skip",
        "project", "projection", "pretty", "hint", "batchSize", "maxTimeMS", "itcount", "size", "hasNext", "next", "getIndexes", "getIndexKeys", "getName",
        "getSiblingDB", "getCollection", "getDB", "getMongo", "version", "serverStatus", "hostInfo", "isMaster", "hello", "currentOp", "printjson", "print",
        "printjsononeline", "tojson", "getUsers", "getUser", "getRoles", "getRole", "listDatabases", "ping", "buildInfo", "serverBuildInfo", "dbStats", "status",
        "conf", "printReplicationInfo", "printSecondaryReplicationInfo", "printShardingStatus", "getReplicationInfo", "watch", "readPref", "collation", "comment",
        "allowDiskUse", "min", "max", "returnKey", "showRecordId", "isCapped", "latencyStats", "getShardDistribution", "log", "stringify", "parse", "ObjectId",
        "ISODate", "Date", "NumberLong", "NumberInt", "NumberDecimal", "UUID", "BinData", "Timestamp", "RegExp", "String", "Number", "keys", "values", "entries",
        "push", "join", "split", "toString", "valueOf", "filter", "reduce", "includes", "indexOf", "slice", "concat", "sleep", "quit", "exit", "function", "if",
        "for", "while", "switch", "catch", "floor", "round", "ceil", "abs", "isArray", "getTime", "toISOString", "use", "show", "then",
    ];
    probe "mongosh --eval 'db.c.{}()'" => T0, "db.read";
}

/// Classifies mongo shell JavaScript: `dropDatabase()` is the floor, known read
/// methods are free, anything else (or `$out`/`$merge`) writes.
pub(super) fn mongo_classes(code: &str) -> Vec<Class> {
    let Ok(toks) = tokenize(Lang::Js, code) else { return vec![Class::Write("unreadable mongo script".to_owned())] };
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        match t {
            Tok::Str { text, .. } if text == "$out" || text == "$merge" => out.push(Class::Write(format!("aggregate with {text}"))),
            Tok::Ident(w) if w == "$out" || w == "$merge" => out.push(Class::Write(format!("aggregate with {w}"))),
            Tok::Ident(name) if matches!(toks.get(i + 1), Some(Tok::Punct('('))) => {
                if name == "dropDatabase" {
                    out.push(Class::DropDatabase);
                } else if name == "drop"
                    && matches!(toks.get(i + 2), Some(Tok::Punct(')')))
                    && matches!(i.checked_sub(1).and_then(|j| toks.get(j)), Some(Tok::Punct('.')))
                {
                    // `db.users.drop()`: a collection and its documents, like DROP TABLE.
                    out.push(Class::DropTable("collection drop()".to_owned()));
                } else if !MONGO_READ.contains(name.as_str()) {
                    out.push(Class::Write(format!("{name}()")));
                }
            }
            _ => {}
        }
    }
    out
}

/// mongosh's options that take a value; `--shell` is read too. The first operand is
/// the connection, later ones (and `*.js`) are script files.
const MONGO_ARGS: ArgSpec = ArgSpec::values(words![
    "--eval", "-f", "--file", "--host", "--port", "-u", "--username", "-p", "--password", "--authenticationDatabase", "--authenticationMechanism",
    "--tlsCAFile", "--tlsCertificateKeyFile", "--apiVersion", "--json",
])
.with_flags(words!["--shell"]);

pub(super) fn mongo(inv: &Invocation, cx: &mut Cx<'_>) {
    let args = &inv.args;
    let mut code = Vec::new();
    let mut files = Vec::new();
    let mut operands = 0;
    let mut shell = false;
    for t in Args::parse(args, MONGO_ARGS) {
        match t {
            Token::Opt { index, name: "--eval", value: Some(v) } => code.push(value_arg(args, index, v)),
            Token::Opt { index, name: "-f" | "--file", value: Some(v) } => files.push(value_arg(args, index, v)),
            Token::Opt { name: "--shell", .. } => shell = true,
            Token::Operand(o) => {
                operands += 1;
                if operands > 1 || o.arg.text.ends_with(".js") {
                    files.push(o.arg.clone());
                }
            }
            _ => {}
        }
    }
    if shell {
        cx.hit(&INTERACTIVE);
    }
    if !files.is_empty() {
        cx.hit_because(&SCRIPT_FILE, format!("runs the mongo script `{}`, which tiergate does not check; review it and ask the user", files[0].text));
    }
    if !code.is_empty() {
        if code.iter().any(|c| !c.exact) {
            cx.hit_because(&WRITE, "the mongo code holds a variable, so what runs is unseen; spell it out".to_owned());
            return;
        }
        let joined: Vec<&str> = code.iter().map(|c| c.text.as_str()).collect();
        hit_classes(cx, &mongo_classes(&joined.join("\n")));
        return;
    }
    if !files.is_empty() {
        return;
    }
    match input::of(inv) {
        Source::Shown { text, .. } => hit_classes(cx, &mongo_classes(text)),
        Source::File(_) => cx.hit(&SCRIPT_FILE),
        Source::Pipe => {}
        Source::None => cx.hit(&INTERACTIVE),
    }
}

pub(super) fn influx(inv: &Invocation, cx: &mut Cx<'_>) {
    if let Some(q) = inv.option(words!["-execute", "--execute"]) {
        let classes = sql::classify_text(Dialect::Generic, q);
        hit_classes(cx, &classes);
        return;
    }
    let ops: Vec<&str> = inv.bare_words().collect();
    match (ops.first().copied(), ops.get(1).copied()) {
        (None, _) => cx.hit(&INTERACTIVE),
        (Some("query"), _) => {
            let flux = ops.get(1).copied().unwrap_or("");
            // Flux's `to()` writes query results back into a bucket.
            if flux.contains("to(") || inv.has_any(words!["-f", "--file"]) {
                cx.hit_because(&WRITE, "the Flux query writes results (to()) or comes from a file; ask the user first".to_owned());
            } else {
                cx.hit(&READ);
            }
        }
        (Some("ping" | "version" | "help" | "export" | "backup"), _) => cx.hit(&READ),
        (Some(_), Some("list" | "find" | "ls")) => cx.hit(&READ),
        (Some(group), sub) => cx.hit_because(&WRITE, format!("`influx {group} {}` changes the server; ask the user first", sub.unwrap_or(""))),
    }
}

crate::tables![REDIS_READ, MONGO_READ];
