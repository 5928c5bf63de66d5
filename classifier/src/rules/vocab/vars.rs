//! Variables, as every family and the engine read them: those whose value a
//! program runs as a command line (`PAGER`, `*_COMMAND`: the engine classifies the
//! value, so `PAGER='rm -rf ~' git log` is blocked like `rm -rf ~`), and those that
//! inject code into the program they are set for (`LD_PRELOAD`, `BASH_ENV`: the
//! shell family's `shell.env-hijack` asks for them).

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

crate::tables![CARRIES_COMMAND_EXACT, INJECTS_CODE_EXACT, HIJACK_VARS];
