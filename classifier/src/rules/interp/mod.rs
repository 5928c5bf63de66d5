//! The `interp` family: language interpreters (Python, Node/Deno, Ruby, Perl,
//! PHP, Lua, R, awk, Tcl, Groovy, PowerShell, osascript). It turns each
//! interpreter's argv into where the code comes from — inline flags (`-c`, `-e`),
//! a heredoc or here-string, a script file, a module (`python -m`) — and hands
//! the code to the analysers (`code.rs`); script files go through `script.rs`,
//! which also runs `./script` direct execution for the dispatcher.
//!
//! Piped stdin into an interpreter (`curl … | python3`) is the `flow` family's job.

use crate::rules::vocab::input;
use crate::words;
use crate::words::Words;

mod code;
mod opaque;
mod others;
mod preload;
mod pwsh;
mod python;
mod script;

pub(crate) use script::{direct_exec, runs_as_script};

use crate::lanes::scripts::lang_of_program;

use crate::call::args::{ArgSpec, Args, Help, Token};
use crate::call::{value_arg, Arg, Invocation};
use crate::lanes::scripts::Lang;
use crate::rules::vocab::writes;
use crate::rules::{Card, Cx, Family, FileText, InputUse, Rule, Traits};

/// ## What it matches
/// Inline code held in a variable or substitution (`python3 -c "$CODE"`).
/// ## Why this tier
/// The code that runs is not visible.
pub static UNSEEN: Rule = Rule::t3("interp.code.unseen")
    .reason("the code comes from a variable or substitution, so it cannot be checked; write it out literally")
    .matches(words!["python3 -c \"$CODE\"", "node -e \"$(cat x.js)\"", "python3 <<EOF\nprint(\"$HOME\")\nEOF"])
    .not_matches(words!["python3 -c 'print(1)'"]);

pub static FAMILY: Family = Family::new("interp", CARDS, RULES);

static CARDS: &[Card] = &[
    // Versioned names (`python3.12`, `pypy3.10`, `ruby3.2`, `php8.3`, `lua5.4`, `perl5`, `node22`) are these programs.
    Card::of(words!["python", "python2", "python3", "pypy", "pypy3", "ipython", "ipython3", "bpython", "ptpython",], python::check)
        .versioned()
        .traits(Traits::INTERPRETER)
        .input(InputUse::Code(reads_code)),
    Card::of(words!["awk", "gawk", "mawk", "nawk"], others::awk),
    Card::of(words!["deno"], others::deno).traits(Traits::INTERPRETER).input(InputUse::Code(reads_code)),
    Card::of(words!["R"], others::r),
    Card::of(words!["pwsh", "powershell", "powershell.exe", "pwsh.exe"], others::pwsh).traits(Traits::INTERPRETER).input(InputUse::Code(reads_code)),
    // Languages without an analyser: their code is gated unseen.
    Card::of(opaque::NAMES, opaque::check),
    Card::of(
        words!["node", "nodejs", "ruby", "perl", "php", "lua", "luajit", "Rscript", "osascript", "tclsh", "wish", "groovy", "tsx", "ts-node", "jruby", "irb",],
        others::check,
    )
    .versioned()
    .traits(Traits::INTERPRETER)
    .input(InputUse::Code(reads_code)),
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
    &preload::NATIVE,
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
    .matches(words![
        "python3", "node", "python3 -i", "python3 -", "lua -i config.lua", "python3 -m pdb app.py", "julia", "irb", "deno", "deno repl",
        "pwsh -NoExit -c 'Get-Date'",
    ])
    .not_matches(words!["python3 --version", "python3 -c 'print(1)'"]);

/// ## What it matches
/// `--version`, `-V`, `--help` on an interpreter.
/// ## Why this tier
/// Prints information only.
pub static VERSION: Rule = Rule::t0("interp.version")
    .reason("prints the interpreter's version or help")
    .matches(words![
        "python3 --version", "node -v", "ruby --version", "perl -v", "deno --version", "irb --version", "R --version", "pwsh -v", "awk --version", "awk",
        "julia --version",
    ])
    .not_matches(words!["python3"]);

/// ## What it matches
/// Syntax checks and byte-compilation that never run the code: `node --check`, `python3 -m py_compile`, `perl -c`, `ruby -c`, `php -l`.
/// ## Why this tier
/// Local validation.
pub static SYNTAX_CHECK: Rule = Rule::t1("interp.syntax-check")
    .reason("syntax check only; the code does not run")
    .matches(words!["node --check app.js", "python3 -m py_compile src/app.py", "perl -c script.pl", "ruby -c x.rb", "php -l index.php"])
    .not_matches(words!["node app.js"]);

/// True when an interpreter takes the code it runs from its stdin (`curl … | python3
/// -W ignore`, `… | perl -p`); `None` for one whose options are not read here.
pub(crate) fn reads_code_from_stdin(inv: &Invocation) -> Option<bool> {
    match lang_of_program(&inv.program) {
        Some(Lang::Python) => Some(python::reads_code_from_stdin(inv)),
        _ => others::reads_code_from_stdin(inv),
    }
}

/// True when an interpreter stage reads the code it runs from its input (`… | python3`,
/// `… | node -`, `… | pwsh -c -`), as the flow pass asks of a pipeline: the interpreter
/// cards declare it (`InputUse::Code`).
pub(crate) fn reads_code(inv: &Invocation) -> bool {
    let p = inv.program.as_str();
    // `pwsh -Command -`, `powershell -c -`, `pwsh -File -`: the code is read from stdin.
    if matches!(p, "pwsh" | "powershell") {
        let words: Vec<String> = inv.words().map(str::to_ascii_lowercase).collect();
        if words.windows(2).any(|w| matches!(w[0].as_str(), "-c" | "-command" | "/c" | "-f" | "-file") && w[1] == "-") {
            return true;
        }
    }
    if let Some(reads) = reads_code_from_stdin(inv) {
        return reads;
    }
    // deno, bun, pwsh: no inline code and no operand.
    input::reads_code_unless(inv, inline_flags(p))
}

/// The options that give an interpreter its code inline (or a module to run).
pub(crate) fn inline_flags(program: &str) -> Words {
    match program {
        "node" | "nodejs" | "deno" | "bun" => words!["-e", "--eval", "-p", "--print"],
        "perl" => words!["-e", "-E", "-n", "-p"],
        "ruby" => words!["-e", "-n", "-p"],
        "php" => words!["-r", "-R"],
        "lua" => words!["-e"],
        "Rscript" => words!["-e"],
        _ => words!["-c", "-m"],
    }
}

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
    /// `ruby -v`, `lua -v` with nothing else to run: a version, which the
    /// interpreter may still follow by reading stdin on some builds.
    pub version_then_run: bool,
    pub repl: bool,
    /// `perl -i`, `ruby -i`, `gawk -i inplace`: the operands are rewritten.
    pub in_place: bool,
    /// Index of the first operand after the options (and after inline code).
    pub rest: usize,
}

