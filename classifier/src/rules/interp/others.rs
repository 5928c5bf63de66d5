//! Option tables and special forms for the non-Python interpreters: node, deno,
//! ruby, perl, php, lua, Rscript/R, osascript (AppleScript and JXA), tclsh,
//! groovy, PowerShell and awk. Each turns argv into a `Source` and lets `run`
//! classify the code; AppleScript's own reader lives here too.

use crate::call::args::{ArgSpec, Args, Help, Token};
use crate::call::{first_operand, value_arg, Arg, Invocation};
use crate::lanes::scripts::{Analysis, Effect, Lang};
use crate::rules::vocab::writes;
use crate::rules::{Cx, Rule};
use crate::words;

use super::{code, inline, parse, run, script, Source, Spec, REPL, SYNTAX_CHECK, VERSION};

/// ## What it matches
/// `node --test`, `deno test`, `deno lint`, `deno check`, `R CMD check`: the runtime's own test and check runners.
/// ## Why this tier
/// Local validation.
pub static NODE_TEST: Rule = Rule::t1("interp.node.test")
    .reason("runs the project's tests or checks (local validation)")
    .matches(words!["node --test", "deno test", "deno lint", "deno check main.ts", "R CMD check pkg"])
    .not_matches(words!["deno install -g x"]);

/// ## What it matches
/// `node --inspect`, `--inspect-brk`, `--inspect-wait` (with or without an address).
/// ## Why this tier
/// It opens a debugger port (127.0.0.1:9229 by default, any interface with `=0.0.0.0`) that gives whoever connects code execution in the process (ORACLE.md §4 row 19).
pub static NODE_INSPECT: Rule = Rule::t3("interp.node.inspect")
    .reason("opens a debugger port that lets whoever connects run code in the process; run without --inspect or ask the user")
    .matches(words!["node --inspect-brk app.js", "node --inspect=0.0.0.0:9229 server.js"])
    .not_matches(words!["node app.js", "node --check app.js"]);

/// ## What it matches
/// `deno task X`, `deno install`, `deno upgrade`, `deno jupyter --install`: tasks from a config tiergate does not read, and installs.
/// ## Why this tier
/// The task body is unseen; installs change the environment.
pub static DENO_TASK: Rule = Rule::t3("interp.deno.task-or-install")
    .reason("runs a deno task whose body is not checked, or installs; run the task's command directly or ask the user")
    .matches(words!["deno task deploy", "deno install -g npm:x", "deno upgrade"])
    .not_matches(words!["deno --version", "deno fmt --check"]);

/// ## What it matches
/// `php -S addr`: PHP's built-in server, which runs the tree's PHP files on every request.
/// ## Why this tier
/// Unlike a static file server it executes unseen project code for whoever connects.
pub static PHP_SERVER: Rule = Rule::t3("interp.php.server")
    .reason("starts PHP's built-in server, which runs the project's PHP code per request; ask the user")
    .matches(words!["php -S localhost:8000", "php -S 0.0.0.0:80 -t public"])
    .not_matches(words!["php -v"]);

/// ## What it matches
/// `R CMD INSTALL`, `R CMD REMOVE`: package installs.
/// ## Why this tier
/// Installs change the R library beyond the tree.
pub static R_CMD_INSTALL: Rule = Rule::t3("interp.r.cmd-install")
    .reason("installs or removes an R package; ask the user first")
    .matches(words!["R CMD INSTALL mypkg", "R CMD REMOVE x"])
    .not_matches(words!["R --version"]);

