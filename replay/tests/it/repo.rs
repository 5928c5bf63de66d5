//! Test repositories: a real git repository in a temp dir holding a tiny cargo
//! workspace (package `classifier`, bin `tiergate` speaking protocol v1 from an
//! editable rule table), corpora, caps.json and declared/. `check` runs a replay
//! the way xtask does and returns its exit code and outcome.

use std::path::{Path, PathBuf};
use std::process::Command;

use replay::config::Config;
use replay::exit::{self, ReplayError};
use replay::Outcome;

pub const TIERGATE: &str = include_str!("tiny_tiergate.rs");

pub const RULES: &str = "git push --force\tT3\tgit.push.force\nrm -rf /\tBLOCKED\tfs.rm.root\nrm \tT3\tfs.rm\ncargo test\tT1\tcargo.test\nsleep-forever\tHANG\ttest.hang\nslow-thing\tSLOW\ttest.slow\nmytool delete\tT3\tmytool.delete\n";

pub const TRUTH: &str = "id,command,cwd,expect,pinned,family,note
ls,ls -la,,T0,false,free,a read
push-force,git push --force origin main,,T3,true,gated,rewrites the remote
rm-root,rm -rf /,,BLOCKED,true,gated,never
rm-file,rm notes.txt,work,T3,false,gated,deletes
cargo-test,cargo test,,T1,false,free,local validation
";

pub const HISTORY: &str = "id,command,weight
h-ls,ls,40
h-make,make,7
h-make-install,make install,3
h-make-clean,make clean,2
h-git-status,git status,25
";

pub const CURATED: &str = "id,command,cwd,expect,family,note
bypass-rm,rm -rf /tmp/x,,T3,bypass,deletes
fp-echo,echo rm -rf /,,T0,fp,data not execution
";

/// A peer's cases: one it allows, one it asks for, one excluded with its reason.
pub const PEERS: &str = r#"{"id": "ls", "command": "ls -l /", "peer": "allows", "expect": "free"}
{"id": "log", "command": "git log", "peer": "allows", "expect": "free"}
{"id": "frob", "command": "mytool frob", "peer": "asks", "excluded": "policy: frobbing is authoring (a fixture's reason)"}
{"id": "delete", "command": "mytool delete x", "peer": "asks", "expect": "gated+"}
"#;

/// Two sessions: `write x` then `run x` reads what the session wrote; `b` runs a
/// file only another session wrote.
pub const SESSIONS: &str = r#"{"session": "a", "step": 0, "cwd": "/w", "command": "write x"}
{"session": "b", "step": 0, "cwd": "/w", "command": "ls"}
{"session": "a", "step": 1, "cwd": "/w", "command": "run x"}
{"session": "b", "step": 1, "cwd": "/w", "command": "run x"}
"#;

pub const CAPS: &str = r#"{
  "truth": { "new_prompts": 0, "new_prompts_weighted": 0, "loosened": 0, "new_blocks": 1 },
  "history": { "new_prompts": 2, "new_prompts_weighted": 100, "loosened": 0, "new_blocks": 0 },
  "curated": { "new_prompts": 0, "new_prompts_weighted": 0, "loosened": 0, "new_blocks": 0 },
  "peers": { "new_prompts": 0, "new_prompts_weighted": 0, "loosened": 0, "new_blocks": 0 },
  "sessions": { "new_prompts": 0, "new_prompts_weighted": 0, "loosened": 0, "new_blocks": 0 },
  "probes": { "new_prompts": 0, "new_prompts_weighted": 0, "loosened": 0, "new_blocks": 0 }
}
"#;

pub struct Repo {
    _dir: tempfile::TempDir,
    pub root: PathBuf,
}

impl Repo {
    /// A repository with one commit holding the whole fixture.
    pub fn new() -> Repo {
        let r = Repo::empty();
        r.write_fixture();
        r.commit("fixture");
        r
    }

    /// A repository with no commits and no files.
    pub fn empty() -> Repo {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().join("repo");
        std::fs::create_dir_all(&root).expect("mkdir");
        let r = Repo { _dir: dir, root };
        r.git(&["init", "-q", "-b", "topic"]);
        r.git(&["config", "user.email", "t@example.invalid"]);
        r.git(&["config", "user.name", "t"]);
        r.git(&["config", "commit.gpgsign", "false"]);
        r
    }

