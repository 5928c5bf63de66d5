//! The wrapper table: programs that run another program (`sudo`, `env`, `timeout`,
//! `xargs` …). Each entry declares which options take a value, so the target
//! command is found exactly; an undeclared option is never guessed past.
//!
//! It does not classify the target; the engine re-dispatches it.

use crate::call::args::{ArgSpec, Args, Token};
use crate::call::Arg;
use crate::rules::Rule;
use crate::words;
use crate::words::Words;

mod table;
mod tmux;

use table::WRAPPERS;

/// How a wrapper hands over to its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// Options, then `skip` positional words, then the target argv.
    Plain { skip: usize },
    /// `env`: `NAME=value` words and options, then the target (none → prints env).
    Env,
    /// `watch`: the remaining words form one shell string (unless `-x`).
    Watch,
    /// `xargs`: target argv gets extra arguments from stdin (none → `echo`).
    Xargs,
    /// `su`/`runuser -l`: `-c CMD` is a shell string; no command is a root shell.
    Su,
    /// `command -v`/`-V` only looks a name up.
    Command,
    /// GNU `parallel`: the words before `:::` form a command template.
    Parallel,
    /// `sg GROUP CMD…`: after `skip` words, the rest is one shell string.
    JoinShell { skip: usize },
    /// `perf stat CMD`, `pyenv exec CMD`, `direnv exec DIR CMD`: a wrapper only for
    /// these subcommands, then `skip` positional words before the target.
    Sub { subs: Words, skip: usize },
    /// `tmux new-session CMD`, `tmux send-keys …`: see `tmux`.
    Tmux,
    /// `script [-c CMD] [FILE]`: the command is `-c`'s shell string; FILE is the typescript.
    Script,
    /// `hyperfine CMD…`: every operand and the setup/prepare/cleanup values are shell strings.
    Hyperfine,
}

pub(super) struct Wrapper {
    name: &'static str,
    /// Options that take a value (short `-u`, long `--user`).
    value_opts: Words,
    /// Options that take none.
    flag_opts: Words,
    /// Options that take two values (`bwrap --bind SRC DEST`).
    value2_opts: Words,
    /// Options whose value is optional and only ever attached (`xargs -i[R]`, `--replace[=R]`).
    optional_opts: Words,
    /// Every `--long` word is self-contained (`--tool=memcheck`, `--private`):
    /// the wrapper takes no separate long-option values.
    long_free: bool,
    /// Given nothing to run, the wrapper starts a shell (`sudo`, `unshare`, `script`).
    bare_shell: bool,
    /// A rule the wrapper itself fires, whatever it runs (`systemd-run` starts a unit).
    gate: Option<&'static Rule>,
    kind: Kind,
}

impl Wrapper {
    /// The wrapper's options as the argument layer reads them.
    fn spec(&self) -> ArgSpec {
        ArgSpec::strict(self.value_opts, self.flag_opts, self.value2_opts, self.long_free).with_optional(self.optional_opts)
    }
}

/// The defaults every entry starts from.
pub(super) const W: Wrapper = Wrapper {
    name: "",
    value_opts: words![],
    flag_opts: words![],
    value2_opts: words![],
    optional_opts: words![],
    long_free: false,
    bare_shell: false,
    gate: None,
    kind: Kind::Plain { skip: 0 },
};

/// What peeling one wrapper found.
#[derive(Debug, PartialEq, Eq)]
pub enum Peeled<'a> {
    /// Not a wrapper.
    NotWrapper,
    /// The target argv starts at this index of the words.
    Target { name: &'static str, start: usize },
    /// The wrapper runs this shell string.
    Shell { name: &'static str, script: String },
    /// The wrapper runs nothing else; `harmless` says whether that is read-only
    /// (`env` printing the environment) or not (`sudo -s` opening a root shell).
    Nothing { name: &'static str, harmless: bool },
    /// An option the table does not declare: the target cannot be known.
    UnknownOption { name: &'static str, option: &'a str },
}

/// The table's names, in table order (compile time only: the index below is built from it).
const NAMES: [&str; WRAPPERS.len()] = {
    let mut names = [""; WRAPPERS.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = WRAPPERS[i].name;
        i += 1;
    }
    names
};

/// `WRAPPERS` sorted by name: every unit asks whether its program is one (see `crate::sorted`).
static ORDER: [u16; WRAPPERS.len()] = crate::sorted::order(crate::words!(@from &NAMES));

/// The first table entry for this program name.
fn wrapper(name: &str) -> Option<&'static Wrapper> {
    crate::sorted::find(&ORDER, name, |i| WRAPPERS[i].name.as_bytes()).map(|i| &WRAPPERS[i])
}

/// The table's spelling of a wrapper's name (`crate::names` folds a name to it).
pub(crate) fn known(name: &str) -> Option<&'static str> {
    wrapper(name).map(|w| w.name)
}

