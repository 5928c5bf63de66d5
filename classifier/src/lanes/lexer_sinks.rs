//! Effects of JavaScript, Ruby, Perl, PHP, Lua, R, Tcl and Groovy code, found by
//! scanning `lexer.rs` tokens for calls to known sinks: exec sinks keep their
//! string arguments (re-classified as shell by the caller), file-system and
//! network mutations, process control, and dynamic evaluation.
//!
//! Names that other libraries also use (`exec`, `rm`, `unlink`) count only with
//! their module in sight (`require("child_process")`, an `fs` receiver).

use super::lexer::{tokenize, Tok};
use super::scripts::{Analysis, Effect, Lang, MAX_CODE_DEPTH};

/// How a sink's arguments become an effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// First argument is shell text.
    Shell,
    /// Several literal arguments form an argv; one is shell text (Ruby `system`, Perl `system`).
    Args,
    /// Program, then an array of arguments (`spawn("rm", ["-rf", "x"])`).
    Spawn,
    Delete,
    DeleteTree,
    Write,
    /// The second argument is the written path (copies, links).
    WriteDst,
    /// `open(path, mode)`: a write only in a write mode.
    OpenMode,
    Move,
    Chmod,
    Network,
    /// A request whose method or body decides (`fetch`, `http.request`).
    Request,
    Process,
    Install,
    /// Perl `sysopen(FH, PATH, FLAGS)`: a write of PATH when FLAGS write.
    SysOpen,
    /// Evaluates code: a literal is analysed, anything else is unseen.
    Eval,
    Dynamic,
    /// Ruby's `open`, `IO.read`, `IO.write` …: a path starting with `|` is a
    /// command the call runs (`open("|reboot")`); any other path is a file.
    PipeOpen,
    /// Ruby's `method(:system)`: a runner looked up by name, its arguments unseen.
    Reflect,
}

/// `(receiver or "", name, kind)`; receiver `"*"` matches any receiver, `""` a bare call.
type Sink = (&'static str, &'static str, Kind);

// One row per capability: the tables read as a catalogue, so rustfmt leaves them be.
#[rustfmt::skip]
const JS: &[Sink] = &[
    ("", "execSync", Kind::Shell), ("", "execFileSync", Kind::Spawn), ("", "spawnSync", Kind::Spawn), ("cp", "exec", Kind::Shell), ("cp", "execSync", Kind::Shell), ("*", "execSync", Kind::Shell), ("cp", "spawn", Kind::Spawn), ("*", "spawnSync", Kind::Spawn), ("cp", "execFile", Kind::Spawn), ("*", "execFileSync", Kind::Spawn), ("cp", "fork", Kind::Spawn),
    ("", "execa", Kind::Spawn), ("", "execaSync", Kind::Spawn), ("", "execaCommand", Kind::Shell), ("Bun", "spawn", Kind::Spawn), ("Bun", "spawnSync", Kind::Spawn), ("Deno", "run", Kind::Dynamic), ("Deno", "Command", Kind::Spawn),
    ("fs", "rm", Kind::DeleteTree), ("*", "rmSync", Kind::DeleteTree), ("fs", "rmdir", Kind::Delete), ("*", "rmdirSync", Kind::Delete), ("fs", "unlink", Kind::Delete), ("*", "unlinkSync", Kind::Delete), ("fs", "remove", Kind::DeleteTree), ("*", "removeSync", Kind::DeleteTree), ("fs", "emptyDir", Kind::DeleteTree), ("*", "emptyDirSync", Kind::DeleteTree), ("Deno", "remove", Kind::DeleteTree), ("", "rimraf", Kind::DeleteTree), ("*", "rimrafSync", Kind::DeleteTree),
    ("fs", "writeFile", Kind::Write), ("*", "writeFileSync", Kind::Write), ("fs", "appendFile", Kind::Write), ("*", "appendFileSync", Kind::Write), ("fs", "createWriteStream", Kind::Write), ("fs", "outputFile", Kind::Write), ("*", "outputFileSync", Kind::Write), ("fs", "writeJson", Kind::Write), ("*", "writeJsonSync", Kind::Write), ("fs", "mkdir", Kind::Write), ("*", "mkdirSync", Kind::Write), ("fs", "truncate", Kind::Write), ("*", "truncateSync", Kind::Write), ("fs", "open", Kind::OpenMode), ("*", "openSync", Kind::OpenMode), ("Deno", "writeTextFile", Kind::Write), ("Deno", "writeFile", Kind::Write), ("Bun", "write", Kind::Write),
    ("fs", "copyFile", Kind::WriteDst), ("*", "copyFileSync", Kind::WriteDst), ("fs", "cp", Kind::WriteDst), ("*", "cpSync", Kind::WriteDst), ("fs", "copy", Kind::WriteDst), ("*", "copySync", Kind::WriteDst), ("fs", "symlink", Kind::WriteDst), ("*", "symlinkSync", Kind::WriteDst), ("fs", "link", Kind::WriteDst), ("*", "linkSync", Kind::WriteDst),
    ("fs", "rename", Kind::Move), ("*", "renameSync", Kind::Move), ("fs", "move", Kind::Move), ("*", "moveSync", Kind::Move), ("fs", "chmod", Kind::Chmod), ("*", "chmodSync", Kind::Chmod), ("fs", "chown", Kind::Chmod), ("*", "chownSync", Kind::Chmod), ("*", "lchownSync", Kind::Chmod),
    ("", "fetch", Kind::Request), ("http", "request", Kind::Request), ("https", "request", Kind::Request), ("axios", "post", Kind::Network), ("axios", "put", Kind::Network), ("axios", "patch", Kind::Network), ("axios", "delete", Kind::Network), ("", "axios", Kind::Request), ("axios", "request", Kind::Request),
    ("net", "connect", Kind::Network), ("net", "createConnection", Kind::Network), ("net", "createServer", Kind::Network), ("net", "Socket", Kind::Network), ("dgram", "createSocket", Kind::Network), ("", "WebSocket", Kind::Network), ("", "XMLHttpRequest", Kind::Network), ("", "connect", Kind::Network), ("*", "sendBeacon", Kind::Network), ("http", "createServer", Kind::Network),
    ("process", "kill", Kind::Process), ("process", "dlopen", Kind::Dynamic), ("", "eval", Kind::Eval), ("", "Function", Kind::Eval), ("vm", "runInThisContext", Kind::Eval), ("vm", "runInNewContext", Kind::Eval), ("vm", "runInContext", Kind::Eval), ("vm", "Script", Kind::Eval), ("", "setTimeout", Kind::Eval), ("", "setInterval", Kind::Eval),
];

