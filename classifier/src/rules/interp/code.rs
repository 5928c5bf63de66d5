//! Turns the code analysers' findings (`lanes::scripts::Effect`) into hits:
//! exec-sink strings are classified as shell, argvs as commands, file writes go
//! through `writes::check_write`, SQL through the `db` family's statement
//! classifier, and everything else hits one of the `interp.code.*` rules below.
//!
//! It does not analyse code itself (`lanes/python.rs`, `lanes/lexer_sinks.rs` do).

use crate::call::{Arg, Invocation};
use crate::lanes::lexer_sinks;
use crate::lanes::python;
use crate::lanes::scripts::{Analysis, Effect, Lang};
use crate::rules::vocab::writes;
use crate::rules::{Cx, Rule};
use crate::words;

/// ## What it matches
/// A PowerShell cmdlet or an app-scripting command that changes state (`Set-*`, `New-*`, `Stop-Service`, `Restart-Computer`, an AppleScript `tell application … to quit`).
/// ## Why this tier
/// Verbs outside PowerShell's read-only set change the machine.
pub(super) static MUTATE: Rule = Rule::t3("interp.code.mutating-command")
    .reason("the script runs a command that changes system or application state; ask the user first")
    .matches(words!["pwsh -c 'Set-ItemProperty -Path HKCU:\\x -Name a -Value 1'", "pwsh -c 'Stop-Service spooler'"])
    .not_matches(words!["pwsh -c 'Get-Process'", "pwsh -c 'Get-ChildItem | Select-Object Name'"]);

/// ## What it matches
/// Inline code, a heredoc or a script whose code was analysed and only computes, reads or prints.
/// ## Why this tier
/// Nothing in it executes processes, writes outside the tree, deletes or touches the network.
pub static READ: Rule = Rule::t0("interp.code.read")
    .reason("the code was analysed and only reads, computes or prints")
    .matches(words![
        "python3 -c 'print(1)'", "python3 -c \"print('rm -rf /')\"", "node -e 'console.log(process.version)'", "ruby -e 'puts 1'",
        "python3 -c \"import subprocess; print('hi')\"", "deno fmt", "deno info",
    ])
    .not_matches(words!["python3 -c \"import os; os.remove('x')\""]);

/// ## What it matches
/// Code that deletes files or directories (`os.remove`, `shutil.rmtree`, `fs.rmSync`, `FileUtils.rm_rf`, `unlink`).
/// ## Why this tier
/// Deleting is T3 anywhere; a tree removal of a catastrophic target is also classified as `rm -rf`, so it is blocked.
pub static DELETE: Rule = Rule::t3("interp.code.delete")
    .reason("the code deletes files; run the deletion as a reviewed command and ask the user")
    .matches(words![
        "python3 -c \"import shutil; shutil.rmtree('build')\"",
        "node -e \"require('fs').rmSync('dist', {recursive: true})\"",
        "ruby -e 'FileUtils.rm_rf(\"tmp\")'",
        "perl -e 'unlink glob \"*.log\"'",
        "php -r 'unlink(\"x\");'",
    ])
    .not_matches(words!["python3 -c \"print('os.remove')\"", "python3 -c \"# os.remove('x')\""]);

/// ## What it matches
/// Code that writes a file whose path is computed at run time (`open(path, "w")`). Literal paths go through the write-target rules (`paths.*`): free inside the tree.
/// ## Why this tier
/// Where an unseen path lands is unknown.
pub static WRITE: Rule = Rule::t3("interp.code.write")
    .reason("the code writes a file whose path is computed at run time; spell the path out or ask the user")
    .matches(words!["python3 -c \"import sys; open(sys.argv[1], 'w').write('x')\"", "node -e \"require('fs').writeFileSync(process.argv[1], 'x')\""])
    .not_matches(words!["python3 -c \"open('out.txt', 'w').write('x')\"", "python3 -c \"print(open('x').read())\""]);

/// ## What it matches
/// Code that renames or moves files (`os.rename`, `shutil.move`, `fs.renameSync`, `File.rename`).
/// ## Why this tier
/// A move over an existing file destroys it, like `mv`.
pub static MOVE: Rule = Rule::t3("interp.code.move")
    .reason("the code renames or moves files; run the move as a reviewed command and ask the user")
    .matches(words!["python3 -c \"import os; os.rename('a', 'b')\"", "node -e \"require('fs').renameSync('a', 'b')\""])
    .not_matches(words!["python3 -c \"print('os.rename')\""]);

/// ## What it matches
/// Code that changes permissions, owners or attributes (`os.chmod`, `fs.chmodSync`, `File.chmod`).
/// ## Why this tier
/// Permission changes persist beyond the task and can open access.
pub static CHMOD: Rule = Rule::t3("interp.code.chmod")
    .reason("the code changes file permissions or owners; ask the user first")
    .matches(words!["python3 -c \"import os; os.chmod('x', 0o777)\""])
    .not_matches(words!["python3 -c \"import os; print(os.stat('x'))\""]);

