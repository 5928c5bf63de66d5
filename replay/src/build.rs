//! Builds the subject binaries, each the way its own checkout's manifests say
//! (`layout::tiergate_build`: `-p classifier` before the package split, `-p tiergate`
//! since). Head: the repository's work tree. Base: a `git worktree` outside the repository, its
//! own target dir (a shared one silently reuses the wrong binary, HARNESS.md §2.1),
//! head's toolchain, and a binary cache keyed by the commit's build inputs (the
//! classifier tree, manifests, lockfile), rustc -vV and the profile, so a
//! second run does not rebuild (optionally mirrored to `$REPLAY_BIN_MIRROR`). The worktree is removed by a Drop guard; worktrees
//! left by a killed run are removed at the next start. It does not run corpora.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

use crate::exit::ReplayError;
use crate::git::git;
use crate::protocol::VERSION;

/// A program that speaks protocol v1: `argv` runs the batch loop, `argv + --protocol`
/// prints the version. `build_id` keys the verdict cache (None = never cache).
#[derive(Clone, Debug)]
pub struct Subject {
    pub argv: Vec<String>,
    pub build_id: Option<String>,
    pub label: String,
}

/// The base side after building.
#[derive(Debug)]
pub enum BaseBuild {
    Ready {
        subject: Subject,
        built: bool,
        secs: f64,
    },
    /// The base has no protocol v1 `tiergate batch`; the sentence says why.
    Predates(String),
}

const PROFILE: &str = "release";

fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())
}

/// Where head's cargo puts artifacts: the caller's `CARGO_TARGET_DIR` for this
/// project, `ROOT/target` for any other repository (`--root DIR`, the tests'
/// temporary ones), so building there never overwrites this project's binary.
pub fn head_target_dir(root: &Path) -> PathBuf {
    let ours = |p: &Path| p.canonicalize().ok();
    let this_project = ours(root).is_some_and(|r| ours(&crate::project_root()) == Some(r));
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if this_project => PathBuf::from(dir),
        _ => root.join("target"),
    }
}

/// The bench's own state: `target/replay/` (binary cache, verdict store, base target dir).
pub fn replay_dir(root: &Path) -> PathBuf {
    root.join("target").join("replay")
}

fn tail(bytes: &[u8], n: usize) -> String {
    let s = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = s.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// Builds head's tiergate into `target_dir` (explicitly: the environment's
/// `CARGO_TARGET_DIR` is not inherited) and hashes the binary (the cache's build id).
pub fn build_head(root: &Path, target_dir: &Path, log: &dyn Fn(&str)) -> Result<(Subject, f64), ReplayError> {
    let t = Instant::now();
    let how = crate::layout::at_dir(root).map_err(|e| ReplayError::infra(format!("head cannot build tiergate: {e}")))?;
    log(&format!("building head: {} (under a minute when warm; a first build compiles every dependency, ~10 min on 2 cores)", how.describe(PROFILE)));
    let out = Command::new(cargo())
        .current_dir(root)
        .args(how.cargo_build_args(PROFILE))
        .arg("--target-dir")
        .arg(target_dir)
        .env_remove("CARGO_TARGET_DIR")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| ReplayError::infra(format!("cannot run cargo: {e}")))?;
    if !out.status.success() {
        return Err(ReplayError::infra(format!("head does not build:\n{}", tail(&out.stderr, 30))));
    }
    let bin = how.binary(target_dir, PROFILE);
    let bytes = std::fs::read(&bin).map_err(|e| ReplayError::infra(format!("{}: {e}", bin.display())))?;
    let id = binary_id(&bytes);
    let subject = Subject { argv: vec![bin.display().to_string(), "batch".into()], build_id: Some(id), label: "head".into() };
    Ok((subject, t.elapsed().as_secs_f64()))
}

/// What the tiergate binary is built from: the classifier folder (the library and,
/// nested in it, the `tiergate` package), the `redact` crate it links, the workspace
/// manifest and lockfile, cargo configuration and toolchain pins. Everything else
/// (replay, xtask, corpora, docs) cannot change the binary, so commits that differ
/// only there share one cached build.
pub const BUILD_INPUTS: &[&str] = &["classifier", "redact", "Cargo.toml", "Cargo.lock", ".cargo/config.toml", "rust-toolchain.toml", "rust-toolchain"];

/// The cache key of a base build: the git object ids of `BUILD_INPUTS` at the
/// commit, plus `rustc -vV` and the profile.
pub fn base_key(root: &Path, commit: &str) -> Result<String, ReplayError> {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = Command::new(rustc).current_dir(root).arg("-vV").output().map_err(|e| ReplayError::infra(format!("cannot run rustc -vV: {e}")))?;
    let mut h = Sha256::new();
    for path in BUILD_INPUTS {
        let id = git(root, &["rev-parse", "--verify", "--quiet", &format!("{commit}:{path}")]).unwrap_or_else(|_| "-".into());
        h.update(path.as_bytes());
        h.update([0]);
        h.update(id.as_bytes());
        h.update([0]);
    }
    h.update(&out.stdout);
    h.update(PROFILE.as_bytes());
    Ok(hex(&h.finalize())[..24].to_owned())
}

