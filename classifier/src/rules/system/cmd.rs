//! `cmd /c CMD` and `cmd /k CMD` typed on a POSIX command line (Git Bash, WSL
//! interop, an agent on Windows): cmd.exe runs CMD with its own syntax, so it is
//! a shell. The payload is split the way cmd splits it (`&`, `&&`, `||`, `|`
//! and newlines outside double quotes; `^` escapes the next character), each
//! statement's output redirections are writes, and each statement's words are
//! classified as a command line of their own: the Windows built-ins of
//! `windows.rs` (`del`, `rd`, `format` …) or any other program.
//!
//! What this model does not follow asks (`system.windows.cmd-unmodelled`):
//! blocks, `if`, `for`, `call`, `goto`, `start`, a program word built from
//! `%VAR%`/`!VAR!` or holding a space. It does not expand variables.

use crate::call::{Arg, Invocation};
use crate::rules::vocab::writes;
use crate::rules::{Cx, Rule};
use crate::words;

/// ## What it matches
/// A `cmd /c` payload holding what the cmd model does not follow: a block (`( … )`), `if`, `for`, `call`, `goto`,
/// `start`, or a program word built from a variable (`%COMSPEC%`, `!X!`); `cmd` given words it does not read as options;
/// `cmd` with nothing to run (an interactive shell).
/// ## Why this tier
/// What runs is not visible to tiergate; unknown is never safe.
pub static UNMODELLED: Rule = Rule::t3("system.windows.cmd-unmodelled")
    .reason("cmd runs something this model does not follow (a block, if, for, call, start or a variable program); run the commands directly")
    .matches(words!["cmd /c \"for %f in (*.log) do del %f\"", "cmd /c call build.bat", "cmd /c %COMSPEC% /c dir", "cmd /c start calc.exe"])
    .not_matches(words!["cmd /c dir", "cmd /c \"echo hi & dir\"", "cmd /?"]);

/// `cmd`'s own options before the payload: `/c` and `/k` take the rest of the
/// line; the others (`/s /q /d /a /u /t:fg /e:on /f:on /v:on /x /y`) only steer.
/// Git Bash rewrites a lone `/c` into a path, so `//c` is how it is typed there.
pub(super) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    let mut payload: Option<String> = None;
    for (i, a) in inv.args.iter().enumerate() {
        let w = if a.text.starts_with("//") { &a.text[1..] } else { a.text.as_str() };
        let Some(opt) = w.strip_prefix('/') else {
            cx.hit_because(&UNMODELLED, format!("`cmd` is given `{}`, which is not one of its options; run the command directly", a.text));
            return;
        };
        let (letter, attached) = opt.split_at(opt.chars().next().map_or(0, char::len_utf8));
        match letter.to_ascii_lowercase().as_str() {
            "?" => return,
            "c" | "k" => {
                let rest = inv.args[i + 1..].iter().map(|a| a.text.as_str());
                payload = Some(std::iter::once(attached).filter(|s| !s.is_empty()).chain(rest).collect::<Vec<_>>().join(" "));
                break;
            }
            _ => {}
        }
    }
    match payload {
        Some(p) if !p.trim().is_empty() => run(&p, inv.cwd.as_deref(), cx),
        // `cmd`, `cmd /k` with nothing to run: an interactive shell.
        _ => cx.hit_because(&UNMODELLED, "starts an interactive cmd shell, whose commands tiergate cannot see; run the commands with cmd /c".to_owned()),
    }
}

/// Classifies a cmd command line: statement by statement.
fn run(line: &str, cwd: Option<&str>, cx: &mut Cx<'_>) {
    let mut cwd = cwd.map(str::to_owned);
    for stmt in statements(line) {
        let Some(stmt) = stmt else {
            cx.hit_because(&UNMODELLED, "the cmd payload has a block `( … )`, which this model does not follow; run its commands directly".to_owned());
            continue;
        };
        let (mut words, writes) = words_of(&stmt);
        for target in writes {
            write(cx, &target, cwd.as_deref());
        }
        // `@dir`: the `@` only hides the echo.
        if let Some(first) = words.first_mut() {
            first.text = first.text.trim_start_matches('@').to_owned();
        }
        words.retain(|w| !w.text.is_empty() || w.quoted);
        let Some(first) = words.first() else { continue };
        let name = first.text.to_ascii_lowercase();
        match name.as_str() {
            "rem" | "::" | "setlocal" | "endlocal" | "cls" | "title" | "ver" | "vol" | "pause" => continue,
            "if" | "for" | "call" | "goto" | "start" => {
                cx.hit_because(&UNMODELLED, format!("`{name}` in a cmd payload runs what this model does not follow; run the commands directly"));
                continue;
            }
            _ => {}
        }
        if !first.exact {
            cx.hit_because(&UNMODELLED, format!("the cmd program word `{}` is built from a variable; write the program name literally", first.text));
            continue;
        }
        // `del^ x`, `"C:\Program Files\x.exe"`: which program cmd finds for a name
        // holding a space is not followed here.
        if first.text.contains(char::is_whitespace) {
            cx.hit_because(&UNMODELLED, format!("the cmd program word `{}` holds a space; run the program directly", first.text));
            continue;
        }
        // `C:\Tools\git.exe`: the path's last component names the program.
        if let Some(w) = words.first_mut() {
            w.text = w.text.replace('\\', "/");
        }
        if matches!(name.as_str(), "cd" | "chdir" | "pushd" | "popd") {
            // The directory the next statements run in is cmd's business now.
            cwd = None;
            continue;
        }
        cx.argv(&words, cwd.as_deref());
    }
}