/// Every wrapper name, in table order (registry tests).
#[cfg(test)]
pub(crate) fn names() -> impl Iterator<Item = &'static str> {
    WRAPPERS.iter().map(|w| w.name)
}

/// The rule a wrapper fires by itself, whatever it runs.
pub fn gate(name: &str) -> Option<&'static Rule> {
    wrapper(name).and_then(|w| w.gate)
}

/// Wrappers that run their target as another user or root.
pub fn privileged(name: &str) -> bool {
    matches!(name, "sudo" | "doas" | "su" | "runuser" | "pkexec" | "run0" | "chroot" | "nsenter")
}

/// Peels one wrapper off `words` (`words[0]` is the wrapper's program word).
pub fn peel<'a>(program: &str, words: &'a [Arg]) -> Peeled<'a> {
    let Some(w) = wrapper(program) else {
        return Peeled::NotWrapper;
    };
    if let Kind::Sub { subs, .. } = w.kind {
        // `perf stat CMD` runs CMD; `perf report`, `pyenv versions` … run nothing given
        // and are left to the families.
        let Some(sub) = words.get(1).map(|a| a.text.as_str()).filter(|s| subs.contains(s)) else {
            return Peeled::NotWrapper;
        };
        // `mise exec node@20 -- CMD`: the tools before `--` are names, the command follows.
        if program == "mise" || program == "rtx" {
            return match words.iter().position(|a| a.text == "--") {
                Some(p) if p + 1 < words.len() => Peeled::Target { name: w.name, start: p + 1 },
                _ => Peeled::Nothing { name: w.name, harmless: false },
            };
        }
        let _ = sub;
        // Given nothing to run (`perf stat`, `pyenv exec`), a Sub wrapper is itself the
        // unit: none of them opens a shell bare, so `peel_options` answers it harmless.
        return match peel_options(w, program, &words[1..]) {
            Peeled::Target { name, start } => Peeled::Target { name, start: start + 1 },
            other => other,
        };
    }
    if w.kind == Kind::Tmux {
        return tmux::tmux(w, words);
    }
    // `rtk CMD …` runs CMD and filters its output (`rtk make` is make); its own
    // subcommands read files or its own state, and `proxy`, `err`, `test` and
    // `summary` run the words after them.
    if program == "rtk" {
        match words.get(1).map(|a| a.text.as_str()) {
            Some(sub) if table::RTK_OWN.contains(&sub) => return Peeled::NotWrapper,
            Some("proxy" | "err" | "test" | "summary") => {
                return match peel_options(w, program, &words[1..]) {
                    Peeled::Target { name, start } => Peeled::Target { name, start: start + 1 },
                    other => other,
                };
            }
            _ => {}
        }
    }
    // `sg run|scan|test …` is ast-grep, not `sg GROUP CMD`.
    if program == "sg" && matches!(words.get(1).map(|a| a.text.as_str()), Some("run" | "scan" | "test" | "new" | "lsp" | "completions" | "help") | None) {
        return Peeled::NotWrapper;
    }
    peel_options(w, program, words)
}