const NODE: Spec = Spec {
    lang: Lang::Js,
    args: ArgSpec::values(words![
        "-e", "--eval", "-p", "--print", "-r", "--require", "--import", "--loader", "--experimental-loader", "-C", "--conditions", "--env-file", "--title",
        "--inspect-port", "--input-type", "--stack-size", "--max-old-space-size",
    ])
    .posix(),
    code: words!["-e", "--eval", "-p", "--print"],
    syntax: words!["-c", "--check"],
    version: Help::DASH_V.with(Help::VERSION).with(Help::DASH_H).with(Help::LONG),
    prints: words!["--v8-options"],
    version_then_run: words![],
    repl: words!["-i", "--interactive"],
};
/// Ruby's switches pack (`-ne CODE`, `-rjson`); `-i[ext]`, `-x[dir]`, `-K[code]`,
/// `-T[level]` take only an attached value, `-d` is a flag (`-de CODE`).
const RUBY: Spec = Spec {
    lang: Lang::Ruby,
    args: ArgSpec::values(words!["-e", "-r", "-I", "-C", "-E", "--encoding", "-F"])
        .with_flags(words!["-c"])
        .with_optional(words!["-i", "-x", "-K", "-T"])
        .packed()
        .posix(),
    code: words!["-e"],
    syntax: words!["-c"],
    version: Help::VERSION.with(Help::DASH_H).with(Help::LONG),
    prints: words![],
    version_then_run: words!["-v"],
    repl: words![],
};
/// Perl's switches pack (`-lane CODE`, `-pi.bak`, `-Mstrict`): `-e`/`-E` code, `-I`
/// and `-M` take the rest of the word or the next one, and `-i`, `-m`, `-x`, `-d`,
/// `-D`, `-C`, `-F` only an attached value; `-l`/`-0` digits read as letters.
const PERL: Spec = Spec {
    lang: Lang::Perl,
    args: ArgSpec::values(words!["-e", "-E", "-I", "-M"])
        .with_flags(words!["-c"])
        .with_optional(words!["-i", "-m", "-x", "-d", "-D", "-C", "-F"])
        .packed()
        .posix(),
    code: words!["-e", "-E"],
    syntax: words!["-c"],
    version: Help::DASH_V.with(Help::DASH_UPPER_V).with(Help::VERSION).with(Help::DASH_H).with(Help::LONG),
    prints: words![],
    version_then_run: words![],
    repl: words![],
};
/// `-B`, `-R` and `-E` hold code run before, per and after input lines; `-F FILE`
/// is a script run per line (as `-f FILE` is one run once).
const PHP: Spec = Spec {
    lang: Lang::Php,
    args: ArgSpec::values(words!["-r", "-c", "-d", "-z", "-t", "-B", "-E", "-R", "-F"]).posix(),
    code: words!["-r", "-B", "-R", "-E"],
    syntax: words!["-l", "--syntax-check"],
    version: Help::DASH_V.with(Help::VERSION).with(Help::DASH_H).with(Help::LONG),
    prints: words!["-m", "-i", "--ini"],
    version_then_run: words![],
    repl: words!["-a", "--interactive"],
};
/// `lua -v` prints the version and still runs `-e` code and the script.
const LUA: Spec = Spec {
    lang: Lang::Lua,
    args: ArgSpec::values(words!["-e", "-l"]).posix(),
    code: words!["-e"],
    syntax: words![],
    version: Help::NONE,
    prints: words![],
    version_then_run: words!["-v"],
    repl: words!["-i"],
};
const RSCRIPT: Spec = Spec {
    lang: Lang::R,
    args: ArgSpec::values(words!["-e", "--expr"]).posix(),
    code: words!["-e", "--expr"],
    syntax: words![],
    version: Help::VERSION.with(Help::LONG),
    prints: words![],
    version_then_run: words![],
    repl: words![],
};
const TCL: Spec = Spec {
    lang: Lang::Tcl,
    args: ArgSpec::values(words!["-encoding"]).posix(),
    code: words![],
    syntax: words![],
    version: Help::NONE,
    prints: words![],
    version_then_run: words![],
    repl: words![],
};
const GROOVY: Spec = Spec {
    lang: Lang::Groovy,
    args: ArgSpec::values(words!["-e", "-cp", "-classpath", "--classpath", "-D"]).posix(),
    code: words!["-e"],
    syntax: words![],
    version: Help::DASH_V.with(Help::VERSION).with(Help::DASH_H).with(Help::LONG),
    prints: words![],
    version_then_run: words![],
    repl: words![],
};
const OSASCRIPT: Spec = Spec {
    lang: Lang::AppleScript,
    args: ArgSpec::values(words!["-e", "-l", "-s"]).posix(),
    code: words!["-e"],
    syntax: words![],
    version: Help::NONE,
    prints: words![],
    version_then_run: words![],
    repl: words![],
};

