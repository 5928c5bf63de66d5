//! `cargo xtask agents-e2e [--only IDS] [--keep]` (xtask parses the flags and
//! calls [`run`]): tiergate inside the real Claude Code client, end to end. It installs the pinned Claude Code from npm
//! into `target/agents-e2e/npm/`, builds tiergate, and runs every case of
//! `cases.rs` in a network namespace where only loopback is up (`unshare -n`),
//! against the scripted Messages API of `api.rs`: each case gets a fresh HOME and
//! project, the hook written by the real `tiergate install --agent claude --write`
//! (with tiergate off the PATH, so the install must write its absolute path), and
//! is judged by marker files.
//!
//! Opt-in like the oracle: where npm, `unshare` or `ip` is missing, a network
//! namespace cannot be made, or the npm registry cannot be reached, it prints
//! `agents-e2e: SKIPPED (why)` and exits 0. Interactive cases need tmux and are
//! skipped, with a note, without it; a failed interactive case is tried once more,
//! and its first failure printed. Exit 1 when a case fails.
//! Gemini CLI and Codex are not driven here: docs/decisions/0012-claude-ask-by-client.md says why.

mod api;
mod cases;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use serde_json::Value;

use api::{Api, Script};
use cases::{Case, Dirs, Expect, Hook, CASES};

/// The Claude Code version the cases were written against (npm `@anthropic-ai/claude-code`).
pub const CLAUDE_CODE: &str = "2.1.332";
const API_KEY: &str = "sk-ant-api03-tiergate-agents-e2e-loopback-0000000000";
/// One `claude -p` conversation may take this long.
const CONVERSATION: Duration = Duration::from_secs(120);

/// What `cargo xtask agents-e2e` was asked; the three paths are set only on the
/// inner run, which the outer one starts as `<this program> agents-e2e --in-netns
/// WORK --claude PATH --tiergate PATH` inside the network namespace.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Only these case ids.
    pub only: Vec<String>,
    /// Keep target/agents-e2e/work/.
    pub keep: bool,
    pub in_netns: Option<PathBuf>,
    pub claude: Option<PathBuf>,
    pub tiergate: Option<PathBuf>,
}

pub fn run(args: &Options) -> i32 {
    let res = match &args.in_netns {
        Some(work) => inside(args, work),
        None => outside(args),
    };
    res.unwrap_or_else(|e| {
        eprintln!("agents-e2e: {e:#}");
        replay::exit::INFRA
    })
}

fn skipped(why: &str) -> Result<i32> {
    println!("agents-e2e: SKIPPED ({why})");
    Ok(0)
}

fn found(program: &str) -> bool {
    Command::new("sh").args(["-c", &format!("command -v {program}")]).stdout(Stdio::null()).status().is_ok_and(|s| s.success())
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.trim_ascii() == b"0")
}

/// `unshare -n` as root, `unshare -rn` (a user namespace) otherwise.
fn unshare() -> Vec<&'static str> {
    if is_root() {
        vec!["unshare", "-n"]
    } else {
        vec!["unshare", "-rn"]
    }
}

/// Installs Claude Code, builds tiergate, then re-runs this task inside a fresh network namespace.
fn outside(args: &Options) -> Result<i32> {
    for p in ["npm", "unshare", "ip", "git"] {
        if !found(p) {
            return skipped(&format!("`{p}` is not installed"));
        }
    }
    let ns = unshare();
    let probe = Command::new(ns[0]).args(&ns[1..]).args(["--", "true"]).stderr(Stdio::null()).status();
    if !probe.is_ok_and(|s| s.success()) {
        return skipped(&format!("`{} true` failed: this machine does not allow a network namespace here", ns.join(" ")));
    }
    let root = replay::project_root();
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    let base = target.join("agents-e2e");
    let claude = match install_claude(&base.join("npm")) {
        Ok(c) => c,
        Err(e) => return skipped(&format!("Claude Code {CLAUDE_CODE} could not be installed from npm: {e:#}")),
    };
    eprintln!("agents-e2e: building tiergate (cargo build -p tiergate)…");
    let st = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["build", "--quiet", "--locked", "-p", "tiergate", "--bin", "tiergate"])
        .current_dir(&root)
        .status()?;
    if !st.success() {
        bail!("cargo build -p tiergate failed");
    }
    let tiergate = target.join("debug/tiergate");
    let work = base.join("work");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work)?;
    let mut cmd = Command::new(ns[0]);
    cmd.args(&ns[1..]).arg("--").arg(std::env::current_exe()?).args(["agents-e2e", "--in-netns"]).arg(&work);
    cmd.arg("--claude").arg(&claude).arg("--tiergate").arg(&tiergate);
    if !args.only.is_empty() {
        cmd.arg("--only").arg(args.only.join(","));
    }
    let code = cmd.status()?.code().unwrap_or(replay::exit::INFRA);
    if !args.keep {
        let _ = std::fs::remove_dir_all(&work);
    }
    Ok(code)
}

