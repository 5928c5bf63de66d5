//! The `interp` family: language interpreters (Python, Node/Deno, Ruby, Perl,
//! PHP, Lua, R, awk, Tcl, Groovy, PowerShell, osascript). It turns each
//! interpreter's argv into where the code comes from — inline flags (`-c`, `-e`),
//! a heredoc or here-string, a script file, a module (`python -m`) — and hands
//! the code to the analysers (`code.rs`); script files go through `script.rs`,
//! which also runs `./script` direct execution for the dispatcher.
//!
//! Piped stdin into an interpreter (`curl … | python3`) is the `flow` family's job.

mod code;
mod opaque;
mod others;
mod pwsh;
mod python;
mod script;

pub(crate) use script::{direct_exec, runs_as_script};

use crate::lanes::scripts::lang_of_program;

use crate::call::{Arg, Invocation, Stdin};
use crate::lanes::scripts::Lang;
use crate::rules::{paths, Cx, Family, Programs, Rule};

/// ## What it matches
/// Inline code held in a variable or substitution (`python3 -c "$CODE"`).
/// ## Why this tier
/// The code that runs is not visible.
pub static UNSEEN: Rule = Rule::t3("interp.code.unseen")
    .reason("the code comes from a variable or substitution, so it cannot be checked; write it out literally")
    .matches(&["python3 -c \"$CODE\"", "node -e \"$(cat x.js)\""])
    .not_matches(&["python3 -c 'print(1)'"]);

pub static FAMILY: Family = Family::new("interp", PROGRAMS, RULES);

static PROGRAMS: &[Programs] = &[
    Programs::of(
        &[
            "python", "python2", "python3", "python3.6", "python3.7", "python3.8", "python3.9", "python3.10", "python3.11", "python3.12", "python3.13",
            "python3.14", "python2.7", "pypy", "pypy3", "ipython", "ipython3", "bpython", "ptpython",
        ],
        python::check,
    ),
    Programs::of(&["awk", "gawk", "mawk", "nawk"], others::awk),
    Programs::of(&["deno"], others::deno),
    Programs::of(&["R"], others::r),
    Programs::of(&["pwsh", "powershell", "powershell.exe", "pwsh.exe"], others::pwsh),
    // Languages without an analyser: their code is gated unseen.
    Programs::of(&opaque::NAMES, opaque::check),
    Programs::of(
        &[
            "lua5.1", "lua5.2", "lua5.3", "lua5.4", "php7.4", "php8.0", "php8.1", "php8.2", "php8.3", "php8.4", "ruby3.0", "ruby3.1", "ruby3.2", "ruby3.3",
            "perl5", "node", "nodejs", "ruby", "perl", "php", "lua", "luajit", "Rscript", "osascript", "tclsh", "wish", "groovy", "tsx", "ts-node", "jruby",
            "irb",
        ],
        others::check,
    ),
];

static RULES: &[&Rule] = &[
    &code::READ,
    &code::DELETE,
    &code::WRITE,
    &code::MOVE,
    &code::CHMOD,
    &code::NETWORK,
    &code::PROCESS,
    &code::INSTALL,
    &code::EXEC_UNSEEN,
    &code::DYNAMIC,
    &code::UNPARSED,
    &code::LONG,
    &UNSEEN,
    &code::MUTATE,
    &opaque::CODE,
    &opaque::SHELL_ESCAPE,
    &REPL,
    &VERSION,
    &SYNTAX_CHECK,
    &python::MODULE_TEST,
    &python::MODULE_READ,
    &python::MODULE_SERVER,
    &python::VENV,
    &others::NODE_TEST,
    &others::NODE_INSPECT,
    &others::DENO_TASK,
    &others::PHP_SERVER,
    &others::R_CMD_INSTALL,
    &script::READ,
    &script::UNREADABLE,
    &script::UNKNOWN_INTERPRETER,
    &script::DRY_RUN,
    &script::MUTATING_VERB,
];

/// ## What it matches
/// An interpreter started with no code to run (`python3`, `node`, `python3 -i x.py`, `python3 -`): it reads code tiergate cannot see.
/// ## Why this tier
/// An interactive interpreter can run anything.
pub static REPL: Rule = Rule::t3("interp.repl")
    .reason("starts an interpreter whose code is not visible; run the code with -c/-e or as a script file")
    .matches(&["python3", "node", "python3 -i", "python3 -"])
    .not_matches(&["python3 --version", "python3 -c 'print(1)'"]);

