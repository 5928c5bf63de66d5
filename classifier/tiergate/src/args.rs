//! tiergate's command line: one declared table of subcommands and their flags
//! ([`COMMANDS`]), read by one parser on `lexopt` (docs/decisions/0007-tiergate-package.md
//! has the start-up figures against clap). `--flag=value` and `--flag value` both
//! work; every error names the flag or word and says what to type instead, with the
//! close name when one was misspelt. It parses only: what a flag means is the
//! subcommand's module's business.

use std::ffi::OsString;

/// One flag of a subcommand: `--agent NAME`, `-n N`, `--print`.
pub struct Flag {
    /// As typed, with its dashes: `--agent`, `-n`.
    pub name: &'static str,
    /// The value's placeholder in usage (`NAME`), or None for a switch.
    pub value: Option<&'static str>,
}

/// How a subcommand takes its non-flag words.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Operands {
    None,
    /// Words anywhere among the flags, checked by the subcommand (`approvals revoke 3`).
    Words,
    /// A shell command: flags come first, and from the first word on everything is
    /// the command, verbatim (`tiergate classify git push -f`).
    Command,
}

/// One subcommand: its name, what follows it in usage, its flags and one line of help.
pub struct Cmd {
    pub name: &'static str,
    pub usage: &'static str,
    pub flags: &'static [Flag],
    pub operands: Operands,
    pub help: &'static str,
}

const fn switch(name: &'static str) -> Flag {
    Flag { name, value: None }
}
const fn valued(name: &'static str, value: &'static str) -> Flag {
    Flag { name, value: Some(value) }
}

const CWD: Flag = valued("--cwd", "DIR");
const DATA_DIR: Flag = valued("--data-dir", "DIR");

/// Every subcommand, in the order `tiergate --help` lists them.
pub static COMMANDS: &[Cmd] = &[
    Cmd { name: "classify", usage: "[--cwd DIR] CMD", flags: &[CWD], operands: Operands::Command, help: "one verdict as JSON" },
    Cmd { name: "explain", usage: "[--cwd DIR] CMD", flags: &[CWD], operands: Operands::Command, help: "a readable trace: units, rules, why" },
    Cmd {
        name: "batch",
        usage: "[--protocol | --extensions]",
        flags: &[switch("--protocol"), switch("--extensions")],
        operands: Operands::None,
        help: "protocol v1 over stdin/stdout (JSON lines); --extensions lists the opt-in request fields it reads (session)",
    },
    Cmd { name: "rules", usage: "", flags: &[], operands: Operands::None, help: "the rule registry as JSON lines (id, family, class, examples)" },
    Cmd {
        name: "programs",
        usage: "",
        flags: &[],
        operands: Operands::None,
        help: "every program card and policy table as JSON lines (names, traits, readings; entries, probes, source position)",
    },
    Cmd {
        name: "hook",
        usage: "[--agent NAME] [--mode ask|nonce] [--config FILE] [--data-dir DIR]",
        flags: &[valued("--agent", "NAME"), valued("--mode", "ask|nonce"), valued("--config", "FILE"), DATA_DIR],
        operands: Operands::None,
        help: "pre-execution hook of a coding agent (event JSON on stdin; the agent is detected without --agent; see docs/hooks.md)",
    },
    Cmd {
        name: "approve",
        usage: "CODE [--data-dir DIR]",
        flags: &[DATA_DIR],
        operands: Operands::Words,
        help: "grant one retry of a command denied in nonce mode",
    },
    Cmd {
        name: "approvals",
        usage: "list|revoke ID|reject CODE|reject-all|clean [--data-dir DIR]",
        flags: &[DATA_DIR],
        operands: Operands::Words,
        help: "the pending codes and grants",
    },
    Cmd { name: "log", usage: "[-n N] [--data-dir DIR]", flags: &[valued("-n", "N"), DATA_DIR], operands: Operands::None, help: "recent hook decisions" },
    Cmd {
        name: "install",
        usage: "--agent NAME [--print | --write [--file PATH]] | --agents",
        flags: &[valued("--agent", "NAME"), switch("--agents"), switch("--print"), switch("--write"), valued("--file", "PATH")],
        operands: Operands::None,
        help: "the hook config for one agent (claude, codex, gemini, cursor, …)",
    },
    Cmd { name: "doctor", usage: "", flags: &[], operands: Operands::None, help: "which agents are wired, and whether their hook answers" },
];

/// `tiergate --help`: generated from [`COMMANDS`].
pub fn usage() -> String {
    let mut s = String::from("tiergate — tiers shell commands for AI coding agents\n\nusage:\n");
    for c in COMMANDS {
        let head = format!("  tiergate {} {}", c.name, c.usage);
        if head.len() < 38 {
            s.push_str(&format!("{head:<38}{}\n", c.help));
        } else {
            s.push_str(&format!("{head}\n{:38}{}\n", "", c.help));
        }
    }
    s.push_str("\n`tiergate COMMAND --help` shows one command; -V prints the version.\n");
    s
}

