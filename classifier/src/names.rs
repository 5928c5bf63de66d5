//! Program names as a case-insensitive file system finds them.
//!
//! macOS's default volumes (APFS, case-insensitive) and Windows' NTFS find
//! `/bin/rm` for `Rm`, `RM` and `rM`, so a command name that matches no known
//! program exactly but matches one with case ignored *is* that program:
//! `SuDo Rm -Rf /` runs `sudo rm -Rf /` there. [`program`] gives that spelling,
//! and it is asked in the few places a program word becomes a name: the engine
//! naming a unit's program and peeling wrappers (`units/`), and the families
//! that read a program word out of an argument (`find -exec`, implicit
//! wrappers, proxies, `scp -S`, self-defence, shebang lines). Every family, flow
//! and exec check downstream then sees the canonical name, so a literal name is
//! never less strict than its lower-case form (a property test holds that).
//!
//! Besides ASCII capitals, the few non-ASCII letters whose case folding is ASCII
//! are folded (`ſ` → `s`, the Kelvin sign → `k`, `ı` → `i`, the `ﬁ`-style
//! ligatures → their letters): a file system that folds case finds `ſudo` as
//! `sudo` too. Windows' executable suffixes (`.exe`, `.com`, `.bat`, `.cmd`)
//! come off a known stem the same way: Git Bash runs `git.exe` as git. It does
//! not touch arguments or paths, only the program word's last component.

use std::borrow::Cow;

use crate::call::basename;

/// Longest name folded; longer ones match no table entry anyway.
const MAX_NAME: usize = 64;

/// The program a command word runs: its basename, in the tables' spelling when
/// it matches a known program with case ignored (`/usr/bin/GIT` → `git`).
pub fn program(word: &str) -> Cow<'_, str> {
    canonical(basename(word))
}

/// `name` as the tables spell it. A name known exactly (a family's or a
/// wrapper's, `R` included) stays; one that matches a name spelled with
/// capitals with case ignored (`rscript`, `REMOVE-ITEM`) takes that spelling;
/// any other name with capitals is folded to lower case, which is how every
/// other table (shells, interpreters, exempt readers, wrappers) spells its
/// names: `Rm` is `rm`, `Echo` is `echo`, and an unknown `MyTool` is the
/// equally unknown `mytool`.
pub fn canonical(name: &str) -> Cow<'_, str> {
    let folded = fold_case(name);
    // Windows finds `git.exe` for `git` (PATHEXT), so `git.exe` is git, `rm.exe` is
    // rm (Git Bash ships both): a known stem is that program.
    let n = folded.len();
    let ext = n > 4 && folded.as_bytes()[n - 4] == b'.' && [".exe", ".com", ".bat", ".cmd"].iter().any(|e| folded[n - 4..].eq_ignore_ascii_case(e));
    if ext && !known(&folded) {
        let stem = fold_case(&folded[..n - 4]);
        if known(&stem) {
            return Cow::Owned(stem.into_owned());
        }
    }
    folded
}

/// A family's or a wrapper's program name.
fn known(name: &str) -> bool {
    crate::rules::owned(name) || crate::wrappers::known(name).is_some()
}

/// `name` in the tables' spelling, case folded (see [`canonical`]).
fn fold_case(name: &str) -> Cow<'_, str> {
    // The usual name: ASCII, no capital. It can only differ from a known name
    // by case if that name is one of the few spelled with capitals (`rscript`).
    if !name.bytes().any(|b| b.is_ascii_uppercase() || !b.is_ascii()) {
        return Cow::Borrowed(crate::rules::capitalised_name(name).unwrap_or(name));
    }
    if crate::rules::owned(name) || crate::wrappers::known(name).is_some() {
        return Cow::Borrowed(name);
    }
    let mut buf = [0u8; MAX_NAME];
    let Some(lower) = fold(name, &mut buf) else { return Cow::Borrowed(name) };
    match crate::rules::capitalised_name(lower) {
        Some(spelled) => Cow::Borrowed(spelled),
        None => Cow::Owned(lower.to_owned()),
    }
}

/// `name` folded to lower case into `buf`; `None` when it holds a letter whose
/// folding is not ASCII (no table name has one) or is longer than `buf`.
fn fold<'b>(name: &str, buf: &'b mut [u8; MAX_NAME]) -> Option<&'b str> {
    let mut n = 0;
    for c in name.chars() {
        let folded = match c {
            c if c.is_ascii() => {
                push(buf, &mut n, &[c.to_ascii_lowercase() as u8])?;
                continue;
            }
            // Unicode case folding (CaseFolding.txt, C and F) of these is ASCII;
            // `ı` has none there, but NTFS upper-cases it to `I`.
            'ſ' => "s",
            '\u{212A}' => "k",
            'ı' => "i",
            'ﬀ' => "ff",
            'ﬁ' => "fi",
            'ﬂ' => "fl",
            'ﬃ' => "ffi",
            'ﬄ' => "ffl",
            'ﬅ' | 'ﬆ' => "st",
            _ => return None,
        };
        push(buf, &mut n, folded.as_bytes())?;
    }
    std::str::from_utf8(&buf[..n]).ok()
}

fn push(buf: &mut [u8; MAX_NAME], n: &mut usize, s: &[u8]) -> Option<()> {
    let end = *n + s.len();
    buf.get_mut(*n..end)?.copy_from_slice(s);
    *n = end;
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_in_another_case_are_the_known_program() {
        for (typed, canonical) in [
            ("Rm", "rm"),
            ("RM", "rm"),
            ("SuDo", "sudo"),
            ("GIT", "git"),
            ("/usr/bin/Chmod", "chmod"),
            ("rscript", "Rscript"),
            ("RSCRIPT", "Rscript"),
            ("remove-item", "Remove-Item"),
            ("ſudo", "sudo"),
            ("\u{212A}ubectl", "kubectl"),
            ("gıt", "git"),
            ("ﬁnd", "find"),
            ("R", "R"),
            // `r` finds `R` where case is ignored (zsh's own `r` builtin re-runs history: no safer).
            ("r", "R"),
            ("Echo", "echo"),
            ("MyTool", "mytool"),
            ("git.exe", "git"),
            ("RM.EXE", "rm"),
            ("C:/Program Files/Git/cmd/git.exe", "git"),
            ("sudo.exe", "sudo"),
            ("pwsh.exe", "pwsh.exe"),
            ("npm.cmd", "npm"),
        ] {
            assert_eq!(program(typed), canonical, "{typed}");
        }
    }

    /// Folding is unambiguous: no two program names (families' and wrappers')
    /// differ only by case, and wrappers are spelled in lower case (so a folded
    /// name finds them by an exact look-up).
    #[test]
    fn program_names_are_distinct_with_case_ignored() {
        let mut seen: std::collections::HashMap<String, &str> = std::collections::HashMap::new();
        let families = crate::rules::FAMILIES.iter().flat_map(|f| f.names());
        for name in families.chain(crate::wrappers::names()) {
            if let Some(other) = seen.insert(name.to_ascii_lowercase(), name) {
                assert_eq!(other, name, "`{other}` and `{name}` differ only by case: keep one spelling, folding finds the other");
            }
        }
        for w in crate::wrappers::names() {
            assert!(!w.bytes().any(|b| b.is_ascii_uppercase()), "wrapper `{w}` has a capital");
        }
    }

    #[test]
    fn unknown_and_exact_names_are_left_as_written() {
        for name in ["rm", "git", "mytool", "é", "", "Ünknown", "tool.exe", ".exe", &"X".repeat(100)] {
            assert_eq!(canonical(name), name, "{name}");
        }
    }
}