/// Options from `words[1]` on, then the target according to the wrapper's kind.
/// The words are read by the one argument layer under the wrapper's strict spec;
/// the loop adds only what is particular to a wrapper.
fn peel_options<'a>(w: &'static Wrapper, program: &str, words: &'a [Arg]) -> Peeled<'a> {
    let mut shell_string: Option<String> = None;
    let mut exec_mode = false; // watch -x
    let mut shell_mode = false; // entr -s
    let mut lookup_only = false; // command -v
    let mut interactive_shell = false; // sudo -s / -i
    let mut hyperfine_scripts: Vec<String> = Vec::new();
    let mut playback = false; // BSD script -p
    let mut timing_flag = false; // script -t: util-linux's flag, BSD's `-t SECONDS`
    let mut arg_file = false; // parallel -a FILE: the input comes from FILE
    let mut replace: Option<&str> = None; // parallel -I R
    let mut it = Args::parse(words, w.spec()).starting_at(1);
    let mut i = words.len();
    while it.pos() < words.len() {
        let at = it.pos();
        let a = words[at].text.as_str();
        if !it.mid_word() {
            // `env A=1 cmd`, `sudo A=1 cmd`: assignments, never the program name.
            if (matches!(w.kind, Kind::Env) || matches!(program, "sudo" | "doas" | "run0")) && is_assignment(a) {
                it.skip_word();
                continue;
            }
            if w.kind == Kind::Su
                && !a.starts_with('-')
                && shell_string.is_none()
                && words[at + 1..].iter().any(|x| matches!(x.text.as_str(), "-c" | "--command"))
            {
                // `su root -c CMD`: util-linux takes options after the user too.
                it.skip_word();
                continue;
            }
            if a == "-" && matches!(w.kind, Kind::Su | Kind::Env) {
                it.skip_word();
                continue;
            }
            // sudo's shell-opening options take no value but change the meaning.
            if program == "sudo" && matches!(a, "-s" | "--shell" | "-i" | "--login") {
                interactive_shell = true;
                it.skip_word();
                continue;
            }
            if program == "sudo" && matches!(a, "-l" | "--list" | "-v" | "--validate" | "-K" | "--remove-timestamp" | "-V" | "--version") {
                return Peeled::Nothing { name: w.name, harmless: true };
            }
            if program == "screen" && matches!(a, "-ls" | "-list" | "-v" | "-h") {
                return Peeled::Nothing { name: w.name, harmless: true };
            }
            // `setarch --list`, `firejail --netstats`, `chrt --max`, `--help`: print and run nothing.
            if matches!(a, "--help" | "--version" | "--list" | "--netstats" | "--tree" | "--top" | "--max") && program != "sudo" {
                return Peeled::Nothing { name: w.name, harmless: true };
            }
            // `nice -5`, `timeout -9`: numeric options are values in disguise.
            if program == "nice" && a.len() > 1 && a.starts_with('-') && a[1..].chars().all(|c| c.is_ascii_digit()) {
                it.skip_word();
                continue;
            }
        }
        match it.next() {
            None => break,
            Some(Token::Operand(o)) => {
                i = o.index;
                break;
            }
            Some(Token::DashDash(d)) => {
                i = d + 1;
                break;
            }
            Some(Token::Unknown { word, .. }) => return Peeled::UnknownOption { name: w.name, option: word },
            Some(Token::Missing { .. }) => return Peeled::UnknownOption { name: w.name, option: a },
            Some(Token::Opt2 { .. } | Token::Flag { .. } | Token::Help { .. }) => {}
            Some(Token::Opt { name: opt, value: Some(value), index }) if w.value_opts.contains(opt) => {
                if w.kind == Kind::Parallel && matches!(opt, "-a" | "--arg-file") {
                    arg_file = true;
                }
                if w.kind == Kind::Parallel && opt == "-I" {
                    replace = Some(value);
                }
                if runs_value(program, opt) {
                    shell_string = Some(value.to_owned());
                } else if w.kind == Kind::Hyperfine && matches!(opt, "-s" | "--setup" | "-p" | "--prepare" | "-c" | "--cleanup" | "--conclude") {
                    hyperfine_scripts.push(value.to_owned());
                } else if program == "env" && matches!(opt, "-S" | "--split-string") {
                    // `env -S 'CMD ARGS' MORE…`, also packed (`env -S'CMD'`): one shell string.
                    let value_word = if it.pos() > index + 1 { index + 1 } else { index };
                    let mut script = value.to_owned();
                    for rest in &words[value_word + 1..] {
                        script.push(' ');
                        script.push_str(&rest.text);
                    }
                    return Peeled::Shell { name: w.name, script };
                }
            }
            Some(Token::Opt { name: opt, .. }) => {
                if program == "watch" && matches!(opt, "-x" | "--exec") {
                    exec_mode = true;
                }
                if program == "entr" && opt == "-s" {
                    shell_mode = true;
                }
                if w.kind == Kind::Command && matches!(opt, "-v" | "-V") {
                    lookup_only = true;
                }
                if w.kind == Kind::Script {
                    playback |= opt == "-p";
                    timing_flag |= opt == "-t";
                }
            }
        }
    }
    // `flock FILE -c CMD`: the command option may follow the lock file.
    if program == "flock" && shell_string.is_none() {
        let after = i + 1;
        if words.get(after).is_some_and(|a| matches!(a.text.as_str(), "-c" | "--command")) {
            return match words.get(after + 1) {
                Some(cmd) => Peeled::Shell { name: w.name, script: cmd.text.clone() },
                None => Peeled::UnknownOption { name: w.name, option: "-c" },
            };
        }
    }
    if let Some(script) = shell_string {
        return Peeled::Shell { name: w.name, script };
    }
    if lookup_only {
        return Peeled::Nothing { name: w.name, harmless: true };
    }
    let start = match w.kind {
        Kind::Plain { skip } | Kind::JoinShell { skip } | Kind::Sub { skip, .. } => i + skip,
        Kind::Su => {
            // `su [user]` / `runuser -u user -- cmd`: a user word may precede nothing.
            if program == "runuser" && i < words.len() {
                i
            } else {
                return Peeled::Nothing { name: w.name, harmless: false };
            }
        }
        // `script [FILE]` without -c records a new interactive shell into FILE;
        // BSD/macOS `script [-aq] FILE CMD…` runs CMD, recording it into FILE (the
        // engine judges FILE as a write: `written_operands`). util-linux takes no
        // command operand, so a second operand is only ever the BSD form.
        Kind::Script if playback && words.len() <= i + 1 => return Peeled::Nothing { name: w.name, harmless: true },
        // BSD's `-t` takes a value, util-linux's does not: which word is FILE is unknown.
        Kind::Script if timing_flag && words.len() > i + 1 => return Peeled::UnknownOption { name: w.name, option: "-t" },
        Kind::Script if i + 1 < words.len() => i + 1,
        Kind::Script => words.len(),
        _ => i,
    };
    if w.kind == Kind::Hyperfine {
        hyperfine_scripts.extend(words[i..].iter().map(|a| a.text.clone()));
        if hyperfine_scripts.is_empty() {
            return Peeled::Nothing { name: w.name, harmless: true };
        }
        return Peeled::Shell { name: w.name, script: hyperfine_scripts.join("\n") };
    }
    if start >= words.len() {
        // `exec 3>&1`, `time`, `nice` and `env` alone run nothing; `sudo`,
        // `unshare`, `script` alone start a shell; `parallel` alone runs each
        // input line as a command.
        if interactive_shell || w.kind == Kind::Parallel {
            return Peeled::Nothing { name: w.name, harmless: false };
        }
        return Peeled::Nothing { name: w.name, harmless: !w.bare_shell };
    }
    if w.kind == Kind::Parallel {
        let end = words[start..].iter().position(|a| a.text.starts_with(":::")).map_or(words.len(), |p| start + p);
        if end == start {
            // No template: each input line is itself a command.
            return Peeled::Nothing { name: w.name, harmless: false };
        }
        let template = words[start..end].iter().map(|a| a.text.as_str()).collect::<Vec<_>>().join(" ");
        // `parallel rm -rf ::: / ~`: each argument after `:::` completes the template.
        let inputs: Vec<&str> = words[end..].iter().map(|a| a.text.as_str()).filter(|a| !a.starts_with(":::")).take(16).collect();
        let mut script = if inputs.is_empty() {
            template.clone()
        } else {
            inputs.iter().map(|i| if template.contains("{}") { template.replace("{}", i) } else { format!("{template} {i}") }).collect::<Vec<_>>().join("\n")
        };
        // Input tiergate cannot see (stdin, `-a FILE`, `:::: FILE`) fills the
        // replacement strings or is appended: judged beside the template as written.
        if end == words.len() || arg_file || words[end..].iter().any(|a| a.text.starts_with("::::")) {
            script.push('\n');
            script.push_str(&parallel_input(&template, replace));
        }
        return Peeled::Shell { name: w.name, script };
    }
    if (w.kind == Kind::Watch && !exec_mode) || shell_mode || matches!(w.kind, Kind::JoinShell { .. }) {
        let script = words[start..].iter().map(|a| a.text.as_str()).collect::<Vec<_>>().join(" ");
        return Peeled::Shell { name: w.name, script };
    }
    Peeled::Target { name: w.name, start }
}