/// One subcommand's usage line and flags.
pub fn cmd_usage(c: &Cmd) -> String {
    format!("usage: tiergate {} {}\n  {}\n", c.name, c.usage, c.help)
}

/// The subcommand named `word`, or an error that suggests the close one.
pub fn command(word: &str) -> Result<&'static Cmd, String> {
    COMMANDS.iter().find(|c| c.name == word).ok_or_else(|| {
        let hint = suggest(word, COMMANDS.iter().map(|c| c.name)).map(|n| format!("; did you mean `{n}`?")).unwrap_or_default();
        format!("unknown command `{word}`{hint} (`tiergate --help` lists them)")
    })
}

/// What the parser read: flags by name (in order; the last of a repeated flag wins)
/// and the operands.
#[derive(Debug, Default)]
pub struct Parsed {
    flags: Vec<(&'static str, Option<String>)>,
    pub operands: Vec<String>,
}

impl Parsed {
    pub fn has(&self, flag: &str) -> bool {
        self.flags.iter().any(|(f, _)| *f == flag)
    }
    pub fn value(&self, flag: &str) -> Option<&str> {
        self.flags.iter().rev().find(|(f, _)| *f == flag).and_then(|(_, v)| v.as_deref())
    }
}

/// Why the arguments were not taken.
#[derive(Debug, PartialEq, Eq)]
pub enum ArgError {
    /// `--help` or `-h`: the caller prints the command's usage.
    Help,
    /// A sentence naming the flag or word and the fix.
    Bad(String),
}

impl std::fmt::Display for ArgError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ArgError::Help => write!(f, "--help asked for"),
            ArgError::Bad(s) => f.write_str(s),
        }
    }
}

fn text(flag: &str, v: OsString) -> Result<String, ArgError> {
    v.into_string().map_err(|v| ArgError::Bad(format!("{flag}: the value {v:?} is not UTF-8")))
}

/// Parses the arguments after `tiergate CMD` against `cmd`'s declared flags.
pub fn parse(cmd: &Cmd, args: &[String]) -> Result<Parsed, ArgError> {
    use lexopt::Arg::{Long, Short, Value};
    let bad = ArgError::Bad;
    let mut p = lexopt::Parser::from_args(args);
    let mut out = Parsed::default();
    loop {
        let arg = match p.next() {
            Ok(Some(a)) => a,
            Ok(None) => break,
            Err(lexopt::Error::UnexpectedValue { option, value }) => {
                return Err(bad(format!("{option} takes no value, not {value:?}; write `{option}` alone")));
            }
            Err(e) => return Err(bad(e.to_string())),
        };
        let typed = match arg {
            Long("help") | Short('h') => return Err(ArgError::Help),
            Long(name) => format!("--{name}"),
            Short(c) => format!("-{c}"),
            Value(v) => {
                let word = text("an operand", v)?;
                match cmd.operands {
                    Operands::None => {
                        let hint =
                            if cmd.usage.is_empty() { "it takes no arguments".to_owned() } else { format!("usage: tiergate {} {}", cmd.name, cmd.usage) };
                        return Err(bad(format!("`tiergate {}` does not take {word:?}; {hint}", cmd.name)));
                    }
                    Operands::Words => out.operands.push(word),
                    Operands::Command => {
                        out.operands.push(word);
                        for rest in p.raw_args().map_err(|e| bad(e.to_string()))? {
                            out.operands.push(text("the command", rest)?);
                        }
                    }
                }
                continue;
            }
        };
        let Some(flag) = cmd.flags.iter().find(|f| f.name == typed) else {
            let known = cmd.flags.iter().map(|f| f.name);
            let hint = match suggest(&typed, known.clone()) {
                Some(n) => format!("; did you mean {n}?"),
                None if cmd.flags.is_empty() => "; it takes no flags".to_owned(),
                None => format!("; its flags: {}", known.collect::<Vec<_>>().join(", ")),
            };
            return Err(bad(format!("`tiergate {}` has no flag {typed}{hint}", cmd.name)));
        };
        let value = match flag.value {
            None => None,
            Some(meta) => match p.value() {
                Ok(v) => Some(text(flag.name, v)?),
                Err(_) => return Err(bad(format!("{} needs a value: {} {meta} (or {}={meta})", flag.name, flag.name, flag.name))),
            },
        };
        out.flags.push((flag.name, value));
    }
    Ok(out)
}

/// `--agent "claud": did you mean claude? (one of claude|codex|…)`: a flag value
/// outside its known set, with the close one.
pub fn bad_value<'a>(flag: &str, value: &str, known: impl Iterator<Item = &'a str> + Clone) -> String {
    let hint = suggest(value, known.clone()).map(|n| format!(" did you mean {n}?")).unwrap_or_default();
    format!("{flag} {value:?}:{hint} use one of {}", known.collect::<Vec<_>>().join("|"))
}

