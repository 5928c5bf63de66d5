//! Variables, as every family and the engine read them: those whose value a
//! program runs as a command line (`PAGER`, `*_COMMAND`: the engine classifies the
//! value, so `PAGER='rm -rf ~' git log` is blocked like `rm -rf ~`), and those that
//! inject code into the program they are set for (`LD_PRELOAD`, `BASH_ENV`: the
//! shell family's `shell.env-hijack` asks for them).

use crate::protect::Protected;
use crate::rules::paths;

crate::table! {
    CARRIES_COMMAND_EXACT = ["EDITOR", "VISUAL", "BROWSER", "GIT_EXTERNAL_DIFF", "SHELL", "TERMINAL", "FCEDIT", "LESSOPEN", "LESSCLOSE"];
    probe "env {}=./x.sh ls" => T3;
}

/// True when the variable's value is a command line some program runs.
pub(crate) fn carries_command(name: &str) -> bool {
    // Names the patterns below already answer (`PAGER`, `GIT_EDITOR`, `GIT_SSH_COMMAND`,
    // `PROMPT_COMMAND` …) are not listed: an entry there could never decide.
    CARRIES_COMMAND_EXACT.contains(name)
        || name.ends_with("_COMMAND")
        || name.ends_with("_CMD")
        || name.ends_with("PAGER")
        || name.ends_with("_EDITOR")
        || name.ends_with("_RSH")
        || name.ends_with("_ASKPASS")
        || name.starts_with("GIT_SSH")
}

crate::table! {
    INJECTS_CODE_EXACT = [
        "TAR_OPTIONS", "TAPE", "RSYNC_RSH", "CVS_RSH", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "DOTNET_STARTUP_HOOKS", "RUSTC_WRAPPER",
        "RUSTC_WORKSPACE_WRAPPER", "CARGO_BUILD_RUSTC_WRAPPER", "PYTHONBREAKPOINT", "PERL5DB", "PERLDB_OPTS", "GCONV_PATH", "ZDOTDIR", "LESSKEY", "LESSKEYIN",
        "NPM_CONFIG_SCRIPT_SHELL", "npm_config_script_shell", "NODE_REPL_EXTERNAL_MODULE", "GDBHISTFILE", "VIMINIT", "EXINIT", "MYVIMRC", "EMACSLOADPATH",
        "GIT_TEMPLATE_DIR", "PYTHONUSERBASE", "R_PROFILE", "R_PROFILE_USER", "R_ENVIRON", "RUBYSHELL", "COMSPEC",
    ];
}

/// True when the variable loads code or options into the program it is set for,
/// beyond the fixed list in `HIJACK_VARS`: the classes of the exec-vectors issue.
/// Command-carrying variables are not here: their value is classified instead
/// (`MYTOOL_COMMAND=ls` is as free as `ls`), and an unseen value asks.
pub(crate) fn injects_code(name: &str) -> bool {
    INJECTS_CODE_EXACT.contains(name) || name.starts_with("LD_") && name != "LD_DEBUG" || name.starts_with("DYLD_")
}

crate::table! {
    /// Variables that make a program load or run other code (every `LD_*`/`DYLD_*` one is
    /// `injects_code`'s, asked in the same place). `GIT_CONFIG_COUNT` is not
    /// here: it does nothing without the `GIT_CONFIG_KEY_n`/`VALUE_n` pairs, asked below.
    HIJACK_VARS = [
        "BASH_ENV", "ENV", "PROMPT_COMMAND", "PS4", "SHELLOPTS", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_EXEC_PATH", "GIT_PAGER", "GIT_EDITOR", "GIT_ASKPASS",
        "GIT_EXTERNAL_DIFF", "GIT_CONFIG_GLOBAL", "GIT_DIR", "GIT_WORK_TREE", "PAGER", "MANPAGER", "EDITOR", "VISUAL", "SSH_ASKPASS", "SUDO_ASKPASS",
        "PYTHONSTARTUP", "PYTHONPATH", "PYTHONHOME", "NODE_OPTIONS", "NODE_PATH", "PERL5OPT", "PERL5LIB", "RUBYOPT", "RUBYLIB", "LESSOPEN", "LESSCLOSE", "IFS",
        "BROWSER", "TERMINAL", "DOCKER_HOST", "KUBECONFIG",
    ];
    probe "export {}=x" => T3, "shell.env-hijack";
}

