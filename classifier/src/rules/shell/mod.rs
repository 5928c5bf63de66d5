//! Shells and shell-string runners: `bash -c`, `sh script.sh`, `eval`, `source`,
//! `ssh host CMD`, and command words that are not literals. Payloads are handed
//! back to the engine, so they are classified like any command line.
//!
//! Piped stdin into a shell (`curl … | sh`) is the `flow` family's job.

use crate::call::args::{asks_help, ArgSpec, Args, Help, Token};
use crate::call::Invocation;
use crate::rules::vocab::input::{self, Source};
use crate::rules::vocab::{payload, vars};
use crate::rules::{Card, Carried, Carry, Cx, Family, FileText, InputUse, Rule, Traits};
use crate::words;

pub static FAMILY: Family = Family::new("shell", CARDS, RULES);

crate::table! {
    /// Programs whose arguments or input are shell code: POSIX and Bourne-like
    /// shells (`posh` is Debian's policy-compliant shell, `sash` the stand-alone
    /// shell; both read `-c` and scripts as `sh` does).
    pub SHELLS = ["bash", "sh", "zsh", "dash", "ksh", "ash", "mksh", "fish", "csh", "tcsh", "rbash", "yash", "oksh", "loksh", "posh", "sash"];
    probe "{} -c 'rm -rf ~/x'" => T3, "coreutils.rm";
}

static CARDS: &[Card] = &[
    Card::of(SHELLS, shell).traits(Traits::SHELL).input(InputUse::Code(reads_code_from_stdin)),
    Card::of(words!["eval"], eval),
    Card::of(words!["source", "."], source),
    // ssh sends its remote command and what it reads; `-i` names the key it authenticates with.
    Card::of(words!["ssh", "autossh"], ssh).traits(Traits::NETWORK_SINK).carries(&[Carried { names: words!["-i"], carry: Carry::Credential }]),
    Card::of(REMOTE_RUNNERS, mosh),
    Card::of(words!["trap"], trap),
    Card::of(words!["export", "declare", "typeset"], export),
    Card::of(words!["hash"], hash),
    Card::of(words!["enable"], enable),
    Card::of(words!["alias"], alias),
    Card::of(words!["complete", "compgen", "bind"], completion),
    Card::of(words!["fc"], fc),
];

static RULES: &[&Rule] = &[
    &DYNAMIC_COMMAND, &SCRIPT_UNREADABLE, &SYNTAX_CHECK, &INTERACTIVE, &SSH_REMOTE, &SCRIPT_READ, &ENV_HIJACK, &RECURSIVE_FUNCTION, &FORK_LOOP, &REBIND, &ALIAS,
];

/// ## What it matches
/// A function whose body calls the function itself, the shape of a fork bomb (`:(){ :|:& };:`).
/// ## Why this tier
/// Unbounded self-invocation exhausts the machine's process table; recursion in a one-line agent command is never needed.
pub static RECURSIVE_FUNCTION: Rule = Rule::t3("shell.recursive-function")
    .reason("defines a function that calls itself (a fork bomb shape); write the loop out explicitly")
    .matches(words![":(){ :|:& };:", "bomb() { bomb | bomb & }; bomb"])
    .not_matches(words!["greet() { echo hi; }; greet"]);

/// ## What it matches
/// An unbounded loop that starts background jobs: `while :; do x & done`, `while true; do (y &); done`, `until false; do z & done`, `for ((;;)); do w & done`.
/// ## Why this tier
/// Each pass forks another process and nothing ever stops it: a fork bomb written as a loop.
pub static FORK_LOOP: Rule = Rule::t3("shell.fork-loop")
    .reason("an endless loop that starts a background job on every pass (a fork bomb shape); bound the loop or run the job once")
    .matches(words!["while :; do sleep 1 & done", "while true; do { yes > /dev/null & }; done", "until false; do x & done"])
    .not_matches(words!["while :; do sleep 1; done", "for i in 1 2 3; do sleep 1 & done; wait", "while read l; do echo $l & done < f"]);