/// The word a reading puts where a wrapper's input goes: a variable, which every
/// family reads as a word it cannot see. An input line may be any file name, an
/// option or shell code.
const INPUT_WORD: &str = "\"$WRAPPER_INPUT\"";

/// `parallel`'s template with its input in place: each replacement string (`{}`,
/// `{.}`, `{/}`, `{//}`, `{/.}`, `{#}`, `{%}`, `{1}` …, or `-I`'s) is the input,
/// and a template with none has the input appended (GNU parallel's rule).
fn parallel_input(template: &str, replace: Option<&str>) -> String {
    if let Some(r) = replace.filter(|r| !r.is_empty()) {
        if template.contains(r) {
            return template.replace(r, INPUT_WORD);
        }
    }
    let mut out = String::with_capacity(template.len() + INPUT_WORD.len());
    let mut rest = template;
    let mut replaced = false;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) if after[..close].chars().all(|c| c.is_ascii_digit() || matches!(c, '.' | '/' | '#' | '%')) => {
                out.push_str(&rest[..open]);
                out.push_str(INPUT_WORD);
                rest = &after[close + 1..];
                replaced = true;
            }
            _ => {
                out.push_str(&rest[..=open]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    if !replaced {
        out.push(' ');
        out.push_str(INPUT_WORD);
    }
    out
}

/// `xargs CMD…` appends its input's words to CMD, but GNU xargs with no input
/// still runs CMD once as written: both are what it may run. The reading with the
/// input (CMD's words as shell text, then the input word), for the engine to judge
/// beside the words as written; `-J R` (BSD) puts the input where the word R
/// stands, or drops R when there is none. None for `-I` (each input line replaces
/// R, and no line runs nothing: `mark_input_words`) and for other wrappers.
pub fn input_reading(name: &str, own: &[Arg], target: &[Arg]) -> Option<String> {
    let w = wrapper(name).filter(|w| w.kind == Kind::Xargs)?;
    let mut at: Option<&str> = None;
    for t in Args::parse(own, w.spec()).starting_at(1) {
        match t {
            Token::Opt { name: "-I" | "-i" | "--replace", .. } => return None,
            Token::Opt { name: "-J", value: Some(r), .. } => at = Some(r),
            _ => {}
        }
    }
    let quoted = |a: &Arg| if a.exact { format!("'{}'", a.text.replace('\'', "'\\''")) } else { INPUT_WORD.to_owned() };
    let line = |words: Vec<String>| words.join(" ");
    Some(match at {
        // With no input, the word R is dropped; with input, it is the input (any
        // number of words, options among them).
        Some(r) => {
            let dropped = line(target.iter().filter(|a| a.text != r).map(quoted).collect());
            let fed = line(target.iter().map(|a| if a.text == r { INPUT_WORD.to_owned() } else { quoted(a) }).collect());
            format!("{dropped}\n{fed}")
        }
        None => line(target.iter().map(quoted).chain(std::iter::once(INPUT_WORD.to_owned())).collect()),
    })
}

/// The operands a wrapper writes (`script FILE CMD…` records into FILE); `own` is
/// the wrapper's words, its name first.
pub fn written_operands<'a>(name: &str, own: &'a [Arg]) -> Vec<&'a Arg> {
    let Some(w) = wrapper(name).filter(|w| w.kind == Kind::Script) else { return Vec::new() };
    Args::parse(own, w.spec())
        .starting_at(1)
        .filter_map(|t| match t {
            Token::Operand(o) => Some(o.arg),
            // `script -c CMD -- FILE`: the reading stops at `--`; FILE is the word after it.
            Token::DashDash(d) => own.get(d + 1),
            _ => None,
        })
        .collect()
}

