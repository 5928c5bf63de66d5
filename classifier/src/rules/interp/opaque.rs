//! Interpreters and REPLs whose languages tiergate has no analyser for (julia,
//! guile, octave, gnuplot, Haskell, Lisps, Erlang/Elixir, JVM REPLs, expect …)
//! and shells that are not POSIX (xonsh, nu, elvish …). Their code is unseen, so
//! inline code, a script and a bare REPL are all T3; `--version`/`--help` stay
//! free. `dc` and `m4` are read: only their shell escapes (`!`, `syscmd`) gate.

use crate::call::args::{ArgSpec, Args, Help, Token};
use crate::call::Invocation;
use crate::rules::vocab::input::{self, Source};
use crate::rules::{Cx, FileText, Rule};
use crate::words;
use crate::words::Words;

use super::{REPL, VERSION};

/// ## What it matches
/// Inline code, a script or piped code for an interpreter tiergate has no analyser for: `julia -e …`, `guile -c …`, `octave --eval …`, `racket x.rkt`, `erl -eval …`, `nu -c …`, `expect -c …`.
/// ## Why this tier
/// Code tiergate cannot read can do anything; unknown is never safe.
pub static CODE: Rule = Rule::t3("interp.opaque-code")
    .reason("runs code in a language tiergate does not analyse; review it and ask the user, or do the step with a command tiergate can check")
    .matches(words![
        "julia -e 'run(`ls`)'", "guile -c '(display 1)'", "octave --eval 'disp(1)'", "gnuplot -e 'plot sin(x)'", "racket script.rkt", "erl -eval 'halt().'",
        "elixir -e 'IO.puts 1'", "jrunscript -e 'print(1)'", "expect -c 'spawn ls'", "nu -c 'ls'", "sbcl --script x.lisp", "runghc x.hs",
        "julia <<< 'println(1)'", "pry -e 'system(\"ls\")'", "slsh -e 'system(\"ls\")'", "rc -c 'ls'",
    ])
    .not_matches(words!["julia --version", "ghc --version", "erl -version", "pry --version", "slsh --version"]);

/// ## What it matches
/// `dc` code with `!` (runs a shell command) and `m4` input with `syscmd`/`esyscmd`, or input that cannot be seen.
/// ## Why this tier
/// These calculators and macro processors shell out through those commands.
pub static SHELL_ESCAPE: Rule = Rule::t3("interp.shell-escape")
    .reason("the calculator or macro input runs a shell command (dc `!`, m4 `syscmd`/`esyscmd`), or cannot be seen; run the command directly")
    .matches(words!["dc -e '!ls'", "m4 <<< 'syscmd(ls)'", "m4 macros.m4"])
    .not_matches(words!["dc -e '2 3 + p'", "m4 <<< 'define(x, 1)x'"]);

/// One interpreter: its names and the options that take code or a value.
struct Opaque {
    names: Words,
    /// Options whose value is code (or a code file) to run.
    code: Words,
    /// Help and version words that print and run nothing (as the whole argv).
    version: Help,
    /// Other options that only print (`ghc --numeric-version`, `erl +V`).
    prints: Words,
}