/// `npm install @anthropic-ai/claude-code@CLAUDE_CODE` into `dir` (kept between runs).
fn install_claude(dir: &Path) -> Result<PathBuf> {
    let bin = dir.join("node_modules/.bin/claude");
    let manifest = dir.join("node_modules/@anthropic-ai/claude-code/package.json");
    let have = std::fs::read_to_string(&manifest).ok().and_then(|t| serde_json::from_str::<Value>(&t).ok());
    if have.as_ref().and_then(|v| v["version"].as_str()) != Some(CLAUDE_CODE) || !bin.exists() {
        eprintln!("agents-e2e: npm install @anthropic-ai/claude-code@{CLAUDE_CODE} (about 400 MB)…");
        std::fs::create_dir_all(dir)?;
        let out = Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--no-save", "--prefix"])
            .arg(dir)
            .arg(format!("@anthropic-ai/claude-code@{CLAUDE_CODE}"))
            .output()?;
        if !out.status.success() {
            bail!("npm install: {}", String::from_utf8_lossy(&out.stderr).lines().last().unwrap_or_default());
        }
    }
    let out = Command::new(&bin).arg("--version").env("HOME", dir).output().with_context(|| format!("{}", bin.display()))?;
    let version = String::from_utf8_lossy(&out.stdout);
    if !version.starts_with(CLAUDE_CODE) {
        bail!("{} --version says {version:?}", bin.display());
    }
    Ok(bin)
}

/// The paths the outer run hands in.
struct Tools {
    claude: PathBuf,
    tiergate: PathBuf,
    work: PathBuf,
    api: Api,
}

fn inside(args: &Options, work: &Path) -> Result<i32> {
    let st = Command::new("ip").args(["link", "set", "lo", "up"]).status()?;
    // This namespace's interfaces, from the kernel (/sys still shows the outer one's).
    let links = Command::new("ip").args(["-o", "link", "show"]).output()?;
    let others: Vec<String> =
        String::from_utf8_lossy(&links.stdout).lines().filter_map(|l| l.split(':').nth(1).map(|n| n.trim().to_owned())).filter(|n| n != "lo").collect();
    if !st.success() || !others.is_empty() {
        bail!("the network namespace is not loopback-only (lo up: {}, other interfaces: {others:?})", st.success());
    }
    let (Some(claude), Some(tiergate)) = (&args.claude, &args.tiergate) else { bail!("--in-netns needs --claude and --tiergate") };
    let t = Tools { claude: claude.clone(), tiergate: tiergate.clone(), work: work.to_path_buf(), api: Api::start()? };
    let tmux = found("tmux");
    let (mut passed, mut failed) = (0, 0);
    println!("agents-e2e: Claude Code {CLAUDE_CODE} and {} in a loopback-only network namespace", t.tiergate.display());
    for case in CASES.iter().filter(|c| args.only.is_empty() || args.only.iter().any(|o| o == c.id)) {
        if case.interactive && !tmux {
            println!("  {} skipped: tmux is not installed ({})", case.id, case.what);
            continue;
        }
        let t0 = Instant::now();
        let mut verdict = run_case(&t, case).unwrap_or_else(|e| Err(format!("{e:#}")));
        // A terminal session is driven by screen-scraping and key presses, which a
        // loaded machine can desynchronise; an interactive case gets one fresh
        // second try, and the first failure is printed, never hidden.
        if let (true, Err(why)) = (case.interactive, &verdict) {
            println!("  {} retry          first try failed: {why}", case.id);
            let _ = std::fs::remove_dir_all(t.work.join(case.id));
            verdict = run_case(&t, case).unwrap_or_else(|e| Err(format!("{e:#}")));
        }
        match &verdict {
            Ok(seen) => {
                passed += 1;
                println!("  {} pass {:5.1}s  {} — {seen}", case.id, t0.elapsed().as_secs_f64(), case.what);
            }
            Err(why) => {
                failed += 1;
                println!("  {} FAIL {:5.1}s  {} — {why}", case.id, t0.elapsed().as_secs_f64(), case.what);
            }
        }
    }
    println!("agents-e2e: {passed} passed, {failed} failed");
    Ok(i32::from(failed > 0))
}