/// ## What it matches
/// Rebinding what a command name runs: `hash -p /tmp/x ls` (the name now runs that file), `enable -f lib.so name` (loads a builtin from a shared object), `enable -n name` (disables a builtin so a file of that name runs); `fc -s`/`fc -e` re-running history lines.
/// ## Why this tier
/// Later commands with that name run something other than what they say.
pub static REBIND: Rule = Rule::t3("shell.rebind")
    .reason("rebinds what a command name runs (hash -p, enable -f/-n), so later commands are not what they look like; ask the user")
    .matches(words!["hash -p /tmp/evil ls", "enable -f /tmp/x.so evil", "enable -n echo", "fc -s"])
    .not_matches(words!["hash", "hash -r", "enable", "enable -a", "fc -l"]);

/// ## What it matches
/// `alias NAME=VALUE`, `complete -C CMD`, `compgen -C CMD`, `bind -x 'KEY: CMD'`: the value is a command line that runs later in the same shell.
/// ## Why this tier
/// Informational (T0): the alias body is classified as a command, so `alias ls='rm -rf ~'` is as strict as `rm -rf ~`.
pub static ALIAS: Rule = Rule::t0("shell.alias")
    .reason("defines an alias; its body is checked like a command")
    .matches(words!["alias ll='ls -la'", "compgen -C 'echo hi' x", "complete -C 'echo hi' git"])
    .not_matches(words!["alias", "ls -la"]);

/// ## What it matches
/// Setting a variable that makes programs load or run other code: `LD_PRELOAD`, `BASH_ENV`, `GIT_SSH_COMMAND`, `PAGER`, `EDITOR`, `PATH`, `NODE_OPTIONS`, `PROMPT_COMMAND` …, as a prefix (`LD_PRELOAD=x.so ls`), through `env`, or with `export`.
/// ## Why this tier
/// The visible program is not what runs: the variable injects code into it.
/// ## Known gaps
/// A search path into the working tree is not a hijack (`PYTHONPATH=. pytest`, `export PYTHONPATH=$PYTHONPATH:$(pwd)`: `vocab::vars::SEARCH_PATHS`): it loads the project's own code, as its test runs do.
/// `PATH` is not on the list: agents extend it constantly (`export PATH=$PATH:./node_modules/.bin`), and the commands that then run are classified by name.
pub static ENV_HIJACK: Rule = Rule::t3("shell.env-hijack")
    .reason("sets a variable that injects code into the program (preload, hook, pager, editor or PATH); run without it or ask the user")
    .matches(words![
        "LD_PRELOAD=/tmp/x.so ls", "env GIT_SSH_COMMAND='sh -c id' git fetch", "export BASH_ENV=/tmp/x", "NODE_OPTIONS='--require /tmp/x.js' npm test",
        "VISUAL=nano git commit", "EDITOR=vim git commit", "PAGER=cat git log", "MANPAGER=cat man ls", "GIT_PAGER=cat git log", "GIT_EDITOR=vim git commit",
        "BROWSER=firefox gh repo view --web", "SSH_ASKPASS=/tmp/a ssh h", "LESSOPEN='|/tmp/x %s' less f", "GIT_EXTERNAL_DIFF=/tmp/d git diff",
        "PROMPT_COMMAND=/tmp/x bash", "TERMINAL=xterm i3-sensible-terminal", "LD_AUDIT=/tmp/a.so ls", "CVS_RSH=/tmp/x cvs update",
        "DYLD_INSERT_LIBRARIES=/tmp/x.dylib ls", "RSYNC_RSH='ssh -p 2222' rsync -a src/ deploy@host:/srv/", "SUDO_ASKPASS=/tmp/pw sudo -A ls",
        "PYTHONSTARTUP=/tmp/s.py python3", "PERL5DB='BEGIN { system q(id) }' perl -d app.pl", "PERLDB_OPTS='NonStop=1 LineInfo=/tmp/x' perl -d app.pl",
        "NODE_REPL_EXTERNAL_MODULE=/tmp/m.js node", "PYTHONPATH=/tmp/x python3 app.py", "export PYTHONPATH=src", "NODE_PATH=$LIBS node app.js",
    ])
    .not_matches(words![
        "FOO=1 ls", "RUST_LOG=debug cargo test", "export EDITOR_THEME=dark", "export PATH=$PATH:./node_modules/.bin",
        "PYTHONPATH=src:$PYTHONPATH python3 app.py", "env PERL5LIB=lib prove",
    ]);