/// One interpreter's option table.
pub(crate) struct Spec {
    pub lang: Lang,
    /// How its argv reads: value-taking options (the code options among them),
    /// packed letters for Perl/Ruby (`-pi.bak -e`, `-lane`), and the script operand
    /// ends the options.
    pub args: ArgSpec,
    pub code: Words,
    pub syntax: Words,
    /// Help and version words that print and run nothing (an option word anywhere
    /// before the script: `node --no-warnings --version`).
    pub version: Help,
    /// Other options that only print (`node --v8-options`, `php -m`).
    pub prints: Words,
    /// Options that print the version and still run whatever code is given
    /// (`ruby -v x.rb`, `lua -v -e CODE`): a version only when nothing else is.
    pub version_then_run: Words,
    pub repl: Words,
}

/// Parses options up to the script operand.
pub(crate) fn parse(inv: &Invocation, spec: &Spec) -> Source {
    let args = &inv.args;
    let mut s = Source::default();
    let mut i = args.len();
    let mut version_then_run = false;
    for t in Args::parse(args, spec.args) {
        match t {
            Token::Opt { index, name, value } if spec.code.contains(name) => s.code.extend(value.map(|v| value_arg(args, index, v))),
            // `perl -i.bak`, `ruby -i`: the operands are rewritten.
            Token::Opt { name: "-i", .. } if spec.args.optional.contains("-i") => s.in_place = true,
            // `-` is the script operand that means stdin.
            Token::Operand(o) => {
                s.stdin = o.arg.text == "-";
                i = o.index + usize::from(s.stdin);
                break;
            }
            Token::DashDash(d) => {
                i = d + 1;
                break;
            }
            Token::Missing { .. } => break,
            _ => {
                let name = t.name().unwrap_or("");
                if spec.version.holds(name) || spec.prints.contains(name) {
                    s.version = true;
                    return s;
                }
                version_then_run |= spec.version_then_run.contains(name);
                s.syntax_only |= spec.syntax.contains(name);
                s.repl |= spec.repl.contains(name);
            }
        }
    }
    s.rest = i.min(args.len());
    if s.code.is_empty() && !s.stdin && i < args.len() {
        s.script = Some(i);
        s.rest = i + 1;
    }
    s.version = version_then_run && s.code.is_empty() && s.script.is_none();
    s.version_then_run = s.version;
    s
}

