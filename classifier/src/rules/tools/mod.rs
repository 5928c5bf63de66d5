//! The `tools` family: editors, pagers, debuggers and typesetters. Opening a file
//! in them is free; the options that hand them commands are code (`vim -c`,
//! `emacs --eval`, `gdb -ex`, `lldb -o`, `less +!cmd`, TeX `\write18`), and
//! `gdb --args PROG …` runs PROG. ed and the debuggers also read commands from
//! their input (`ed f <<< '!cmd'`, `gdb -batch ./a.out < cmds`): input they are
//! given is judged as those commands. Shell-escape flags and `man -P` live in the
//! shared option table (`rules/exec/options.rs`).

use crate::call::args::{split_option, ArgSpec, Args, Token};
use crate::call::Invocation;
use crate::rules::vocab::input::{self, Input, Source};
use crate::rules::{Card, Carried, Carry, Check, Cx, Family, Rule};
use crate::words;
use crate::words::Words;

pub static FAMILY: Family = Family::new("tools", CARDS, RULES).entered_by(enter);

crate::table! {
    /// `editor` and `sensible-editor` are Debian's alternatives for whichever editor is
    /// configured (often vim): read as vim, the most capable of them.
    VIMS = [
        "vim", "vi", "nvim", "ex", "view", "vimdiff", "nvimdiff", "gvim", "gview", "rvim", "evim", "mvim", "vimx", "nvi", "elvis", "vis", "editor",
        "sensible-editor",
    ];
    probe "{} -c '!rm x' f" => T3, "tools.editor-commands";
}
crate::table! {
    /// Tracers that are wrappers (`strace CMD`) and can also attach to a running process.
    pub(crate) TRACERS = ["strace", "ltrace"];
    probe "{} -p 1234" => T3, "tools.debugger-attach";
}
crate::table! {
    EMACS = ["emacs", "emacs-nox", "emacsclient", "xemacs"];
    probe r#"{} --eval '(delete-file "x")'"# => T3, "tools.editor-commands";
}
crate::table! {
    PAGERS = ["less", "more", "most", "pg"];
    probe "{} '+!rm x' f" => T3, "tools.pager-command";
}
crate::table! {
    /// Terminal editors judged by where they write; of their options only Kakoune's
    /// command options (`kak -e`, see `kak`) run anything.
    SIMPLE_EDITORS = ["nano", "pico", "micro", "hx", "helix", "ed", "mcedit", "joe", "kak", "ne"];
    probe "{} /etc/x" => T3, "paths.write-system";
}
crate::table! {
    DEBUGGERS = ["gdb", "gdb-multiarch", "cgdb", "lldb", "rust-gdb", "rust-lldb"];
    probe "{} -ex 'shell rm x' ./a.out" => T3, "tools.debugger-commands";
    except ["lldb", "rust-lldb"]: "lldb's start-up commands are -o/-O/-s (LLDB_CODE), not gdb's -ex";
}
crate::table! {
    /// TeX engines and drivers whose command-line input is TeX code (`\write18`, `\directlua`).
    /// (`--shell-escape` is carried by their card and judged by the carriers pass, `rules/exec/options.rs`.)
    TEX = [
        "tex", "latex", "pdflatex", "xelatex", "lualatex", "luatex", "pdftex", "xetex", "etex", "uplatex", "platex", "latexmk", "context", "ptex", "eptex",
        "uptex", "euptex", "pdfetex", "luahbtex", "luajittex", "dviluatex", "dvilualatex",
    ];
    probe r#"{} '\immediate\write18{rm x}'"# => T3, "tools.tex-shell-escape";
    probe "{} --shell-escape x.tex" => T3, "exec.option-shell-escape";
}

