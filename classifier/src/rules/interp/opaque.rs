//! Interpreters and REPLs whose languages tiergate has no analyser for (julia,
//! guile, octave, gnuplot, Haskell, Lisps, Erlang/Elixir, JVM REPLs, expect …)
//! and shells that are not POSIX (xonsh, nu, elvish …). Their code is unseen, so
//! inline code, a script and a bare REPL are all T3; `--version`/`--help` stay
//! free. `dc` and `m4` are read: only their shell escapes (`!`, `syscmd`) gate.

use crate::call::args::{ArgSpec, Args, Token};
use crate::call::{Invocation, Stdin};
use crate::rules::{Cx, FileText, Rule};

use super::{REPL, VERSION};

/// ## What it matches
/// Inline code, a script or piped code for an interpreter tiergate has no analyser for: `julia -e …`, `guile -c …`, `octave --eval …`, `racket x.rkt`, `erl -eval …`, `nu -c …`, `expect -c …`.
/// ## Why this tier
/// Code tiergate cannot read can do anything; unknown is never safe.
pub static CODE: Rule = Rule::t3("interp.opaque-code")
    .reason("runs code in a language tiergate does not analyse; review it and ask the user, or do the step with a command tiergate can check")
    .matches(&[
        "julia -e 'run(`ls`)'", "guile -c '(display 1)'", "octave --eval 'disp(1)'", "gnuplot -e 'plot sin(x)'", "racket script.rkt", "erl -eval 'halt().'",
        "elixir -e 'IO.puts 1'", "jrunscript -e 'print(1)'", "expect -c 'spawn ls'", "nu -c 'ls'", "sbcl --script x.lisp", "runghc x.hs",
        "julia <<< 'println(1)'",
    ])
    .not_matches(&["julia --version", "ghc --version", "erl -version"]);

/// ## What it matches
/// `dc` code with `!` (runs a shell command) and `m4` input with `syscmd`/`esyscmd`, or input that cannot be seen.
/// ## Why this tier
/// These calculators and macro processors shell out through those commands.
pub static SHELL_ESCAPE: Rule = Rule::t3("interp.shell-escape")
    .reason("the calculator or macro input runs a shell command (dc `!`, m4 `syscmd`/`esyscmd`), or cannot be seen; run the command directly")
    .matches(&["dc -e '!ls'", "m4 <<< 'syscmd(ls)'", "m4 macros.m4"])
    .not_matches(&["dc -e '2 3 + p'", "m4 <<< 'define(x, 1)x'"]);

/// One interpreter: its names and the options that take code or a value.
struct Opaque {
    names: &'static [&'static str],
    /// Options whose value is code (or a code file) to run.
    code: &'static [&'static str],
    /// Options that print a version or help and run nothing.
    version: &'static [&'static str],
}