/// Path of the cached base binary for `key`.
pub fn cached_bin(root: &Path, key: &str) -> PathBuf {
    replay_dir(root).join("bin").join(key).join("tiergate")
}

/// Builds (or reuses the cached build of) tiergate at `commit`.
pub fn build_base(root: &Path, commit: &str, target_dir: &Path, log: &dyn Fn(&str)) -> Result<BaseBuild, ReplayError> {
    let key = base_key(root, commit)?;
    let cached = cached_bin(root, &key);
    // The verdict cache is keyed by the binary's own hash, so identical binaries
    // (head's reused as a base, two commits with one build) share answers.
    let subject = |p: &Path| Subject {
        argv: vec![p.display().to_string(), "batch".into()],
        build_id: Some(std::fs::read(p).map(|b| binary_id(&b)).unwrap_or_else(|_| format!("base:{key}"))),
        label: "base".into(),
    };
    if !cached.is_file() {
        if let Some(m) = mirror(&key).filter(|m| m.is_file()) {
            if install(&m, &cached).is_ok() {
                log(&format!("base binary restored from $REPLAY_BIN_MIRROR: {}", m.display()));
            }
        }
    }
    if cached.is_file() {
        log(&format!("base binary cached: {}", rel(root, &cached)));
        return Ok(BaseBuild::Ready { subject: subject(&cached), built: false, secs: 0.0 });
    }
    let how = match crate::layout::at_commit(root, commit) {
        Ok(how) => how,
        Err(why) => return Ok(BaseBuild::Predates(format!("base {} predates protocol v1: {why}", crate::base::short(commit)))),
    };
    let t = Instant::now();
    cleanup_stale_worktrees(root);
    let guard = Worktree::add(root, commit)?;
    log(&format!(
        "building base {} in {} (a release build: up to ~10 min on 2 cores while its dependencies are not built yet)",
        crate::base::short(commit),
        guard.dir.display()
    ));
    let mut cmd = Command::new(cargo());
    cmd.current_dir(&guard.dir)
        .args(how.cargo_build_args(PROFILE))
        .arg("--target-dir")
        .arg(target_dir)
        .env_remove("CARGO_TARGET_DIR")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if let Some(tc) = active_toolchain(root) {
        // Pin base to head's toolchain: a base rust-toolchain.toml would otherwise ask
        // rustup to download another one, which this machine cannot do.
        cmd.env("RUSTUP_TOOLCHAIN", tc);
    }
    let out = cmd.output().map_err(|e| ReplayError::infra(format!("cannot run cargo: {e}")))?;
    if !out.status.success() {
        return Err(ReplayError::infra(format!("base {} does not build:\n{}", crate::base::short(commit), tail(&out.stderr, 30))));
    }
    let built = how.binary(target_dir, PROFILE);
    install(&built, &cached).map_err(|e| ReplayError::infra(format!("caching {}: {e}", built.display())))?;
    if let Some(m) = mirror(&key) {
        let _ = install(&built, &m); // best effort: the mirror only saves a later rebuild
    }
    drop(guard);
    Ok(BaseBuild::Ready { subject: subject(&cached), built: true, secs: t.elapsed().as_secs_f64() })
}

/// Copies `from` to `to` through a temporary name, so a half-copied binary is never
/// taken for a cached one.
pub fn install(from: &Path, to: &Path) -> std::io::Result<()> {
    let parent = to.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent)?;
    let tmp = parent.join(format!("tiergate.tmp{}", std::process::id()));
    std::fs::copy(from, &tmp)?;
    std::fs::rename(&tmp, to)
}

/// `$REPLAY_BIN_MIRROR/<key>/tiergate`: an opt-in binary cache outside the checkout,
/// so a fresh CI clone on the same machine need not rebuild a base built before.
fn mirror(key: &str) -> Option<PathBuf> {
    let dir = std::env::var_os("REPLAY_BIN_MIRROR").filter(|d| !d.is_empty())?;
    Some(PathBuf::from(dir).join(key).join("tiergate"))
}

fn rel(root: &Path, p: &Path) -> String {
    p.strip_prefix(root).unwrap_or(p).display().to_string()
}

fn active_toolchain(root: &Path) -> Option<String> {
    if std::env::var_os("RUSTUP_TOOLCHAIN").is_some() {
        return None; // already pinned by the caller's environment, which the child inherits
    }
    let out = Command::new("rustup").current_dir(root).args(["show", "active-toolchain"]).output().ok()?;
    let s = String::from_utf8_lossy(&out.stdout);
    s.split_whitespace().next().map(str::to_owned).filter(|_| out.status.success())
}

/// A detached worktree outside the repository, removed on drop.
pub struct Worktree {
    root: PathBuf,
    pub dir: PathBuf,
}