static CARDS: &[Card] = &[
    Card::of(VIMS, |inv, cx| {
        vim(inv, cx);
        edits(inv, cx, words!["-c", "--cmd", "-S", "-s", "-u", "-U", "-i", "-T", "-w", "-W", "-t", "-q", "--servername"]);
    }),
    Card::of(EMACS, |inv, cx| {
        emacs(inv, cx);
        edits(
            inv,
            cx,
            words!["--eval", "-eval", "-l", "--load", "-f", "--funcall", "--script", "-x", "-e", "-s", "--socket-name", "--chdir", "-L", "-d", "--display"],
        );
    }),
    Card::of(SIMPLE_EDITORS, |inv, cx| {
        kak(inv, cx);
        edits(inv, cx, words!["-Y", "--syntax", "-T", "--tabsize", "-r", "--fill", "-o", "--operatingdir", "-c", "--config", "-e"]);
        if inv.program == "ed" {
            ed_input(inv, cx);
        }
    }),
    Card::of(PAGERS, pager),
    Card::of(DEBUGGERS, debugger),
    Card::of(TRACERS, tracer_attach),
    Card::of(words!["open"], open),
    Card::of(TEX, |inv, cx| {
        if inv.args.iter().any(|a| a.text.contains("write18") || a.text.contains("directlua") || a.text.contains("luaexec")) {
            cx.hit(&TEX_WRITE18);
        }
    })
    .carries(&[Carried {
        names: words!["--shell-escape", "-shell-escape", "--enable-write18", "-enable-write18", "-shell-restricted=false"],
        carry: Carry::Flag,
    }]),
];

static RULES: &[&Rule] = &[&EDITOR_COMMANDS, &PAGER_COMMAND, &DEBUGGER_COMMANDS, &DEBUGGER_ATTACH, &TEX_WRITE18, &OPEN_RUNS];

/// ## What it matches
/// macOS `open` handed something that runs: a terminal app with a file (`open -a Terminal x.sh`), an app bundle or a `.command`/`.tool`/`.terminal`/`.workflow` file.
/// ## Why this tier
/// Those open by running code; opening a document, a folder or a URL does not.
pub static OPEN_RUNS: Rule = Rule::t3("tools.open-runs")
    .reason("opens something that runs code (a script in a terminal, an app or a .command file); run the command directly or ask the user")
    .matches(words!["open -a Terminal x.sh", "open ./Installer.app", "open build.command"])
    .not_matches(words!["open README.md", "open .", "open https://example.com", "open -a Preview x.pdf"]);

/// ## What it matches
/// Commands handed to an editor at start-up: `vim -c CMD`, `vim +CMD`, `vim --cmd`, `vim -S script`, `vim -s keys`, `vim -u vimrc`, `vim -es` (Ex commands from input), `emacs --eval`, `emacs -batch`, `emacs -l file`, `emacs -f fn`, `emacsclient -e`, `kak -e|-E CMD`, `kak -f KEYS`, `kak -p SESSION`; and `ed` given commands on its input other than printing, addressing and quitting (`ed f <<< '!cmd'`, `w`, `r !cmd`), or input tiergate cannot see.
/// ## Why this tier
/// Editor commands are code (`:!sh`, `system()`, `(shell-command …)`); `+42` and `+/pattern` only move the cursor.
pub static EDITOR_COMMANDS: Rule = Rule::t3("tools.editor-commands")
    .reason("hands the editor commands to run at start-up (they can run shell commands or write files); open the file without them")
    .matches(words![
        "vim -c ':!sh' x", "vim +'!rm x' notes.md", "nvim --cmd 'lua os.execute(\"x\")'", "vim -S session.vim", "emacs --eval '(shell-command \"x\")'",
        "emacs -batch -l build.el", "emacsclient -e '(kill-emacs)'", "vim -es < cmds.vim", "vi -u /tmp/vimrc x", "kak -e 'nop %sh{id}' notes.md",
        "ed f <<< '!id'", "ed -s f <<< 'w /tmp/x'", "printf '%s\\n' '!id' | ed f", "ed f <<< 'r !id'",
    ])
    .not_matches(words![
        "vim notes.md", "vim +42 src/main.rs", "vim +/TODO x", "nvim -R log.txt", "emacs notes.org", "vim -u NONE x", "vim -d a b", "kak -n notes.md",
        "ed -s f <<< ',p'", "ed f <<< $'1,3n\\nq'", "ed notes.txt",
    ]);

