//! Python sink tables: which resolved calls execute processes, delete, write,
//! rename, change permissions, touch the network, kill processes or run SQL, and
//! how their arguments name what they act on. `python.rs` resolves the calls;
//! this module only maps a resolved call to effects.

use crate::words;
use crate::words::Words;
use std::collections::HashMap;

use super::python::{Resolver, Tok};
use super::scripts::Effect;

/// One argument as the scanner summarises it.
#[derive(Clone, Debug, Default)]
pub(crate) struct ArgV {
    /// `name=` for keyword arguments.
    pub kw: Option<String>,
    /// A string literal (adjacent literals and `+` concatenations folded).
    pub lit: Option<String>,
    /// A list or tuple of string literals.
    pub list: Option<Vec<String>>,
    /// The resolved chain of a simple `name.attr` argument.
    pub chain: Option<String>,
    /// Every name in the argument (`os.O_WRONLY`, `True`).
    pub names: Vec<String>,
    pub starred: bool,
    /// The literal came from decoding (`b64decode("…")`): what runs was hidden on purpose.
    pub encoded: bool,
}

/// A resolved call: `chain` (`shutil.rmtree`, `pathlib.Path().unlink`), the
/// literal the receiver was built from (`Path("x")` → `x`), and its arguments.
pub(crate) struct Call<'a> {
    pub chain: &'a str,
    pub recv: Option<&'a str>,
    pub args: &'a [ArgV],
}

/// Database driver modules: a non-literal `execute(query)` with one imported is unseen SQL.
pub(crate) const SQL_LIBS: Words =
    words!["sqlite3", "psycopg2", "psycopg", "pymysql", "MySQLdb", "mysql", "asyncpg", "duckdb", "sqlalchemy", "cx_Oracle", "oracledb", "pyodbc", "aiosqlite"];

const SHELL_SINKS: Words = words![
    "os.system", "os.popen", "subprocess.getoutput", "subprocess.getstatusoutput", "commands.getoutput", "commands.getstatusoutput",
    "asyncio.create_subprocess_shell", "platform.popen",
];
const ARGV_SINKS: Words = words![
    "subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output", "subprocess.Popen", "pty.spawn", "os.posix_spawn",
    "os.posix_spawnp", "asyncio.create_subprocess_exec",
];
const DELETE_SINKS: Words = words!["os.remove", "os.unlink", "os.rmdir", "os.removedirs", "shutil.rmtree", "send2trash.send2trash"];
const WRITE_SINKS: Words = words!["os.mkdir", "os.makedirs", "os.mkfifo", "os.mknod", "os.utime", "os.truncate", "shutil.make_archive"];
const COPY_SINKS: Words = words![
    "shutil.copy", "shutil.copy2", "shutil.copyfile", "shutil.copytree", "shutil.copymode", "shutil.copystat", "os.symlink", "os.link",
    "shutil.unpack_archive",
];
const MOVE_SINKS: Words = words!["shutil.move", "os.rename", "os.replace", "os.renames"];
const CHMOD_SINKS: Words = words![
    "os.chmod", "os.lchmod", "os.fchmod", "os.chown", "os.lchown", "os.fchown", "shutil.chown", "os.setxattr", "os.removexattr", "os.chflags", "os.lchflags",
    "os.chroot",
];
const PROCESS_SINKS: Words = words!["os.kill", "os.killpg", "signal.pthread_kill"];
const NETWORK_CTORS: Words = words![
    "socket.socket", "socket.create_connection", "socket.create_server", "smtplib.SMTP", "smtplib.SMTP_SSL", "ftplib.FTP", "ftplib.FTP_TLS",
    "telnetlib.Telnet", "paramiko.SSHClient", "asyncio.open_connection", "asyncio.start_server", "socketserver.TCPServer", "xmlrpc.client.ServerProxy",
];
const DYNAMIC_SINKS: Words = words![
    "pickle.loads", "pickle.load", "marshal.loads", "marshal.load", "dill.loads", "dill.load", "cloudpickle.loads", "runpy.run_path", "runpy.run_module",
    "code.interact", "os.startfile", "builtins.breakpoint", "importlib.reload",
];
const HTTP_LIBS: Words = words!["requests", "httpx", "aiohttp", "urllib3"];
const WRITE_METHODS: Words = words!["post", "put", "patch", "delete", "post_json"];
const CLOUD_SDKS: Words =
    words!["boto3", "botocore", "google", "googleapiclient", "kubernetes", "azure", "python_terraform", "docker", "hvac", "openstack", "pulumi"];
