//! `tiergate.toml`: where the config files live, how user and project levels merge,
//! and the strict parse (unknown keys and bad values are errors naming the file).
//!
//! Files: user `$XDG_CONFIG_HOME/tiergate/tiergate.toml` (else
//! `~/.config/tiergate/tiergate.toml`, replaced by `--config FILE`), then project
//! `<cwd>/.tiergate.toml`. Keys: `mode = "ask"|"nonce"`, `log = bool`,
//! `log_full_commands = bool`, `protected_paths = [..]`. The project level can
//! only tighten: `mode = "nonce"` wins over `ask`, `log = true` wins over false,
//! protected paths add up, and `log_full_commands` is refused there (a repository,
//! or an agent writing into it, must not make secrets land in the log). Nothing
//! in the config can turn a verdict into allow. It does not read the database
//! or decide anything.

use std::path::{Path, PathBuf};

use serde::Deserialize;

/// How T3 is answered: a consent dialog (`ask`) or a deny with a one-time code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Ask,
    Nonce,
}

impl Mode {
    pub fn parse(s: &str) -> Option<Mode> {
        match s {
            "ask" => Some(Mode::Ask),
            "nonce" => Some(Mode::Nonce),
            _ => None,
        }
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    mode: Option<Mode>,
    log: Option<bool>,
    log_full_commands: Option<bool>,
    protected_paths: Option<Vec<String>>,
}

/// The merged configuration of one hook call.
#[derive(Clone, Debug)]
pub struct Config {
    pub mode: Mode,
    pub log: bool,
    pub log_full_commands: bool,
    /// Extra protected paths, each with the file it came from: absolute,
    /// `~/`-relative or project-relative globs (`classifier::protect` says how
    /// they match). Every entry compiled when the file was loaded.
    pub protected_paths: Vec<(String, String)>,
    /// Every config file consulted (existing or not): the hook protects them.
    pub files: Vec<PathBuf>,
}

/// The user-level config path: `--config FILE`, else the XDG location.
pub fn user_path(flag: Option<&Path>) -> Option<PathBuf> {
    if let Some(p) = flag {
        return Some(p.to_path_buf());
    }
    let base = match std::env::var_os("XDG_CONFIG_HOME").filter(|v| !v.is_empty()) {
        Some(x) => PathBuf::from(x),
        None => PathBuf::from(std::env::var_os("HOME")?).join(".config"),
    };
    Some(base.join("tiergate").join("tiergate.toml"))
}

/// The project-level config path for a working directory.
pub fn project_path(cwd: &Path) -> PathBuf {
    cwd.join(".tiergate.toml")
}

/// Loads and merges both levels. `Err` names the file and what is wrong with it.
pub fn load(flag: Option<&Path>, cwd: Option<&Path>) -> Result<Config, String> {
    let mut cfg = Config { mode: Mode::Ask, log: true, log_full_commands: false, protected_paths: Vec::new(), files: Vec::new() };
    let user = user_path(flag);
    let project = cwd.map(project_path);
    if let Some(path) = user {
        let file = read(&path, flag.is_some())?;
        cfg.files.push(path.clone());
        if let Some(f) = file {
            cfg.mode = f.mode.unwrap_or(cfg.mode);
            cfg.log = f.log.unwrap_or(cfg.log);
            cfg.log_full_commands = f.log_full_commands.unwrap_or(false);
            cfg.protected_paths.extend(patterns(&path, f.protected_paths, cwd)?);
        }
    }
    if let Some(path) = project {
        let file = read(&path, false)?;
        cfg.files.push(path.clone());
        if let Some(f) = file {
            if f.log_full_commands.is_some() {
                return Err(format!("{}: log_full_commands may only be set in the user config", path.display()));
            }
            if f.mode == Some(Mode::Nonce) {
                cfg.mode = Mode::Nonce;
            }
            cfg.log |= f.log.unwrap_or(false);
            cfg.protected_paths.extend(patterns(&path, f.protected_paths, cwd)?);
        }
    }
    Ok(cfg)
}

/// One file's `protected_paths` with their origin, each checked by the glob matcher
/// now: a pattern it rejects is an error naming the entry and the file, never a
/// pattern that silently protects nothing.
fn patterns(path: &Path, entries: Option<Vec<String>>, cwd: Option<&Path>) -> Result<Vec<(String, String)>, String> {
    let origin = path.display().to_string();
    let out: Vec<(String, String)> = entries.unwrap_or_default().into_iter().map(|p| (p, origin.clone())).collect();
    let home = std::env::var("HOME").ok();
    let root = cwd.map(|c| c.display().to_string());
    classifier::Protected::builtin().with_patterns(out.iter().map(|(p, o)| (p.as_str(), o.as_str())), home.as_deref(), root.as_deref())?;
    Ok(out)
}

/// Reads one file; a missing file is fine unless it was named with `--config`.
fn read(path: &Path, required: bool) -> Result<Option<File>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && !required => return Ok(None),
        Err(e) => return Err(format!("{}: cannot read config: {e}", path.display())),
    };
    parse(&text).map(Some).map_err(|e| format!("{}: {e}", path.display()))
}

fn parse(text: &str) -> Result<File, String> {
    let file: File = toml::from_str(text).map_err(|e| {
        // toml's message spans lines ("TOML parse error at line 2, column 1 | …");
        // keep it on one line so it fits a permission reason.
        e.to_string().split_whitespace().collect::<Vec<_>>().join(" ")
    })?;
    if let Some(bad) = file.protected_paths.iter().flatten().find(|p| p.trim().is_empty()) {
        return Err(format!("protected_paths: empty entry {bad:?}"));
    }
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_parse_names_the_problem() {
        let f = parse("mode = \"nonce\"\nlog = false\nprotected_paths = [\"~/x\"]\n").unwrap();
        assert_eq!(f.mode, Some(Mode::Nonce));
        let e = parse("mode = \"nonce\"\nlogg = true\n").unwrap_err();
        assert!(e.contains("line 2") && e.contains("logg"), "{e}");
        let e = parse("mode = \"always\"\n").unwrap_err();
        assert!(e.contains("always"), "{e}");
        assert!(parse("mode = ").is_err());
    }

    #[test]
    fn a_pattern_the_matcher_rejects_names_file_and_entry() {
        let e = patterns(Path::new("/c/tiergate.toml"), Some(vec!["ok/**".into(), "secrets/*.{pem,key".into()]), Some(Path::new("/w"))).unwrap_err();
        assert!(e.contains("/c/tiergate.toml") && e.contains("secrets/*.{pem,key"), "{e}");
        let ok = patterns(Path::new("/c/t.toml"), Some(vec!["secrets/*.{pem,key}".into()]), Some(Path::new("/w"))).unwrap();
        assert_eq!(ok, [("secrets/*.{pem,key}".to_owned(), "/c/t.toml".to_owned())]);
    }
}
