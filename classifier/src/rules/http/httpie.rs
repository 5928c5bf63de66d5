//! httpie and xh (`http`, `https`, `xh`, `xhs`): `[METHOD] URL [ITEMS]`, where
//! `Header:value` and `name==value` only shape a GET, while data items
//! (`name=value`, `name:=json`, `field@file`) or piped stdin make a body.

use crate::call::args::{ArgSpec, Help};
use crate::call::Invocation;
use crate::rules::vocab::input::{self, Source};
use crate::rules::vocab::writes;
use crate::rules::Cx;
use crate::words;

use super::{options, BODY, METHOD, READ};

/// httpie's options that take a value; letters pack. The flags are the ones read here.
pub(super) const HTTPIE_ARGS: ArgSpec = ArgSpec::values(words![
    "-a", "-A", "-o", "-s", "-p", "--auth", "--auth-type", "--session", "--session-read-only", "--output", "--pretty", "--style", "--print", "--verify",
    "--cert", "--cert-key", "--cert-key-pass", "--timeout", "--proxy", "--max-redirects", "--max-headers", "--boundary", "--raw", "--format-options",
    "--response-charset", "--response-mime", "--bearer", "--http-version", "--ssl", "--ciphers", "--default-scheme", "--history-print",
])
.with_flags(words!["-I", "--ignore-stdin", "--offline"])
.packed()
// `--help` and `--version` print and exit where they are options of their own
// (`http -a --help POST …` sends `--help` as the credentials).
.help(Help::LONG.with(Help::VERSION));

/// What an item after the URL is.
#[derive(PartialEq, Eq)]
enum Item {
    Header,
    Query,
    Data,
}

/// httpie's request-item separators and what each makes the item (0 header, 1 query,
/// 2 data), longest first.
const SEPS: &[(&str, u8)] = &[(":=@", 2), ("=@", 2), (":=", 2), ("==", 1), ("=", 2), ("@", 2), (":", 0)];

fn item_kind(item: &str) -> Option<Item> {
    // The earliest separator decides; at one position the longest wins. SEPS is
    // longest first, so at a position the first one found is the longest there and
    // only an earlier position replaces it (`seps_are_longest_first` holds the order).
    let mut best: Option<(usize, u8)> = None;
    for (sep, kind) in SEPS {
        if let Some(p) = item.find(sep) {
            if p > 0 && item.as_bytes()[p - 1] == b'\\' {
                continue;
            }
            if best.is_none_or(|(bp, _)| p < bp) {
                best = Some((p, *kind));
            }
        }
    }
    best.map(|(_, k)| match k {
        0 => Item::Header,
        1 => Item::Query,
        _ => Item::Data,
    })
}

pub(super) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    if inv.program == "httpie" {
        // `httpie cli …` / `httpie plugins …`: the management command, not a request.
        let installs = inv.words().any(|w| matches!(w, "install" | "uninstall" | "upgrade"));
        if installs {
            cx.hit_because(&METHOD, "installs or removes httpie plugins; ask the user first".to_owned());
        } else {
            cx.hit(&READ);
        }
        return;
    }
    let (opts, operands) = options(&inv.args, HTTPIE_ARGS);
    let has = |n: &str| opts.iter().any(|o| o.name == n);
    for o in &opts {
        if matches!(o.name, "-o" | "--output") {
            if let Some(a) = &o.value {
                writes::check_write(cx, &a.clone(), inv.cwd.as_deref());
            }
        }
    }
    if has("--offline") {
        cx.hit(&READ);
        return;
    }
    let mut ops = operands.iter().peekable();
    let method = match ops.peek() {
        Some(a)
            if operands.len() > 1
                && matches!(a.text.to_ascii_uppercase().as_str(), "GET" | "HEAD" | "OPTIONS" | "POST" | "PUT" | "PATCH" | "DELETE" | "TRACE" | "CONNECT") =>
        {
            ops.next().map(|a| a.text.to_ascii_uppercase())
        }
        // Any other all-letters first word is an HTTP method too (httpie sends it as-is).
        Some(a) if operands.len() > 1 && a.text.chars().all(|c| c.is_ascii_uppercase()) => ops.next().map(|a| a.text.clone()),
        _ => None,
    };
    let _url = ops.next();
    let data = ops.any(|a| item_kind(&a.text) == Some(Item::Data));
    let stdin_body = !has("--ignore-stdin") && !has("-I") && input::of(inv) != Source::None;
    if let Some(m) = &method {
        if !matches!(m.as_str(), "GET" | "HEAD" | "OPTIONS") {
            cx.hit_because(&METHOD, format!("sends a {m} request, which changes remote state; ask the user first"));
            return;
        }
    }
    if data || has("--raw") || stdin_body {
        cx.hit(&BODY);
        return;
    }
    cx.hit(&READ);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_are_sorted_by_their_first_separator() {
        assert!(item_kind("Accept:application/json") == Some(Item::Header));
        assert!(item_kind("q==x") == Some(Item::Query));
        assert!(item_kind("name=John") == Some(Item::Data));
        assert!(item_kind("count:=5") == Some(Item::Data));
        assert!(item_kind("file@./a.txt") == Some(Item::Data));
        assert!(item_kind("X-Url:http://a=b") == Some(Item::Header));
    }

    /// At one position the first separator found must be the longest there
    /// (`==` before `=`, `:=` before `:`), which only the order of SEPS gives.
    #[test]
    fn seps_are_longest_first() {
        assert!(SEPS.windows(2).all(|w| w[0].0.len() >= w[1].0.len()), "{SEPS:?}");
    }
}