static OPAQUE: &[Opaque] = &[
    Opaque { names: &["julia"], code: &["-e", "--eval", "-E", "--print", "-L", "--load"], version: &["-v", "--version", "-h", "--help"] },
    Opaque { names: &["guile"], code: &["-c", "-l", "-s", "-x"], version: &["-v", "--version", "-h", "--help"] },
    Opaque { names: &["octave", "octave-cli"], code: &["--eval"], version: &["-v", "--version", "-h", "--help"] },
    Opaque { names: &["gnuplot"], code: &["-e"], version: &["-V", "--version", "-h", "--help"] },
    Opaque { names: &["ghc"], code: &["-e", "--interactive"], version: &["--version", "--numeric-version", "--help", "--info"] },
    Opaque { names: &["ghci", "runghc", "runhaskell", "stack-runghc"], code: &["-e"], version: &["--version", "--numeric-version", "--help"] },
    Opaque { names: &["sbcl", "ecl", "ccl", "ccl64"], code: &["--eval", "-eval", "--load", "-load", "--script", "-shell"], version: &["--version", "--help"] },
    Opaque { names: &["clisp"], code: &["-x", "-i"], version: &["--version", "--help", "-h"] },
    Opaque {
        names: &["racket", "scheme", "chez", "chezscheme", "petite", "mit-scheme", "csi", "gsi", "chibi-scheme", "gosh", "plt-r5rs"],
        code: &["-e", "--eval", "-f", "--load", "-r", "-t", "-l", "-s", "--script"],
        version: &["--version", "-v", "-h", "--help"],
    },
    Opaque { names: &["erl", "escript"], code: &["-eval", "-s", "-run", "-S"], version: &["-version", "+V"] },
    Opaque { names: &["elixir"], code: &["-e", "--eval", "-r", "-S", "--rpc-eval"], version: &["-v", "--version", "-h", "--help"] },
    Opaque {
        names: &["scala", "scala-cli", "amm", "groovysh", "kotlin", "kotlinc-jvm", "kscript"],
        code: &["-e", "-script", "-c"],
        version: &["-version", "--version", "-help", "--help"],
    },
    Opaque { names: &["jshell", "jrunscript", "jjs"], code: &["-e", "-f", "--startup"], version: &["-version", "--version", "-help", "--help", "-?"] },
    Opaque { names: &["clojure", "clj", "bb", "lein-repl"], code: &["-e", "--eval", "-M", "-X", "-i", "--init"], version: &["--version", "-h", "--help"] },
    Opaque {
        names: &["ocaml", "utop", "sml", "poly", "swipl", "gprolog", "yap"],
        code: &["-e", "-g", "--eval", "-init"],
        version: &["-version", "--version", "-help", "--help"],
    },
    Opaque { names: &["raku", "perl6", "rakudo"], code: &["-e", "-M"], version: &["-v", "--version", "-h", "--help"] },
    // Compilers that also run: only their run forms are code (see `COMPILE_ONLY`).
    Opaque { names: &["tcc"], code: &["-run"], version: &["-v", "-h", "--help"] },
    Opaque { names: &["kotlinc"], code: &["-script", "-e", "-expression"], version: &["-version", "-help"] },
    Opaque {
        names: &["java", "jbang"],
        code: &["-jar", "--source", "-cp", "-classpath", "--class-path", "-m", "--module"],
        version: &["-version", "--version", "-help", "--help", "-h", "-showversion"],
    },
    Opaque { names: &["swift"], code: &["-e"], version: &["--version", "-version", "--help", "-h"] },
    Opaque { names: &["expect"], code: &["-c", "-f"], version: &["-v", "-h"] },
    Opaque { names: OTHER_SHELLS, code: &["-c", "--commands", "-e"], version: &["--version", "-v", "-h", "--help"] },
];

/// Shells whose code is not bash; `OPAQUE` reads them as unseen code.
/// (`es`, `rc`, `ion` and `oil` are left out: as program names they are as often other tools.)
/// probe: `{} -c 'rm -rf ~/x'` T3 interp.opaque-code
const OTHER_SHELLS: &[&str] = &["xonsh", "nu", "nushell", "elvish", "ysh", "murex", "closh"];

/// `dc` and `m4`: one command each runs a shell command (`!`, `syscmd`).
/// probe: `{} script.txt` T3 interp.shell-escape
const ESCAPING: &[&str] = &["dc", "m4", "gm4"];

/// Every program this module answers for, flattened from `OPAQUE` and
/// `ESCAPING` at compile time: the family's program list is this, not a copy.
pub(super) static NAMES: [&str; NAME_COUNT] = names();

const NAME_COUNT: usize = {
    let (mut n, mut i) = (ESCAPING.len(), 0);
    while i < OPAQUE.len() {
        n += OPAQUE[i].names.len();
        i += 1;
    }
    n
};

const fn names() -> [&'static str; NAME_COUNT] {
    let mut t = [""; NAME_COUNT];
    let (mut n, mut i) = (0, 0);
    while i < OPAQUE.len() {
        let mut k = 0;
        while k < OPAQUE[i].names.len() {
            t[n] = OPAQUE[i].names[k];
            n += 1;
            k += 1;
        }
        i += 1;
    }
    let mut k = 0;
    while k < ESCAPING.len() {
        t[n] = ESCAPING[k];
        n += 1;
        k += 1;
    }
    t
}