/// ## What it matches
/// `--version`, `-V`, `--help` on an interpreter.
/// ## Why this tier
/// Prints information only.
pub static VERSION: Rule = Rule::t0("interp.version")
    .reason("prints the interpreter's version or help")
    .matches(&["python3 --version", "node -v", "ruby --version", "perl -v", "deno --version"])
    .not_matches(&["python3"]);

/// ## What it matches
/// Syntax checks and byte-compilation that never run the code: `node --check`, `python3 -m py_compile`, `perl -c`, `ruby -c`, `php -l`.
/// ## Why this tier
/// Local validation.
pub static SYNTAX_CHECK: Rule = Rule::t1("interp.syntax-check")
    .reason("syntax check only; the code does not run")
    .matches(&["node --check app.js", "python3 -m py_compile src/app.py", "perl -c script.pl", "ruby -c x.rb", "php -l index.php"])
    .not_matches(&["node app.js"]);

/// Where an interpreter's code comes from, after its options.
#[derive(Default)]
pub(crate) struct Source {
    /// Inline code arguments (`-e CODE`, several are joined by newlines).
    pub code: Vec<Arg>,
    /// Index of the script operand, when code comes from a file.
    pub script: Option<usize>,
    /// `-` was given: code comes from stdin.
    pub stdin: bool,
    pub syntax_only: bool,
    pub version: bool,
    pub repl: bool,
    /// `perl -i`, `ruby -i`, `gawk -i inplace`: the operands are rewritten.
    pub in_place: bool,
    /// Index of the first operand after the options (and after inline code).
    pub rest: usize,
}

/// One interpreter's option table.
pub(crate) struct Spec {
    pub lang: Lang,
    pub code: &'static [&'static str],
    pub value: &'static [&'static str],
    pub syntax: &'static [&'static str],
    pub version: &'static [&'static str],
    pub repl: &'static [&'static str],
    /// Perl/Ruby-style packed short options (`-pi.bak -e`, `-ne`).
    pub packed: bool,
}

/// Parses options up to the script operand.
pub(crate) fn parse(inv: &Invocation, spec: &Spec) -> Source {
    let args = &inv.args;
    let mut s = Source::default();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].text.as_str();
        if a == "--" {
            i += 1;
            break;
        }
        if a == "-" {
            s.stdin = true;
            i += 1;
            break;
        }
        if !a.starts_with('-') || a.len() == 1 {
            break;
        }
        let (name, inline) = match a.split_once('=') {
            Some((n, v)) if a.starts_with("--") => (n, Some(v)),
            _ => (a, None),
        };
        if spec.version.contains(&name) {
            s.version = true;
            return s;
        }
        if spec.code.contains(&name) {
            match (inline, args.get(i + 1)) {
                (Some(v), _) => s.code.push(Arg { text: v.to_owned(), ..args[i].clone() }),
                (None, Some(next)) => s.code.push(next.clone()),
                (None, None) => {}
            }
            i += if inline.is_some() { 1 } else { 2 };
            continue;
        }
        if spec.syntax.contains(&name) {
            s.syntax_only = true;
            i += 1;
            continue;
        }
        if spec.repl.contains(&name) {
            s.repl = true;
            i += 1;
            continue;
        }
        if spec.value.contains(&name) {
            i += if inline.is_some() { 1 } else { 2 };
            continue;
        }
        if spec.packed && !a.starts_with("--") {
            i = packed(args, i, &mut s);
            continue;
        }
        i += 1;
    }
    s.rest = i.min(args.len());
    if s.code.is_empty() && !s.stdin && i < args.len() {
        s.script = Some(i);
        s.rest = i + 1;
    }
    s
}

/// Perl/Ruby packed short options: `-ne CODE`, `-pi.bak`, `-Mstrict`, `-l0`, `-lane`.
fn packed(args: &[Arg], i: usize, s: &mut Source) -> usize {
    let word = &args[i].text;
    let letters: Vec<char> = word[1..].chars().collect();
    let mut k = 0;
    while k < letters.len() {
        let c = letters[k];
        let rest: String = letters[k + 1..].iter().collect();
        match c {
            'e' | 'E' => {
                if rest.is_empty() {
                    if let Some(next) = args.get(i + 1) {
                        s.code.push(next.clone());
                    }
                    return i + 2;
                }
                s.code.push(Arg { text: rest, ..args[i].clone() });
                return i + 1;
            }
            'i' => {
                s.in_place = true;
                return i + 1;
            }
            'c' => s.syntax_only = true,
            'v' if letters.len() == 1 => s.version = true,
            // `-l`, `-0` take optional octal/hex digits, then more switches may follow.
            'l' | '0' => {
                while letters.get(k + 1).is_some_and(|d| d.is_ascii_hexdigit() && !matches!(d, 'a' | 'e' | 'c' | 'd' | 'E')) {
                    k += 1;
                }
            }
            'M' | 'm' | 'I' | 'x' | 'd' | 'D' | 'C' | 'F' | 'K' | 'T' => {
                // The rest of the word is this option's value; Ruby's `-r lib`/`-I dir` may take the next word.
                if rest.is_empty() && matches!(c, 'I' | 'M') {
                    return i + 2;
                }
                return i + 1;
            }
            'r' => return if rest.is_empty() { i + 2 } else { i + 1 },
            _ => {}
        }
        k += 1;
    }
    i + 1
}