/// ## What it matches
/// A command word that is a variable, a substitution, a glob or a brace expansion holding one (`$CMD x`, `$(echo rm) x`, `r*m x`, `{$X,y}`);
/// a brace expansion of literal words is expanded first (`{rm,-rf,x}` is `rm -rf x`, `parse/braces.rs`);
/// and a shell string that `xargs -I` pastes input lines into (`xargs -I{} sh -c {}`).
/// ## Why this tier
/// The program that runs is only known at run time; unknown is never safe.
pub static DYNAMIC_COMMAND: Rule = Rule::t3("shell.dynamic-command")
    .reason("the program name is computed at run time (variable, substitution or expansion); write the program name literally")
    .matches(words!["$CMD install x", "$(echo rm) -rf build", "{$X,rm} -rf build", "/bin/r? -rf build", "\"$EDITOR\" file", "cat cmds | xargs -I{} sh -c {}"])
    .not_matches(words!["echo $CMD", "ls \"$(pwd)\"", "cat names | xargs -I{} echo {}", "cat names | xargs sh -c 'echo $0'"]);

/// ## What it matches
/// A script run by a shell (`bash x.sh`, `source env.sh`, `./run.sh`) that cannot be read, or that names the command's own input or another device or process file (`bash /dev/stdin <<< …`, `/dev/fd/0`, `/proc/self/fd/0`; `/dev/null` reads as empty).
/// ## Why this tier
/// What it does is unknown until it is read.
pub static SCRIPT_UNREADABLE: Rule = Rule::t3("shell.script-unreadable")
    .reason("runs a script tiergate cannot read (missing, unreadable or not text); review the script and ask the user")
    .matches(words!["bash missing-script.sh", "source ./nope.sh", "sh /nonexistent/x.sh", "bash /dev/stdin <<< 'ls'", "sh /proc/self/fd/0 < x"])
    .not_matches(words!["bash -n missing-script.sh", "bash /dev/null"]);

/// ## What it matches
/// A shell script classified by reading it (`bash build.sh`): the script's own commands decide the tier.
/// ## Why this tier
/// Informational: the script's strictest command is what counts.
pub static SCRIPT_READ: Rule = Rule::t0("shell.script-read").reason("the script's commands were read and none changes anything");

/// ## What it matches
/// `bash -n script` / `zsh -n`: a syntax check that never runs the script.
/// ## Why this tier
/// Local validation.
pub static SYNTAX_CHECK: Rule = Rule::t1("shell.syntax-check")
    .reason("syntax check only; the script does not run")
    .matches(words!["bash -n ./setup.sh", "sh -n x.sh"])
    .not_matches(words!["bash ./setup.sh"]);

/// ## What it matches
/// A shell started with nothing to run (`bash`, `sh -i`): it reads commands tiergate cannot see.
/// ## Why this tier
/// An interactive shell can run anything.
pub static INTERACTIVE: Rule = Rule::t3("shell.interactive")
    .reason("starts a shell whose commands are not visible; run the commands directly")
    .matches(words!["bash", "zsh -i", "sh -s", "bash --init-file ./rc.sh", "bash --rcfile ./rc.sh"])
    .not_matches(words!["bash -c 'ls'", "bash --version"]);

/// ## What it matches
/// `ssh HOST [CMD]`: a session or command on another machine; `mosh HOST`; `sshfs HOST:DIR MNT` (mounts the other machine's files here);
/// `ssh-copy-id HOST` (logs in and adds a key to the other machine's `authorized_keys`); fleet runners (`pssh`, `pdsh`,
/// `clush`, `salt '*' cmd.run …`), which run a command on every host they name; a shell on an attached device
/// (`adb shell CMD`, `adb exec-out CMD`, `hdc shell CMD`: `remote_session`, the one model of a command run elsewhere).
/// ## Why this tier
/// The remote machine's state is not the working tree; the remote command is also classified, so a blocked one stays blocked.
pub static SSH_REMOTE: Rule = Rule::t3("shell.ssh-remote")
    .reason("runs commands on a remote machine; ask the user before touching other hosts")
    .matches(words![
        "ssh prod uptime", "ssh -i key.pem user@host 'ls /'", "mosh prod", "sshfs deploy@host:/srv mnt", "ssh-copy-id deploy@prod", "pssh -h hosts.txt uptime",
        "salt '*' cmd.run 'rm -rf /srv/x'", "adb shell ls /sdcard", "adb -s emulator-5554 shell", "hdc shell ls"
    ])
    .not_matches(words!["ssh -V", "ssh -G host", "mosh --version", "sshfs --version", "ssh-copy-id -h", "adb devices", "adb shell --help"]);

