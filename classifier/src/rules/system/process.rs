//! Process signals and scheduled jobs: `kill`, `killall`, `pkill`, `xkill`,
//! `crontab`, `at`, `batch`, `atq`, `atrm`, and `watchman trigger` (a command run
//! on every file change, long after this one returned).
//!
//! Decision: `kill` aimed at PID 1 (init) or PID -1 (every process the caller may
//! signal) is blocked: it takes the whole session or machine down with every
//! unsaved state in it, and no agent task needs it. A named PID is T3.

use crate::call::args::{ArgSpec, Args, Token};
use crate::call::Invocation;
use crate::call::{has_flag, operand_words};
use crate::rules::vocab::input;
use crate::rules::{Cx, Rule};
use crate::words;

/// ## What it matches
/// `kill -l`/`-L` (list signals), `kill -0 PID` (does it exist?), `killall -l`, `atq`, `at -l`, `at -c N`.
/// ## Why this tier
/// Nothing is signalled or scheduled.
pub static READ: Rule = Rule::t0("system.process.read")
    .reason("lists signals or jobs, or only checks that a process exists")
    .matches(words!["kill -l", "kill -0 1234", "killall -l", "atq", "at -l"])
    .not_matches(words!["kill 1234", "kill -9 1234"]);

/// ## What it matches
/// Signalling named processes: `kill [-SIG] PID…`, `killall NAME`, `pkill PATTERN`, `xkill`.
/// ## Why this tier
/// Stops live processes (possibly someone's server or editor); approvable.
pub static SIGNAL: Rule = Rule::t3("system.process.signal")
    .reason("signals (usually stops) running processes; ask the user first")
    .matches(words!["kill -9 1234", "kill 4242", "pkill -f 'node server.js'", "killall node", "sudo kill -HUP 812", "kill %1"])
    .not_matches(words!["kill -l", "kill -9 -1"]);

/// ## What it matches
/// `kill` aimed at PID 1 or PID -1: `kill -9 -1`, `kill -- -1`, `kill 1`, `kill -TERM 1`.
/// ## Why this tier
/// PID -1 signals every process the caller can reach (as root: all of them); PID 1 is init.
/// Either ends the session or the machine with all unsaved work. Never approvable.
pub static KILL_ALL: Rule = Rule::blocked("system.process.kill-all")
    .reason("signals every process (pid -1) or init (pid 1), which takes the session or machine down; kill the specific process id instead")
    .matches(words!["kill -9 -1", "kill -- -1", "kill 1", "sudo kill -9 1", "kill -s KILL -1"])
    .not_matches(words!["kill -1 1234", "kill -9 1234", "kill -l"])
    .suggest("kill 1234");

/// ## What it matches
/// `crontab -l` (list the crontab).
/// ## Why this tier
/// Read-only.
pub static CRON_READ: Rule = Rule::t0("system.cron.read")
    .reason("lists the crontab only")
    .matches(words!["crontab -l", "crontab -u deploy -l", "sudo crontab -l"])
    .not_matches(words!["crontab -e", "crontab -r"]);

/// ## What it matches
/// Changing scheduled jobs: `crontab -e|-r|-i`, `crontab FILE`, `crontab` reading stdin, `at TIME`,
/// `batch`, `atrm`. A heredoc or here-string fed to `at`/`batch` is the job and is classified too.
/// ## Why this tier
/// Installs, replaces or deletes jobs that run later without anyone watching.
pub static CRON_WRITE: Rule = Rule::t3("system.cron.write")
    .reason("installs, replaces or deletes scheduled jobs; ask the user first")
    .matches(words!["crontab -e", "crontab -r", "crontab jobs.txt", "at now + 5 minutes", "atrm 3", "echo 'make backup' | at midnight"])
    .not_matches(words!["crontab -l", "atq"]);

/// ## What it matches
/// `watchman trigger ROOT NAME [PATTERNS] -- CMD…` (also after `--`, and `watchman -j`/`--json-command`,
/// which reads the command from stdin, unless the visible stdin is a request other than a trigger).
/// The trigger's command is classified too.
/// ## Why this tier
/// Registers a command that the watchman daemon runs on every matching file change, unseen, after this
/// command has returned: a scheduled job like `crontab`.
pub static WATCHMAN_TRIGGER: Rule = Rule::t3("system.watchman.trigger")
    .reason("registers a command that watchman runs on every file change, after this command has returned; ask the user first")
    .matches(words![
        "watchman -- trigger . build '*.c' -- make",
        "watchman trigger /work/proj t -- ./deploy.sh",
        "watchman -j < trigger.json",
        "echo '[\"trigger\", \".\", {\"name\": \"t\", \"command\": [\"make\"]}]' | watchman -j",
    ])
    .not_matches(words![
        "watchman watch-list",
        "watchman -- find . '*.rs'",
        "watchman trigger-list .",
        "watchman -j <<< '[\"query\", \".\", {\"fields\": [\"name\"]}]'",
    ]);