    pub fn write_fixture(&self) {
        self.write("Cargo.toml", "[workspace]\nresolver = \"2\"\nmembers = [\"classifier\"]\n");
        self.write(
            "classifier/Cargo.toml",
            "[package]\nname = \"classifier\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[[bin]]\nname = \"tiergate\"\npath = \"src/main.rs\"\n",
        );
        self.write("classifier/src/main.rs", TIERGATE);
        self.write("classifier/rules.txt", RULES);
        self.write("corpus/truth/t.csv", TRUTH);
        self.write("corpus/history/h.csv", HISTORY);
        self.write("corpus/curated/c.csv", CURATED);
        self.write("corpus/peers/guard/cases.jsonl", PEERS);
        self.write("corpus/sessions/agent/sessions.jsonl", SESSIONS);
        self.write("corpus/fixtures/work/.keep", "");
        self.write("caps.json", CAPS);
        self.write(".gitignore", "/target\n/reports/\n");
    }

    /// The package split of docs/decisions/0007-tiergate-package.md, as the real tree
    /// made it: `classifier` becomes a library and the bin moves to the nested
    /// package `classifier/tiergate` (its rule table with it). Not committed.
    pub fn split_packages(&self) {
        std::fs::create_dir_all(self.root.join("classifier/tiergate/src")).expect("mkdir");
        self.git(&["mv", "classifier/src/main.rs", "classifier/tiergate/src/main.rs"]);
        self.git(&["mv", "classifier/rules.txt", "classifier/tiergate/rules.txt"]);
        self.write("Cargo.toml", "[workspace]\nresolver = \"2\"\nmembers = [\"classifier\", \"classifier/tiergate\"]\n");
        self.write("classifier/Cargo.toml", "[package]\nname = \"classifier\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[lib]\npath = \"src/lib.rs\"\n");
        self.write("classifier/src/lib.rs", "//! The library half of the split (empty in this fixture).\n");
        self.write(
            "classifier/tiergate/Cargo.toml",
            "[package]\nname = \"tiergate\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[[bin]]\nname = \"tiergate\"\npath = \"src/main.rs\"\n\n[dependencies]\nclassifier = { path = \"..\" }\n",
        );
    }

    pub fn write(&self, rel: &str, text: &str) {
        let p = self.root.join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.root.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    }

    pub fn git(&self, args: &[&str]) -> String {
        let out = Command::new("git").arg("-C").arg(&self.root).args(args).output().expect("git");
        assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    }

    pub fn commit(&self, msg: &str) -> String {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "-m", msg]);
        self.git(&["rev-parse", "HEAD"])
    }

    pub fn config(&self, base: &str) -> Config {
        Config {
            determinism_sample: 20,
            // Explicit, whatever the caller's CARGO_TARGET_DIR says.
            target_dir: self.root.join("target"),
            ..Config::new(self.root.clone(), Some(base.to_owned()))
        }
    }
}

/// Runs a replay; returns the exit code and the outcome or error.
pub fn check(cfg: &Config) -> (i32, Result<Outcome, ReplayError>) {
    let r = replay::run(cfg);
    (exit::code_of(&r, Outcome::failures), r)
}

/// All failure messages of an outcome, one per line (for assertion messages).
pub fn failures(r: &Result<Outcome, ReplayError>) -> String {
    match r {
        Ok(o) => o.report.failures.iter().map(|f| format!("[{}] {}", f.area, f.message)).collect::<Vec<_>>().join("\n"),
        Err(e) => e.to_string(),
    }
}

pub fn mtime(p: &Path) -> std::time::SystemTime {
    std::fs::metadata(p).and_then(|m| m.modified()).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Bisect history: the fixture commit (good), then twelve commits; the sixth breaks
/// the build, the seventh fixes it, the eighth makes `make install` ask. Returns
/// (good, the moving commit, the broken commit).
pub fn dozen_commits(repo: &Repo) -> (String, String, String) {
    let good = repo.git(&["rev-parse", "HEAD"]);
    let (mut moved, mut broken) = (String::new(), String::new());
    for i in 0..12 {
        repo.write("NOTES", &format!("step {i}\n"));
        match i {
            5 => repo.write("classifier/src/main.rs", "fn main() { not rust }\n"),
            6 => repo.write("classifier/src/main.rs", TIERGATE),
            7 => repo.write("classifier/rules.txt", &format!("make install\tT3\tmake.install\n{RULES}")),
            _ => {}
        }
        let c = repo.commit(&format!("step {i}"));
        match i {
            5 => broken = c,
            7 => moved = c,
            _ => {}
        }
    }
    (good, moved, broken)
}