const WORKTREE_PREFIX: &str = "tiergate-replay-";

impl Worktree {
    pub fn add(root: &Path, commit: &str) -> Result<Worktree, ReplayError> {
        // pid first (stale-worktree cleanup reads it), then a per-process counter:
        // two replays in one process may build the same commit of different repos.
        static SEQ: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let seq = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("{WORKTREE_PREFIX}{}-{seq}-{}", std::process::id(), &commit[..commit.len().min(12)]));
        if dir.exists() {
            let _ = git(root, &["worktree", "remove", "--force", &dir.display().to_string()]);
            let _ = std::fs::remove_dir_all(&dir);
        }
        git(root, &["worktree", "add", "--detach", &dir.display().to_string(), commit])
            .map_err(|e| ReplayError::infra(format!("cannot create a worktree for {commit}: {e}")))?;
        Ok(Worktree { root: root.to_owned(), dir })
    }
}

impl Drop for Worktree {
    fn drop(&mut self) {
        let _ = git(&self.root, &["worktree", "remove", "--force", &self.dir.display().to_string()]);
        let _ = std::fs::remove_dir_all(&self.dir);
        let _ = git(&self.root, &["worktree", "prune"]);
    }
}

/// Removes worktrees that a killed replay left behind (its pid no longer runs), so
/// Ctrl-C needs no signal handler: the next start cleans up.
pub fn cleanup_stale_worktrees(root: &Path) {
    let _ = git(root, &["worktree", "prune"]);
    let Ok(list) = git(root, &["worktree", "list", "--porcelain"]) else { return };
    for line in list.lines() {
        let Some(path) = line.strip_prefix("worktree ") else { continue };
        let Some(name) = Path::new(path).file_name().and_then(|n| n.to_str()) else { continue };
        let Some(rest) = name.strip_prefix(WORKTREE_PREFIX) else { continue };
        let pid = rest.split('-').next().unwrap_or("");
        let alive = !pid.is_empty() && Path::new("/proc").join(pid).exists();
        if !alive {
            let _ = git(root, &["worktree", "remove", "--force", path]);
            let _ = std::fs::remove_dir_all(path);
        }
    }
    let _ = git(root, &["worktree", "prune"]);
}

/// Result of `argv --protocol`.
#[derive(Debug, PartialEq, Eq)]
pub enum Handshake {
    V1,
    /// Printed another version number: a real mismatch.
    Other(String),
    /// Did not answer with a version at all (no `batch`, or an error).
    Unsupported(String),
}

/// Runs `argv FLAG` with no input (10 s limit): whether it succeeded, its stdout
/// and the first line of its stderr; Err when it cannot run or does not answer.
fn ask(argv: &[String], flag: &str) -> Result<(bool, String, String), String> {
    let Some((prog, args)) = argv.split_first() else { return Err("empty command".into()) };
    let mut child = Command::new(prog)
        .args(args)
        .arg(flag)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {prog}: {e}"))?;
    let t = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if t.elapsed() > Duration::from_secs(10) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("`{flag}` did not answer within 10 s"));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(e.to_string()),
        }
    }
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    let err = String::from_utf8_lossy(&out.stderr).lines().next().unwrap_or("").trim().to_owned();
    Ok((out.status.success(), String::from_utf8_lossy(&out.stdout).trim().to_owned(), err))
}

/// Asks a subject which protocol it speaks (10 s limit).
pub fn handshake(argv: &[String]) -> Handshake {
    let (ok, text, err) = match ask(argv, "--protocol") {
        Ok(answer) => answer,
        Err(why) => return Handshake::Unsupported(why),
    };
    if ok && text == VERSION {
        Handshake::V1
    } else if ok && !text.is_empty() && text.chars().all(|c| c.is_ascii_digit()) {
        Handshake::Other(text)
    } else {
        // Name the program without its directory: reports carry no absolute paths.
        let (prog, args) = argv.split_first().map(|(p, a)| (p.as_str(), a)).unwrap_or(("", &[]));
        let name = Path::new(prog).file_name().and_then(|n| n.to_str()).unwrap_or(prog);
        let shown: Vec<&str> = std::iter::once(name).chain(args.iter().map(String::as_str)).collect();
        Handshake::Unsupported(format!("`{} --protocol` printed {:?} ({err})", shown.join(" "), text))
    }
}

/// The protocol extensions a subject speaks (`batch --extensions`, one per line);
/// none when it does not know the flag (a build from before extensions, another program).
pub fn extensions(argv: &[String]) -> Vec<String> {
    match ask(argv, "--extensions") {
        Ok((true, text, _)) => text.lines().map(|l| l.trim().to_owned()).filter(|l| !l.is_empty()).collect(),
        _ => Vec::new(),
    }
}

/// A build id for the verdict cache: the hash of the binary itself.
pub fn binary_id(bytes: &[u8]) -> String {
    format!("bin:{}", &hex(&Sha256::digest(bytes))[..20])
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