pub(crate) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    let program = inv.program.as_str();
    if ESCAPING.contains(&program) {
        return escapes(inv, cx);
    }
    let Some(o) = OPAQUE.iter().find(|o| o.names.contains(&program)) else {
        return;
    };
    if inv.args.iter().any(|a| o.version.contains(&a.text.as_str())) && inv.args.len() == 1 {
        cx.hit(&VERSION);
        return;
    }
    let code = inv.args.iter().find(|a| o.code.iter().any(|c| a.text == *c || a.text.strip_prefix(c).is_some_and(|r| r.starts_with('='))));
    if let Some(opt) = code {
        cx.hit_because(&CODE, format!("`{program} {}` runs code tiergate cannot analyse; {}", opt.text, CODE.reason));
        // Code that also spells a shell command is classified too, so a blocked one stays blocked.
        if OTHER_SHELLS.contains(&program) {
            if let Some(body) = inv.args.iter().skip_while(|a| a.text != opt.text).nth(1).filter(|a| a.exact) {
                let body = body.text.clone();
                cx.shell(&body, inv.cwd.as_deref());
            }
        }
        return;
    }
    // `ghc x.hs`, `tcc -o x x.c`, `kotlinc x.kt` compile; only their run forms are code here.
    if matches!(program, "ghc" | "tcc" | "kotlinc") {
        return crate::rules::fallback::unless_hit(inv, cx);
    }
    // `swift build|test|package` are SwiftPM's; `swift run`, `swift x.swift` and a bare `swift` run code.
    if program == "swift" && matches!(inv.arg(0), Some("build" | "test" | "package")) {
        return crate::rules::fallback::unless_hit(inv, cx);
    }
    if let Some(script) = inv.bare_words().next() {
        cx.hit_because(&CODE, format!("`{program} {script}` runs a script tiergate cannot analyse; {}", CODE.reason));
        return;
    }
    match &inv.stdin {
        Stdin::None => cx.hit(&REPL),
        _ => cx.hit_because(&CODE, format!("`{program}` reads code from its input, which tiergate cannot analyse; {}", CODE.reason)),
    }
}

/// dc's options: `-e EXPR` is code, `-f FILE` a file of it; the operands are files too.
const DC_ARGS: ArgSpec<'static> = ArgSpec::values(&["-e", "--expression", "-f", "--file"]);
/// m4's options that take a value (`-D NAME=VALUE`, `-I DIR`); the operands are the input files.
const M4_ARGS: ArgSpec<'static> = ArgSpec::values(&[
    "-D", "--define", "-U", "--undefine", "-I", "--include", "-l", "--arglength", "-o", "--error-output", "-t", "--trace", "-F", "--freeze-state", "-R",
    "--reload-state", "-L", "--nesting-limit", "--debugfile",
]);

/// `dc` (`!cmd`) and `m4` (`syscmd`, `esyscmd`): read what is visible.
fn escapes(inv: &Invocation, cx: &mut Cx<'_>) {
    let dc = inv.program == "dc";
    let escapes = |text: &str| if dc { text.contains('!') } else { text.contains("syscmd") || text.contains("esyscmd") };
    let mut texts: Vec<String> = Vec::new();
    // A word that is not what runs hides code, wherever it is.
    let mut unseen = inv.args.iter().any(|a| !a.exact);
    let spec = if dc { DC_ARGS } else { M4_ARGS };
    for t in Args::parse(&inv.args, spec) {
        let path = match t {
            Token::Opt { name: "-e" | "--expression", value: Some(v), .. } => {
                texts.push(v.to_owned());
                continue;
            }
            Token::Opt { name: "-f" | "--file", value: Some(v), .. } => v,
            Token::Operand(o) => o.arg.text.as_str(),
            _ => continue,
        };
        match cx.read(path, inv.cwd.as_deref()) {
            FileText::Text(t) => texts.push(t),
            _ => unseen = true,
        }
    }
    let reads_stdin = texts.is_empty() && !unseen;
    if reads_stdin {
        match &inv.stdin {
            Stdin::Heredoc { body, .. } => texts.push(body.clone()),
            Stdin::HereString(s) => texts.push(s.clone()),
            Stdin::None if inv.args.iter().any(|a| matches!(a.text.as_str(), "--version" | "-V" | "--help" | "-h")) => return,
            _ => unseen = true,
        }
    }
    if unseen || texts.iter().any(|t| escapes(t)) {
        cx.hit(&SHELL_ESCAPE);
    }
}