crate::table! {
    /// Programs that log in to other machines or run commands across a fleet of them
    /// (`pssh -h hosts CMD`, `salt '*' cmd.run CMD`, `clush -a CMD`).
    REMOTE_RUNNERS = ["mosh", "sshfs", "ssh-copy-id", "pssh", "parallel-ssh", "pdsh", "clush", "mussh", "salt", "salt-ssh", "dsh", "cssh", "tmux-cssh"];
    probe "{} web1 'rm -rf /srv/x'" => T3, "shell.ssh-remote";
}

/// A shell's options, as bash reads them (sh, zsh, dash, ksh alike): `-o NAME`,
/// `-O NAME` (and their `+` forms) and the rc-file options take a value; letters
/// pack (`-eo pipefail`, `-xc CMD`), and the first operand ends the options (it is
/// the `-c` string or the script). The flags are the ones read here.
const SHELL_ARGS: ArgSpec =
    ArgSpec::values(words!["-o", "+o", "-O", "+O", "--rcfile", "--init-file"]).with_flags(words!["-c", "-i", "-s", "-n"]).packed().posix().plus();
/// A shell's help and version words: wherever its options read one, it prints and runs nothing.
const SHELL_HELP: Help = Help::LONG.with(Help::VERSION);

/// Builtins modelled for one form only: otherwise what an unowned program gets.
fn then_unowned(inv: &Invocation, cx: &mut Cx<'_>) {
    cx.or_unowned(inv);
}

fn hash(inv: &Invocation, cx: &mut Cx<'_>) {
    if inv.has_short('p') {
        cx.hit(&REBIND);
    }
    then_unowned(inv, cx);
}

fn enable(inv: &Invocation, cx: &mut Cx<'_>) {
    if inv.has_short('f') || inv.has_short('n') {
        cx.hit(&REBIND);
    }
    then_unowned(inv, cx);
}

/// `complete -C CMD`, `compgen -C CMD`: CMD runs to produce completions;
/// `bind -x 'KEY: CMD'` runs CMD on a key press.
fn completion(inv: &Invocation, cx: &mut Cx<'_>) {
    let opt = if inv.program == "bind" { words!["-x"] } else { words!["-C"] };
    if let Some(v) = inv.option(opt) {
        let cmd = if inv.program == "bind" { v.split_once(':').map_or(v, |(_, c)| c).trim().trim_matches('"').to_owned() } else { v.to_owned() };
        cx.hit(&ALIAS);
        cx.shell(&cmd, inv.cwd.as_deref());
    }
    then_unowned(inv, cx);
}

/// `fc -s`, `fc -e ED`, bare `fc`: re-runs history lines this command does not show.
fn fc(inv: &Invocation, cx: &mut Cx<'_>) {
    if !inv.has_short('l') {
        cx.hit(&REBIND);
    }
    then_unowned(inv, cx);
}

fn alias(inv: &Invocation, cx: &mut Cx<'_>) {
    for a in Args::parse(&inv.args, ArgSpec::values(words![])).operands() {
        if let Some((_, body)) = a.arg.text.split_once('=') {
            cx.hit(&ALIAS);
            let body = body.to_owned();
            cx.shell(&body, inv.cwd.as_deref());
        }
    }
}

fn eval(inv: &Invocation, cx: &mut Cx<'_>) {
    let script: Vec<&str> = inv.words().collect();
    let script = script.join(" ");
    payload::fetched_or_decoded(cx, &script);
    cx.shell(&script, inv.cwd.as_deref());
}

fn source(inv: &Invocation, cx: &mut Cx<'_>) {
    match inv.arg(0) {
        Some(path) => run_script(inv, cx, path),
        None => cx.hit(&INTERACTIVE),
    }
}

