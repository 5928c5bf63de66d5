//! Calls whose callee the sink tables cannot name. The tables match a sink by
//! its name at the call (`fs.rmSync(…)`); code that takes the function as a
//! value, or computes which one it calls, runs the same sink out of their sight:
//! - JS and Lua: a sink taken as a value (`const f = require("fs").rmSync`,
//!   `fs.rmSync.call(null, …)`, `{rmSync: r} = require("fs")`, `local f = os.execute`);
//! - JS: a computed member of `fs`/`child_process`/the global object (`fs[name](…)`),
//!   and any computed member called in code that loads either (`m[k](…)`);
//! - Lua: a computed member of `os`, `io`, `_G` … (`os["exe" .. "cute"]`);
//! - PHP and Perl: a call through a variable or a computed callee (`$f("reboot")`,
//!   `$m["s"](…)`, `("sys"."tem")(…)`, `$f->(…)`, `&{…}(…)`), and PHP's sink names in strings,
//!   its callables (`array_map("system", …)`).
//!
//! Each is `Effect::Dynamic`: what runs is decided at run time.

use super::lexer::Tok;
use super::scripts::{Analysis, Effect, Lang};

/// Whether a JS/Lua sink matched at `toks[i]` without a call after it escapes as a
/// value. A bare name followed by `,` or `}` is a destructured binding of the same
/// name (`const {execSync} = require("child_process")`): its calls are read by name.
pub(super) fn taken_as_value(lang: Lang, toks: &[Tok], i: usize, after_member: bool, runs: bool) -> bool {
    let next = toks.get(i + 1);
    match lang {
        Lang::Js => runs && !matches!(next, Some(Tok::Punct('(' | '`'))) && (after_member || !matches!(next, Some(Tok::Punct(',' | '}')))),
        // Lua's only call forms without `(` take a string or a table (`os.execute "x"`).
        Lang::Lua => after_member && !matches!(next, Some(Tok::Punct('(' | '{') | Tok::Str { .. })),
        _ => false,
    }
}

/// `fs["unlinkSync"](…)` is `fs.unlinkSync(…)`: a literal computed member
/// before a call is rewritten as a plain one, so the sink tables see it.
pub(super) fn computed_members(toks: Vec<Tok>) -> Vec<Tok> {
    let mut out: Vec<Tok> = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        if let (Some(Tok::Punct('[')), Some(Tok::Str { text, interp: false }), Some(Tok::Punct(']')), Some(Tok::Punct('('))) =
            (toks.get(i), toks.get(i + 1), toks.get(i + 2), toks.get(i + 3))
        {
            let after_value = matches!(out.last(), Some(Tok::Ident(_) | Tok::Punct(')' | ']')));
            if after_value && !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$') {
                out.push(Tok::Punct('.'));
                out.push(Tok::Ident(text.clone()));
                i += 3;
                continue;
            }
        }
        out.push(toks[i].clone());
        i += 1;
    }
    out
}

/// Lua tables whose computed member may be a sink (`os["exe" .. "cute"]`).
const LUA_HOLDERS: &[&str] = &["os", "io", "_G", "_ENV", "debug", "package"];

/// JS receivers whose computed member may be any of their sinks.
const JS_HOLDERS: &[&str] = &["fs", "fsp", "fse", "child_process", "cp", "childProcess", "globalThis", "global"];

/// Scans `toks` for computed callees; `aliases` are the names bound to `fs` or
/// `child_process` in this code (`const x = require("fs")`).
pub(super) fn scan(lang: Lang, toks: &[Tok], aliases: &[(String, &str)], js_sensitive: bool, out: &mut Analysis) {
    for (i, t) in toks.iter().enumerate() {
        let prev = i.checked_sub(1).and_then(|p| toks.get(p));
        let next = toks.get(i + 1);
        match (lang, t) {
            (Lang::Js, Tok::Punct('[')) => {
                if let Some(holder) = js_holder(toks, i, aliases) {
                    out.push(Effect::Dynamic, &format!("{holder}[…]"));
                }
            }
            // With `fs`/`child_process` in the code, `m[name](…)` may be one of theirs
            // under a name the tables never see (`import("fs").then(m => m[k](…))`).
            (Lang::Js, Tok::Punct('(')) if js_sensitive && matches!(prev, Some(Tok::Punct(']'))) => out.push(Effect::Dynamic, "[…](…)"),
            (Lang::Php | Lang::Perl, Tok::Ident(v)) if v.starts_with('$') && matches!(next, Some(Tok::Punct('('))) => {
                out.push(Effect::Dynamic, &format!("{v}(…)"));
            }
            (Lang::Php, Tok::Punct('(')) if matches!(prev, Some(Tok::Punct(']' | ')'))) => out.push(Effect::Dynamic, "(…)(…)"),
            (Lang::Perl, Tok::Punct('(')) if matches!(prev, Some(Tok::Arrow)) => out.push(Effect::Dynamic, "->(…)"),
            (Lang::Perl, Tok::Punct('&')) if matches!(next, Some(Tok::Punct('{'))) => out.push(Effect::Dynamic, "&{…}"),
            (Lang::Lua, Tok::Punct('[')) if matches!(prev, Some(Tok::Ident(m)) if LUA_HOLDERS.contains(&m.as_str())) => {
                out.push(Effect::Dynamic, "[…] of a system module")
            }
            (Lang::Php, Tok::Str { text, .. }) if super::lexer_sinks::php_callable_sink(text) => {
                out.push(Effect::Dynamic, &format!("\"{text}\" (a callable)"));
            }
            _ => {}
        }
    }
}

/// The holder whose member `toks[i]` (`[`) computes: `fs[…]`, `require("fs")[…]`.
fn js_holder(toks: &[Tok], i: usize, aliases: &[(String, &str)]) -> Option<String> {
    match toks.get(i.checked_sub(1)?)? {
        Tok::Ident(r) if aliases.iter().any(|(a, _)| a == r) || JS_HOLDERS.contains(&r.as_str()) => Some(r.clone()),
        Tok::Punct(')') if i >= 4 => match &toks[i - 4..i - 1] {
            [Tok::Ident(f), Tok::Punct('('), Tok::Str { text, .. }] if f == "require" && is_module(text) => Some(format!("require(\"{text}\")")),
            _ => None,
        },
        _ => None,
    }
}

fn is_module(spec: &str) -> bool {
    let m = spec.strip_prefix("node:").unwrap_or(spec);
    matches!(m, "fs" | "fs/promises" | "fs-extra" | "graceful-fs" | "child_process")
}