static OPAQUE: &[Opaque] = &[
    Opaque {
        names: words!["julia"],
        code: words!["-e", "--eval", "-E", "--print", "-L", "--load"],
        version: Help::DASH_V.with(Help::VERSION).with(Help::DASH_H).with(Help::LONG),
        prints: words![],
    },
    Opaque {
        names: words!["guile"],
        code: words!["-c", "-l", "-s", "-x"],
        version: Help::DASH_V.with(Help::VERSION).with(Help::DASH_H).with(Help::LONG),
        prints: words![],
    },
    Opaque {
        names: words!["octave", "octave-cli"],
        code: words!["--eval"],
        version: Help::DASH_V.with(Help::VERSION).with(Help::DASH_H).with(Help::LONG),
        prints: words![],
    },
    Opaque {
        names: words!["gnuplot"],
        code: words!["-e"],
        version: Help::DASH_UPPER_V.with(Help::VERSION).with(Help::DASH_H).with(Help::LONG),
        prints: words![],
    },
    Opaque {
        names: words!["ghc"],
        code: words!["-e", "--interactive"],
        version: Help::VERSION.with(Help::LONG),
        prints: words!["--numeric-version", "--info"],
    },
    Opaque {
        names: words!["ghci", "runghc", "runhaskell", "stack-runghc"],
        code: words!["-e"],
        version: Help::VERSION.with(Help::LONG),
        prints: words!["--numeric-version"],
    },
    Opaque {
        names: words!["sbcl", "ecl", "ccl", "ccl64"],
        code: words!["--eval", "-eval", "--load", "-load", "--script", "-shell"],
        version: Help::VERSION.with(Help::LONG),
        prints: words![],
    },
    Opaque { names: words!["clisp"], code: words!["-x", "-i"], version: Help::VERSION.with(Help::LONG).with(Help::DASH_H), prints: words![] },
    Opaque {
        names: words!["racket", "scheme", "chez", "chezscheme", "petite", "mit-scheme", "csi", "gsi", "chibi-scheme", "gosh", "plt-r5rs"],
        code: words!["-e", "--eval", "-f", "--load", "-r", "-t", "-l", "-s", "--script"],
        version: Help::VERSION.with(Help::DASH_V).with(Help::DASH_H).with(Help::LONG),
        prints: words![],
    },
    Opaque { names: words!["erl", "escript"], code: words!["-eval", "-s", "-run", "-S"], version: Help::SINGLE_DASH_VERSION, prints: words!["+V"] },
    Opaque {
        names: words!["elixir"],
        code: words!["-e", "--eval", "-r", "-S", "--rpc-eval"],
        version: Help::DASH_V.with(Help::VERSION).with(Help::DASH_H).with(Help::LONG),
        prints: words![],
    },
    Opaque {
        names: words!["scala", "scala-cli", "amm", "groovysh", "kotlin", "kotlinc-jvm", "kscript"],
        code: words!["-e", "-script", "-c"],
        version: Help::SINGLE_DASH_VERSION.with(Help::VERSION).with(Help::SINGLE_DASH).with(Help::LONG),
        prints: words![],
    },
    Opaque {
        names: words!["jshell", "jrunscript", "jjs"],
        code: words!["-e", "-f", "--startup"],
        version: Help::SINGLE_DASH_VERSION.with(Help::VERSION).with(Help::SINGLE_DASH).with(Help::LONG).with(Help::QUESTION),
        prints: words![],
    },
    Opaque {
        names: words!["clojure", "clj", "bb", "lein-repl"],
        code: words!["-e", "--eval", "-M", "-X", "-i", "--init"],
        version: Help::VERSION.with(Help::DASH_H).with(Help::LONG),
        prints: words![],
    },
    Opaque {
        names: words!["ocaml", "utop", "sml", "poly", "swipl", "gprolog", "yap"],
        code: words!["-e", "-g", "--eval", "-init"],
        version: Help::SINGLE_DASH_VERSION.with(Help::VERSION).with(Help::SINGLE_DASH).with(Help::LONG),
        prints: words![],
    },
    Opaque {
        names: words!["raku", "perl6", "rakudo"],
        code: words!["-e", "-M"],
        version: Help::DASH_V.with(Help::VERSION).with(Help::DASH_H).with(Help::LONG),
        prints: words![],
    },
    // Compilers that also run: only their run forms are code (see `COMPILE_ONLY`).
    Opaque { names: words!["tcc"], code: words!["-run"], version: Help::DASH_V.with(Help::DASH_H).with(Help::LONG), prints: words![] },
    Opaque {
        names: words!["kotlinc"],
        code: words!["-script", "-e", "-expression"],
        version: Help::SINGLE_DASH_VERSION.with(Help::SINGLE_DASH),
        prints: words![],
    },
    Opaque {
        names: words!["java", "jbang"],
        code: words!["-jar", "--source", "-cp", "-classpath", "--class-path", "-m", "--module"],
        version: Help::SINGLE_DASH_VERSION.with(Help::VERSION).with(Help::SINGLE_DASH).with(Help::LONG).with(Help::DASH_H),
        prints: words!["-showversion"],
    },
    Opaque {
        names: words!["swift"],
        code: words!["-e"],
        version: Help::VERSION.with(Help::SINGLE_DASH_VERSION).with(Help::LONG).with(Help::DASH_H),
        prints: words![],
    },
    Opaque { names: words!["expect"], code: words!["-c", "-f"], version: Help::DASH_V.with(Help::DASH_H), prints: words![] },
    Opaque {
        names: OTHER_SHELLS,
        code: words!["-c", "--commands", "-e"],
        version: Help::VERSION.with(Help::DASH_V).with(Help::DASH_H).with(Help::LONG),
        prints: words![],
    },
    // Ruby's pry REPL (`-e` runs a line, `-r` requires a file) and the S-Lang shell.
    Opaque {
        names: words!["pry"],
        code: words!["-e", "--exec", "-r", "--require"],
        version: Help::DASH_V.with(Help::VERSION).with(Help::DASH_H).with(Help::LONG),
        prints: words![],
    },
    Opaque { names: words!["slsh"], code: words!["-e"], version: Help::VERSION.with(Help::LONG), prints: words![] },
];