/// Sets a case up, runs its conversation(s), and says what was seen (Ok) or what went wrong (Err).
fn run_case(t: &Tools, case: &Case) -> Result<Result<String, String>> {
    let dir = t.work.join(case.id);
    let d = Dirs { home: dir.join("home"), proj: dir.join("proj") };
    let bin = dir.join("bin");
    for p in [&d.home, &d.proj, &bin, &dir.join("run"), &dir.join("tmp")] {
        std::fs::create_dir_all(p)?;
    }
    Command::new("git").args(["init", "-q"]).arg(&d.proj).status()?;
    std::fs::create_dir_all(d.proj.join("victim-dir"))?;
    std::fs::write(d.proj.join("victim-dir/keep.txt"), "victim\n")?;
    std::fs::create_dir_all(d.proj.join(".claude"))?;
    seed_claude_json(&d)?;
    // The case's own tiergate (a hard link), so removing it leaves the build alone.
    let tg = bin.join("tiergate");
    if std::fs::hard_link(&t.tiergate, &tg).is_err() {
        std::fs::copy(&t.tiergate, &tg)?;
    }
    if case.hook != Hook::None {
        if let Err(why) = install(&tg, &d)? {
            return Ok(Err(why));
        }
    }
    match case.hook {
        Hook::Missing => std::fs::remove_file(&tg)?,
        Hook::Crashing => {
            std::fs::remove_file(&tg)?;
            std::fs::write(&tg, "#!/bin/sh\necho 'garbage, not JSON'\necho 'tiergate: simulated crash' >&2\nexit 1\n")?;
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&tg, std::fs::Permissions::from_mode(0o755))?;
        }
        Hook::MissingOpen => {
            let path = d.home.join(".claude/settings.json");
            let text = std::fs::read_to_string(&path)?.replace(" || exit 2", "");
            std::fs::write(&path, text)?;
            std::fs::remove_file(&tg)?;
        }
        Hook::None | Hook::Installed => {}
    }
    let env = claude_env(t, &dir, &d);
    t.api.set_script(Script { steps: (case.steps)(&d) });
    let before = t.api.results().len();
    let told = |t: &Tools| {
        t.api.results()[before..].iter().map(|r| format!("{}{}", if r.is_error { "error: " } else { "" }, r.content)).collect::<Vec<_>>().join(" | ")
    };
    match case.expect {
        Expect::Runs => {
            converse(t, case, &d, &env)?;
            Ok(if (case.ran)(&d) { Ok("ran".into()) } else { Err(format!("did not run; the model was told: {}", told(t))) })
        }
        Expect::Stopped(reason) => {
            converse(t, case, &d, &env)?;
            let said = told(t);
            Ok(if (case.ran)(&d) {
                Err(format!("it ran; the model was told: {said}"))
            } else if !said.contains(reason) {
                Err(format!("not run, but the model was not told `{reason}`: {said}"))
            } else {
                Ok(format!("not run; the model was told: {}", clip(&said, 150)))
            })
        }
        Expect::Nonce => nonce(t, case, &d, &env, &tg),
        Expect::Dialog { yes } => {
            let dialog = tmux_session(&t.claude, case, &d, &dir, &env, yes)?;
            let ran = (case.ran)(&d);
            Ok(match dialog {
                None => Err(format!("no dialog was shown (ran: {ran})")),
                Some(text) if !text.contains("tiergate T3") => Err(format!("the dialog does not show tiergate's reason: {}", clip(&text, 300))),
                Some(_) if ran != yes => {
                    // The last screen says where the session stood (the case's
                    // screen.txt keeps all of it with --keep).
                    let last = std::fs::read_to_string(dir.join("screen.txt")).unwrap_or_default();
                    let last = last.split("--- dialog ---").next().unwrap_or_default().trim();
                    let tail: String = last.chars().rev().take(400).collect::<Vec<_>>().into_iter().rev().collect();
                    Err(format!(
                        "the user answered {}, and the command {}; last screen: {}",
                        if yes { "yes" } else { "no" },
                        if ran { "ran" } else { "did not run" },
                        clip(&tail, 400)
                    ))
                }
                Some(_) => Ok(format!("dialog with tiergate's reason; answered {}; {}", if yes { "yes" } else { "no" }, if ran { "ran" } else { "not run" })),
            })
        }
    }
}