crate::table! {
    JSON = ["-j", "--json-command"];
    probe "watchman {}" => T3, "system.watchman.trigger";
}

pub(super) fn watchman(inv: &Invocation, cx: &mut Cx<'_>) {
    const SPEC: ArgSpec =
        ArgSpec::values(words!["-U", "--sockname", "-o", "--logfile", "--log-level", "--statefile", "--pidfile", "--output-encoding"]).with_flags(JSON);
    // One reading: whether a JSON request comes on stdin, and the operands with their
    // word index (a leading `--` ends watchman's options; the command's `--` is an operand).
    let mut json = false;
    let mut ops: Vec<(usize, &str)> = Vec::new();
    for t in Args::parse(&inv.args, SPEC) {
        match t {
            Token::Opt { name, .. } if JSON.contains(name) => json = true,
            Token::Operand(o) => ops.push((o.index, o.arg.text.as_str())),
            _ => {}
        }
    }
    let sub = ops.first().map(|(_, w)| *w);
    let visible_request = input::shown(inv);
    let triggers = if json { visible_request.is_none_or(|r| r.contains("trigger\"")) } else { sub == Some("trigger") };
    if !triggers {
        // `trigger-list`, `trigger-del`: reading or removing triggers runs nothing.
        if !sub.is_some_and(|s| s.starts_with("trigger-")) {
            cx.unowned(inv);
        }
        return;
    }
    cx.hit(&WATCHMAN_TRIGGER);
    // `-- CMD…` after the trigger's name and patterns: the command that will run.
    let after_trigger = ops.iter().skip_while(|(_, w)| *w != "trigger");
    if let Some((at, _)) = after_trigger.skip(1).find(|(_, w)| *w == "--") {
        if at + 1 < inv.args.len() {
            cx.argv(&inv.args[at + 1..], inv.cwd.as_deref());
        }
    }
}

/// Is this `kill` signal spec "signal 0" (existence check)?
fn signal_zero(spec: &str) -> bool {
    matches!(spec, "0" | "-0" | "SIG0")
}

pub(super) fn kill(inv: &Invocation, cx: &mut Cx<'_>) {
    let words: Vec<&str> = inv.words().collect();
    if words.is_empty() || matches!(words[0], "-l" | "-L" | "--list" | "--table") {
        cx.hit(&READ);
        return;
    }
    // The signal spec comes first: `-9`, `-KILL` (spelled like an option), `-s KILL`,
    // `-n 9`, `--signal KILL`; then an optional `--`. Every later word is a pid, even
    // one spelled like an option (`-1`, a process group), so only the spec is read.
    const KILL_ARGS: ArgSpec = ArgSpec::values(words!["-s", "-n", "--signal"]);
    let mut it = Args::parse(&inv.args, KILL_ARGS);
    let (zero, mut i) = match it.next() {
        Some(Token::Opt { value, .. }) => (value.is_some_and(signal_zero), it.pos()),
        Some(Token::Flag { word, .. }) => (signal_zero(word), 1),
        Some(Token::Missing { .. }) => (false, words.len()),
        _ => (false, 0),
    };
    if let Some(Token::DashDash(_)) = Args::parse(&inv.args, KILL_ARGS).starting_at(i).next() {
        i += 1;
    }
    let pids = &words[i.min(words.len())..];
    if pids.iter().any(|p| *p == "-1" || *p == "1") {
        cx.hit(&KILL_ALL);
    } else if zero {
        cx.hit(&READ);
    } else {
        cx.hit(&SIGNAL);
    }
}

pub(super) fn killall(inv: &Invocation, cx: &mut Cx<'_>) {
    if inv.program != "xkill" && has_flag(&inv.args, words!["-l", "--list"]) {
        cx.hit(&READ);
    } else {
        cx.hit(&SIGNAL);
    }
}

pub(super) fn crontab(inv: &Invocation, cx: &mut Cx<'_>) {
    let list = has_flag(&inv.args, words!["-l"]);
    let writes = has_flag(&inv.args, words!["-e", "-r", "-i"]) || !operand_words(&inv.args, words!["-u"]).is_empty();
    if list && !writes {
        cx.hit(&CRON_READ);
    } else {
        cx.hit(&CRON_WRITE);
    }
}

pub(super) fn at(inv: &Invocation, cx: &mut Cx<'_>) {
    let p = inv.program.as_str();
    if p == "atq" || (p == "at" && has_flag(&inv.args, words!["-l", "-c"])) {
        cx.hit(&READ);
        return;
    }
    cx.hit(&CRON_WRITE);
    // The job text is shell that will run later: classify it now.
    if let Some(job) = input::shown(inv) {
        cx.shell(job, inv.cwd.as_deref());
    }
}

crate::tables![JSON];
