//! How to build `tiergate` at one checkout, decided from that checkout's own
//! manifests, and where the binary lands. The bench builds tiergate at commits
//! other than the work tree (the base, `HEAD~1` in CI, bisect steps, the mutants'
//! scratch worktree), and the package that holds the bin moved: up to the package
//! split it was a `[[bin]]` of `classifier` (`-p classifier --bin tiergate`), since
//! then it is the nested package `classifier/tiergate` (`-p tiergate --bin tiergate`,
//! docs/decisions/0007-tiergate-package.md). Every caller asks [`tiergate_build`].

use std::path::{Path, PathBuf};

/// The bin every layout builds.
pub const BIN: &str = "tiergate";

/// How one checkout builds tiergate: `cargo build -p PACKAGE --bin tiergate`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TiergateBuild {
    /// The workspace package that declares the `tiergate` bin.
    pub package: String,
}

impl TiergateBuild {
    /// `-p PACKAGE --bin tiergate`: the target selection for `cargo build`/`rustc`/`clean`.
    pub fn target_args(&self) -> Vec<String> {
        vec!["-p".into(), self.package.clone(), "--bin".into(), BIN.into()]
    }

    /// `build --profile PROFILE -p PACKAGE --bin tiergate`.
    pub fn cargo_build_args(&self, profile: &str) -> Vec<String> {
        let mut args = vec!["build".to_owned(), "--profile".to_owned(), profile.to_owned()];
        args.extend(self.target_args());
        args
    }

    /// The command a person would type, for logs and messages.
    pub fn describe(&self, profile: &str) -> String {
        let profile = if profile == "release" { "--release".to_owned() } else { format!("--profile {profile}") };
        format!("cargo build {profile} -p {} --bin {BIN}", self.package)
    }

    /// Where `cargo build --profile PROFILE --target-dir TARGET_DIR` puts the binary.
    pub fn binary(&self, target_dir: &Path, profile: &str) -> PathBuf {
        // cargo names the dev profile's directory `debug`; every other profile's by its name.
        let dir = if profile == "dev" { "debug" } else { profile };
        target_dir.join(dir).join(format!("{BIN}{}", std::env::consts::EXE_SUFFIX))
    }
}

/// Decides how to build tiergate from a checkout's manifests, read through `read`
/// (a path relative to the checkout → its text, None when absent). The workspace
/// members (and the root package, if any) are searched for the one package that
/// declares a `tiergate` bin, explicitly (`[[bin]] name = "tiergate"`) or as the
/// auto-discovered `src/main.rs` of a package named `tiergate`. Err says why the
/// checkout has none, or more than one.
pub fn tiergate_build(read: &dyn Fn(&str) -> Option<String>) -> Result<TiergateBuild, String> {
    let root_text = read("Cargo.toml").ok_or("it has no Cargo.toml")?;
    let root: toml::Table = root_text.parse().map_err(|e| format!("its Cargo.toml does not parse: {e}"))?;
    let mut dirs: Vec<String> = Vec::new();
    if root.contains_key("package") {
        dirs.push(String::new());
    }
    let members = root.get("workspace").and_then(|w| w.get("members")).and_then(|m| m.as_array());
    for m in members.into_iter().flatten().filter_map(|m| m.as_str()) {
        if m.contains(['*', '?', '[']) {
            return Err(format!("its workspace member pattern `{m}` is not supported; list the members literally"));
        }
        dirs.push(m.trim_end_matches('/').to_owned());
    }
    let mut found = Vec::new();
    for dir in &dirs {
        let at = |rel: &str| if dir.is_empty() { rel.to_owned() } else { format!("{dir}/{rel}") };
        let manifest: toml::Table = match (dir.is_empty(), read(&at("Cargo.toml"))) {
            (true, _) => root.clone(),
            (false, None) => return Err(format!("its workspace member `{dir}` has no Cargo.toml")),
            (false, Some(text)) => text.parse().map_err(|e| format!("{}: does not parse: {e}", at("Cargo.toml")))?,
        };
        let Some(name) = manifest.get("package").and_then(|p| p.get("name")).and_then(|n| n.as_str()) else { continue };
        let bins = manifest.get("bin").and_then(|b| b.as_array());
        let explicit = bins.into_iter().flatten().any(|b| b.get("name").and_then(|n| n.as_str()) == Some(BIN));
        let autobins = manifest.get("package").and_then(|p| p.get("autobins")).and_then(|a| a.as_bool()).unwrap_or(true);
        let implicit = name == BIN && autobins && read(&at("src/main.rs")).is_some();
        if explicit || implicit {
            found.push(name.to_owned());
        }
    }
    match found.as_slice() {
        [package] => Ok(TiergateBuild { package: package.clone() }),
        [] => Err(format!("no workspace package declares a `{BIN}` bin")),
        many => Err(format!("several packages declare a `{BIN}` bin: {}", many.join(", "))),
    }
}

/// [`tiergate_build`] for the files of a checkout on disk (the work tree, a worktree).
pub fn at_dir(dir: &Path) -> Result<TiergateBuild, String> {
    tiergate_build(&|rel| std::fs::read_to_string(dir.join(rel)).ok())
}