/// `xargs -I R CMD…` (also `-iR`, `-i`, `--replace[=R]`): each R in CMD's words is
/// replaced by an input line, so a word holding R is not the literal it looks like
/// (`xargs -I{} sh -c {}` runs each line as shell). Marks those words inexact and
/// says whether there were any; `own` is the wrapper's words (its name first),
/// `target` what it runs.
pub fn mark_input_words(name: &str, own: &[Arg], target: &mut [Arg]) -> bool {
    let Some(w) = wrapper(name).filter(|w| w.kind == Kind::Xargs) else {
        return false;
    };
    let mut replace: Option<&str> = None;
    for t in Args::parse(own, w.spec()).starting_at(1) {
        match t {
            Token::Opt { name: "-I", value: Some(r), .. } => replace = Some(r),
            Token::Opt { name: "-i" | "--replace", value, .. } => replace = Some(value.filter(|r| !r.is_empty()).unwrap_or("{}")),
            // BSD `-J R`: the input stands where the word R does.
            Token::Opt { name: "-J", value: Some(r), .. } => replace = Some(r),
            _ => {}
        }
    }
    let Some(r) = replace.filter(|r| !r.is_empty()) else {
        return false;
    };
    let mut any = false;
    for a in target.iter_mut().filter(|a| a.text.contains(r)) {
        a.exact = false;
        any = true;
    }
    any
}

