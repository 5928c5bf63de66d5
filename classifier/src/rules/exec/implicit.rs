//! Implicit wrappers: a program no family models, handed an operand that names a
//! shell, an interpreter or an executable path, is taken to run it with the rest
//! of its words (`someprog /bin/bash -c …`, `xprog -- python3 x.py`, `zzz sh`).
//! Classifying that tail as a command is stricter than guessing the program is
//! inert; programs that take a program as data (`ldd`, `file`, `which`) are not
//! runners and are listed.

use crate::call::Invocation;
use crate::rules::{Cx, Rule, Traits};
use crate::words;

/// ## What it matches
/// A program no family models whose operand names a shell, an interpreter or an executable path with arguments (`someprog /bin/bash -c …`, `xprog -- python3 x.py`, `zzz sh`), or that is handed any word after `--`, literal or computed (`xprog -- $CMD -rf x` is a command computed at run time: it asks).
/// ## Why this tier
/// Informational (T0): the program is taken to run that operand, so the operand onwards is classified as a command and decides.
/// ## Known gaps
/// A modelled program named mid-argv of an unmodelled one (`runner -n 5 rm -rf x`) counts only after `--` or as the first operand (`fallback.proxy`): elsewhere such words name things (`dot -T format`, `ng generate service`). A bare interpreter name needs arguments (`pyenv local python3` selects one), and the value of a long option is a name (`--lang python`) unless code follows.
pub(super) static IMPLICIT_WRAPPER: Rule = Rule::t0("exec.implicit-wrapper")
    .reason("an unmodelled program is handed a shell, interpreter or program to run; that command decides")
    .matches(words!["xprog -- python3 -c 'print(1)'", "zzz -x sh -c 'ls'", "mytool -q /usr/bin/ls -la", "mytool -q /usr/libexec/java_home -V"])
    .not_matches(words!["mytool list", "ldd /bin/ls", "echo bash -c x", "pyenv local python3", "mytool -v \"$FILE\"", "getopt -o ab -- \"$@\""]);

crate::table! {
    /// Programs whose operands name programs as data (inspected, looked up, selected),
    /// and `getopt`, whose operands after `--` are the arguments it parses.
    /// Only programs the fallback's `EXEMPT` list does not hold: an exempt program
    /// (`ls`, `which`, `man`) never reaches this check, and a test keeps the lists apart.
    TAKES_PROGRAM_AS_DATA = [
        "ldd", "readelf", "objdump", "nm", "otool", "size", "xattr", "cheat", "complete", "compgen", "update-alternatives", "alternatives", "chsh", "pyenv",
        "rbenv", "nodenv", "jenv", "goenv", "asdf", "mise", "rtx", "nvm", "fnm", "volta", "n", "sdk", "rustup", "pkgx", "lsattr", "getcap", "dpkg-query", "rpm",
        "pacman", "apk", "brew", "port", "nix", "nix-env", "flatpak", "snap", "conda", "mamba", "micromamba", "pipx", "virtualenv", "mkvirtualenv", "poetry",
        "hatch", "pdm", "rye", "procs", "emulate", "pidof", "killall", "pkill", "fuser", "starship", "oh-my-posh", "direnv", "zoxide", "atuin", "mcfly", "thefuck",
        "carapace", "usage", "getopt",
    ];
    probe "{} bash" => T0;
    except ["chsh", "rustup", "pacman", "apk", "brew", "port", "nix", "nix-env", "flatpak", "snap", "conda", "mamba", "micromamba", "pipx", "poetry", "hatch", "pdm", "rye", "killall", "pkill"]: "owned by a family that reads `X bash` as installing or signalling bash; the table is consulted only when that family finds nothing";
}

/// `TAKES_PROGRAM_AS_DATA` sorted (see `crate::sorted`).
static DATA_ORDER: [u16; TAKES_PROGRAM_AS_DATA.len()] = crate::sorted::order(TAKES_PROGRAM_AS_DATA);

/// Shell names an operand can mean nothing else by (`es`, `rc`, `nu` are words too).
fn is_shell(name: &str) -> bool {
    crate::rules::traits_of(name).has(Traits::SHELL) || matches!(name, "xonsh" | "elvish" | "nushell" | "pwsh" | "powershell")
}

crate::table! {
    IS_RUNNABLE_INTERPRETER_NAMES = [
        "python", "python2", "python3", "pypy", "pypy3", "ipython", "ipython3", "node", "nodejs", "deno", "bun", "tsx", "ts-node", "ruby", "jruby", "perl",
        "php", "lua", "luajit", "Rscript", "osascript", "tclsh", "wish", "groovy", "julia", "guile", "racket", "sbcl", "clisp", "erl", "escript", "elixir",
        "scala", "jshell", "jrunscript",
    ];
    probe "mytool -- {} x.py" => T3;
}

