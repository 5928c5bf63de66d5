//! Implicit wrappers: a program no family models, handed an operand that names a
//! shell, an interpreter or an executable path, is taken to run it with the rest
//! of its words (`someprog /bin/bash -c …`, `xprog -- python3 x.py`, `zzz sh`).
//! Classifying that tail as a command is stricter than guessing the program is
//! inert; programs that take a program as data (`ldd`, `file`, `which`) are not
//! runners and are listed.

use crate::call::{basename, Invocation};
use crate::rules::{interp, shell, Cx};

use super::IMPLICIT_WRAPPER;

/// Programs whose operands name programs as data (inspected, looked up, selected).
const TAKES_PROGRAM_AS_DATA: &[&str] = &[
    "ldd", "readelf", "objdump", "nm", "otool", "size", "strip", "file", "patchelf", "codesign", "xattr", "which", "whereis", "type", "whatis", "apropos",
    "man", "info", "tldr", "help", "cheat", "echo", "printf", "hash", "complete", "compgen", "alias", "unalias", "update-alternatives", "alternatives", "chsh",
    "pyenv", "rbenv", "nodenv", "jenv", "goenv", "asdf", "mise", "rtx", "nvm", "fnm", "volta", "n", "sdk", "rustup", "pkgx", "ls", "stat", "lsattr", "getcap",
    "dpkg-query", "rpm", "pacman", "apk", "brew", "port", "nix", "nix-env", "flatpak", "snap", "conda", "mamba", "micromamba", "pipx", "virtualenv",
    "mkvirtualenv", "poetry", "hatch", "pdm", "rye", "test", "[", "[[", "basename", "dirname", "readlink", "realpath", "sha256sum", "md5sum", "cksum",
];

/// Shell basenames that never take code as data.
fn is_shell(name: &str) -> bool {
    shell::SHELLS.contains(&name) || crate::rules::interp::OTHER_SHELLS.contains(&name)
}

/// `/bin/ls`, `/usr/local/bin/tool`: an absolute path into a program directory.
fn is_program_path(word: &str) -> bool {
    const DIRS: &[&str] =
        &["/bin/", "/sbin/", "/usr/bin/", "/usr/sbin/", "/usr/local/bin/", "/usr/local/sbin/", "/opt/homebrew/bin/", "/usr/libexec/", "/snap/bin/"];
    DIRS.iter().any(|d| word.strip_prefix(d).is_some_and(|rest| !rest.is_empty() && !rest.contains('/')))
}

fn is_verb(word: &str) -> bool {
    use crate::rules::cloud::verbs::{kind_of, Table};
    const NO_TABLE: Table = Table { read: &[], validate: &["fmt", "test"], simulate: &[], mutate: &[], skip: &[] };
    kind_of(word, &NO_TABLE).is_some()
}

/// Classifies the tail an unmodelled program appears to run. Returns whether it did.
pub(crate) fn check(inv: &Invocation, cx: &mut Cx<'_>) -> bool {
    if TAKES_PROGRAM_AS_DATA.contains(&inv.program.as_str()) {
        return false;
    }
    for (i, a) in inv.args.iter().enumerate() {
        if !a.exact || a.is_flag() || a.text == "--" {
            continue;
        }
        let name = basename(&a.text);
        let has_args = i + 1 < inv.args.len();
        // A bare interpreter name is as often a selection (`pyenv local python3`,
        // `nix-shell -p python3`) as a REPL; a bare shell opens one either way.
        // A modelled program with arguments (`wrapper -n 5 rm -rf x`) runs too; a word
        // that is also a verb (`install`, `test`) is a subcommand, not a program.
        let modelled = has_args && i > 0 && crate::rules::owned(name) && !is_verb(name);
        let runs = is_shell(name) || (has_args && interp::is_interpreter(name)) || (is_program_path(&a.text) && (has_args || is_shell(name))) || modelled;
        if runs {
            cx.hit_because(&IMPLICIT_WRAPPER, format!("`{}` is handed `{}` to run; judged as that command", inv.program, a.text));
            cx.argv(&inv.args[i..], inv.cwd.as_deref());
            return true;
        }
    }
    false
}