#[rustfmt::skip]
const RUBY: &[Sink] = &[
    ("", "system", Kind::Args), ("", "exec", Kind::Args), ("", "spawn", Kind::Args), ("IO", "popen", Kind::Args), ("Open3", "popen3", Kind::Args), ("Open3", "popen2", Kind::Args), ("Open3", "popen2e", Kind::Args), ("Open3", "capture2", Kind::Args), ("Open3", "capture2e", Kind::Args), ("Open3", "capture3", Kind::Args), ("Open3", "pipeline", Kind::Args), ("", "sh", Kind::Args),
    ("File", "delete", Kind::Delete), ("File", "unlink", Kind::Delete), ("Dir", "delete", Kind::Delete), ("Dir", "rmdir", Kind::Delete), ("Dir", "unlink", Kind::Delete), ("FileUtils", "rm", Kind::Delete), ("FileUtils", "rm_f", Kind::Delete), ("FileUtils", "remove", Kind::Delete), ("FileUtils", "rmdir", Kind::Delete), ("FileUtils", "rm_r", Kind::DeleteTree), ("FileUtils", "rm_rf", Kind::DeleteTree), ("FileUtils", "rmtree", Kind::DeleteTree), ("FileUtils", "remove_dir", Kind::DeleteTree), ("FileUtils", "remove_entry", Kind::DeleteTree), ("FileUtils", "remove_entry_secure", Kind::DeleteTree), ("", "rm_rf", Kind::DeleteTree), ("", "rm_r", Kind::DeleteTree), ("*", "rmtree", Kind::DeleteTree),
    ("File", "write", Kind::Write), ("IO", "write", Kind::PipeOpen), ("IO", "binwrite", Kind::PipeOpen), ("IO", "read", Kind::PipeOpen), ("IO", "binread", Kind::PipeOpen), ("IO", "readlines", Kind::PipeOpen), ("IO", "foreach", Kind::PipeOpen), ("URI", "open", Kind::PipeOpen), ("File", "truncate", Kind::Write), ("IO", "sysopen", Kind::OpenMode), ("Fiddle", "dlopen", Kind::Dynamic), ("", "syscall", Kind::Dynamic), ("File", "binwrite", Kind::Write), ("FileUtils", "touch", Kind::Write), ("FileUtils", "mkdir", Kind::Write), ("FileUtils", "mkdir_p", Kind::Write), ("FileUtils", "makedirs", Kind::Write), ("File", "open", Kind::OpenMode), ("", "open", Kind::PipeOpen), ("File", "new", Kind::OpenMode),
    ("FileUtils", "cp", Kind::WriteDst), ("FileUtils", "cp_r", Kind::WriteDst), ("FileUtils", "copy", Kind::WriteDst), ("FileUtils", "copy_file", Kind::WriteDst), ("FileUtils", "install", Kind::WriteDst), ("FileUtils", "ln", Kind::WriteDst), ("FileUtils", "ln_s", Kind::WriteDst), ("FileUtils", "ln_sf", Kind::WriteDst), ("File", "symlink", Kind::WriteDst),
    ("File", "rename", Kind::Move), ("FileUtils", "mv", Kind::Move), ("FileUtils", "move", Kind::Move), ("File", "chmod", Kind::Chmod), ("File", "chown", Kind::Chmod), ("FileUtils", "chmod", Kind::Chmod), ("FileUtils", "chmod_R", Kind::Chmod), ("FileUtils", "chown", Kind::Chmod), ("FileUtils", "chown_R", Kind::Chmod),
    ("HTTP", "post", Kind::Network), ("HTTP", "post_form", Kind::Network), ("HTTP", "Post", Kind::Network), ("HTTP", "Put", Kind::Network), ("HTTP", "Delete", Kind::Network), ("HTTP", "Patch", Kind::Network), ("TCPSocket", "new", Kind::Network), ("TCPServer", "new", Kind::Network), ("UDPSocket", "new", Kind::Network), ("Socket", "new", Kind::Network),
    ("Process", "kill", Kind::Process), ("", "eval", Kind::Eval), ("*", "eval", Kind::Eval), ("*", "instance_eval", Kind::Eval), ("*", "class_eval", Kind::Eval), ("*", "module_eval", Kind::Eval), ("*", "send", Kind::Dynamic), ("*", "public_send", Kind::Dynamic), ("*", "__send__", Kind::Dynamic), ("", "load", Kind::Dynamic),
    ("*", "method", Kind::Reflect), ("", "method", Kind::Reflect), ("*", "public_method", Kind::Reflect), ("", "public_method", Kind::Reflect), ("*", "instance_method", Kind::Reflect), ("*", "singleton_method", Kind::Reflect),
];