/// ## What it matches
/// Code that writes to the network, opens sockets or mutates cloud resources (`requests.post`, `urlopen(data=…)`, `socket.socket`, `fetch` with a POST, `boto3 … delete_*`).
/// ## Why this tier
/// Remote state changes and data leaving the machine cannot be called back.
pub static NETWORK: Rule = Rule::t3("interp.code.network")
    .reason("the code writes to the network or changes remote resources; ask the user first")
    .matches(words![
        "python3 -c \"import requests; requests.post('https://h', data='x')\"",
        "python3 -c \"import urllib.request as u; u.urlopen('https://h', data=b'x')\"",
        "node -e \"fetch('https://h', {method: 'POST'})\"",
    ])
    .not_matches(words![
        "python3 -c \"import requests; print(requests.get('https://h').status_code)\"",
        "node -e \"fetch('https://h').then(r => r.text()).then(console.log)\"",
    ]);

/// ## What it matches
/// Code that signals or kills processes (`os.kill`, `process.kill`, `Process.kill`).
/// ## Why this tier
/// Stopping other processes changes the machine's live state.
pub static PROCESS: Rule = Rule::t3("interp.code.process")
    .reason("the code signals or kills processes; ask the user first")
    .matches(words!["python3 -c \"import os; os.kill(1234, 9)\"", "node -e 'process.kill(42)'"])
    .not_matches(words!["python3 -c \"import os; print(os.getpid())\""]);

/// ## What it matches
/// Code that installs or removes packages (`install.packages("x")` in R).
/// ## Why this tier
/// Installs change the environment beyond the working tree.
pub static INSTALL: Rule = Rule::t3("interp.code.install")
    .reason("the code installs or removes packages; ask the user first")
    .matches(words!["Rscript -e 'install.packages(\"dplyr\")'"])
    .not_matches(words!["Rscript -e 'print(1)'"]);

/// ## What it matches
/// Code that starts a process whose command line is computed at run time (`subprocess.run(cmd)`, `os.system(f"rm {x}")`, `execSync(cmd)`).
/// ## Why this tier
/// What runs is unknown until it runs.
pub static EXEC_UNSEEN: Rule = Rule::t3("interp.code.exec-unseen")
    .reason("the code starts a process whose command is computed at run time; run the command directly so it can be checked")
    .matches(words![
        "python3 -c \"import os, sys; os.system(sys.argv[1])\"",
        "node -e \"require('child_process').execSync(process.argv[1])\"",
        "python3 -c \"import subprocess as s; s.run(f'rm {x}', shell=True)\"",
        "ruby -e 'x = %x #{ARGV[0]} '",
    ])
    .not_matches(words!["python3 -c \"import subprocess; subprocess.run(['ls', '-la'])\"", "ruby -e 'puts \"%x\" % 255'"]);

/// ## What it matches
/// Code the analyser cannot see into: `exec`/`eval` of a computed string, `getattr(os, name)`, `__import__(name)`, a runner's name looked up on
/// what the scan cannot resolve (`getattr(o[0], "system")`, `operator.methodcaller("system", …)`, Ruby's `method(:system)`), `pickle.loads`,
/// `ctypes`, a sink passed around as a value, `child_process` loaded with its use unseen.
/// ## Why this tier
/// Dynamic evaluation is the standard way to hide a command from a guard.
pub static DYNAMIC: Rule = Rule::t3("interp.code.dynamic")
    .reason("the code evaluates or looks up code at run time, so what it does is unseen; ask the user")
    .matches(words![
        "python3 -c \"exec(__import__('base64').b64decode('cHJpbnQoMSk='))\"",
        "python3 -c \"import os; getattr(os, 'sys' + input())('x')\"",
        "node -e \"eval(atob('dGVzdA=='))\"",
        "node -e \"require('child_process')\"",
        "python3 -c 'o = [__import__(\"os\")]; getattr(o[0], \"system\")(\"x\")'",
        "ruby -e 'method(:system).call(ARGV[0])'",
    ])
    .not_matches(words![
        "python3 -c \"exec('print(1)')\"", "python3 -c \"import os; print(getattr(os, 'sep'))\"", "python3 -c 'print(getattr(str, \"upper\")(\"x\"))'",
        "ruby -e 'p method(:puts)'",
    ]);

/// ## What it matches
/// Inline code the tokenizer cannot read (an unterminated string or comment).
/// ## Why this tier
/// Unreadable code is unseen code.
pub static UNPARSED: Rule = Rule::t3("interp.code.unparsed")
    .reason("the inline code could not be read (unterminated string or comment); fix the quoting or use a script file")
    .matches(words!["python3 -c \"print('x)\"", "node -e \"console.log('x)\""])
    .not_matches(words!["python3 -c \"print('x')\""]);