/// [`tiergate_build`] for `commit` of the repository at `root`, without checking it out.
pub fn at_commit(root: &Path, commit: &str) -> Result<TiergateBuild, String> {
    tiergate_build(&|rel| crate::git::show(root, commit, rel).map(|b| String::from_utf8_lossy(&b).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn files(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: BTreeMap<String, String> = pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
        move |p: &str| map.get(p).cloned()
    }

    const OLD_ROOT: &str = "[workspace]\nmembers = [\"classifier\", \"replay\"]\n";
    const OLD_CLASSIFIER: &str =
        "[package]\nname = \"classifier\"\n[lib]\npath = \"src/lib.rs\"\n[[bin]]\nname = \"tiergate\"\npath = \"src/bin/tiergate/main.rs\"\n";
    const REPLAY: &str = "[package]\nname = \"replay\"\n";

    #[test]
    fn the_old_layout_builds_the_classifier_packages_bin() {
        let read = files(&[("Cargo.toml", OLD_ROOT), ("classifier/Cargo.toml", OLD_CLASSIFIER), ("replay/Cargo.toml", REPLAY)]);
        let b = tiergate_build(&read).unwrap();
        assert_eq!(b.target_args(), ["-p", "classifier", "--bin", "tiergate"]);
        assert_eq!(b.describe("release"), "cargo build --release -p classifier --bin tiergate");
    }

    #[test]
    fn the_nested_layout_builds_the_tiergate_package() {
        let read = files(&[
            ("Cargo.toml", "[workspace]\nmembers = [\"classifier\", \"classifier/tiergate/\", \"replay\"]\n"),
            ("classifier/Cargo.toml", "[package]\nname = \"classifier\"\n"),
            ("classifier/tiergate/Cargo.toml", "[package]\nname = \"tiergate\"\n[[bin]]\nname = \"tiergate\"\npath = \"src/main.rs\"\n"),
            ("replay/Cargo.toml", REPLAY),
        ]);
        let b = tiergate_build(&read).unwrap();
        assert_eq!(b.cargo_build_args("release"), ["build", "--profile", "release", "-p", "tiergate", "--bin", "tiergate"]);
        assert_eq!(b.binary(Path::new("/t"), "release"), Path::new("/t/release").join(format!("tiergate{}", std::env::consts::EXE_SUFFIX)));
        assert_eq!(b.binary(Path::new("/t"), "dev").parent(), Some(Path::new("/t/debug")));
    }

    #[test]
    fn a_package_named_tiergate_with_a_main_rs_has_the_bin_without_declaring_it() {
        let read = files(&[
            ("Cargo.toml", "[workspace]\nmembers = [\"t\"]\n"),
            ("t/Cargo.toml", "[package]\nname = \"tiergate\"\n"),
            ("t/src/main.rs", "fn main() {}"),
        ]);
        assert_eq!(tiergate_build(&read).unwrap().package, "tiergate");
        let no_main = files(&[("Cargo.toml", "[workspace]\nmembers = [\"t\"]\n"), ("t/Cargo.toml", "[package]\nname = \"tiergate\"\n")]);
        assert!(tiergate_build(&no_main).is_err(), "a lib-only package named tiergate has no bin");
        let off = files(&[("Cargo.toml", "[package]\nname = \"tiergate\"\nautobins = false\n"), ("src/main.rs", "")]);
        assert!(tiergate_build(&off).is_err(), "autobins = false turns the implicit bin off");
    }

    #[test]
    fn no_bin_two_bins_and_unreadable_manifests_say_why() {
        let none = files(&[("Cargo.toml", "[workspace]\nmembers = [\"replay\"]\n"), ("replay/Cargo.toml", REPLAY)]);
        assert!(tiergate_build(&none).unwrap_err().contains("no workspace package declares a `tiergate` bin"));
        let two = files(&[
            ("Cargo.toml", "[workspace]\nmembers = [\"classifier\", \"t\"]\n"),
            ("classifier/Cargo.toml", OLD_CLASSIFIER),
            ("t/Cargo.toml", "[package]\nname = \"tiergate\"\n[[bin]]\nname = \"tiergate\"\n"),
        ]);
        assert!(tiergate_build(&two).unwrap_err().contains("classifier, tiergate"));
        assert!(tiergate_build(&files(&[])).unwrap_err().contains("no Cargo.toml"));
        assert!(tiergate_build(&files(&[("Cargo.toml", "[workspace")])).unwrap_err().contains("does not parse"));
        let missing = files(&[("Cargo.toml", OLD_ROOT), ("classifier/Cargo.toml", OLD_CLASSIFIER)]);
        assert!(tiergate_build(&missing).unwrap_err().contains("`replay` has no Cargo.toml"));
        let glob = files(&[("Cargo.toml", "[workspace]\nmembers = [\"crates/*\"]\n")]);
        assert!(tiergate_build(&glob).unwrap_err().contains("crates/*"));
    }
}