/// `tiergate install --agent claude --write` with tiergate off the PATH: it must
/// write its own absolute path, fail-closed (`… hook || exit 2`).
fn install(tg: &Path, d: &Dirs) -> Result<Result<(), String>> {
    let out = Command::new(tg).args(["install", "--agent", "claude", "--write"]).env_clear().env("HOME", &d.home).env("PATH", "/usr/bin:/bin").output()?;
    if !out.status.success() {
        return Ok(Err(format!("tiergate install failed: {}", String::from_utf8_lossy(&out.stderr))));
    }
    let v: Value = serde_json::from_str(&std::fs::read_to_string(d.home.join(".claude/settings.json"))?)?;
    let cmd = v["hooks"]["PreToolUse"][0]["hooks"][0]["command"].as_str().unwrap_or_default().to_owned();
    let want = format!("{} hook || exit 2", tg.display());
    Ok(if cmd == want { Ok(()) } else { Err(format!("tiergate install wrote `{cmd}`, not `{want}`")) })
}

/// What interactive sessions need to start without onboarding (the API key
/// approved, the project trusted).
fn seed_claude_json(d: &Dirs) -> Result<()> {
    let proj = d.proj.display().to_string();
    let seed = serde_json::json!({"hasCompletedOnboarding": true, "lastOnboardingVersion": CLAUDE_CODE, "theme": "dark",
        "bypassPermissionsModeAccepted": true, "customApiKeyResponses": {"approved": [&API_KEY[API_KEY.len() - 20..]], "rejected": []},
        "projects": {proj: {"hasTrustDialogAccepted": true, "allowedTools": []}}});
    std::fs::write(d.home.join(".claude.json"), seed.to_string())?;
    Ok(())
}