/// `--agent`'s values: the adapters' names.
pub fn unknown_agent(value: &str) -> String {
    bad_value("--agent", value, crate::hook::agents::Agent::ALL.iter().map(|a| a.name()))
}

/// The candidate closest to `word` when it is a plausible misspelling: an edit
/// distance (with transpositions) of at most a third of its length, and at least 1.
pub fn suggest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (word.trim_start_matches('-').chars().count() / 3).max(1);
    candidates.map(|c| (distance(word, c), c)).filter(|(d, _)| *d <= limit).min_by_key(|(d, _)| *d).map(|(_, c)| c)
}

/// Optimal-string-alignment distance: insertions, deletions, substitutions and
/// adjacent transpositions each cost 1.
fn distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| (*x).to_owned()).collect()
    }
    fn cmd(name: &str) -> &'static Cmd {
        command(name).unwrap()
    }
    fn err(name: &str, args: &[&str]) -> String {
        match parse(cmd(name), &v(args)) {
            Err(ArgError::Bad(e)) => e,
            other => panic!("{name} {args:?}: {other:?}"),
        }
    }

    #[test]
    fn equals_and_space_spellings_mean_the_same() {
        for args in [&["--agent", "codex", "--mode=nonce"][..], &["--agent=codex", "--mode", "nonce"]] {
            let p = parse(cmd("hook"), &v(args)).unwrap();
            assert_eq!((p.value("--agent"), p.value("--mode")), (Some("codex"), Some("nonce")), "{args:?}");
        }
        let p = parse(cmd("log"), &v(&["-n5"])).unwrap();
        assert_eq!(p.value("-n"), Some("5"));
        assert_eq!(parse(cmd("log"), &v(&["-n", "7", "-n=9"])).unwrap().value("-n"), Some("9"), "the last one wins");
    }

    #[test]
    fn misspelt_flags_and_commands_suggest_the_close_name() {
        assert_eq!(err("hook", &["--agnet", "claude"]), "`tiergate hook` has no flag --agnet; did you mean --agent?");
        assert!(err("install", &["--prnt"]).ends_with("did you mean --print?"));
        assert!(err("hook", &["--frobnicate"]).contains("its flags: --agent, --mode, --config, --data-dir"));
        assert!(err("doctor", &["--x"]).contains("it takes no flags"));
        assert_eq!(command("clasify").err().unwrap(), "unknown command `clasify`; did you mean `classify`? (`tiergate --help` lists them)");
        assert!(command("aproove").err().unwrap().contains("did you mean `approve`?"));
        assert!(!command("zzz").err().unwrap().contains("did you mean"));
    }

    #[test]
    fn a_missing_or_surplus_value_names_the_flag_and_the_fix() {
        assert_eq!(err("hook", &["--mode"]), "--mode needs a value: --mode ask|nonce (or --mode=ask|nonce)");
        assert_eq!(err("install", &["--print=yes"]), "--print takes no value, not \"yes\"; write `--print` alone");
        assert!(err("batch", &["extra"]).contains("`tiergate batch` does not take \"extra\"; usage: tiergate batch [--protocol | --extensions]"));
        assert!(err("rules", &["x"]).ends_with("it takes no arguments"));
        assert_eq!(parse(cmd("install"), &v(&["--help"])).unwrap_err(), ArgError::Help);
    }

    #[test]
    fn a_command_to_classify_is_taken_verbatim_after_the_flags() {
        let p = parse(cmd("classify"), &v(&["--cwd=/w", "git", "push", "-f", "--cwd", "x"])).unwrap();
        assert_eq!(p.value("--cwd"), Some("/w"));
        assert_eq!(p.operands, ["git", "push", "-f", "--cwd", "x"]);
        let words = parse(cmd("approvals"), &v(&["revoke", "--data-dir", "/d", "3"])).unwrap();
        assert_eq!((words.operands.as_slice(), words.value("--data-dir")), (&["revoke".to_owned(), "3".to_owned()][..], Some("/d")));
    }

    #[test]
    fn a_value_outside_its_set_suggests_the_close_one() {
        assert!(unknown_agent("claud").starts_with("--agent \"claud\": did you mean claude? use one of claude|codex|"));
        assert_eq!(bad_value("--mode", "nonse", ["ask", "nonce"].into_iter()), "--mode \"nonse\": did you mean nonce? use one of ask|nonce");
        assert_eq!(bad_value("--mode", "zz", ["ask", "nonce"].into_iter()), "--mode \"zz\": use one of ask|nonce");
    }

    #[test]
    fn every_flag_in_the_table_appears_in_its_usage() {
        for c in COMMANDS {
            for f in c.flags {
                assert!(c.usage.contains(f.name), "{}: {} missing from usage {:?}", c.name, f.name, c.usage);
            }
        }
    }
}