/// ## What it matches
/// A pager told to run a command: `less '+!cmd' f`, `less +|cmd`, `less -k keyfile` / `--lesskey-file` (key bindings can run commands), `more '+!cmd'`.
/// ## Why this tier
/// `!` and `|` in a pager's start-up command run the shell; `+G`, `+F` and `+/pat` only move.
pub static PAGER_COMMAND: Rule = Rule::t3("tools.pager-command")
    .reason("tells the pager to run a shell command (`!`/`|` in its start-up command, or a key file); open the file without it")
    .matches(words!["less '+!id' x.log", "less -k keys x", "more '+!id' x"])
    .not_matches(words!["less +F app.log", "less +G x", "less -R x", "more +/err x"]);

/// ## What it matches
/// Debugger command options: `gdb -ex CMD`, `-x FILE`, `-iex`, `--eval-command`, `--command`, `lldb -o CMD`, `-s FILE`, `--one-line*`, `--source*`;
/// and commands on the debugger's input (`gdb -batch ./a.out <<< 'shell id'`, `… < cmds.gdb`, `… | lldb`).
/// ## Why this tier
/// Debugger commands run shell commands (`shell …`, `platform shell …`) and change the program's memory.
pub static DEBUGGER_COMMANDS: Rule = Rule::t3("tools.debugger-commands")
    .reason("hands the debugger commands to run (they can run shell commands or the program); start it without them or ask the user")
    .matches(words![
        "gdb -ex 'shell id' ./a.out", "gdb -batch -x cmds ./a.out", "lldb -o 'platform shell id' ./a.out", "lldb -s cmds.txt",
        "gdb-multiarch -ex 'shell id' fw.elf", "cgdb -ex 'shell id' ./a.out", "rust-gdb -ex 'shell id' ./a.out", "rust-lldb -o 'platform shell id' ./a.out",
        "gdb --command=cmds.gdb ./a.out", "gdb --eval-command='shell id' ./a.out", "gdb -iex 'shell id' ./a.out", "gdb -ix init.gdb ./a.out",
        "gdb --init-command=init.gdb ./a.out", "gdb --init-eval-command='shell id' ./a.out", "gdb -eval-command='shell id' ./a.out",
        "gdb -command=c.gdb ./a.out", "gdb -batch ./a.out <<< 'shell id'", "lldb ./a.out < cmds.txt", "echo 'shell id' | gdb -batch",
    ])
    .not_matches(words!["gdb ./a.out", "lldb ./a.out", "gdb --version", "gdb -batch ./a.out <<< ''"]);

/// ## What it matches
/// Attaching a debugger to a running process: `gdb -p PID`, `gdb --pid`, `lldb -p PID`, `lldb -n NAME`, and a tracer's `strace -p PID` / `ltrace -p PID` (with or without a command of its own).
/// ## Why this tier
/// A debugger attached to a live process can change its memory and what it does.
pub static DEBUGGER_ATTACH: Rule = Rule::t3("tools.debugger-attach")
    .reason("attaches a debugger to a running process, which can change what it does; ask the user first")
    .matches(words!["gdb -p 1234", "lldb -p 42", "lldb -n server", "strace -p 1234", "ltrace -p1234", "strace -f --attach=99 -o trace.txt"])
    .not_matches(words!["gdb ./a.out", "strace ls", "strace -o trace.txt ls"]);

/// ## What it matches
/// TeX input on the command line that shells out: `pdflatex '\immediate\write18{…}'`, `\directlua{os.execute…}`.
/// ## Why this tier
/// `\write18` runs a shell command (restricted by default, unrestricted with `--shell-escape`); `\directlua` runs Lua.
pub static TEX_WRITE18: Rule = Rule::t3("tools.tex-shell-escape")
    .reason("the TeX input runs a shell command (\\write18) or Lua code; build the document without it or ask the user")
    .matches(words![
        "pdflatex '\\immediate\\write18{id}'", "lualatex '\\directlua{os.execute(\"id\")}'", "luahbtex '\\directlua{os.execute(\"id\")}'",
        "ptex '\\immediate\\write18{id}'",
    ])
    .not_matches(words!["pdflatex doc.tex", "latex '\\def\\x{1}\\input doc'", "luahbtex doc.tex"]);