/// The option table of an interpreter read by `parse` (`lua5.4`, `php8.2`, `ruby3.2`,
/// `perl5`: the versioned binaries take the same options).
pub(super) fn spec_of(program: &str) -> Option<&'static Spec> {
    Some(match program.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.') {
        "node" | "nodejs" | "tsx" | "ts-node" => &NODE,
        "ruby" | "jruby" => &RUBY,
        "perl" => &PERL,
        "php" => &PHP,
        "lua" | "luajit" => &LUA,
        "Rscript" => &RSCRIPT,
        "tclsh" | "wish" => &TCL,
        "groovy" => &GROOVY,
        "osascript" => &OSASCRIPT,
        _ => return None,
    })
}

/// Reads argv as `check` does, with php's `-f FILE` as the script.
fn source(inv: &Invocation, spec: &Spec) -> Source {
    let mut s = parse(inv, spec);
    if spec.lang == Lang::Php {
        // `php -f FILE`, `php -F FILE`: the script is the option's value.
        if let Some(idx) = inv.args.iter().position(|a| a.text == "-f" || a.text == "-F").filter(|i| i + 1 < inv.args.len()) {
            s.script = Some(idx + 1);
        }
    }
    s
}

/// True when the interpreter takes its code from stdin (`… | perl`, `… | ruby -w`):
/// no inline code, no script (or the script `-`), not a version or a syntax check.
/// `ruby -v` and `lua -v` alone are read pessimistically as reading it. `None` for an
/// interpreter without an option table here.
pub(super) fn reads_code_from_stdin(inv: &Invocation) -> Option<bool> {
    let spec = spec_of(&inv.program)?;
    let s = source(inv, spec);
    Some((!s.version || s.version_then_run) && !s.syntax_only && s.code.is_empty() && s.script.is_none())
}

crate::table! {
    INSPECT = ["--inspect", "--inspect-brk", "--inspect-wait"];
    probe "node {} -e 'console.log(1)'" => T3, "interp.node.inspect";
}

pub(super) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    // `lua5.4`, `php8.2`, `ruby3.2`, `perl5`: the versioned binaries take the same options.
    let base = inv.program.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    // The option tables come from `spec_of`, the one place that names them, so the
    // stdin reading (`… | groovy`) and the argv reading here cannot disagree.
    let spec = match base {
        "irb" => {
            // Ruby's REPL: code typed later is never seen.
            if inv.args.iter().any(|a| Help::DASH_V.with(Help::VERSION).with(Help::DASH_H).with(Help::LONG).holds(&a.text)) {
                cx.hit(&VERSION);
            } else {
                cx.hit(&REPL);
            }
            return;
        }
        "osascript" => {
            // `-l JavaScript` switches to JXA, read by the JS lexer.
            let jxa = inv.option(words!["-l"]).is_some_and(|l| l.eq_ignore_ascii_case("javascript"));
            let s = parse(inv, &OSASCRIPT);
            if jxa && !s.code.is_empty() {
                inline(inv, cx, Lang::Js, &s.code);
                return;
            }
            run(inv, cx, &OSASCRIPT, &s);
            return;
        }
        _ => match spec_of(&inv.program) {
            Some(spec) => spec,
            None => return,
        },
    };
    // `node --inspect[-brk|-wait][=addr]`: a debugger port whoever connects can run code through.
    if spec.lang == Lang::Js && Args::parse(&inv.args, ArgSpec::values(words![]).with_optional(INSPECT)).has(INSPECT) {
        cx.hit(&NODE_INSPECT);
    }
    if spec.lang == Lang::Js && inv.has_long("--test") {
        cx.hit(&NODE_TEST);
        return;
    }
    if spec.lang == Lang::Php && inv.args.iter().any(|a| a.text == "-S") {
        cx.hit(&PHP_SERVER);
        return;
    }
    let mut s = source(inv, spec);
    if spec.lang == Lang::Perl && !s.code.is_empty() {
        // `perl -ne CODE FILES`: the operands are data files, read (or rewritten with -i).
        s.script = None;
    }
    run(inv, cx, spec, &s);
}

/// deno's options that take a value as the next word (`--allow-read=PATH` and the
/// like attach theirs); the first operand is the subcommand, then the script.
const DENO_ARGS: ArgSpec = ArgSpec::values(words!["-L", "--log-level", "-c", "--config", "--import-map", "--cert", "--location", "--seed", "--ext"]);

