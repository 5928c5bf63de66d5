//! `sed`: in-place edits (`-i`, `-i.bak`, `-I`, `--in-place`, packed `-ni`) are
//! writes to the file operands; the script is scanned for commands that run a
//! shell (`e`, `s///e`) or write files (`w FILE`, `s///w FILE`).
//!
//! The scanner follows sed's grammar for addresses, `s`/`y` delimiters, labels and
//! text arguments. A script it cannot follow, or an unreadable `-f` file, is T3.

use super::wrote;
use crate::call::args::{ArgSpec, Args, Token};
use crate::call::{value_arg, Arg, Invocation};
use crate::rules::{Cx, FileText, Rule};
use crate::words;

/// ## What it matches
/// A sed script that runs commands (`e`, `s/…/…/e`), one tiergate cannot follow,
/// or a `-f` script file it cannot read.
/// ## Why this tier
/// The `e` command runs shell text with the user's rights; unseen scripts could.
pub(super) static EXEC: Rule = Rule::t3("coreutils.sed.exec")
    .reason("this sed script runs shell commands (the e command or s///e) or cannot be inspected; do the edit without e, or run the command directly")
    .matches(words![
        "sed 's/x/date/e' f", "sed '1e rm -rf build' f", "sed -f script.sed file.txt", "sed -n '/x/{e id\n}' f",
        "sed -i '3a\\\n  text\\\n  more\ne rm -rf build' f.py",
    ])
    .not_matches(words![
        "sed -n '1,20p' file.txt", "sed 's/foo/bar/' file.txt", "sed -e 's/a/b/' -e 's/c/d/' f", "sed --sandbox 's/a/b/' f", "sed 's/e/E/g' f",
        "sed '/^$/d' f", "sed -i '3a\\\n    else:\\\n        echo = 1' f.py", "sed -i '62,64c\\    elif e:\\\n        pass' f.py",
        "sed -i '/def x/i \\\n    @property' f.py", "sed '1i exit 0' f",
    ]);

/// sed's options: `-e SCRIPT`, `-f FILE` and `-l N` take a value, `-i[SUFFIX]` (also
/// `-I`, `--in-place[=SUFFIX]`) only an attached one; letters pack (`-ni`, `-ne 's/…/'`,
/// `-i.bak`).
pub(super) const SED_ARGS: ArgSpec =
    ArgSpec::values(words!["-e", "--expression", "-f", "--file", "-l", "--line-length"]).with_optional(words!["-i", "-I", "--in-place"]).packed();

pub(super) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    let cwd = inv.cwd.as_deref();
    let mut in_place = false;
    let mut scripts: Vec<String> = Vec::new();
    let mut unseen = false;
    // BSD `sed -i '' …`: the empty word right after a bare `-i` is the backup suffix.
    let mut suffix_at: Option<usize> = None;
    let mut files: Vec<&Arg> = Vec::new();
    for t in Args::parse(&inv.args, SED_ARGS) {
        match t {
            Token::Opt { index, name: "-e" | "--expression", value: Some(v) } => {
                let s = value_arg(&inv.args, index, v);
                scripts.push(placeholders(&s.text, s.exact));
            }
            Token::Opt { name: "-f" | "--file", value: Some(f), .. } => match cx.read(f, cwd) {
                FileText::Text(s) => scripts.push(s),
                _ => unseen = true,
            },
            Token::Opt { index, name: name @ ("-i" | "-I" | "--in-place"), value } => {
                in_place = true;
                suffix_at = (value.is_none() && name != "--in-place").then_some(index + 1);
            }
            Token::Operand(o) if suffix_at == Some(o.index) && o.arg.text.is_empty() => {}
            Token::Operand(o) => files.push(o.arg),
            _ => {}
        }
    }
    if scripts.is_empty() && !unseen && !files.is_empty() {
        let s = files.remove(0);
        scripts.push(placeholders(&s.text, s.exact));
    }
    let sandbox = inv.has_long("--sandbox");
    if unseen && !sandbox {
        cx.hit(&EXEC);
    }
    if !sandbox && !scripts.is_empty() {
        // sed reads its `-e` and `-f` scripts as one, a newline between each: the
        // text of `-e 'a\'` is the next `-e`.
        let script = scripts.join("\n");
        match scan(&script) {
            Some(found) => {
                for c in &found.commands {
                    cx.hit_because(&EXEC, "the sed script runs a shell command (e); do the edit without e, or run the command directly".to_owned());
                    if !c.is_empty() {
                        cx.shell(c, cwd);
                    }
                }
                if found.exec_pattern {
                    cx.hit_because(&EXEC, "s///e runs the edited line as a shell command; drop the e flag".to_owned());
                }
                for w in found.writes {
                    if !matches!(w.as_str(), "/dev/stdout" | "/dev/stderr") {
                        super::write_to(cx, &Arg::lit(&w), cwd);
                    }
                }
            }
            None => cx.hit_because(&EXEC, "tiergate could not follow this sed script, so it cannot rule out e or w commands; simplify it".to_owned()),
        }
    }
    if in_place {
        for f in &files {
            super::write_to(cx, f, cwd);
        }
        wrote(cx);
    }
}