/// Interpreter names an operand is unlikely to mean as data (`java`, `R`, `swift`
/// and `dc` are as often a language or package named as an argument).
fn is_runnable_interpreter(name: &str) -> bool {
    IS_RUNNABLE_INTERPRETER_NAMES.contains(name) || name.strip_prefix("python3.").is_some_and(|v| !v.is_empty() && v.chars().all(|c| c.is_ascii_digit()))
}

crate::table! {
    DIRS = ["/bin/", "/sbin/", "/usr/bin/", "/usr/sbin/", "/usr/local/bin/", "/usr/local/sbin/", "/opt/homebrew/bin/", "/usr/libexec/", "/snap/bin/"];
    probe "mytool -q {}rm -rf ~/x" => T3, "coreutils.rm";
}

/// `/bin/ls`, `/usr/local/bin/tool`: an absolute path into a program directory.
fn is_program_path(word: &str) -> bool {
    DIRS.iter().any(|d| word.strip_prefix(d).is_some_and(|rest| !rest.is_empty() && !rest.contains('/')))
}

/// Classifies the tail an unmodelled program appears to run. Returns whether it did.
pub(crate) fn check(inv: &Invocation, cx: &mut Cx<'_>) -> bool {
    if crate::sorted::contains(TAKES_PROGRAM_AS_DATA, &DATA_ORDER, &inv.program) {
        return false;
    }
    let args = &inv.args;
    let first_operand = args.iter().position(|a| !a.is_flag());
    for (i, a) in args.iter().enumerate() {
        // The word after `--` is the command a runner is given (below), so a computed
        // one (`mytool -- $CMD -rf ~`, `-- $(echo rm)`) is a command computed at run time:
        // the argv judgement asks for it (shell.dynamic-command), and decides alone.
        let prev = i.checked_sub(1).map(|p| args[p].text.as_str());
        let after_dashdash = prev == Some("--");
        if !a.exact && after_dashdash {
            cx.argv(&inv.args[i..], inv.cwd.as_deref());
            return true;
        }
        if !a.exact || a.is_flag() || a.text == "--" {
            continue;
        }
        let name = crate::names::program(&a.text);
        let name = name.as_ref();
        let has_args = i + 1 < args.len();
        let next = args.get(i + 1).map(|a| a.text.as_str());
        // `--lang python path`, `--shell bash`: the value of a long option names a
        // language, not a command to run, unless code follows (`--with sh -c …`).
        let code_follows = matches!(next, Some("-c" | "-e" | "-m"));
        let option_value = prev.is_some_and(|p| p.starts_with("--") && p.len() > 2 && !p.contains('='));
        if option_value && !code_follows {
            continue;
        }
        // A bare shell runs only as the program's first operand (`zzz sh`);
        // `exo completion zsh` names a shell. A bare interpreter name is as often a
        // selection (`pyenv local python3`) as a REPL, so it needs arguments.
        let shell = is_shell(name) && (has_args || Some(i) == first_operand || after_dashdash);
        // The word after `--` is the command a runner is given (`xprog -- rm -rf x`),
        // whatever it is; elsewhere `dot -T format`, `ng generate service` only name things.
        // `gcc -o /usr/local/bin/x x.c`: the value of an output option is a path it writes.
        let output_value = prev.is_some_and(|p| super::options::is_output_option(&inv.program, p));
        let program_path = is_program_path(&a.text) && (has_args || is_shell(name)) && !output_value;
        let runs = after_dashdash || shell || (has_args && is_runnable_interpreter(name)) || program_path;
        if runs {
            cx.hit_because(&IMPLICIT_WRAPPER, format!("`{}` is handed `{}` to run; judged as that command", inv.program, a.text));
            cx.argv(&inv.args[i..], inv.cwd.as_deref());
            return true;
        }
    }
    false
}

crate::tables![TAKES_PROGRAM_AS_DATA, IS_RUNNABLE_INTERPRETER_NAMES, DIRS];

#[cfg(test)]
mod tests {
    use super::TAKES_PROGRAM_AS_DATA;

    /// An exempt program returns before this check runs, so listing it here too would
    /// be an entry nothing reads (and a seeded drop of it a mutant no row can see).
    #[test]
    fn no_program_is_both_exempt_and_listed_here() {
        let both: Vec<&str> = TAKES_PROGRAM_AS_DATA.iter().filter(|p| crate::rules::fallback::is_exempt(p)).collect();
        assert!(both.is_empty(), "in fallback EXEMPT and TAKES_PROGRAM_AS_DATA: {both:?}; keep it in one (EXEMPT wins)");
    }
}