pub(super) fn deno(inv: &Invocation, cx: &mut Cx<'_>) {
    let words: Vec<&str> = inv.words().collect();
    let Some(si) = first_operand(&inv.args, DENO_ARGS).map(|o| o.index) else {
        if words.iter().any(|w| Help::DASH_UPPER_V.with(Help::VERSION).with(Help::DASH_H).with(Help::LONG).holds(w)) {
            cx.hit(&VERSION);
        } else if words.iter().any(|w| *w == "--eval" || *w == "-e") {
            let code: Vec<Arg> = inv.args.iter().skip_while(|a| a.text != "--eval" && a.text != "-e").skip(1).take(1).cloned().collect();
            inline(inv, cx, Lang::Js, &code);
        } else {
            cx.hit(&REPL);
        }
        return;
    };
    let rest = &inv.args[si + 1..];
    match words[si] {
        "eval" => {
            let code: Vec<Arg> = first_operand(rest, DENO_ARGS).map(|o| o.arg.clone()).into_iter().collect();
            inline(inv, cx, Lang::Js, &code);
        }
        // `NAME=value` words are not the script.
        "run" | "serve" => match Args::parse(rest, DENO_ARGS).operands().find(|o| !o.arg.text.contains('=')) {
            Some(o) => script::run_operand(inv, cx, si + 1 + o.index, Some(Lang::Js)),
            None => cx.hit(&REPL),
        },
        "test" | "lint" | "check" | "bench" | "coverage" => cx.hit(&NODE_TEST),
        // `fmt` rewrites files inside the tree: authoring, not mutation.
        "fmt" | "info" | "doc" | "types" | "completions" | "help" | "cache" | "outdated" | "compile" | "vendor" | "init" => cx.hit(&code::READ),
        "repl" | "jupyter" if !rest.iter().any(|a| a.text == "--install") => cx.hit(&REPL),
        "task" | "install" | "uninstall" | "upgrade" | "add" | "remove" | "publish" | "jupyter" | "deploy" => cx.hit(&DENO_TASK),
        _ => script::run_operand(inv, cx, si, Some(Lang::Js)),
    }
}

pub(super) fn r(inv: &Invocation, cx: &mut Cx<'_>) {
    let words: Vec<&str> = inv.words().collect();
    if let Some(k) = words.iter().position(|w| *w == "CMD") {
        match words.get(k + 1).copied() {
            Some("check" | "build" | "Rd2pdf" | "Rdconv") => cx.hit(&NODE_TEST),
            Some("INSTALL" | "REMOVE") => cx.hit(&R_CMD_INSTALL),
            Some("BATCH") => match inv.args.get(k + 2) {
                Some(_) => script::run_operand(inv, cx, k + 2, Some(Lang::R)),
                None => cx.hit(&REPL),
            },
            _ => cx.hit(&R_CMD_INSTALL),
        }
        return;
    }
    if words.iter().any(|w| Help::VERSION.with(Help::LONG).holds(w)) {
        cx.hit(&VERSION);
        return;
    }
    let code: Vec<Arg> = inv.args.windows(2).filter(|w| w[0].text == "-e").map(|w| w[1].clone()).collect();
    if !code.is_empty() {
        inline(inv, cx, Lang::R, &code);
        return;
    }
    if let Some(f) = inv.option(words!["-f", "--file"]) {
        let f = f.to_owned();
        script::run_path(inv, cx, &f, Some(Lang::R), inv.args.len());
        return;
    }
    super::from_stdin(inv, cx, Lang::R);
}

/// PowerShell's help and version switches (matched lower-cased: `-Version`, `-Help`).
const PWSH_HELP: Help = Help::DASH_V.with(Help::VERSION).with(Help::SINGLE_DASH_VERSION).with(Help::SINGLE_DASH).with(Help::DASH_H).with(Help::QUESTION);