/// A redirect target: the null device writes nothing; a drive, UNC or rooted
/// path or one built from a variable is outside the tree; a relative one is
/// judged by the path policy like any write.
fn write(cx: &mut Cx<'_>, target: &Arg, cwd: Option<&str>) {
    let t = target.text.as_str();
    if t.eq_ignore_ascii_case("nul") || t.eq_ignore_ascii_case("con") {
        return;
    }
    let drive = t.as_bytes().get(1) == Some(&b':');
    if drive || t.starts_with(['\\', '/']) || !target.exact {
        cx.hit_because(&super::windows::CHANGE, format!("the cmd payload writes `{t}`, outside the working tree; write inside the project instead"));
        return;
    }
    writes::check_write(cx, &Arg { text: t.replace('\\', "/"), ..target.clone() }, cwd);
}

/// Statements split at `&`, `&&`, `||`, `|` and newlines outside double quotes;
/// `None` for a statement holding a block (a `(` or `)` outside quotes).
fn statements(line: &str) -> Vec<Option<String>> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut block = false;
    let mut quoted = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                quoted = !quoted;
                cur.push(c);
            }
            '^' if !quoted => {
                cur.push('^');
                cur.extend(chars.next());
            }
            '&' | '|' | '\n' | '\r' if !quoted => {
                // `2>&1`, `>&2`: a duplication, not a separator.
                if c == '&' && cur.ends_with('>') {
                    cur.push(c);
                    continue;
                }
                out.push((!block).then(|| std::mem::take(&mut cur)));
                cur.clear();
                block = false;
            }
            '(' | ')' if !quoted => {
                block = true;
                cur.push(c);
            }
            _ => cur.push(c),
        }
    }
    out.push((!block).then_some(cur));
    out.retain(|s| s.as_ref().is_none_or(|s| !s.trim().is_empty()));
    out
}

/// A statement's words (quotes removed, `^x` read as `x`; a word with `%` or `!`
/// is not exact: cmd expands it) and the targets of its output redirections.
fn words_of(stmt: &str) -> (Vec<Arg>, Vec<Arg>) {
    let mut out = Words { words: Vec::new(), writes: Vec::new(), cur: None, redirect: None };
    let mut quoted = false;
    let mut chars = stmt.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                quoted = !quoted;
                out.word().quoted = true;
            }
            '^' if !quoted => out.word().text.extend(chars.next()),
            c if c.is_whitespace() && !quoted => out.finish(),
            '>' | '<' if !quoted => {
                // `2>`, `1>>`: the fd digit is part of the operator, not a word.
                if out.cur.as_ref().is_some_and(|w| w.text.len() == 1 && w.text.as_bytes()[0].is_ascii_digit() && !w.quoted) {
                    out.cur = None;
                }
                out.finish();
                if chars.peek() == Some(&'>') {
                    chars.next();
                }
                if chars.peek() == Some(&'&') {
                    // `>&2`, `2>&1`: a duplication; its digit is no word either.
                    chars.next();
                    while chars.peek().is_some_and(char::is_ascii_digit) {
                        chars.next();
                    }
                    continue;
                }
                out.redirect = Some(c == '>');
            }
            _ => {
                let w = out.word();
                if c == '%' || c == '!' {
                    w.exact = false;
                }
                w.text.push(c);
            }
        }
    }
    out.finish();
    (out.words, out.writes)
}

/// The words of a statement as `words_of` reads them.
struct Words {
    words: Vec<Arg>,
    writes: Vec<Arg>,
    /// The word being read, once it has a character or a quote.
    cur: Option<Arg>,
    /// The next word is the target of an output (true) or input (false) redirection.
    redirect: Option<bool>,
}

impl Words {
    fn word(&mut self) -> &mut Arg {
        self.cur.get_or_insert_with(|| Arg::lit(""))
    }

    fn finish(&mut self) {
        let Some(w) = self.cur.take() else { return };
        match self.redirect.take() {
            Some(true) => self.writes.push(w),
            Some(false) => {}
            None => self.words.push(w),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(v: &[Arg]) -> Vec<&str> {
        v.iter().map(|a| a.text.as_str()).collect()
    }

    #[test]
    fn statements_split_outside_quotes() {
        let s = statements("echo \"a & b\" & dir && del x || type y | more ^& z");
        let s: Vec<&str> = s.iter().map(|s| s.as_deref().unwrap_or("BLOCK").trim()).collect();
        assert_eq!(s, ["echo \"a & b\"", "dir", "del x", "type y", "more ^& z"]);
        assert_eq!(statements("(del x) & dir"), [None, Some(" dir".to_owned())]);
        assert_eq!(statements("dir 2>&1 | more").len(), 2);
    }

    #[test]
    fn words_and_redirections() {
        let (w, out) = words_of("@del /q \"C:\\Program Files\\x\" ^&y > log.txt 2>>err.txt <in.txt 2>&1");
        assert_eq!(texts(&w), ["@del", "/q", "C:\\Program Files\\x", "&y"]);
        assert_eq!(texts(&out), ["log.txt", "err.txt"]);
        let (w, _) = words_of("%COMSPEC% /c dir");
        assert!(!w[0].exact);
    }
}