crate::table! {
    /// Shells whose code is not bash; `OPAQUE` reads them as unseen code. `rc` (Plan 9's
    /// shell) is one although the name is also rustcat's: a listener or reverse shell
    /// asks either way. (`es`, `ion` and `oil` are left out: as program names they are as
    /// often other tools.)
    OTHER_SHELLS = ["xonsh", "nu", "nushell", "elvish", "ysh", "murex", "closh", "rc"];
    probe "{} -c 'rm -rf ~/x'" => T3, "interp.opaque-code";
}

crate::table! {
    /// `dc` and `m4`: one command each runs a shell command (`!`, `syscmd`).
    ESCAPING = ["dc", "m4", "gm4"];
    probe "{} script.txt" => T3, "interp.shell-escape";
}

/// Every program this module answers for, flattened from `OPAQUE` and
/// `ESCAPING` at compile time: the family's program list is this, not a copy.
pub(super) const NAMES: Words = crate::joined_words!(&PARTS);

const PARTS: [Words; OPAQUE.len() + 1] = {
    let mut t = [ESCAPING; OPAQUE.len() + 1];
    let mut i = 0;
    while i < OPAQUE.len() {
        t[i] = OPAQUE[i].names;
        i += 1;
    }
    t
};

pub(crate) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    let program = inv.program.as_str();
    if ESCAPING.contains(program) {
        return escapes(inv, cx);
    }
    let Some(o) = OPAQUE.iter().find(|o| o.names.contains(program)) else {
        return;
    };
    if let [only] = inv.args.as_slice() {
        if o.version.holds(&only.text) || o.prints.contains(only.text.as_str()) {
            cx.hit(&VERSION);
            return;
        }
    }
    let code = inv.args.iter().find(|a| o.code.iter().any(|c| a.text == *c || a.text.strip_prefix(c).is_some_and(|r| r.starts_with('='))));
    if let Some(opt) = code {
        cx.hit_because(&CODE, format!("`{program} {}` runs code tiergate cannot analyse; {}", opt.text, CODE.reason));
        // Code that also spells a shell command is classified too, so a blocked one stays blocked.
        if OTHER_SHELLS.contains(program) {
            if let Some(body) = inv.args.iter().skip_while(|a| a.text != opt.text).nth(1).filter(|a| a.exact) {
                let body = body.text.clone();
                cx.shell(&body, inv.cwd.as_deref());
            }
        }
        return;
    }
    // `ghc x.hs`, `tcc -o x x.c`, `kotlinc x.kt` compile; only their run forms are code here.
    if matches!(program, "ghc" | "tcc" | "kotlinc") {
        return cx.or_unowned(inv);
    }
    // `swift build|test|package` are SwiftPM's; `swift run`, `swift x.swift` and a bare `swift` run code.
    if program == "swift" && matches!(inv.arg(0), Some("build" | "test" | "package")) {
        return cx.or_unowned(inv);
    }
    if let Some(script) = inv.bare_words().next() {
        cx.hit_because(&CODE, format!("`{program} {script}` runs a script tiergate cannot analyse; {}", CODE.reason));
        return;
    }
    match input::of(inv) {
        Source::None => cx.hit(&REPL),
        _ => cx.hit_because(&CODE, format!("`{program}` reads code from its input, which tiergate cannot analyse; {}", CODE.reason)),
    }
}

/// dc's options: `-e EXPR` is code, `-f FILE` a file of it; the operands are files too.
const DC_ARGS: ArgSpec = ArgSpec::values(words!["-e", "--expression", "-f", "--file"]);
/// m4's options that take a value (`-D NAME=VALUE`, `-I DIR`); the operands are the input files.
const M4_ARGS: ArgSpec = ArgSpec::values(words![
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
        match input::of(inv) {
            Source::Shown { text, .. } => texts.push(text.to_owned()),
            Source::None if inv.args.iter().any(|a| Help::VERSION.with(Help::DASH_UPPER_V).with(Help::LONG).with(Help::DASH_H).holds(&a.text)) => return,
            _ => unseen = true,
        }
    }
    if unseen || texts.iter().any(|t| escapes(t)) {
        cx.hit(&SHELL_ESCAPE);
    }
}

crate::tables![OTHER_SHELLS, ESCAPING];
