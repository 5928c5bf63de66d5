//! The edge of the protect policy (`classifier::protect`, which decides what is
//! protected): this file only gathers what the process knows and canonicalises.
//!
//! - `build` makes the `Protected` every request carries: the built-ins, the config
//!   files consulted, the running binary, the data directory (as given and with
//!   symlinks resolved) and the user's `protected_paths`. Bash (`hook/bash.rs`),
//!   the file tools and `tiergate batch` all classify with it.
//! - `decide` answers Write / Edit / MultiEdit / NotebookEdit: the path is made
//!   absolute against the event's cwd and judged twice, lexically and through the
//!   file system when (part of) it exists (symlinks); a protected path is denied.
//!
//! It decides nothing itself: a path is protected exactly when `Protected::check` says so.
//! Bash writes get the same symlink resolution through `RealFs::canonical`.

use std::path::{Component, Path, PathBuf};

use classifier::{Decision, Guard, Protected};

use super::{Answer, Ctx};
use crate::realfs::resolve_existing;

/// The protect configuration of one process. `Err` names a `protected_paths`
/// entry the glob matcher rejects, and its file.
pub fn build(
    config_files: &[PathBuf],
    patterns: &[(String, String)],
    data_dir: Option<&Path>,
    home: Option<&str>,
    root: Option<&Path>,
) -> Result<Protected, String> {
    let mut p = Protected::builtin();
    for f in config_files {
        for form in forms(f) {
            p = p.with_file(&form, Guard::TiergateConfig);
        }
    }
    if let Ok(exe) = std::env::current_exe() {
        for form in forms(&exe) {
            p = p.with_file(&form, Guard::TiergateBinary);
        }
    }
    if let Some(d) = data_dir {
        // Relative data directories are relative to the process, as the store opens them.
        let d = if d.is_absolute() { d.to_path_buf() } else { std::env::current_dir().map(|c| c.join(d)).unwrap_or_default() };
        if d.is_absolute() {
            for form in forms(&d) {
                p = p.with_dir(&form, Guard::TiergateStore);
            }
        }
    }
    let root = root.map(|r| r.display().to_string());
    p.with_patterns(patterns.iter().map(|(pat, origin)| (pat.as_str(), origin.as_str())), home, root.as_deref())
}

/// A path as given (normalised) and, when it differs, with symlinks resolved.
fn forms(p: &Path) -> Vec<String> {
    let lexical = normalise(p);
    let mut out = vec![lexical.display().to_string()];
    if let Some(real) = resolve_existing(&lexical).filter(|r| *r != lexical) {
        out.push(real.display().to_string());
    }
    out
}

/// The file tools: `Some(deny)` when writing `raw` touches a protected path, else no opinion.
pub fn decide(ctx: &Ctx, raw: &str) -> Option<Answer> {
    let path = Path::new(raw);
    let abs = match (&ctx.cwd, path.is_absolute()) {
        (_, true) => path.to_path_buf(),
        (Some(c), false) => c.join(path),
        (None, false) => return Some(Answer::ask("hook.input", format!("tiergate: relative file_path {raw:?} and no cwd in the event; asking"))),
    };
    let prot = match build(&ctx.cfg.files, &ctx.cfg.protected_paths, ctx.data_dir(), ctx.home.as_deref(), ctx.cwd.as_deref()) {
        Ok(p) => p,
        Err(e) => return Some(Answer::ask("hook.config", format!("tiergate's config is invalid, so every call asks until it is fixed or removed: {e}"))),
    };
    let all = forms(&abs);
    for form in &all {
        if let Some(p) = prot.check(form) {
            // The same words as a Bash write to the same path, plus the real path behind a symlink.
            let shown = if *form == all[0] { form.clone() } else { format!("{}, really {form}", all[0]) };
            let reason = format!("tiergate BLOCKED ({}): {}. Writing here is denied; this is never approvable.", p.rule.id, p.describe(&shown));
            return Some(Answer::new(Decision::Deny, p.rule.id, reason));
        }
    }
    None
}

/// Absolute, with `.` and `..` removed lexically (`..` at the root stays at the root).
pub fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalise_folds_dots() {
        assert_eq!(normalise(Path::new("/w/a/../.claude/./hooks/x")), PathBuf::from("/w/.claude/hooks/x"));
        assert_eq!(normalise(Path::new("/../x")), PathBuf::from("/x"));
    }

    #[test]
    fn build_protects_the_data_dir_and_user_patterns() {
        let pats = vec![("secrets/*.{pem,key}".to_owned(), "/c/tiergate.toml".to_owned())];
        let p = build(&[PathBuf::from("/c/tiergate.toml")], &pats, Some(Path::new("/data/tg")), Some("/h"), Some(Path::new("/w"))).unwrap();
        assert_eq!(p.check("/data/tg/tiergate.db").map(|x| x.guard), Some(Guard::TiergateStore));
        assert_eq!(p.check("/data/tg/other").map(|x| x.guard), Some(Guard::TiergateStore));
        assert_eq!(p.check("/w/secrets/k.pem").map(|x| x.guard), Some(Guard::User));
        assert_eq!(p.check("/w/secrets/k.txt"), None);
        let bad = vec![("secrets/*.{pem,key".to_owned(), "/c/tiergate.toml".to_owned())];
        let e = build(&[], &bad, None, None, Some(Path::new("/w"))).unwrap_err();
        assert!(e.contains("secrets/*.{pem,key") && e.contains("/c/tiergate.toml"), "{e}");
    }
}