/// `mosh HOST`, `sshfs HOST:DIR MNT`: a session with, or a mount of, another machine.
fn mosh(inv: &Invocation, cx: &mut Cx<'_>) {
    // `-h` is help only to ssh-copy-id: to pssh and parallel-ssh it names the hosts file.
    let help = if inv.program == "ssh-copy-id" { SHELL_HELP.with(Help::DASH_H) } else { SHELL_HELP };
    let prints = asks_help(&inv.args, ArgSpec::values(words![]).help(help));
    if !prints {
        cx.hit(&SSH_REMOTE);
    }
}

/// `trap 'CMD' SIGNALS`: CMD runs later, in this shell.
fn trap(inv: &Invocation, cx: &mut Cx<'_>) {
    if let Some(action) = crate::call::first_operand(&inv.args, ArgSpec::values(words![])) {
        let action = action.arg.text.clone();
        cx.shell(&action, inv.cwd.as_deref());
    }
}

fn export(inv: &Invocation, cx: &mut Cx<'_>) {
    let (root, home) = (cx.root(), cx.home());
    if inv.words().any(|w| vars::hijacks(w, inv.cwd.as_deref(), root.as_deref(), home.as_deref(), true)) {
        cx.hit(&ENV_HIJACK);
    }
}

/// What a shell's options say (see `SHELL_ARGS`).
#[derive(Default)]
struct ShellArgs<'a> {
    /// `--version`, `--help`: prints and runs nothing.
    prints: bool,
    syntax_only: bool,
    reads_stdin: bool,
    interactive: bool,
    command: bool,
    rcfile: Option<&'a str>,
    /// The first operand: the `-c` string or the script.
    first: Option<usize>,
}

fn shell_args(inv: &Invocation) -> ShellArgs<'_> {
    let mut a = ShellArgs::default();
    for t in Args::parse(&inv.args, SHELL_ARGS) {
        match t {
            _ if t.name().is_some_and(|n| SHELL_HELP.holds(n)) => a.prints = true,
            Token::Opt { name: "-c", .. } => a.command = true,
            Token::Opt { name: "-i", .. } => (a.interactive, a.reads_stdin) = (true, true),
            Token::Opt { name: "-s", .. } => a.reads_stdin = true,
            Token::Opt { name: "-n", .. } => a.syntax_only = true,
            Token::Opt { name: "--rcfile" | "--init-file", value, .. } => a.rcfile = value,
            Token::Operand(o) => a.first = Some(o.index),
            Token::DashDash(d) => a.first = Some(d + 1).filter(|i| *i < inv.args.len()),
            _ => {}
        }
    }
    a
}

/// True when this shell reads the commands it runs from its stdin (`… | bash`,
/// `… | bash -eo pipefail`, `… | sh -s -- ARGS`, `… | bash -`): no `-c` string, no
/// script operand, not a syntax check or a version.
pub fn reads_code_from_stdin(inv: &Invocation) -> bool {
    let a = shell_args(inv);
    let operand = a.first.and_then(|i| inv.args.get(i)).map(|o| o.text.as_str());
    !a.prints && !a.command && !a.syntax_only && (a.reads_stdin || matches!(operand, None | Some("-" | "/dev/stdin")))
}

fn shell(inv: &Invocation, cx: &mut Cx<'_>) {
    let ShellArgs { prints, syntax_only, reads_stdin, interactive, command, rcfile, first } = shell_args(inv);
    if prints {
        return;
    }
    let i = first.unwrap_or(inv.args.len());
    if command {
        // An interactive shell runs its rc file (`-i --rcfile F`) before the string.
        if let Some(rc) = rcfile.filter(|_| interactive) {
            run_script(inv, cx, rc);
        }
        // `-c SCRIPT [NAME [ARGS…]]`: the first operand is the program.
        match inv.args.get(i) {
            Some(_) if syntax_only => cx.hit(&SYNTAX_CHECK),
            Some(script) => {
                if !payload::fetched_or_decoded(cx, &script.text) {
                    cx.shell(&script.text, inv.cwd.as_deref());
                }
            }
            None => cx.hit(&INTERACTIVE),
        }
        return;
    }
    if let Some(rc) = rcfile.filter(|_| interactive && !syntax_only) {
        run_script(inv, cx, rc);
    }
    if let Some(script) = inv.args.get(i).filter(|_| !reads_stdin) {
        if syntax_only {
            cx.hit(&SYNTAX_CHECK);
            return;
        }
        let path = script.text.clone();
        run_script(inv, cx, &path);
        return;
    }
    if syntax_only {
        cx.hit(&SYNTAX_CHECK);
        return;
    }
    match input::of(inv) {
        Source::Shown { text, .. } => cx.shell(text, inv.cwd.as_deref()),
        Source::File(path) => run_script(inv, cx, path),
        // Piped input is judged by the `flow` family, which sees the whole pipeline.
        Source::Pipe => {}
        Source::None => cx.hit(&INTERACTIVE),
    }
}