pub(super) fn pwsh(inv: &Invocation, cx: &mut Cx<'_>) {
    let args = &inv.args;
    let mut i = 0;
    while i < args.len() {
        let lower = args[i].text.to_ascii_lowercase();
        match lower.as_str() {
            // The help and version words, in any case (`-Help`, `-Version`), and `/?`.
            l if l == "/?" || PWSH_HELP.holds(l) => {
                cx.hit(&VERSION);
                return;
            }
            "-c" | "-command" | "/c" => {
                // Everything after -Command is the code, joined by spaces.
                let code: Vec<&Arg> = args[i + 1..].iter().collect();
                if code.is_empty() {
                    cx.hit(&REPL);
                    return;
                }
                let joined =
                    Arg { text: code.iter().map(|a| a.text.as_str()).collect::<Vec<_>>().join(" "), exact: code.iter().all(|a| a.exact), ..code[0].clone() };
                if joined.text == "-" {
                    super::from_stdin(inv, cx, Lang::PowerShell);
                    return;
                }
                inline(inv, cx, Lang::PowerShell, &[joined]);
                return;
            }
            "-f" | "-file" => {
                match args.get(i + 1) {
                    Some(_) => script::run_operand(inv, cx, i + 1, Some(Lang::PowerShell)),
                    None => cx.hit(&REPL),
                }
                return;
            }
            "-encodedcommand" | "-e" | "-ec" | "-enc" => {
                cx.hit_because(&code::DYNAMIC, "`-EncodedCommand` hides the code in base64; run the decoded command instead".to_owned());
                return;
            }
            "-executionpolicy" | "-ep" | "-ex" | "-windowstyle" | "-w" | "-workingdirectory" | "-wd" | "-configurationname" | "-outputformat" | "-of"
            | "-inputformat" | "-if" | "-settingsfile" => i += 2,
            "-noexit" => {
                cx.hit(&REPL);
                i += 1;
            }
            _ if lower.starts_with('-') => i += 1,
            _ => {
                // A bare first operand is a script file (`pwsh x.ps1`) or, for Windows PowerShell, a command.
                if lower.ends_with(".ps1") {
                    script::run_operand(inv, cx, i, Some(Lang::PowerShell));
                } else {
                    let joined = Arg {
                        text: args[i..].iter().map(|a| a.text.as_str()).collect::<Vec<_>>().join(" "),
                        exact: args[i..].iter().all(|a| a.exact),
                        ..args[i].clone()
                    };
                    inline(inv, cx, Lang::PowerShell, &[joined]);
                }
                return;
            }
        }
    }
    super::from_stdin(inv, cx, Lang::PowerShell);
}

/// awk's argv: `-f progfile`, `-v var=val`, `-F sep`, gawk `-i inplace`; the first
/// operand is the program (options stop there).
const AWK_ARGS: ArgSpec =
    ArgSpec::values(words!["-f", "--file", "-i", "--include", "-v", "-F", "--assign", "--field-separator", "-l", "--load", "-E", "--exec"]).posix();

pub(super) fn awk(inv: &Invocation, cx: &mut Cx<'_>) {
    let args = &inv.args;
    let mut i = args.len();
    // The program file, and where the words after it start.
    let mut progfile: Option<(Arg, usize)> = None;
    let mut in_place = false;
    // gawk `-i FILE`: source files whose code joins the program.
    let mut includes: Vec<Arg> = Vec::new();
    let mut it = Args::parse(args, AWK_ARGS);
    while let Some(t) = it.next() {
        match t {
            Token::Opt { index, name: "-f" | "--file" | "-E" | "--exec", value: Some(v) } => progfile = Some((value_arg(args, index, v), it.pos())),
            Token::Opt { index, name: "-i" | "--include", value: Some(v) } => {
                in_place |= matches!(v, "inplace" | "inplace.awk");
                includes.push(value_arg(args, index, v));
            }
            Token::Flag { word, .. } if Help::VERSION.with(Help::DASH_UPPER_V).with(Help::LONG).with(Help::DASH_H).holds(word) => {
                cx.hit(&VERSION);
                return;
            }
            Token::Operand(o) => {
                i = o.index;
                break;
            }
            Token::DashDash(d) => {
                i = d + 1;
                break;
            }
            // `-f` with nothing after it: no program, nothing runs.
            Token::Missing { name: "-f" | "--file" | "-E" | "--exec", .. } => {
                cx.hit(&SYNTAX_CHECK);
                return;
            }
            _ => {}
        }
    }
    let files_from = if progfile.is_some() { i } else { i + 1 };
    if in_place {
        let operands: Vec<Arg> = args.iter().skip(files_from).filter(|a| !a.text.contains('=')).cloned().collect();
        for a in &operands {
            writes::check_write(cx, a, inv.cwd.as_deref());
        }
    }
    for a in &includes {
        awk_include(inv, cx, a);
    }
    if let Some((p, after)) = progfile {
        script::run_arg(inv, cx, &p, Some(Lang::Awk), after);
        return;
    }
    match args.get(i) {
        Some(prog) => {
            let prog = prog.clone();
            inline(inv, cx, Lang::Awk, &[prog]);
        }
        None => cx.hit(&VERSION),
    }
}