const CLOUD_VERBS: Words = words![
    "delete", "create", "update", "apply", "patch", "insert", "destroy", "terminate", "put", "remove", "replace", "modify", "attach", "detach", "upload",
    "write", "publish", "invoke", "send", "start", "stop", "reboot", "restart", "kill", "scale", "run", "deploy", "purge", "drop",
];

/// True when a chain names a call the tables know (for `from m import *` and
/// for sinks referenced without a call).
pub(crate) fn is_sink(chain: &str) -> bool {
    let canon = canonical(chain);
    let chain: &str = &canon;
    SHELL_SINKS.contains(chain)
        || ARGV_SINKS.contains(chain)
        || DELETE_SINKS.contains(chain)
        || MOVE_SINKS.contains(chain)
        || CHMOD_SINKS.contains(chain)
        || is_exec_family(chain)
        || matches!(chain, "builtins.exec" | "builtins.eval")
}

/// `posix` (`nt` on Windows) is the C module `os` re-exports its calls from:
/// `posix.system` is `os.system`, so a chain through it is judged as `os`'s.
fn canonical(chain: &str) -> std::borrow::Cow<'_, str> {
    match chain.split_once('.') {
        Some(("posix" | "nt", rest)) => format!("os.{rest}").into(),
        _ => chain.into(),
    }
}

/// Modules whose attributes looked up by a computed name could be anything dangerous.
pub(crate) fn sensitive_module(chain: &str) -> bool {
    let root = chain.split('.').next().unwrap_or("");
    SENSITIVE_MODULES.contains(root) || root == "?"
}

/// The modules of `sensitive_module`. A module that imports one holds it as an
/// attribute (`shutil.os`, `os.path.os`, `subprocess.os` are `os`).
pub(crate) const SENSITIVE_MODULES: Words =
    words!["os", "posix", "nt", "subprocess", "shutil", "pty", "socket", "builtins", "pathlib", "importlib", "sys", "ctypes", "requests", "httpx"];

fn is_exec_family(chain: &str) -> bool {
    chain.strip_prefix("os.").is_some_and(|f| (f.starts_with("exec") || f.starts_with("spawn")) && f.len() <= 8)
}

/// Summarises one argument's tokens.
pub(crate) fn arg_value(toks: &[Tok], lits: &HashMap<String, ArgV>, resolver: Option<&dyn Resolver>) -> ArgV {
    let mut v = ArgV::default();
    let mut rest = toks;
    if let (Some(Tok::Name(n)), Some(Tok::Op(o))) = (toks.first(), toks.get(1)) {
        if o == "=" {
            v.kw = Some(n.clone());
            rest = &toks[2..];
        }
    }
    v.names = rest.iter().filter_map(|t| if let Tok::Name(n) = t { Some(n.clone()) } else { None }).collect();
    if matches!(rest.first(), Some(Tok::Op(o)) if o == "*" || o == "**") {
        v.starred = true;
        return v;
    }
    if let [Tok::Name(n)] = rest {
        if let Some(bound) = lits.get(n) {
            v.lit = bound.lit.clone();
            v.list = bound.list.clone();
        }
    }
    if v.lit.is_none() {
        v.lit = literal(rest);
        if v.lit.is_none() {
            v.lit = decoded_literal(rest);
            v.encoded = v.lit.is_some();
        }
    }
    if v.list.is_none() {
        v.list = literal_list(rest);
    }
    v.chain = resolver.and_then(|r| r.chain_of(rest));
    v
}

/// `"a" "b"` and `"a" + "b"` fold to one literal; anything else is not literal.
fn literal(toks: &[Tok]) -> Option<String> {
    let mut out = String::new();
    let mut want_str = true;
    for t in toks {
        match t {
            Tok::Str { text, holes } if holes.is_empty() => {
                out.push_str(text);
                want_str = false;
            }
            Tok::Op(o) if o == "+" && !want_str => want_str = true,
            _ => return None,
        }
    }
    (!toks.is_empty() && !want_str).then_some(out)
}