/// The script with each `$NAME`/`${…}` replaced by a plain word. The variable's
/// value comes from the same shell that could have written an `e` itself, and
/// `$(…)` bodies are classified by the engine, so the placeholder only keeps the
/// grammar followable (`s/VERSION/$VERSION/`).
fn placeholders(text: &str, exact: bool) -> String {
    if exact || !text.contains('$') {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut it = text.chars().peekable();
    while let Some(c) = it.next() {
        if c != '$' {
            out.push(c);
            continue;
        }
        match it.peek() {
            Some('{') => {
                for d in it.by_ref() {
                    if d == '}' {
                        break;
                    }
                }
                out.push('x');
            }
            Some(d) if d.is_ascii_alphanumeric() || *d == '_' => {
                while it.peek().is_some_and(|d| d.is_ascii_alphanumeric() || *d == '_') {
                    it.next();
                }
                out.push('x');
            }
            _ => out.push('$'),
        }
    }
    out
}

/// What a sed script does besides editing the stream.
#[derive(Default)]
struct Found {
    /// `e cmd` bodies (empty: `e` alone runs the pattern space).
    commands: Vec<String>,
    /// `s///e`.
    exec_pattern: bool,
    /// Files named by `w`/`W` and `s///w`.
    writes: Vec<String>,
}

/// Scans a sed script; `None` when it does not follow sed's grammar.
fn scan(script: &str) -> Option<Found> {
    let s: Vec<char> = script.chars().collect();
    let mut f = Found::default();
    let mut i = 0;
    let n = s.len();
    let skip_ws = |i: &mut usize| {
        while *i < n && (s[*i] == ' ' || s[*i] == '\t') {
            *i += 1;
        }
    };
    let to_eol = |i: &mut usize| -> String {
        let start = *i;
        while *i < n && s[*i] != '\n' {
            *i += 1;
        }
        s[start..*i].iter().collect::<String>().trim().to_owned()
    };
    // Reads a delimited field ending at `d`, honouring backslash escapes.
    let field = |i: &mut usize, d: char| -> Option<()> {
        while *i < n {
            if s[*i] == '\\' {
                *i += 2;
                continue;
            }
            if s[*i] == d {
                *i += 1;
                return Some(());
            }
            if s[*i] == '\n' && d != '\n' {
                return None;
            }
            *i += 1;
        }
        None
    };
    while i < n {
        skip_ws(&mut i);
        if i >= n {
            break;
        }
        if matches!(s[i], ';' | '\n' | '}' | '{') {
            i += 1;
            continue;
        }
        if s[i] == '#' {
            to_eol(&mut i);
            continue;
        }
        // Address: up to two of number, `$`, `/re/`, `\cREc`, with `,`, `~`, `+`, and `!`.
        for _ in 0..2 {
            skip_ws(&mut i);
            if i < n && s[i].is_ascii_digit() {
                while i < n && (s[i].is_ascii_digit() || s[i] == '~') {
                    i += 1;
                }
            } else if i < n && s[i] == '$' {
                i += 1;
            } else if i < n && s[i] == '/' {
                i += 1;
                field(&mut i, '/')?;
                while i < n && matches!(s[i], 'I' | 'M') {
                    i += 1;
                }
            } else if i + 1 < n && s[i] == '\\' {
                let d = s[i + 1];
                i += 2;
                field(&mut i, d)?;
            } else if i < n && s[i] == '+' {
                i += 1;
                while i < n && s[i].is_ascii_digit() {
                    i += 1;
                }
            }
            skip_ws(&mut i);
            if i < n && s[i] == ',' {
                i += 1;
                continue;
            }
            break;
        }
        skip_ws(&mut i);
        while i < n && s[i] == '!' {
            i += 1;
            skip_ws(&mut i);
        }
        if i >= n {
            return None;
        }
        let c = s[i];
        i += 1;
        match c {
            '{' | '}' | ';' | '\n' => {}
            's' => {
                let d = *s.get(i)?;
                if d == '\n' || d == '\\' {
                    return None;
                }
                i += 1;
                field(&mut i, d)?;
                field(&mut i, d)?;
                while i < n && !matches!(s[i], ';' | '\n' | '}') {
                    match s[i] {
                        'e' => f.exec_pattern = true,
                        'w' => {
                            i += 1;
                            skip_ws(&mut i);
                            f.writes.push(to_eol(&mut i));
                            break;
                        }
                        ' ' | '\t' => {}
                        x if x.is_ascii_digit() || "gpiImM".contains(x) => {}
                        _ => return None,
                    }
                    i += 1;
                }
            }
            'y' => {
                let d = *s.get(i)?;
                i += 1;
                field(&mut i, d)?;
                field(&mut i, d)?;
            }
            'e' => {
                skip_ws(&mut i);
                let cmd = to_eol(&mut i);
                f.commands.push(cmd);
            }
            'w' | 'W' => {
                skip_ws(&mut i);
                f.writes.push(to_eol(&mut i));
            }
            'r' | 'R' => {
                to_eol(&mut i);
            }
            // `a\`, `i\` and `c\` take text, which is data: after the command and
            // blanks, the text runs to the first newline no backslash escapes
            // (`1a\⏎line\⏎line` is two lines; GNU's one-liner `1a text` is one).
            // What follows is script again. GNU sed takes the one character after
            // `a\` as it is: a newline starts the text on the next line, anything
            // else (a blank, a second backslash) is the text's first character, so
            // `1a\ ⏎e CMD` and `1a\\⏎e CMD` run CMD (GNU sed 4.9 does).
            'a' | 'i' | 'c' => {
                skip_ws(&mut i);
                if i < n && s[i] == '\\' {
                    i = (i + 2).min(n);
                }
                while i < n && s[i] != '\n' {
                    i += if s[i] == '\\' { 2 } else { 1 };
                }
            }
            'b' | 't' | 'T' | ':' => {
                while i < n && !matches!(s[i], ';' | '\n') {
                    i += 1;
                }
            }
            'q' | 'Q' | 'l' | 'L' => {
                skip_ws(&mut i);
                while i < n && s[i].is_ascii_digit() {
                    i += 1;
                }
            }
            'd' | 'D' | 'p' | 'P' | 'n' | 'N' | 'g' | 'G' | 'h' | 'H' | 'x' | '=' | 'z' | 'F' => {}
            _ => return None,
        }
    }
    Some(f)
}