/// Runs a parsed interpreter call: version, syntax check, inline code, script, stdin.
pub(crate) fn run(inv: &Invocation, cx: &mut Cx<'_>, spec: &Spec, s: &Source) {
    if s.version {
        cx.hit(&VERSION);
        return;
    }
    if s.syntax_only {
        cx.hit(&SYNTAX_CHECK);
        return;
    }
    if s.in_place {
        let operands = inv.args.iter().skip(s.rest).filter(|a| !a.is_flag());
        for a in operands.cloned().collect::<Vec<_>>() {
            paths::check_write(cx, &a, inv.cwd.as_deref());
        }
    }
    if s.repl {
        cx.hit(&REPL);
    }
    if !s.code.is_empty() {
        inline(inv, cx, spec.lang, &s.code);
        return;
    }
    if let Some(idx) = s.script {
        script::run_operand(inv, cx, idx, Some(spec.lang));
        return;
    }
    from_stdin(inv, cx, spec.lang);
}

/// Classifies inline code arguments.
pub(crate) fn inline(inv: &Invocation, cx: &mut Cx<'_>, lang: Lang, code: &[Arg]) {
    // PowerShell code is full of `$_`/`$x` that bash leaves unresolved inside double
    // quotes; its command words are still visible unless the code starts with one.
    let pwsh_visible =
        lang == Lang::PowerShell && code.iter().all(|a| !a.text.trim_start().starts_with('$') && !a.text.contains("$(") && !a.text.contains('`'));
    let src: Vec<&str> = code.iter().map(|a| a.text.as_str()).collect();
    if code.iter().any(|a| !a.exact) && !pwsh_visible {
        // The expansion's value becomes code (or breaks out of a string literal), so
        // it is unseen; the visible rest is still read, so a blocked call stays blocked.
        cx.hit(&UNSEEN);
        if src.iter().all(|s| s.trim().starts_with('$')) {
            return;
        }
    }
    code::classify(inv, cx, lang, &src.join("\n"), code::Origin::Inline);
}

/// True when an expanding heredoc's body holds a shell expansion (`$X`, `${X}`, `$(…)`, backticks).
fn expands_shell(body: &str) -> bool {
    let b = body.as_bytes();
    b.iter().enumerate().any(|(i, &c)| (c == b'$' && b.get(i + 1).is_some_and(|n| n.is_ascii_alphabetic() || matches!(n, b'_' | b'{' | b'('))) || c == b'`')
}

/// Code read from stdin: a heredoc or here-string is analysed, `< file` is read as a script.
pub(crate) fn from_stdin(inv: &Invocation, cx: &mut Cx<'_>, lang: Lang) {
    match &inv.stdin {
        Stdin::Heredoc { body, expands } => {
            if *expands && expands_shell(body) {
                cx.hit_because(
                    &UNSEEN,
                    "the heredoc is unquoted, so the shell expands `$…` inside the code before it runs; quote the delimiter (<<'EOF')".to_owned(),
                );
            }
            code::classify(inv, cx, lang, body, code::Origin::Body)
        }
        Stdin::HereString(s) => code::classify(inv, cx, lang, s, code::Origin::Body),
        Stdin::File(path) => {
            let path = path.clone();
            script::run_path(inv, cx, &path, Some(lang), inv.args.len());
        }
        // `… | python3`: the `flow` family judges the pipeline.
        Stdin::Pipe { .. } => {}
        Stdin::None => cx.hit(&REPL),
    }
}

/// For the `flow` family: code a pipeline feeds an interpreter from literal text
/// (`echo "import os; os.system('rm -rf /')" | python3`). Classifies the text as
/// that interpreter's code; does nothing for programs that are not interpreters.
pub fn classify_piped_code(cx: &mut Cx<'_>, interpreter: &Invocation, text: &str) {
    if let Some(lang) = lang_of_program(&interpreter.program) {
        code::classify(interpreter, cx, lang, text, code::Origin::Body);
    }
}