fn literal_list(toks: &[Tok]) -> Option<Vec<String>> {
    let (Some(Tok::Op(open)), Some(Tok::Op(close))) = (toks.first(), toks.last()) else { return None };
    if !((open == "[" && close == "]") || (open == "(" && close == ")")) || toks.len() < 2 {
        return None;
    }
    let mut out = Vec::new();
    for item in toks[1..toks.len() - 1].split(|t| matches!(t, Tok::Op(o) if o == ",")) {
        if item.is_empty() {
            continue;
        }
        out.push(literal(item)?);
    }
    Some(out)
}

fn positional(args: &[ArgV], n: usize) -> Option<&ArgV> {
    args.iter().filter(|a| a.kw.is_none()).nth(n)
}

fn keyword<'a>(args: &'a [ArgV], name: &str) -> Option<&'a ArgV> {
    args.iter().find(|a| a.kw.as_deref() == Some(name))
}

fn arg<'a>(args: &'a [ArgV], n: usize, name: &str) -> Option<&'a ArgV> {
    keyword(args, name).or_else(|| positional(args, n))
}

fn exec_effect(a: Option<&ArgV>) -> Effect {
    match a {
        Some(ArgV { list: Some(l), .. }) if !l.is_empty() => Effect::Argv(l.clone()),
        Some(ArgV { lit: Some(s), .. }) => Effect::Shell(s.clone()),
        _ => Effect::ExecUnseen,
    }
}

fn is_write_mode(mode: Option<&ArgV>) -> bool {
    match mode {
        None => false,
        Some(ArgV { lit: Some(m), .. }) => m.contains(['w', 'a', 'x', '+']),
        Some(_) => true,
    }
}

/// `os.execlp("rm", "rm", "-rf", "/")`, `os.execv("/bin/rm", ["rm", "x"])`,
/// `os.spawnlp(os.P_WAIT, "rm", "rm", "x")`: the argv, when every part is literal.
fn exec_family_argv(chain: &str, args: &[ArgV]) -> Effect {
    let f = chain.trim_start_matches("os.");
    let skip = usize::from(f.starts_with("spawn"));
    let rest: Vec<&ArgV> = args.iter().skip(skip).collect();
    let Some(program) = rest.first().and_then(|a| a.lit.clone()) else { return Effect::ExecUnseen };
    let tail: Vec<String> = if f.contains('v') {
        match rest.get(1).and_then(|a| a.list.clone()) {
            Some(l) => l.into_iter().skip(1).collect(),
            None => return Effect::ExecUnseen,
        }
    } else {
        let envless = if f.ends_with('e') { rest.len().saturating_sub(1) } else { rest.len() };
        let mut words = Vec::new();
        for a in rest.iter().take(envless).skip(2) {
            match &a.lit {
                Some(s) => words.push(s.clone()),
                None => return Effect::ExecUnseen,
            }
        }
        words
    };
    let mut argv = vec![program];
    argv.extend(tail);
    Effect::Argv(argv)
}

fn last(chain: &str) -> &str {
    chain.rsplit('.').next().unwrap_or(chain)
}