/// Reads a shell script and classifies its text as shell.
pub fn run_script(inv: &Invocation, cx: &mut Cx<'_>, path: &str) {
    match cx.read(path, inv.cwd.as_deref()) {
        FileText::Text(src) => {
            let before = cx.hits.len();
            cx.shell(&src, inv.cwd.as_deref());
            if cx.hits.len() == before {
                cx.hit(&SCRIPT_READ);
            }
        }
        FileText::Missing => cx.hit_because(&SCRIPT_UNREADABLE, format!("runs `{path}`, which tiergate cannot find; review the script and ask the user")),
        FileText::Unusable(why) => cx.hit_because(&SCRIPT_UNREADABLE, format!("runs `{path}`, which tiergate cannot read ({why}); review it and ask the user")),
    }
}

/// ssh's options (OpenSSH's getopt string): these letters take a value, letters
/// pack (`-tp 2222`), and `-V`/`-G` print without connecting. The destination is the
/// first operand; OpenSSH then reads options again (`ssh host -t CMD`), and the
/// remote command starts at the next operand.
const SSH_ARGS: ArgSpec =
    ArgSpec::values(words!["-B", "-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m", "-O", "-o", "-P", "-p", "-Q", "-R", "-S", "-W", "-w"])
        .with_flags(words!["-V", "-G"])
        .packed()
        .posix();

/// The next operand of ssh's argv from word `from` (`Err` when `-V`/`-G` only print).
fn ssh_operand(args: &[crate::call::Arg], from: usize) -> Result<Option<usize>, ()> {
    for t in Args::parse(args, SSH_ARGS).starting_at(from) {
        match t {
            Token::Opt { name: "-V" | "-G", .. } => return Err(()),
            Token::Operand(o) => return Ok(Some(o.index)),
            Token::DashDash(d) => return Ok(Some(d + 1).filter(|i| *i < args.len())),
            _ => {}
        }
    }
    Ok(None)
}

fn ssh(inv: &Invocation, cx: &mut Cx<'_>) {
    let Ok(host) = ssh_operand(&inv.args, 0) else { return };
    let remote = match host.map(|h| ssh_operand(&inv.args, h + 1)) {
        Some(Err(())) => return,
        Some(Ok(Some(r))) => r,
        _ => inv.args.len(),
    };
    // Words from the remote command on form the remote command line.
    remote_session(cx, None, &inv.args[remote.min(inv.args.len())..]);
}

/// The one model of a command run on another machine (`ssh host CMD`, `adb shell
/// CMD`, `hdc shell CMD`; families reach it through `Cx::remote`): the session asks
/// (`shell.ssh-remote`, its reason naming what `what` opens), and the command the
/// words form is a line the other side's shell runs, classified with no working
/// directory, so a blocked command stays blocked wherever it runs.
pub(crate) fn remote_session(cx: &mut Cx<'_>, what: Option<&str>, words: &[crate::call::Arg]) {
    match what {
        Some(w) => cx.hit_because(&SSH_REMOTE, format!("{w} runs commands on another machine; ask the user before touching it")),
        None => cx.hit(&SSH_REMOTE),
    }
    let line: Vec<&str> = words.iter().map(|a| a.text.as_str()).collect();
    if !line.is_empty() {
        cx.remote_line(&line.join(" "));
    }
}

crate::tables![SHELLS, REMOTE_RUNNERS];