crate::table! {
    /// Variables that only say where a language looks for modules: set to directories
    /// of the working tree they load the project's own code, which a test run loads
    /// anyway (`PYTHONPATH=. python3 tests/runtests.py`), and the interpreter lanes read
    /// the modules found there (`rules::interp::preload::include_dirs`); anywhere else
    /// they load code from outside it. (`PATH` is not on `HIJACK_VARS` at all: see `shell.env-hijack`.)
    SEARCH_PATHS = ["PYTHONPATH", "NODE_PATH", "PERL5LIB", "RUBYLIB"];
    probe "export {}=/tmp/x" => T3, "shell.env-hijack";
    probe "{}=./lib ls" => T0;
}

/// True when `word` (`NAME=value`) sets a code-injecting variable, unless it is a
/// search path into the working tree (`tree_search_path`). `cwd` is the unit's
/// directory, `root` the working tree; `exported`: the value outlives the unit
/// (`export`), so a relative entry would follow later `cd`s.
pub(crate) fn hijacks(word: &str, cwd: Option<&str>, root: Option<&str>, home: Option<&str>, exported: bool) -> bool {
    is_hijack_assignment(word) && !tree_search_path(word, cwd, root, home, exported)
}

/// True when `word` sets a `SEARCH_PATHS` variable whose every entry is a directory
/// of the working tree (`src`, `.` or an empty entry: the current directory; `$(pwd)`,
/// `$PWD/lib`) or the variable's own earlier value (`$PYTHONPATH`, `${PYTHONPATH}`):
/// `export PYTHONPATH=$PYTHONPATH:$(pwd)`. Any other expansion, a path outside the
/// tree (or in its `.git`), a `cd` out of it first: false. The program resolves a
/// relative entry against its own directory when it imports, so an exported one
/// (which a later `cd /tmp` moves) counts only once expanded to an absolute path.
fn tree_search_path(word: &str, cwd: Option<&str>, root: Option<&str>, home: Option<&str>, exported: bool) -> bool {
    let Some((name, value)) = word.split_once('=') else { return false };
    let name = name.strip_suffix('+').unwrap_or(name);
    if !SEARCH_PATHS.contains(name) {
        return false;
    }
    let own = [format!("${name}"), format!("${{{name}}}")];
    value.split(':').all(|entry| {
        let entry = entry.trim_matches('"');
        if own.iter().any(|o| o == entry) {
            return true;
        }
        let entry = match ["$(pwd)", "`pwd`", "${PWD}", "$PWD"].iter().find_map(|p| entry.strip_prefix(p)) {
            Some(rest) => match cwd.or(root) {
                Some(here) => format!("{here}{rest}"),
                None => return false,
            },
            None if entry.is_empty() => ".".to_owned(),
            None => entry.to_owned(),
        };
        (!exported || entry.starts_with('/'))
            && !entry.contains(['$', '`', '"', '\'', '\\', '*', '?', '[', '~'])
            && paths::place(&entry, true, cwd, root, home, &Protected::default()) == paths::Place::WorkTree
    })
}

/// The `SEARCH_PATHS` variable `word` (`NAME=value`, `NAME+=value`, systemd-run's
/// `--setenv=NAME=value`) sets, if it sets one: its value is where the program's
/// loads look (`rules::interp::preload::include_dirs`), in the tree or not.
pub(crate) fn search_path_set(word: &str) -> Option<&'static str> {
    let (name, _) = word.trim_start_matches("--setenv=").split_once('=')?;
    SEARCH_PATHS.find(name.strip_suffix('+').unwrap_or(name))
}

/// True when `word` (`NAME=value`) sets a code-injecting variable.
pub(crate) fn is_hijack_assignment(word: &str) -> bool {
    let name = word.split_once('=').map_or(word, |(n, _)| n);
    let name = name.strip_suffix('+').unwrap_or(name);
    HIJACK_VARS.contains(name)
        || name.starts_with("GIT_CONFIG_KEY_")
        || name.starts_with("GIT_CONFIG_VALUE_")
        || name.starts_with("BASH_FUNC_")
        || injects_code(name)
}

crate::tables![CARRIES_COMMAND_EXACT, INJECTS_CODE_EXACT, HIJACK_VARS, SEARCH_PATHS];