/// ## What it matches
/// Inline code over 500 characters with any effect at all, or in a language analysed by the lexer only.
/// ## Why this tier
/// Long one-liners are where payloads hide; the original asks for them too. Write a script file the user can review.
pub static LONG: Rule = Rule::t3("interp.code.long")
    .reason("the inline code is long and not provably read-only; put it in a script file the user can review")
    .not_matches(words!["python3 -c 'print(1)'"]);

/// Longest inline code analysed without the `interp.code.long` rule.
pub const LONG_CODE: usize = 500;

/// Where code came from: inline flags get the length heuristic, files and heredocs do not.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Origin {
    Inline,
    Body,
}

/// Analyses code in `lang` (PowerShell and AppleScript have their own readers).
pub(crate) fn analyse(lang: Lang, src: &str) -> Analysis {
    match lang {
        Lang::Python => python::analyse(src),
        Lang::PowerShell => super::pwsh::analyse(src),
        Lang::AppleScript => super::others::applescript(src),
        _ => lexer_sinks::analyse(lang, src),
    }
}

/// Analyses `src` and records its hits; adds `interp.code.read` when nothing fired.
pub(crate) fn classify(inv: &Invocation, cx: &mut Cx<'_>, lang: Lang, src: &str, origin: Origin) {
    let before = cx.hits.len();
    if lang == Lang::Shell {
        cx.shell(src, inv.cwd.as_deref());
        return;
    }
    let analysis = analyse(lang, src);
    apply(inv, cx, &analysis);
    // `python3 -c "from app import main; main()"`, `node -e "require('./x')"`,
    // `ruby -e 'require "./x"'`: the tree's own modules run too.
    super::script::follow_local(inv, cx, lang, "", &analysis.imports);
    let long = origin == Origin::Inline && src.len() > LONG_CODE && (lang != Lang::Python || !analysis.findings.is_empty());
    if long {
        cx.hit_because(&LONG, format!("the inline code is {} characters and not provably read-only; put it in a script file the user can review", src.len()));
    }
    if cx.hits.len() == before {
        cx.hit(&READ);
    }
}

/// Records hits for an analysis.
pub(crate) fn apply(inv: &Invocation, cx: &mut Cx<'_>, analysis: &Analysis) {
    let cwd = inv.cwd.clone();
    if let Some(err) = &analysis.error {
        cx.hit_because(&UNPARSED, format!("the code could not be read ({err}); fix the quoting or use a script file"));
    }
    for f in &analysis.findings {
        let sink = f.sink.as_str();
        match &f.effect {
            Effect::Shell(text) => cx.shell(text, cwd.as_deref()),
            Effect::Argv(words) => {
                let args: Vec<Arg> = words.iter().map(|w| Arg::lit(w)).collect();
                cx.argv(&args, cwd.as_deref());
            }
            Effect::ExecUnseen => cx.hit_because(
                &EXEC_UNSEEN,
                format!("`{sink}` starts a process whose command is computed at run time; run the command directly so it can be checked"),
            ),
            Effect::Write(Some(target)) => writes::check_write(cx, &Arg::lit(target), cwd.as_deref()),
            Effect::Write(None) => {
                cx.hit_because(&WRITE, format!("`{sink}` writes a file whose path is computed at run time; spell the path out or ask the user"))
            }
            Effect::Delete { target, recursive } => {
                let what = target.as_deref().map(|t| format!(" `{t}`")).unwrap_or_default();
                cx.hit_because(&DELETE, format!("`{sink}` deletes{what}; run the deletion as a reviewed command and ask the user"));
                // The same deletion as a command, so the catastrophic floor (`rm -rf /`) applies.
                if let Some(t) = target {
                    let flag = if *recursive { "-rf" } else { "-f" };
                    cx.argv(&[Arg::lit("rm"), Arg::lit(flag), Arg::lit("--"), Arg::lit(t)], cwd.as_deref());
                }
            }
            Effect::Move => cx.hit_because(&MOVE, format!("`{sink}` renames or moves files; run the move as a reviewed command and ask the user")),
            Effect::Chmod => cx.hit_because(&CHMOD, format!("`{sink}` changes permissions or owners; ask the user first")),
            Effect::Network => cx.hit_because(&NETWORK, format!("`{sink}` writes to the network or changes remote resources; ask the user first")),
            Effect::Process => cx.hit_because(&PROCESS, format!("`{sink}` signals or kills processes; ask the user first")),
            Effect::Install => cx.hit_because(&INSTALL, format!("`{sink}` installs or removes packages; ask the user first")),
            Effect::Mutate => cx.hit_because(&MUTATE, format!("`{sink}` changes system or application state; ask the user first")),
            Effect::Sql(sql) => cx.sql(sql),
            Effect::Dynamic => cx.hit_because(&DYNAMIC, format!("`{sink}` evaluates or looks up code at run time, so what it does is unseen; ask the user")),
        }
    }
}