/// Runs a parsed interpreter call: version, syntax check, inline code, script, stdin.
pub(crate) fn run(inv: &Invocation, cx: &mut Cx<'_>, spec: &Spec, s: &Source) {
    // `php -d extension=x.so -v`: PHP loads its extensions before it prints anything.
    preload::startup(inv, cx, spec);
    if s.version {
        cx.hit(&VERSION);
        return;
    }
    if s.syntax_only && !perl_compiles(inv, cx, spec, s) {
        cx.hit(&SYNTAX_CHECK);
        return;
    }
    // `node -r ./x`, `ruby -r./x`, `perl -MFoo`, `lua -l mod`: loaded before the code runs.
    preload::check(inv, cx, spec);
    if s.in_place {
        // The files after the code: perl and ruby stop reading switches there.
        for o in Args::parse(&inv.args, ArgSpec::values(words![])).starting_at(s.rest).operands() {
            writes::check_write(cx, o.arg, inv.cwd.as_deref());
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

/// `perl -c` is not only a check: Perl still runs what it runs while compiling,
/// `BEGIN`, `UNITCHECK` and `CHECK` blocks, the modules `use`/`no` and `-M` load
/// (perlrun). Such code is judged as if it ran; so is a script that is there but
/// cannot be read (a missing one makes perl stop before anything runs). Other
/// languages' checks run nothing.
#[inline(never)] // out of `run`'s frame, which every nested interpreter pays for (worst cases)
fn perl_compiles(inv: &Invocation, cx: &mut Cx<'_>, spec: &Spec, s: &Source) -> bool {
    if !matches!(spec.lang, Lang::Perl) {
        return false;
    }
    let names = preload::preload_options(spec.lang);
    let preloads = Args::parse(&inv.args, spec.args).any(|t| matches!(t, Token::Opt { name, .. } if names.contains(name)));
    let text = if !s.code.is_empty() {
        s.code.iter().map(|a| a.text.as_str()).collect::<Vec<_>>().join("\n")
    } else if let Some(idx) = s.script {
        match cx.read(&inv.args[idx].text, inv.cwd.as_deref()) {
            FileText::Text(t) => t,
            FileText::Missing => return false,
            FileText::Unusable(_) => return true,
        }
    } else {
        match input::of(inv) {
            input::Source::Shown { text, .. } => text.to_owned(),
            _ => return true,
        }
    };
    preloads || perl_compile_phase(&text)
}

/// Perl pragmas that load nothing of the project's (`use strict;`, `use 5.010;`).
const PERL_PRAGMAS: &[&str] =
    &["strict", "warnings", "utf8", "feature", "vars", "integer", "bytes", "less", "sort", "subs", "locale", "open", "diagnostics", "lib", "constant"];

/// True when `code` holds a compile-time block, or a `use`/`no` of something other
/// than a pragma or a version. Read word by word, strings and comments included:
/// a match there only makes `perl -c` judged as a run.
fn perl_compile_phase(code: &str) -> bool {
    let mut words = code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':' || c == '.')).filter(|w| !w.is_empty());
    while let Some(w) = words.next() {
        match w {
            "BEGIN" | "UNITCHECK" | "CHECK" => return true,
            "use" | "no" => match words.next() {
                Some(m) if m.starts_with(|c: char| c.is_ascii_digit() || c == 'v') && m[1..].chars().all(|c| c.is_ascii_digit() || c == '.') => {}
                Some(m) if PERL_PRAGMAS.contains(&m) => {}
                _ => return true,
            },
            _ => {}
        }
    }
    false
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
    match input::of(inv) {
        input::Source::Shown { text, expands, .. } => {
            if expands && expands_shell(text) {
                cx.hit_because(
                    &UNSEEN,
                    "the heredoc is unquoted, so the shell expands `$…` inside the code before it runs; quote the delimiter (<<'EOF')".to_owned(),
                );
            }
            code::classify(inv, cx, lang, text, code::Origin::Body)
        }
        input::Source::File(path) => script::run_path(inv, cx, path, Some(lang), inv.args.len()),
        // `… | python3`: the `flow` family judges the pipeline.
        input::Source::Pipe => {}
        input::Source::None => cx.hit(&REPL),
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

crate::tables![; opaque, others, pwsh, python, script];