/// Claude Code's environment: nothing inherited; the fake API; no traffic but to it.
fn claude_env(t: &Tools, dir: &Path, d: &Dirs) -> Vec<(String, String)> {
    let mut env: Vec<(String, String)> = [
        ("PATH", "/usr/bin:/bin".to_owned()),
        ("HOME", d.home.display().to_string()),
        ("LANG", "C.UTF-8".to_owned()),
        ("XDG_RUNTIME_DIR", dir.join("run").display().to_string()),
        ("CLAUDE_CODE_TMPDIR", dir.join("tmp").display().to_string()),
        ("ANTHROPIC_BASE_URL", format!("http://127.0.0.1:{}", t.api.port)),
        ("ANTHROPIC_API_KEY", API_KEY.to_owned()),
        ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1".to_owned()),
        ("DISABLE_TELEMETRY", "1".to_owned()),
        ("DISABLE_ERROR_REPORTING", "1".to_owned()),
        ("DISABLE_AUTOUPDATER", "1".to_owned()),
        // Without it, interactive sessions try to fetch the plugin marketplace.
        ("CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL", "1".to_owned()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    if is_root() {
        // bypassPermissions refuses to start as root unless told it is in a sandbox (it is: no network).
        env.push(("IS_SANDBOX".into(), "1".into()));
    }
    env
}

/// One `claude -p` conversation; its output is kept beside the case for a post-mortem.
fn converse(t: &Tools, case: &Case, d: &Dirs, env: &[(String, String)]) -> Result<()> {
    let mut child = Command::new(&t.claude)
        .args(["-p", "do it", "--output-format", "stream-json", "--verbose"])
        .args(case.flags)
        .current_dir(&d.proj)
        .env_clear()
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(d.proj.with_file_name("claude.jsonl"))?)
        .stderr(std::fs::File::create(d.proj.with_file_name("claude.err"))?)
        .spawn()
        .with_context(|| format!("{}", t.claude.display()))?;
    let start = Instant::now();
    while child.try_wait()?.is_none() {
        if start.elapsed() > CONVERSATION {
            let _ = child.kill();
            let _ = child.wait();
            bail!("claude -p did not finish within {} s", CONVERSATION.as_secs());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Ok(())
}

/// Conversation 1 is denied with a code; the user approves it; conversation 2
/// runs; the victim is put back; conversation 3 is denied again.
fn nonce(t: &Tools, case: &Case, d: &Dirs, env: &[(String, String)], tg: &Path) -> Result<Result<String, String>> {
    let before = t.api.results().len();
    converse(t, case, d, env)?;
    let said: String = t.api.results()[before..].iter().map(|r| r.content.clone()).collect();
    if (case.ran)(d) {
        return Ok(Err(format!("ran before any approval: {said}")));
    }
    let Some(code) = said.split("tiergate approve ").nth(1).map(|r| r.chars().take_while(char::is_ascii_alphanumeric).collect::<String>()) else {
        return Ok(Err(format!("no approval code reached the model: {said}")));
    };
    let out = Command::new(tg).args(["approve", &code]).env_clear().env("HOME", &d.home).env("PATH", "/usr/bin:/bin").output()?;
    if !out.status.success() {
        return Ok(Err(format!("tiergate approve {code}: {}", String::from_utf8_lossy(&out.stderr))));
    }
    t.api.set_script(Script { steps: (case.steps)(d) });
    converse(t, case, d, env)?;
    if !(case.ran)(d) {
        return Ok(Err(format!("approved with {code}, but the retry did not run")));
    }
    std::fs::create_dir_all(d.proj.join("victim-dir"))?;
    std::fs::write(d.proj.join("victim-dir/keep.txt"), "victim again\n")?;
    t.api.set_script(Script { steps: (case.steps)(d) });
    converse(t, case, d, env)?;
    Ok(if (case.ran)(d) {
        Err(format!("the grant for {code} ran a second time"))
    } else {
        Ok(format!("code {code}: denied, approved, ran once, denied again"))
    })
}

/// Claude Code in a private tmux server, as a person would use it: types the
/// prompt, answers a permission dialog. Returns the dialog's screen, if one came.
fn tmux_session(claude: &Path, case: &Case, d: &Dirs, dir: &Path, env: &[(String, String)], yes: bool) -> Result<Option<String>> {
    let sock = format!("tiergate-e2e-{}-{}", std::process::id(), case.id);
    let tmux = |args: &[&str]| Command::new("tmux").args(["-L", &sock]).args(args).output();
    let vars: Vec<String> = env.iter().map(|(k, v)| format!("{k}={v}")).chain(["TERM=xterm-256color".to_owned()]).collect();
    let launch = format!("env -i {} {} {}; sleep 600", vars.join(" "), claude.display(), case.flags.join(" "));
    tmux(&["new-session", "-d", "-s", "e2e", "-x", "160", "-y", "50", "-c", &d.proj.display().to_string(), &launch])?;
    let screen = || tmux(&["capture-pane", "-p", "-t", "e2e"]).map(|o| String::from_utf8_lossy(&o.stdout).into_owned()).unwrap_or_default();
    let result = (|| -> Result<Option<String>> {
        let start = Instant::now();
        let ready = |s: &str| s.contains('\u{276f}') && (s.contains("shift+tab") || s.contains("shortcuts")) && !s.contains("Enter to confirm");
        while !ready(&screen()) {
            if start.elapsed() > Duration::from_secs(40) {
                bail!("the interactive session did not become ready: {}", clip(&screen(), 400));
            }
            std::thread::sleep(Duration::from_millis(300));
        }
        tmux(&["send-keys", "-t", "e2e", "-l", "do it"])?;
        std::thread::sleep(Duration::from_millis(300));
        tmux(&["send-keys", "-t", "e2e", "Enter"])?;
        // The answer is a key press; a press that lands while the dialog is
        // still drawing is lost (seen on a loaded CI machine), so the dialog
        // is answered again for as long as it stays on screen.
        let (start, mut dialog, mut answered) = (Instant::now(), None, None::<Instant>);
        while start.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(Duration::from_millis(400));
            let s = screen();
            if s.contains("Do you want to proceed?") && answered.is_none_or(|at| at.elapsed() > Duration::from_secs(2)) {
                if dialog.is_none() {
                    std::thread::sleep(Duration::from_millis(500));
                    dialog = Some(s);
                }
                tmux(&["send-keys", "-t", "e2e", if yes { "1" } else { "Escape" }])?;
                answered = Some(Instant::now());
                continue;
            }
            if s.contains("Finished.") || s.contains("Interrupted") {
                break;
            }
        }
        std::thread::sleep(Duration::from_millis(1000));
        let mut f = std::fs::File::create(dir.join("screen.txt"))?;
        writeln!(f, "{}\n--- dialog ---\n{}", screen(), dialog.as_deref().unwrap_or("(none)"))?;
        Ok(dialog)
    })();
    let _ = tmux(&["kill-server"]);
    result
}

fn clip(s: &str, n: usize) -> String {
    let s = s.replace('\n', " ");
    if s.chars().count() <= n {
        s
    } else {
        s.chars().take(n).collect::<String>() + "…"
    }
}