/// The effects of one resolved call (none for calls that only compute or print).
pub(crate) fn effects(call: &Call<'_>, sql_lib: bool) -> Vec<(Effect, String)> {
    let canon = canonical(call.chain);
    let chain: &str = &canon;
    let args = call.args;
    let sink = chain.trim_start_matches("builtins.").replace("()", "");
    let lit0 = || positional(args, 0).and_then(|a| a.lit.clone());
    let encoded = args.iter().any(|a| a.encoded);
    let one = |e: Effect| {
        // A decoded command is classified, and hiding it is itself reason to ask.
        let mut v = vec![(e, sink.clone())];
        if encoded && matches!(v[0].0, Effect::Shell(_) | Effect::Argv(_)) {
            v.push((Effect::Dynamic, format!("{sink} of a decoded string")));
        }
        v
    };
    if SHELL_SINKS.contains(chain) {
        return one(exec_effect(arg(args, 0, "cmd")));
    }
    if ARGV_SINKS.contains(chain) {
        if chain == "asyncio.create_subprocess_exec" {
            let words: Option<Vec<String>> = args.iter().filter(|a| a.kw.is_none()).map(|a| a.lit.clone()).collect();
            return one(words.filter(|w| !w.is_empty()).map_or(Effect::ExecUnseen, Effect::Argv));
        }
        let spawn = chain.starts_with("os.posix_spawn");
        let target = if spawn { positional(args, 1) } else { arg(args, 0, "args") };
        // The program that runs is posix_spawn's path or subprocess's `executable=`
        // when given; argv[0] is then only the name it sees (`os.posix_spawn("/bin/rm",
        // ["ls", "-rf", "/home"], {})` runs rm).
        let program = if spawn { Some(positional(args, 0)) } else { keyword(args, "executable").map(Some) };
        return one(match (program, exec_effect(target)) {
            (None, effect) => effect,
            (Some(Some(ArgV { lit: Some(path), .. })), Effect::Argv(mut argv)) => {
                argv[0] = path.clone();
                Effect::Argv(argv)
            }
            (Some(_), _) => Effect::ExecUnseen,
        });
    }
    if is_exec_family(chain) {
        return one(exec_family_argv(chain, args));
    }
    if DELETE_SINKS.contains(chain) {
        return one(Effect::Delete { target: arg(args, 0, "path").and_then(|a| a.lit.clone()), recursive: chain == "shutil.rmtree" });
    }
    if WRITE_SINKS.contains(chain) {
        return one(Effect::Write(lit0()));
    }
    if COPY_SINKS.contains(chain) {
        let dst = positional(args, 1).or_else(|| keyword(args, "dst")).and_then(|a| a.lit.clone());
        let dst = if chain == "shutil.unpack_archive" && positional(args, 1).is_none() { Some(".".to_owned()) } else { dst };
        return one(Effect::Write(dst));
    }
    if MOVE_SINKS.contains(chain) {
        return one(Effect::Move);
    }
    if CHMOD_SINKS.contains(chain) {
        return one(Effect::Chmod);
    }
    if PROCESS_SINKS.contains(chain) {
        return one(Effect::Process);
    }
    if DYNAMIC_SINKS.contains(chain) || chain.starts_with("ctypes.") || chain == "sys.modules[]" {
        return one(Effect::Dynamic);
    }
    match chain {
        "builtins.open" | "io.open" | "codecs.open" | "os.fdopen" => {
            return if is_write_mode(arg(args, 1, "mode")) { one(Effect::Write(arg(args, 0, "file").and_then(|a| a.lit.clone()))) } else { Vec::new() };
        }
        "os.open" => {
            let flags = positional(args, 1).map(|a| a.names.clone()).unwrap_or_default();
            let writes = flags.iter().any(|f| matches!(f.as_str(), "O_WRONLY" | "O_RDWR" | "O_CREAT" | "O_APPEND" | "O_TRUNC"));
            return if writes { one(Effect::Write(lit0())) } else { Vec::new() };
        }
        "urllib.request.urlopen" | "urllib.request.Request" => {
            let data = positional(args, 1).is_some() || keyword(args, "data").is_some();
            let method = keyword(args, "method").is_some_and(|m| !is_read_method(m.lit.as_deref()));
            return if data || method { one(Effect::Network) } else { Vec::new() };
        }
        _ => {}
    }
    let root = chain.split('.').next().unwrap_or("");
    let method = last(chain);
    if chain.starts_with("pathlib.") || chain.starts_with("Path") {
        let target = call.recv.map(str::to_owned);
        return match method {
            "unlink" | "rmdir" => one(Effect::Delete { target, recursive: false }),
            "write_text" | "write_bytes" | "touch" | "mkdir" | "symlink_to" | "hardlink_to" => one(Effect::Write(target)),
            "open" => {
                if is_write_mode(arg(args, 0, "mode")) {
                    one(Effect::Write(target))
                } else {
                    Vec::new()
                }
            }
            "rename" | "replace" => one(Effect::Move),
            "chmod" | "lchmod" => one(Effect::Chmod),
            _ => Vec::new(),
        };
    }
    if NETWORK_CTORS.iter().any(|c| chain == c || chain.starts_with(&format!("{c}()"))) {
        return one(Effect::Network);
    }
    if HTTP_LIBS.contains(root) {
        if WRITE_METHODS.contains(method) {
            return one(Effect::Network);
        }
        if method == "request" || method == "stream" {
            return if is_read_method(arg(args, 0, "method").and_then(|a| a.lit.as_deref())) { Vec::new() } else { one(Effect::Network) };
        }
        return Vec::new();
    }
    if chain.starts_with("http.client.") && method == "request" {
        return if is_read_method(positional(args, 0).and_then(|a| a.lit.as_deref())) { Vec::new() } else { one(Effect::Network) };
    }
    if CLOUD_SDKS.contains(root) && chain.contains('.') {
        let m = method.to_ascii_lowercase();
        if CLOUD_VERBS.iter().any(|v| m.starts_with(v) || m.contains(&format!("_{v}"))) {
            return one(Effect::Network);
        }
        return Vec::new();
    }
    match method {
        "execute" | "executescript" | "executemany" | "exec_driver_sql" if chain.contains('.') => match arg(args, 0, "sql").and_then(|a| a.lit.clone()) {
            Some(sql) => one(Effect::Sql(sql)),
            None if sql_lib => one(Effect::Dynamic),
            None => Vec::new(),
        },
        // Method names that only file systems use, whatever the receiver.
        "unlink" | "rmtree" if chain.contains('.') => one(Effect::Delete { target: call.recv.map(str::to_owned), recursive: method == "rmtree" }),
        "write_text" | "write_bytes" if chain.contains('.') => one(Effect::Write(call.recv.map(str::to_owned))),
        _ => Vec::new(),
    }
}

