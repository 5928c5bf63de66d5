//! The scratch project every command starts in: a template (files tldr
//! placeholders name, a Cargo and an npm manifest, a Makefile, a git repository
//! with one commit and two branches) built under `target/oracle/template/` and
//! packed as a tar the sandbox unpacks into its tmpfs for each run. Truth rows
//! with a fixture cwd get that fixture instead. tiergate is asked with the host
//! copy as cwd, so it reads the same files the command sees.

use std::path::{Path, PathBuf};
use std::process::Command;

const FILES: &[(&str, &str)] = &[
    ("a.txt", "alpha\nbeta\n"),
    ("b.txt", "gamma\n"),
    ("README.md", "# scratch\n"),
    ("Cargo.toml", "[package]\nname = \"scratch\"\nversion = \"0.1.0\"\nedition = \"2021\"\n"),
    ("src/main.rs", "fn main() {\n    println!(\"hi\");\n}\n"),
    ("package.json", "{\"name\": \"scratch\", \"version\": \"1.0.0\", \"scripts\": {\"test\": \"echo test\"}}\n"),
    ("Makefile", "all:\n\t@echo all\n"),
    ("path/to/file", "placeholder\n"),
    ("path/to/file.txt", "placeholder\n"),
    ("path/to/file1", "one\n"),
    ("path/to/file2", "two\n"),
    ("path/to/directory/file", "placeholder\n"),
    ("path/to/source/file", "placeholder\n"),
    ("path/to/script.sh", "echo script\n"),
    ("path/to/script.py", "print('script')\n"),
    ("file", "placeholder\n"),
    ("file.txt", "placeholder\n"),
];

fn sh(dir: &Path, args: &[&str]) -> Result<(), String> {
    let out = Command::new(args[0]).args(&args[1..]).current_dir(dir).output().map_err(|e| format!("{}: {e}", args[0]))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("{}: {}", args.join(" "), String::from_utf8_lossy(&out.stderr).trim()))
    }
}

/// Builds the template and its tar; returns (host dir, tar).
pub fn template(work: &Path) -> Result<(PathBuf, PathBuf), String> {
    let dir = work.join("template");
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    for (p, text) in FILES {
        let f = dir.join(p);
        std::fs::create_dir_all(f.parent().expect("relative path")).map_err(|e| e.to_string())?;
        std::fs::write(&f, text).map_err(|e| format!("{}: {e}", f.display()))?;
    }
    let git = ["git", "-c", "user.name=oracle", "-c", "user.email=oracle@example.invalid", "-c", "init.defaultBranch=main"];
    fn with<'a>(git: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
        git.iter().chain(extra).copied().collect()
    }
    sh(&dir, &with(&git, &["init", "-q"]))?;
    sh(&dir, &with(&git, &["add", "-A"]))?;
    sh(&dir, &with(&git, &["commit", "-q", "-m", "scratch"]))?;
    sh(&dir, &with(&git, &["branch", "feature"]))?;
    let tar = work.join("template.tar");
    pack(&dir, &tar)?;
    Ok((dir, tar))
}

/// A tar of `dir`'s contents (cached per fixture under `work`).
pub fn fixture_tar(work: &Path, root: &Path, fixture: &str) -> Result<PathBuf, String> {
    let tar = work.join(format!("fixture-{}.tar", fixture.replace('/', "_")));
    if !tar.is_file() {
        pack(&root.join("corpus").join("fixtures").join(fixture), &tar)?;
    }
    Ok(tar)
}

fn pack(dir: &Path, tar: &Path) -> Result<(), String> {
    let d = dir.display().to_string();
    let t = tar.display().to_string();
    sh(Path::new("/"), &["tar", "-cf", &t, "-C", &d, "."])
}