/// True when the wrapper runs this option's value as a shell string (`su -c`, `script -c`).
fn runs_value(program: &str, opt: &str) -> bool {
    match program {
        "su" | "runuser" | "flock" | "script" => matches!(opt, "-c" | "--command"),
        _ => false,
    }
}

/// `NAME=value` with a shell-variable name.
fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(n, _)| {
        let n = n.strip_suffix('+').unwrap_or(n);
        !n.is_empty() && !n.starts_with(|c: char| c.is_ascii_digit()) && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<Arg> {
        s.split_whitespace().map(Arg::lit).collect()
    }

    #[track_caller]
    fn target(s: &str, expect: &str) {
        let words = args(s);
        let program = words[0].text.clone();
        match peel(&program, &words) {
            Peeled::Target { start, .. } => {
                let rest: Vec<&str> = words[start..].iter().map(|a| a.text.as_str()).collect();
                assert_eq!(rest.join(" "), expect, "peeling `{s}`");
            }
            other => panic!("peeling `{s}` gave {other:?}"),
        }
    }

    #[test]
    fn value_options_are_skipped_exactly() {
        target("sudo -u deploy git push", "git push");
        target("sudo -E -- rm -rf x", "rm -rf x");
        target("timeout -s KILL 10 rm x", "rm x");
        target("nice -n 10 make", "make");
        target("nice -5 make", "make");
        target("env -u HOME A=1 B=2 kubectl delete ns x", "kubectl delete ns x");
        target("xargs -0 -n 1 rm", "rm");
        target("ionice -c2 -n7 tar cf x", "tar cf x");
        target("flock /tmp/lock rm x", "rm x");
        target("stdbuf -oL tail -f log", "tail -f log");
        target("chroot /mnt ls", "ls");
    }

    #[test]
    fn wrapper_table_is_consistent() {
        let mut names = std::collections::HashSet::new();
        for w in WRAPPERS {
            assert!(names.insert(w.name), "wrapper {} listed twice", w.name);
            for o in w.value_opts {
                assert!(!w.flag_opts.contains(o), "{}: {o} is both a value and a flag option", w.name);
                assert!(o.starts_with('-'), "{}: option {o} lacks a dash", w.name);
            }
        }
    }

    #[test]
    fn undeclared_options_are_not_guessed() {
        let words = args("sudo --frobnicate rm -rf /");
        assert!(matches!(peel("sudo", &words), Peeled::UnknownOption { option: "--frobnicate", .. }));
    }

    #[test]
    fn shell_strings_are_payloads() {
        let words = args("watch kubectl get pods");
        assert_eq!(peel("watch", &words), Peeled::Shell { name: "watch", script: "kubectl get pods".into() });
        let words = vec![Arg::lit("su"), Arg::lit("-c"), Arg::lit("rm -rf /"), Arg::lit("root")];
        assert_eq!(peel("su", &words), Peeled::Shell { name: "su", script: "rm -rf /".into() });
    }

    #[test]
    fn bare_wrappers_run_nothing() {
        assert_eq!(peel("env", &args("env")), Peeled::Nothing { name: "env", harmless: true });
        assert_eq!(peel("sudo", &args("sudo -s")), Peeled::Nothing { name: "sudo", harmless: false });
        assert_eq!(peel("command", &args("command -v git")), Peeled::Nothing { name: "command", harmless: true });
        assert_eq!(peel("exec", &args("exec")), Peeled::Nothing { name: "exec", harmless: true });
    }

    #[test]
    fn parallel_templates_are_shell() {
        assert_eq!(peel("parallel", &args("parallel -j4 gzip {} ::: a b")), Peeled::Shell { name: "parallel", script: "gzip a\ngzip b".into() });
        assert_eq!(peel("parallel", &args("parallel rm -rf ::: /")), Peeled::Shell { name: "parallel", script: "rm -rf /".into() });
        let words = vec![Arg::lit("su"), Arg::lit("root"), Arg::lit("-c"), Arg::lit("rm -rf /")];
        assert_eq!(peel("su", &words), Peeled::Shell { name: "su", script: "rm -rf /".into() });
    }
}