fn is_read_method(m: Option<&str>) -> bool {
    m.is_some_and(|m| matches!(m.to_ascii_uppercase().as_str(), "GET" | "HEAD" | "OPTIONS"))
}

/// `base64.b64decode("…")`, `bytes.fromhex("…")` (optionally `.decode()`): the
/// decoded text, so an encoded command is classified like a plain one.
fn decoded_literal(toks: &[Tok]) -> Option<String> {
    let k = toks.iter().position(|t| matches!(t, Tok::Name(n) if matches!(n.as_str(), "b64decode" | "decodebytes" | "standard_b64decode" | "urlsafe_b64decode" | "a2b_base64" | "fromhex" | "unhexlify")))?;
    let Tok::Name(func) = &toks[k] else { return None };
    let (Some(Tok::Op(open)), Some(Tok::Str { text, holes }), Some(Tok::Op(close))) = (toks.get(k + 1), toks.get(k + 2), toks.get(k + 3)) else { return None };
    if open != "(" || close != ")" || !holes.is_empty() {
        return None;
    }
    // Only a trailing `.decode(…)` may follow.
    let tail = &toks[k + 4..];
    if !(tail.is_empty() || matches!(tail, [Tok::Op(d), Tok::Name(n), Tok::Op(o), .., Tok::Op(c)] if d == "." && n == "decode" && o == "(" && c == ")")) {
        return None;
    }
    let bytes = if matches!(func.as_str(), "fromhex" | "unhexlify") { unhex(text)? } else { unbase64(text)? };
    String::from_utf8(bytes).ok()
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    let digits: Vec<u8> = s.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    digits.chunks(2).map(|p| std::str::from_utf8(p).ok().and_then(|h| u8::from_str_radix(h, 16).ok())).collect()
}