/// Every program's check, then what an unowned program gets: editors and pagers
/// stay exempt there; `gdb`, TeX and `open` get the verb scan as before.
fn enter(inv: &Invocation, cx: &mut Cx<'_>, check: Check) {
    check(inv, cx);
    cx.or_unowned(inv);
}

/// `strace -p PID`: the tracer stops and inspects (`-e inject=` can alter) a live
/// process. Asked for the tracer alone and for its own words when it also wraps a
/// command (`units::wrapper_words`).
pub(crate) fn tracer_attach(inv: &Invocation, cx: &mut Cx<'_>) {
    if inv.option(words!["-p", "--attach"]).is_some() {
        cx.hit(&DEBUGGER_ATTACH);
    }
}

fn editor_hit(cx: &mut Cx<'_>, program: &str, opt: &str) {
    cx.hit_because(&EDITOR_COMMANDS, format!("`{program} {opt}`: {}", EDITOR_COMMANDS.reason));
}

/// vim's options that take a value, each a whole word (`-es` is one option; `-cCMD`
/// is not vim syntax).
const VIM_ARGS: ArgSpec = ArgSpec::values(words!["-c", "--cmd", "-s", "-W", "-w", "-u", "-U"]).single_dash_long();

fn vim(inv: &Invocation, cx: &mut Cx<'_>) {
    for t in Args::parse(&inv.args, VIM_ARGS) {
        let (word, runs) = match t {
            Token::DashDash(_) => break,
            // `+CMD` runs CMD: only a line number, `$` or a search is inert.
            Token::Operand(o) => {
                let w = o.arg.text.as_str();
                let cmd = w.strip_prefix('+');
                (w, cmd.is_some_and(|c| !(c.is_empty() || c.chars().all(|d| d.is_ascii_digit()) || c == "$" || c.starts_with(['/', '?']))))
            }
            // `-u NONE` loads no vimrc; any other file runs its commands.
            Token::Opt { index, name: "-u" | "-U", value } => (inv.args[index].text.as_str(), value.is_none_or(|v| !matches!(v, "NONE" | "NORC" | "DEFAULTS"))),
            // The other value options run what they name (`-c CMD`, `-s SCRIPTIN`); so does `-u` with nothing after it.
            Token::Opt { index, .. } | Token::Missing { index, .. } => (inv.args[index].text.as_str(), true),
            Token::Flag { index, word, .. } => (inv.args[index].text.as_str(), matches!(word, "-S" | "-e" | "-E" | "-es" | "-Es" | "-s-")),
            Token::Opt2 { .. } | Token::Unknown { .. } | Token::Help { .. } => continue,
        };
        if runs {
            editor_hit(cx, &inv.program, word);
            return;
        }
    }
    if inv.program == "ex" && Args::parse(&inv.args, ArgSpec::values(words![])).operands().next().is_none() {
        // Bare `ex` reads Ex commands from its input.
        editor_hit(cx, &inv.program, "(commands from input)");
    }
}

/// Kakoune runs commands given at start-up (`-e`, `-E` before the user's config), keys
/// typed into each file (`-f`, filter mode) and commands read from input into a running
/// session (`-p`); a `%sh{…}` expansion or a `!` key in any of them runs the shell.
fn kak(inv: &Invocation, cx: &mut Cx<'_>) {
    if inv.program != "kak" {
        return;
    }
    if let Some(a) = inv.args.iter().find(|a| matches!(a.text.as_str(), "-e" | "-E" | "-f" | "-p")) {
        editor_hit(cx, &inv.program, &a.text);
    }
}

crate::table! {
    CODE = ["--eval", "-eval", "--execute", "-batch", "--batch", "-l", "--load", "-f", "--funcall", "--script", "-x", "-e"];
    probe "emacsclient {} x" => T3, "tools.editor-commands";
}