crate::table! {
    /// The awk libraries gawk installs in its default search path (`/usr/share/awk`,
    /// gawk's awklib): `-i NAME` with no `NAME` or `NAME.awk` in the working directory
    /// loads one of these, code that only defines functions (`inplace` edits in place,
    /// which `awk` above reads as writes to the file operands).
    GAWK_LIBRARIES = [
        "assert", "bits2str", "cliff_rand", "ctime", "ftrans", "getopt", "gettime", "group", "have_mpfr", "inplace", "intdiv0", "isnumeric", "join", "libintl",
        "noassign", "ns_passwd", "ord", "passwd", "processarray", "quicksort", "readable", "readfile", "rewind", "round", "shellquote", "strtonum", "tocsv",
        "walkarray", "zerofile",
    ];
    probe "gawk -i {} 'BEGIN { print 1 }'" => T0, "interp.code.read";
}

/// gawk's `-i FILE` (`--include`): FILE's code joins the program, as `@include` does,
/// so it is read as `-f` is. gawk tries `FILE`, then `FILE.awk`; a name without `/`
/// is searched along AWKPATH, whose default starts with the working directory. A
/// file found there is read; a bare name found nowhere there is one of gawk's own
/// libraries when listed, and any other name is code tiergate cannot see (it asks,
/// as for a missing `-f` file).
fn awk_include(inv: &Invocation, cx: &mut Cx<'_>, a: &Arg) {
    let after = inv.args.len();
    if !a.exact {
        return script::run_arg(inv, cx, a, Some(Lang::Awk), after);
    }
    let cwd = inv.cwd.as_deref();
    for name in [a.text.clone(), format!("{}.awk", a.text)] {
        if cx.exists(&name, cwd) == Some(true) {
            return script::run_path(inv, cx, &name, Some(Lang::Awk), after);
        }
    }
    let library = !a.text.contains('/') && GAWK_LIBRARIES.contains(a.text.strip_suffix(".awk").unwrap_or(&a.text));
    if !library {
        cx.hit_because(
            &script::UNREADABLE,
            format!(
                "`-i {}` includes awk code from a file tiergate cannot find (not in the working directory, not a library gawk ships); ask the user",
                a.text
            ),
        );
    }
}

crate::table! {
    MUTATING = [
        "delete", "move ", "duplicate", "make new", "quit", "restart", "shut down", "empty trash", "keystroke", "key code", "click", "open location", "save ",
        "close ", "set volume", "log out", "sleep", "eject", "erase",
    ];
    probe r#"osascript -e 'tell application "Finder" to {} x'"# => T3, "interp.code.mutating-command";
}

/// AppleScript: `do shell script "…"` is shell; app commands that change state are T3.
pub(crate) fn applescript(src: &str) -> Analysis {
    let mut out = Analysis::default();
    let lower = src.to_ascii_lowercase();
    let mut rest = lower.as_str();
    let mut offset = 0;
    while let Some(p) = rest.find("do shell script") {
        let after = &src[offset + p + "do shell script".len()..];
        let trimmed = after.trim_start();
        match trimmed.strip_prefix('"').and_then(|t| t.find('"').map(|e| &t[..e])) {
            Some(cmd) => out.push(Effect::Shell(cmd.to_owned()), "do shell script"),
            None => out.push(Effect::ExecUnseen, "do shell script"),
        }
        offset += p + 1;
        rest = &lower[offset..];
    }
    if let Some(word) = MUTATING.iter().find(|w| lower.contains(*w)) {
        out.push(Effect::Mutate, word.trim());
    }
    out
}

crate::tables![INSPECT, MUTATING, GAWK_LIBRARIES];