fn unbase64(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut acc = 0u32;
    let mut bits = 0;
    for b in s.bytes() {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' | b'\n' | b'\r' | b' ' => continue,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

/// Builtins whose calls the analysers resolve as `builtins.<name>`.
pub(super) const BUILTINS: Words =
    words!["open", "exec", "eval", "compile", "__import__", "getattr", "setattr", "globals", "locals", "vars", "breakpoint", "input", "print"];

/// Resolves a bare name that no import alias bound: `__builtins__`, a builtin,
/// or a sink brought in by `from m import *`; otherwise the name itself.
pub(super) fn resolve_unaliased(name: &str, stars: &[String]) -> String {
    if name == "__builtins__" {
        return "builtins".to_owned();
    }
    if BUILTINS.contains(name) {
        return format!("builtins.{name}");
    }
    for m in stars {
        let full = format!("{m}.{name}");
        if is_sink(&full) {
            return full;
        }
    }
    name.to_owned()
}

/// The resolved chain of an expression that names a value by a path
/// (`os.path`, `m("os")`, `getattr(g(__builtins__, "__import__")("os"), "system")`):
/// `resolve` maps the first name through the caller's aliases, a module lookup by
/// a literal name (`__import__`, `import_module`, under any alias) is that module,
/// a `getattr`/`__getattribute__` with a literal name is that attribute, any other
/// call is its callee's result (`f()`) and a subscript its base's (`x[]`). None for
/// anything else (operators, literals, lambdas).
pub(super) fn dotted_chain(toks: &[Tok], resolve: impl Fn(&str) -> String) -> Option<String> {
    value_chain(toks, &resolve, 0)
}

/// How deep `getattr(getattr(…))` arguments are followed.
const MAX_VALUE_DEPTH: usize = 8;

fn value_chain(toks: &[Tok], resolve: &dyn Fn(&str) -> String, depth: usize) -> Option<String> {
    let Some(Tok::Name(first)) = toks.first() else { return None };
    if depth > MAX_VALUE_DEPTH {
        return None;
    }
    let mut cur = resolve(first);
    let mut k = 1;
    while k < toks.len() {
        let Tok::Op(o) = &toks[k] else { return None };
        match o.as_str() {
            "." => {
                let Some(Tok::Name(n)) = toks.get(k + 1) else { return None };
                cur = format!("{cur}.{n}");
                k += 2;
            }
            "(" | "[" => {
                let close = closing(toks, k)?;
                cur = if o == "[" {
                    format!("{cur}[]")
                } else {
                    let args: Vec<&[Tok]> = toks[k + 1..close].split(|t| matches!(t, Tok::Op(c) if c == ",")).filter(|a| !a.is_empty()).collect();
                    let lit = |n: usize| args.get(n).and_then(|a| literal(a));
                    let chain_of = |n: usize| args.get(n).and_then(|a| value_chain(a, resolve, depth + 1));
                    match cur.as_str() {
                        "builtins.__import__" | "importlib.import_module" | "import_module" => lit(0).unwrap_or_else(|| "?".to_owned()),
                        "builtins.getattr" => looked_up(chain_of(0), lit(1)),
                        c if c.ends_with(".__getattribute__") && args.len() == 2 => looked_up(chain_of(0), lit(1)),
                        c if c.ends_with(".__getattribute__") => looked_up(c.strip_suffix(".__getattribute__").map(str::to_owned), lit(0)),
                        _ => format!("{cur}()"),
                    }
                };
                k = close + 1;
            }
            _ => return None,
        }
    }
    Some(cur)
}

/// `getattr(base, "attr")`: `base.attr`, `?` for what cannot be named.
fn looked_up(base: Option<String>, attr: Option<String>) -> String {
    match (base, attr) {
        (Some(b), Some(a)) => format!("{b}.{a}"),
        (None, Some(a)) => format!("?.{a}"),
        _ => "?".to_owned(),
    }
}

/// The index of the bracket closing the one at `open`, within `toks`.
pub(super) fn closing(toks: &[Tok], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (k, t) in toks.iter().enumerate().skip(open) {
        if let Tok::Op(o) = t {
            match o.as_str() {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return Some(k);
                    }
                }
                _ => {}
            }
        }
    }
    None
}

/// True when `name` is the attribute name of a call that runs a command or code
/// (the last part of a shell or argv sink, `os.exec*`/`os.spawn*`, `exec`, `eval`,
/// `compile`, `__import__`, `import_module`): looked up by name on something the
/// scan cannot resolve, it reaches a runner the scan cannot see.
pub(crate) fn is_runner_name(name: &str) -> bool {
    let last = |c: &str| c.rsplit('.').next() == Some(name);
    SHELL_SINKS.iter().any(last)
        || ARGV_SINKS.iter().any(last)
        || is_exec_family(&format!("os.{name}"))
        || matches!(name, "exec" | "eval" | "compile" | "__import__" | "import_module")
}