fn emacs(inv: &Invocation, cx: &mut Cx<'_>) {
    // `--kill` only exits once the other options are processed: it runs nothing itself.
    for a in &inv.args {
        let name = a.text.split_once('=').map_or(a.text.as_str(), |(n, _)| n);
        // `emacsclient -e`, `emacs --eval`; `emacs -e` is not an option, so only the client's counts.
        if CODE.contains(name) && (name != "-e" || inv.program == "emacsclient") {
            editor_hit(cx, &inv.program, name);
            return;
        }
    }
}

fn pager(inv: &Invocation, cx: &mut Cx<'_>) {
    for a in &inv.args {
        let t = a.text.as_str();
        let start_cmd = t.strip_prefix("++").or_else(|| t.strip_prefix('+'));
        let runs = start_cmd.is_some_and(|c| c.contains('!') || c.contains('|'))
            || matches!(t, "-k" | "--lesskey-file" | "--lesskey-src" | "--lesskey-content")
            || t.starts_with("--lesskey");
        if runs {
            cx.hit_because(&PAGER_COMMAND, format!("`{} {t}`: {}", inv.program, PAGER_COMMAND.reason));
            return;
        }
    }
}

crate::table! {
    GDB_CODE = ["-ex", "-iex", "-x", "-ix", "--command", "--eval-command", "--init-command", "--init-eval-command", "-eval-command", "-command"];
    probe "gdb {} 'shell rm x' ./a.out" => T3, "tools.debugger-commands";
}

crate::table! {
    LLDB_CODE = [
        "-o", "-O", "-s", "-S", "-k", "-K", "--one-line", "--one-line-before-file", "--one-line-on-crash", "--source", "--source-before-file",
        "--source-on-crash",
    ];
    probe "lldb {} 'platform shell rm x' ./a.out" => T3, "tools.debugger-commands";
}

fn debugger(inv: &Invocation, cx: &mut Cx<'_>) {
    let lldb = inv.program.contains("lldb");
    let code = if lldb { LLDB_CODE } else { GDB_CODE };
    for t in Args::parse(&inv.args, ArgSpec::values(words![])) {
        // `gdb --args PROG ARGS…` / `lldb -- PROG ARGS…`: the program runs when the session says `run`.
        let program_at = match t {
            Token::DashDash(d) if lldb => Some(d + 1),
            Token::Flag { index, word: "--args", .. } if !lldb => Some(index + 1),
            _ => None,
        };
        if let Some(at) = program_at {
            cx.argv(&inv.args[at..], inv.cwd.as_deref());
            return;
        }
        // gdb's long options take one dash too (`-eval-command=CMD`).
        let name = t.name().map_or("", |n| split_option(n).0);
        if code.contains(name) {
            cx.hit_because(&DEBUGGER_COMMANDS, format!("`{} {name}`: {}", inv.program, DEBUGGER_COMMANDS.reason));
            return;
        }
        if matches!(name, "-p" | "--pid" | "--attach-pid" | "-n" | "--attach-name" | "-pid") {
            cx.hit(&DEBUGGER_ATTACH);
            return;
        }
    }
    // Without a terminal a debugger reads its commands from its input.
    let why = match input_commands(inv, cx) {
        Some(Ok(text)) if !text.trim().is_empty() => "commands on its input",
        Some(Err(why)) => why,
        _ => return,
    };
    cx.hit_because(&DEBUGGER_COMMANDS, format!("`{}` reads {why}: {}", inv.program, DEBUGGER_COMMANDS.reason));
}