/// Receivers through which Ruby reaches what a bare call reaches: `Kernel.system`,
/// `self.exec`, `Process.exec`, `::Kernel.spawn` are `system`, `exec`, `spawn`.
const RUBY_SELF: &[&str] = &["Kernel", "self", "Process"];

#[rustfmt::skip]
const PERL: &[Sink] = &[
    ("", "system", Kind::Args), ("", "exec", Kind::Args), ("", "unlink", Kind::Delete), ("", "rmdir", Kind::Delete), ("", "rmtree", Kind::DeleteTree), ("", "remove_tree", Kind::DeleteTree), ("", "rename", Kind::Move), ("", "move", Kind::Move), ("", "mv", Kind::Move), ("", "copy", Kind::WriteDst), ("", "cp", Kind::WriteDst),
    ("", "mkdir", Kind::Write), ("", "make_path", Kind::Write), ("", "mkpath", Kind::Write), ("", "chmod", Kind::Chmod), ("", "chown", Kind::Chmod), ("", "utime", Kind::Chmod), ("", "symlink", Kind::WriteDst), ("", "link", Kind::WriteDst), ("", "kill", Kind::Process), ("", "eval", Kind::Eval), ("", "syscall", Kind::Dynamic), ("", "do", Kind::Dynamic), ("", "sysopen", Kind::SysOpen), ("", "open", Kind::OpenMode), ("", "truncate", Kind::Write), ("DynaLoader", "dl_load_file", Kind::Dynamic),
    ("*", "post", Kind::Network), ("*", "put", Kind::Network), ("*", "delete", Kind::Network), ("*", "patch", Kind::Network), ("INET", "new", Kind::Network), ("IP", "new", Kind::Network), ("UNIX", "new", Kind::Network),
];

#[rustfmt::skip]
const PHP: &[Sink] = &[
    ("", "exec", Kind::Shell), ("", "shell_exec", Kind::Shell), ("", "system", Kind::Shell), ("", "passthru", Kind::Shell), ("", "popen", Kind::Shell), ("", "proc_open", Kind::Shell), ("", "ftruncate", Kind::Write), ("FFI", "cdef", Kind::Dynamic), ("", "dl", Kind::Dynamic), ("", "putenv", Kind::Dynamic), ("", "pcntl_exec", Kind::Spawn), ("", "unlink", Kind::Delete), ("", "rmdir", Kind::Delete),
    ("", "file_put_contents", Kind::Write), ("", "mkdir", Kind::Write), ("", "touch", Kind::Write), ("", "fopen", Kind::OpenMode), ("", "copy", Kind::WriteDst), ("", "symlink", Kind::WriteDst), ("", "link", Kind::WriteDst), ("", "rename", Kind::Move), ("", "chmod", Kind::Chmod), ("", "chown", Kind::Chmod), ("", "chgrp", Kind::Chmod), ("", "lchown", Kind::Chmod),
    ("", "fsockopen", Kind::Network), ("", "stream_socket_client", Kind::Network), ("", "stream_socket_server", Kind::Network), ("", "socket_create", Kind::Network), ("", "mail", Kind::Network), ("", "curl_exec", Kind::Request), ("", "posix_kill", Kind::Process), ("", "eval", Kind::Eval), ("", "assert", Kind::Eval), ("", "create_function", Kind::Dynamic), ("", "call_user_func", Kind::Dynamic),
];

#[rustfmt::skip]
const LUA: &[Sink] = &[
    ("os", "execute", Kind::Shell), ("io", "popen", Kind::Shell), ("os", "remove", Kind::Delete), ("os", "rename", Kind::Move), ("io", "open", Kind::OpenMode), ("", "load", Kind::Eval), ("", "loadstring", Kind::Eval), ("", "dofile", Kind::Dynamic), ("", "loadfile", Kind::Dynamic), ("socket", "connect", Kind::Network), ("socket", "tcp", Kind::Network), ("socket", "bind", Kind::Network),
];

