//! `auth0`: the two forms whose words do not say what they change. Everything
//! else is read the way a program no family models is (`Cx::or_unowned`: the
//! verb scan finds `create`, `delete`, `rm`, `deploy` …).
//!
//! - `auth0 api [METHOD] PATH [-d DATA]` calls the Management API; the method is
//!   GET unless one is named, or POST when a body is given (`--data`, or input).
//! - `auth0 tenants use NAME` switches the tenant every later command acts on:
//!   a workspace switch, gated like `kubectl config use-context`.

use super::paas::{MUTATE, READ};
use crate::call::args::{asks_help, ArgSpec, Args, Help};
use crate::call::Invocation;
use crate::rules::vocab::input::{self, Source};
use crate::rules::Cx;
use crate::words;
use crate::words::Words;

/// auth0's options that take a value, global and `api`'s own.
const VALUE_OPTS: Words = words!["-t", "--tenant", "-d", "--data", "-q", "--query"];

pub(super) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    let args = &inv.args;
    // cobra: `-h`/`--help` anywhere prints the command's usage.
    if asks_help(args, ArgSpec::values(VALUE_OPTS).help(Help::LONG.with(Help::DASH_H))) {
        return cx.hit(&READ);
    }
    let words: Vec<&str> = crate::call::operand_words(args, VALUE_OPTS).into_iter().map(|(_, w)| w).collect();
    match words.as_slice() {
        ["api", rest @ ..] => {
            let method = rest.first().map(|m| m.to_ascii_lowercase()).filter(|m| matches!(m.as_str(), "get" | "post" | "put" | "patch" | "delete"));
            let body = Args::parse(args, ArgSpec::values(VALUE_OPTS)).has(words!["-d", "--data"]) || input::of(inv) != Source::None;
            match method.as_deref() {
                Some("get") => cx.hit(&READ),
                Some(m) => cx.hit_because(&MUTATE, format!("`auth0 api {m}` changes the tenant through the Management API; ask the user")),
                None if body => cx.hit_because(&MUTATE, "`auth0 api` with a body sends a POST to the Management API; ask the user".to_owned()),
                None => cx.hit(&READ),
            }
        }
        ["tenants", "use", ..] => {
            cx.hit_because(&MUTATE, "`auth0 tenants use` switches the tenant every later auth0 command acts on (a workspace switch); ask the user".to_owned())
        }
        _ => cx.or_unowned(inv),
    }
}