/// What a program that reads commands from its input is given: `None` without
/// input, `Some(Ok(text))` when tiergate sees it (a heredoc, a here-string, a
/// readable file), `Some(Err(why))` when it cannot (a pipe, an unreadable file).
fn input_commands(inv: &Invocation, cx: &mut Cx<'_>) -> Option<Result<String, &'static str>> {
    Some(match cx.input(inv) {
        Input::None => return None,
        Input::Seen(text) => Ok(text),
        Input::Unseen(_) if input::of(inv) == Source::Pipe => Err("the previous stage's output as commands"),
        Input::Unseen(_) => Err("commands from a file tiergate cannot read"),
    })
}

/// ed: commands come from the input (`red`, restricted, runs no shell and writes only
/// in the current directory; no family owns it). Printing, addressing and quitting
/// read; anything else may run a shell (`!cmd`, `r !cmd`, `e !cmd`, `w !cmd`) or
/// write a file (`w name`), so it asks, as input tiergate cannot see does.
fn ed_input(inv: &Invocation, cx: &mut Cx<'_>) {
    let why = match input_commands(inv, cx) {
        None => return,
        Some(Err(why)) => why.to_owned(),
        Some(Ok(text)) => match text.lines().map(str::trim).find(|l| !ed_reads(l)) {
            None => return,
            Some(line) => format!("the command `{line}`"),
        },
    };
    cx.hit_because(&EDITOR_COMMANDS, format!("`{}` reads {why} from its input: {}", inv.program, EDITOR_COMMANDS.reason));
}

/// An ed command line that only reads: an address (numbers, `.`, `$`, `,`, `;`,
/// `+`, `-`) and then nothing or one of `p n l =`, or `q Q h H P`.
fn ed_reads(line: &str) -> bool {
    let command = line.trim_start_matches(|c: char| c.is_ascii_digit() || ".$,;+- ".contains(c));
    matches!(command, "" | "p" | "n" | "l" | "=" | "q" | "Q" | "h" | "H" | "P")
}

crate::table! {
    TERMINALS = ["Terminal", "iTerm", "iTerm2", "Alacritty", "kitty", "WezTerm", "Warp", "Ghostty", "Hyper", "Script Editor", "Automator"];
    probe "open -a '{}' x.sh" => T3, "tools.open-runs";
}

fn open(inv: &Invocation, cx: &mut Cx<'_>) {
    let app = inv.option(words!["-a"]).map(|a| a.trim_end_matches(".app"));
    let runs_file = |w: &str| [".app", ".app/", ".command", ".tool", ".terminal", ".workflow", ".pkg", ".mpkg", ".scpt"].iter().any(|e| w.ends_with(e));
    let operands: Vec<&str> = inv.bare_words().filter(|w| Some(*w) != inv.option(words!["-a"])).collect();
    if app.is_some_and(|a| TERMINALS.contains(a)) && !operands.is_empty() || operands.iter().any(|w| runs_file(w)) {
        cx.hit(&OPEN_RUNS);
    }
}

/// The operands an editor opens go through the same `paths` policy as a redirect:
/// an editor writes what it opens (ORACLE.md §4 row 23 saw editors write outside the
/// tree); `vim -R` and `view` only read.
fn edits(inv: &Invocation, cx: &mut Cx<'_>, value_opts: Words) {
    let read_only = matches!(inv.program.as_str(), "view" | "gview") || inv.args.iter().any(|a| matches!(a.text.as_str(), "-R" | "-M" | "--view"));
    if read_only {
        return;
    }
    let cwd = inv.cwd.clone();
    for op in Args::parse(&inv.args, ArgSpec::values(value_opts)).operands() {
        let a = op.arg;
        if a.text.starts_with('+') {
            continue;
        }
        let before = cx.hits.len();
        crate::rules::vocab::writes::check_write(cx, a, cwd.as_deref());
        // Name the editor in the reason, keeping the path rule's id (and blocked tier).
        if let Some(h) = cx.hits.get_mut(before) {
            if !h.rule.blocked && h.rule.tier == crate::verdict::Tier::T3 {
                h.detail = Some(format!("`{}` opens `{}` to edit it: {}", inv.program, a.text, h.reason()));
            }
        }
    }
}

crate::tables![VIMS, TRACERS, EMACS, PAGERS, SIMPLE_EDITORS, DEBUGGERS, TEX, CODE, GDB_CODE, LLDB_CODE, TERMINALS];
