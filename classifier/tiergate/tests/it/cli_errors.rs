//! tiergate's command line through the real binary: a misspelt subcommand or flag
//! is refused with exit 2 and the close name, both value spellings work, and the
//! hook answers a bad flag with an ask in the agent's form (never a usage text).

use super::hook_harness::*;

#[test]
fn misspelt_commands_and_flags_exit_2_naming_the_close_name() {
    let env = Env::new("cli");
    for (args, want) in [
        (&["clasify", "ls"][..], "unknown command `clasify`; did you mean `classify`?"),
        (&["classify", "--cdw", "/tmp", "ls"], "`tiergate classify` has no flag --cdw; did you mean --cwd?"),
        (&["install", "--agent", "claud", "--print"], "--agent \"claud\": did you mean claude?"),
        (&["install", "--prnt"], "did you mean --print?"),
        (&["log", "-n"], "-n needs a value: -n N (or -n=N)"),
        (&["log", "-n", "many"], "-n wants a number of decisions, e.g. -n 50, not \"many\""),
        (&["approvals", "rejct-all"], "`tiergate approvals` has no `rejct-all`; did you mean `reject-all`?"),
        (&["batch", "--protocl"], "did you mean --protocol?"),
        (&["doctor", "now"], "`tiergate doctor` does not take \"now\"; it takes no arguments"),
    ] {
        let (code, out, err) = env.cli(args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: errors go to stderr: {out}");
    }
}

#[test]
fn equals_and_space_spellings_give_the_same_answer() {
    let env = Env::new("cli-eq");
    let cwd = env.cwd().to_owned();
    let (c1, spaced, _) = env.cli(&["classify", "--cwd", &cwd, "rm notes.txt"]);
    let (c2, joined, _) = env.cli(&["classify", &format!("--cwd={cwd}"), "rm", "notes.txt"]);
    assert_eq!((c1, c2), (0, 0));
    assert_eq!(spaced, joined);
    assert!(spaced.contains("\"tier\":\"T3\""), "{spaced}");
    let (code, out, _) = env.cli(&["batch", "--protocol"]);
    assert_eq!((code, out.trim()), (0, "1"), "protocol v1's handshake is unchanged");
}

#[test]
fn a_bad_hook_flag_is_an_ask_in_the_agents_form_naming_the_fix() {
    let env = Env::new("cli-hook");
    let cwd = env.cwd().to_owned();
    for (args, want) in [
        (&["--agnet", "claude"][..], "did you mean --agent?"),
        (&["--mode=nonse"], "--mode \"nonse\": did you mean nonce?"),
        (&["--mode"], "--mode needs a value"),
        (&["--help"], "--help is not a hook option"),
    ] {
        let a = env.hook(args, &bash_event("ls", &cwd)).unwrap_or_else(|| panic!("{args:?}: no answer"));
        assert_eq!(a.decision, "ask", "{args:?}: {}", a.reason);
        assert!(a.reason.contains(want), "{args:?}: {}", a.reason);
    }
    let a = env.hook(&["--mode=ask", "--agent", "claude"], &bash_event("ls", &cwd)).unwrap();
    assert_eq!(a.decision, "allow", "both spellings are taken: {}", a.reason);
}