#[rustfmt::skip]
const R: &[Sink] = &[
    ("", "system", Kind::Shell), ("", "shell", Kind::Shell), ("", "system2", Kind::Spawn), ("", "unlink", Kind::DeleteTree), ("", "file.remove", Kind::Delete), ("", "file.rename", Kind::Move), ("", "file.copy", Kind::WriteDst), ("", "download.file", Kind::WriteDst), ("", "file.create", Kind::Write), ("", "dir.create", Kind::Write),
    ("", "writeLines", Kind::WriteDst), ("", "write.csv", Kind::WriteDst), ("", "write.table", Kind::WriteDst), ("", "saveRDS", Kind::WriteDst), ("", "save", Kind::Write), ("", "sink", Kind::Write), ("", "write", Kind::WriteDst), ("", "Sys.chmod", Kind::Chmod), ("", "Sys.setFileTime", Kind::Chmod),
    ("", "install.packages", Kind::Install), ("", "remove.packages", Kind::Install), ("devtools", "*", Kind::Install), ("remotes", "*", Kind::Install), ("BiocManager", "install", Kind::Install), ("", "source", Kind::Dynamic), ("", "eval", Kind::Eval),
    ("httr", "POST", Kind::Network), ("httr", "PUT", Kind::Network), ("httr", "DELETE", Kind::Network), ("httr", "PATCH", Kind::Network), ("", "POST", Kind::Network), ("", "PUT", Kind::Network), ("", "DELETE", Kind::Network), ("", "PATCH", Kind::Network), ("tools", "pskill", Kind::Process),
];

#[rustfmt::skip]
const GROOVY: &[Sink] = &[("*", "execute", Kind::Shell), ("getRuntime()", "exec", Kind::Shell), ("*", "deleteDir", Kind::DeleteTree), ("", "ProcessBuilder", Kind::Dynamic), ("", "evaluate", Kind::Eval), ("*", "delete", Kind::Delete)];

/// Modules whose generic names (`exec`, `rm`) count: JS `child_process` and `fs`.
const MODULES: &[(&str, &[&str])] =
    &[("cp", &["child_process", "node:child_process"]), ("fs", &["fs", "node:fs", "fs/promises", "node:fs/promises", "fs-extra", "graceful-fs"])];

/// Analyses code in one of the lexer's languages.
pub fn analyse(lang: Lang, src: &str) -> Analysis {
    analyse_at(lang, src, 0)
}

fn analyse_at(lang: Lang, src: &str, depth: u8) -> Analysis {
    let mut out = Analysis::default();
    if depth > MAX_CODE_DEPTH {
        out.push(Effect::Dynamic, "nested eval");
        return out;
    }
    let toks = match tokenize(lang, src) {
        Ok(t) => t,
        Err(e) => {
            out.error = Some(e);
            return out;
        }
    };
    if lang == Lang::Tcl {
        tcl(&toks, &mut out);
        return out;
    }
    let toks = super::lexer_callees::computed_members(toks);
    if lang == Lang::Awk {
        awk(&toks, &mut out);
        return out;
    }
    let table = match lang {
        Lang::Js => JS,
        Lang::Ruby => RUBY,
        Lang::Perl => PERL,
        Lang::Php => PHP,
        Lang::Lua => LUA,
        Lang::R => R,
        _ => GROOVY,
    };
    let mentions =
        |m: &str| toks.iter().any(|t| matches!(t, Tok::Str { text, .. } if MODULES.iter().any(|(k, names)| *k == m && names.contains(&text.as_str()))));
    let (has_cp, has_fs) = (mentions("cp"), mentions("fs"));
    let mut aliases: Vec<(String, &'static str)> = Vec::new();
    // `const x = require("child_process")`, `import * as x from "fs"`: x stands for the module.
    for w in toks.windows(5) {
        if let [Tok::Ident(x), Tok::Punct('='), Tok::Ident(r), Tok::Punct('('), Tok::Str { text, .. }] = w {
            if r == "require" {
                for (k, names) in MODULES {
                    if names.contains(&text.as_str()) {
                        aliases.push((x.clone(), k));
                    }
                }
            }
        }
        if let [Tok::Ident(x), Tok::Ident(from), Tok::Str { text, .. }, ..] = w {
            if from == "from" {
                for (k, names) in MODULES {
                    if names.contains(&text.as_str()) {
                        aliases.push((x.clone(), k));
                    }
                }
            }
        }
    }
    if matches!(lang, Lang::Ruby | Lang::Perl | Lang::Php | Lang::Lua) {
        super::lexer_loads::scan(lang, &toks, &mut out);
    }
    if lang == Lang::Js {
        // `require("./x")` / `import … from "./x"`: the tree's own modules, followed by the
        // caller; a bare name is followed only into `NODE_PATH` (`load_candidates`).
        for w in toks.windows(3) {
            let spec = match w {
                [Tok::Ident(f), Tok::Punct('('), Tok::Str { text, interp: false }] if f == "require" || f == "import" => Some(text),
                [Tok::Ident(f), Tok::Str { text, interp: false }, _] if f == "from" || f == "import" => Some(text),
                _ => None,
            };
            if let Some(t) = spec {
                out.import(t);
            }
        }
    }
    let mut exec_seen = false;
    if lang == Lang::Js {
        // zx / Bun shell tagged templates: $`rm -rf ${dir}` runs a shell command.
        for w in toks.windows(2) {
            if let [Tok::Ident(tag), Tok::Str { text, interp }] = w {
                if tag == "$" || tag == "execaCommand" || tag == "execa" {
                    exec_seen = true;
                    out.push(if *interp { Effect::ExecUnseen } else { Effect::Shell(text.clone()) }, "$`…`");
                }
            }
        }
    }
    for (i, t) in toks.iter().enumerate() {
        if let Tok::Cmd { text, interp } = t {
            exec_seen = true;
            out.push(if *interp { Effect::ExecUnseen } else { Effect::Shell(text.clone()) }, "backticks");
            continue;
        }
        let Tok::Ident(name) = t else { continue };
        let recv = receiver(lang, &toks, i);
        let after_member = i > 0 && member_op(lang, &toks[i - 1]);
        let Some((spec, kind)) = table.iter().find_map(|(r, n, k)| {
            let name_ok = *n == name || *n == "*";
            let recv_ok = match *r {
                // Member calls, plus destructured JS imports (`const {rmSync} = require("fs")`) and Ruby's bare `send`/`instance_eval`.
                "*" => after_member || (lang == Lang::Js && (has_cp || has_fs)) || (lang == Lang::Ruby && !matches!(*n, "rmtree")),
                // Perl's `CORE::system`, `File::Copy::copy`, `File::Path::rmtree` name the
                // function through its package (the lexer reads `::` as `->`); a bareword
                // before it is a package, `$obj->name` a method of an object.
                "" => {
                    !after_member
                        || (lang == Lang::Ruby && recv.as_deref().is_some_and(|r| RUBY_SELF.contains(&r)))
                        || (lang == Lang::Perl && recv.as_deref().is_some_and(|r| r.starts_with(char::is_alphabetic)))
                }
                "cp" => module_ok(&recv, after_member, "cp", has_cp, &aliases),
                "fs" => module_ok(&recv, after_member, "fs", has_fs, &aliases),
                other => recv.as_deref() == Some(other),
            };
            (name_ok && recv_ok).then_some((*r, *k))
        }) else {
            continue;
        };
        let Some(args) = args_after(&toks, i, lang) else {
            let runs = !spec.is_empty() || matches!(kind, Kind::Shell | Kind::Spawn | Kind::Eval | Kind::Delete | Kind::DeleteTree);
            if super::lexer_callees::taken_as_value(lang, &toks, i, after_member, runs) {
                out.push(
                    Effect::Dynamic,
                    &format!("{} taken as a value", recv.as_deref().filter(|_| after_member).map_or(name.clone(), |r| format!("{r}.{name}"))),
                );
            }
            continue;
        };
        let sink = match &recv {
            Some(r) if after_member => format!("{r}.{name}"),
            _ => name.clone(),
        };
        if matches!(kind, Kind::Shell | Kind::Args | Kind::Spawn) {
            exec_seen = true;
        }
        let kind = if kind == Kind::Reflect { reflect(table, &args) } else { Some(kind) };
        let Some(kind) = kind else { continue };
        if let Some(e) = effect(kind, lang, &toks, i, &args, depth, &mut out) {
            out.push(e, &sink);
        }
    }
    super::lexer_callees::scan(lang, &toks, &aliases, has_cp || has_fs, &mut out);
    if lang == Lang::Js && has_cp && !exec_seen {
        // The process module is loaded but its use is not visible.
        out.push(Effect::Dynamic, "child_process");
    }
    if lang == Lang::Js {
        for w in toks.windows(3) {
            if let [Tok::Ident(f), Tok::Punct('('), next] = w {
                if (f == "require" || f == "import") && !matches!(next, Tok::Str { interp: false, .. }) {
                    out.push(Effect::Dynamic, f);
                }
            }
        }
    }
    out
}

fn module_ok(recv: &Option<String>, after_member: bool, module: &str, mentioned: bool, aliases: &[(String, &str)]) -> bool {
    if !after_member {
        return mentioned;
    }
    match recv.as_deref() {
        Some("()") => mentioned,
        Some(r) => {
            aliases.iter().any(|(a, k)| a == r && *k == module)
                || (module == "fs" && matches!(r, "fs" | "fsp" | "fsPromises" | "promises" | "fse"))
                || (module == "cp" && matches!(r, "child_process" | "cp" | "childProcess"))
        }
        None => false,
    }
}

/// Whether `t` before a name makes the name a member (`recv.name`, `recv->name`,
/// `Pkg::name`, the lexer reads `::` as `->`). In Perl and PHP `.` joins strings,
/// so there only `->` and `::` do: `"x" . system("rm -rf ~")` calls `system`.
pub(super) fn member_op(lang: Lang, t: &Tok) -> bool {
    match t {
        Tok::Arrow => true,
        Tok::Punct('.') => !matches!(lang, Lang::Perl | Lang::Php),
        _ => false,
    }
}

/// The identifier before `.name`/`->name`/`::name`, `"()"` after a call, and
/// the module of `require("http").request`.
fn receiver(lang: Lang, toks: &[Tok], i: usize) -> Option<String> {
    if i < 2 || !member_op(lang, &toks[i - 1]) {
        return None;
    }
    // `require ( "m" ) . name`: the five tokens before `name`, which may open the code (i = 5).
    if i >= 5 {
        if let [Tok::Ident(f), Tok::Punct('('), Tok::Str { text, interp: false }, Tok::Punct(')')] = &toks[i - 5..i - 1] {
            if f == "require" {
                return Some(text.strip_prefix("node:").unwrap_or(text).to_owned());
            }
        }
    }
    match &toks[i - 2] {
        Tok::Ident(r) => Some(r.clone()),
        Tok::Punct(')') => Some("()".to_owned()),
        Tok::Str { .. } => Some("\"\"".to_owned()),
        Tok::Punct(']') => Some("[]".to_owned()),
        _ => None,
    }
}

/// The argument tokens of the call at `i`: `( … )`, or for Ruby/Perl/Lua
/// paren-less calls the rest of the statement. `None` when it is not a call.
pub(super) fn args_after(toks: &[Tok], i: usize, lang: Lang) -> Option<Vec<Vec<Tok>>> {
    let mut j = i + 1;
    let parens = matches!(toks.get(j), Some(Tok::Punct('(')));
    let bare = matches!(lang, Lang::Ruby | Lang::Perl | Lang::Lua)
        && matches!(toks.get(j), Some(Tok::Str { .. } | Tok::Ident(_) | Tok::Cmd { .. } | Tok::Punct('$') | Tok::Num));
    let groovy_nullary = lang == Lang::Groovy;
    if !parens && !bare && !groovy_nullary {
        return None;
    }
    let mut out: Vec<Vec<Tok>> = Vec::new();
    let mut cur = Vec::new();
    let mut depth = 0i32;
    if parens {
        j += 1;
    }
    while let Some(t) = toks.get(j) {
        match t {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') => {
                if depth == 0 {
                    break;
                }
                depth -= 1;
            }
            Tok::Sep if !parens && depth == 0 => break,
            Tok::Ident(w) if !parens && depth == 0 && matches!(w.as_str(), "if" | "unless" | "or" | "and" | "do") => break,
            Tok::Punct(',') if depth == 0 => {
                out.push(std::mem::take(&mut cur));
                j += 1;
                continue;
            }
            _ => {}
        }
        if !(matches!(t, Tok::Sep) && parens) {
            cur.push(t.clone());
        }
        j += 1;
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    Some(out)
}

pub(super) fn lit(arg: Option<&Vec<Tok>>) -> Option<String> {
    match arg.map(Vec::as_slice) {
        Some([Tok::Str { text, interp: false }]) => Some(text.clone()),
        _ => None,
    }
}

fn lit_list(arg: Option<&Vec<Tok>>) -> Option<Vec<String>> {
    let a = arg?;
    let inner = match a.as_slice() {
        [Tok::Punct('['), rest @ .., Tok::Punct(']')] => rest,
        [Tok::Ident(c), Tok::Punct('('), rest @ .., Tok::Punct(')')] if c == "c" => rest,
        _ => return None,
    };
    inner.split(|t| *t == Tok::Punct(',')).filter(|p| !p.is_empty()).map(|p| lit(Some(&p.to_vec()))).collect()
}

fn effect(kind: Kind, lang: Lang, toks: &[Tok], i: usize, args: &[Vec<Tok>], depth: u8, out: &mut Analysis) -> Option<Effect> {
    let first = lit(args.first());
    Some(match kind {
        Kind::Shell => {
            if lang == Lang::Groovy {
                return Some(match toks.get(i.wrapping_sub(2)) {
                    Some(Tok::Str { text, interp: false }) => Effect::Shell(text.clone()),
                    _ => Effect::ExecUnseen,
                });
            }
            first.map_or(Effect::ExecUnseen, Effect::Shell)
        }
        Kind::Args => {
            let lits: Option<Vec<String>> = args.iter().map(|a| lit(Some(a))).collect();
            match lits {
                Some(l) if l.len() == 1 => Effect::Shell(l[0].clone()),
                Some(l) if !l.is_empty() => Effect::Argv(l),
                _ => match args.first().map(Vec::as_slice) {
                    // `system(`cmd`)` runs cmd, then runs what cmd prints: the shell's `$(cmd)`.
                    Some([Tok::Cmd { text, interp: false }]) => Effect::Shell(format!("$({text})")),
                    _ => lit_list(args.first()).map_or(Effect::ExecUnseen, Effect::Argv),
                },
            }
        }
        Kind::Spawn => match (first, lit_list(args.get(1))) {
            (Some(p), Some(rest)) => Effect::Argv(std::iter::once(p).chain(rest).collect()),
            (Some(p), None) if args.len() == 1 => Effect::Argv(vec![p]),
            (None, _) => lit_list(args.first()).map_or(Effect::ExecUnseen, Effect::Argv),
            _ => Effect::ExecUnseen,
        },
        Kind::Delete | Kind::DeleteTree => Effect::Delete { target: first, recursive: kind == Kind::DeleteTree },
        Kind::Write => Effect::Write(first),
        Kind::WriteDst => {
            let named = args.iter().find_map(|a| match a.as_slice() {
                [Tok::Ident(k), Tok::Punct('='), Tok::Str { text, interp: false }] if matches!(k.as_str(), "file" | "con" | "destfile" | "to") => {
                    Some(text.clone())
                }
                _ => None,
            });
            Effect::Write(named.or_else(|| lit(args.get(1))))
        }
        Kind::SysOpen => {
            let writes = args.iter().skip(2).flatten().any(|t| matches!(t, Tok::Ident(f) if f.contains("O_WRONLY") || f.contains("O_RDWR") || f.contains("O_TRUNC") || f.contains("O_CREAT") || f.contains("O_APPEND")));
            if !writes {
                return None;
            }
            Effect::Write(lit(args.get(1)))
        }
        Kind::OpenMode => {
            let mode = lit(args.get(1));
            if lang == Lang::Perl {
                return super::lexer_perl::open(args);
            }
            match mode {
                Some(m) if !m.contains(['w', 'a', '+', 'x']) => return None,
                None if args.len() < 2 => return None,
                _ => Effect::Write(first),
            }
        }
        Kind::Move => Effect::Move,
        Kind::Chmod => Effect::Chmod,
        Kind::Network => Effect::Network,
        Kind::Request => {
            let writes = args.iter().flatten().any(|t| match t {
                Tok::Str { text, .. } => matches!(text.to_ascii_uppercase().as_str(), "POST" | "PUT" | "PATCH" | "DELETE"),
                Tok::Ident(k) => matches!(k.as_str(), "body" | "data" | "CURLOPT_POST" | "CURLOPT_POSTFIELDS" | "CURLOPT_PUT" | "CURLOPT_UPLOAD"),
                _ => false,
            });
            let php_opts = lang == Lang::Php
                && toks.iter().any(|t| matches!(t, Tok::Ident(k) if k.starts_with("CURLOPT_POST") || k == "CURLOPT_CUSTOMREQUEST" || k == "CURLOPT_UPLOAD"));
            if !(writes || php_opts) {
                return None;
            }
            Effect::Network
        }
        Kind::Process => Effect::Process,
        Kind::Install => Effect::Install,
        Kind::Dynamic | Kind::Reflect => Effect::Dynamic,
        Kind::PipeOpen => match first.as_deref().map(|p| p.trim_start().strip_prefix('|')) {
            Some(Some(cmd)) => Effect::Shell(cmd.to_owned()),
            _ => match &toks[i] {
                Tok::Ident(n) if n == "open" => return effect(Kind::OpenMode, lang, toks, i, args, depth, out),
                Tok::Ident(n) if n.ends_with("write") => Effect::Write(first),
                _ => return None,
            },
        },
        Kind::Eval => {
            if lang == Lang::Perl && matches!(toks.get(i + 1), Some(Tok::Punct('{'))) {
                // `eval { … }` is exception handling; its body is scanned like any code.
                return None;
            }
            match first {
                Some(code) => {
                    out.absorb(analyse_at(lang, &code, depth + 1));
                    return None;
                }
                None if args.is_empty() => return None,
                None if matches!(args.first().map(Vec::as_slice), Some([Tok::Ident(f), ..]) if f == "function") => return None,
                None if matches!(args.first().map(Vec::as_slice), Some([Tok::Punct('('), ..])) => return None,
                None => Effect::Dynamic,
            }
        }
    })
}

/// `method(:system)`, `Kernel.method("exec")`: the kind of the sink the name
/// looks up (Ruby's table, any receiver), as an unseen call; a name no sink has
/// (`method(:puts)`) is nothing; a name the code computes is unseen.
fn reflect(table: &[Sink], args: &[Vec<Tok>]) -> Option<Kind> {
    let name = match args.first().map(Vec::as_slice) {
        Some([Tok::Punct(':'), Tok::Ident(n)]) => n.clone(),
        Some([Tok::Str { text, interp: false }]) => text.clone(),
        _ => return Some(Kind::Dynamic),
    };
    let runs = |k: &Kind| matches!(k, Kind::Shell | Kind::Args | Kind::Spawn | Kind::PipeOpen | Kind::Eval | Kind::Dynamic);
    table.iter().any(|(_, n, k)| *n == name && runs(k)).then_some(Kind::Dynamic)
}

/// Tcl: `exec prog args…`, `file delete|rename|copy|mkdir`, `open f w`, `socket`, `eval`.
fn tcl(toks: &[Tok], out: &mut Analysis) {
    let word = |t: &Tok| match t {
        Tok::Ident(w) => Some(w.clone()),
        Tok::Str { text, interp: false } => Some(text.clone()),
        _ => None,
    };
    for (i, t) in toks.iter().enumerate() {
        let Tok::Ident(cmd) = t else { continue };
        let starts = i == 0 || matches!(toks[i - 1], Tok::Sep | Tok::Punct('[' | '{'));
        if !starts {
            continue;
        }
        let rest: Vec<&Tok> = toks[i + 1..].iter().take_while(|t| !matches!(t, Tok::Sep | Tok::Punct(']'))).collect();
        match cmd.as_str() {
            "exec" => {
                let words: Option<Vec<String>> = rest.iter().filter(|t| !matches!(t, Tok::Ident(w) if w.starts_with('-'))).map(|t| word(t)).collect();
                out.push(words.filter(|w| !w.is_empty()).map_or(Effect::ExecUnseen, Effect::Argv), "exec");
            }
            "file" => match rest.first().and_then(|t| word(t)).as_deref() {
                Some("delete") => out.push(Effect::Delete { target: rest.last().and_then(|t| word(t)), recursive: true }, "file delete"),
                Some("rename") => out.push(Effect::Move, "file rename"),
                Some("copy" | "mkdir" | "link") => out.push(Effect::Write(rest.last().and_then(|t| word(t))), "file copy"),
                Some("attributes") if rest.len() > 3 => out.push(Effect::Chmod, "file attributes"),
                _ => {}
            },
            "open" if rest.get(1).and_then(|t| word(t)).is_some_and(|m| m.contains(['w', 'a', '+'])) => {
                out.push(Effect::Write(rest.first().and_then(|t| word(t))), "open")
            }
            "socket" => out.push(Effect::Network, "socket"),
            "eval" | "uplevel" | "subst" | "source" => out.push(Effect::Dynamic, cmd),
            _ => {}
        }
    }
}

/// awk: `system(…)`, `"cmd" | getline`, `|&` coprocesses, and `print … > "file"`
/// / `print … | "cmd"` redirections (a `>` inside parentheses is a comparison).
fn awk(toks: &[Tok], out: &mut Analysis) {
    let lit_at = |k: usize| match toks.get(k) {
        Some(Tok::Str { text, interp: false }) if !text.is_empty() => Some(text.clone()),
        _ => None,
    };
    for (i, t) in toks.iter().enumerate() {
        match t {
            Tok::Ident(f) if f == "system" && matches!(toks.get(i + 1), Some(Tok::Punct('('))) => {
                let arg = if matches!(toks.get(i + 3), Some(Tok::Punct(')'))) { lit_at(i + 2) } else { None };
                out.push(arg.map_or(Effect::ExecUnseen, Effect::Shell), "system()");
            }
            Tok::Punct('|') if matches!(toks.get(i + 1), Some(Tok::Ident(g)) if g == "getline") => {
                out.push(lit_at(i.wrapping_sub(1)).map_or(Effect::ExecUnseen, Effect::Shell), "| getline");
            }
            Tok::Punct('|') if matches!(toks.get(i + 1), Some(Tok::Punct('&'))) => out.push(Effect::ExecUnseen, "|& coprocess"),
            Tok::Ident(p) if p == "print" || p == "printf" => {
                let mut depth = 0i32;
                let mut k = i + 1;
                while let Some(t) = toks.get(k) {
                    match t {
                        Tok::Sep | Tok::Punct('}') if depth == 0 => break,
                        Tok::Punct('(') => depth += 1,
                        Tok::Punct(')') => depth -= 1,
                        Tok::Punct('>') if depth == 0 => {
                            let at = if matches!(toks.get(k + 1), Some(Tok::Punct('>'))) { k + 2 } else { k + 1 };
                            out.push(Effect::Write(lit_at(at)), "print >");
                            break;
                        }
                        Tok::Punct('|') if depth == 0 => {
                            out.push(lit_at(k + 1).map_or(Effect::ExecUnseen, Effect::Shell), "print |");
                            break;
                        }
                        _ => {}
                    }
                    k += 1;
                }
            }
            _ => {}
        }
    }
}

/// Whether a PHP string names a bare sink that runs, evaluates or deletes (`"system"`,
/// `"\\unlink"`): PHP calls such a string as a function (`$f(…)`, `array_map("unlink", …)`).
pub(super) fn php_callable_sink(text: &str) -> bool {
    let name = text.trim_start_matches('\\');
    PHP.iter()
        .any(|(r, n, k)| r.is_empty() && n.eq_ignore_ascii_case(name) && matches!(k, Kind::Shell | Kind::Spawn | Kind::Eval | Kind::Dynamic | Kind::Delete))
}
