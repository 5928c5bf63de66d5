//! The Bash branch of the hook: classify `tool_input.command` under a wall-clock
//! net (on the main thread with a timer, `hook/watchdog.rs`, for a single-call
//! event; on a worker thread otherwise), then map the verdict to allow / ask /
//! deny, with the nonce approval flow for T3 when the mode says so.
//!
//! Self-approval, the approval store and protected paths are the library's rules
//! (`tiergate.self-approval`, `tiergate.store`, `paths.*`), judged with the
//! `Protected` this process builds (`hook/files.rs`), so `tiergate batch` agrees.
//!
//! A grant is keyed by the command's signature plus every rule hit (`grant_key`).
//! Blocked is checked before any grant, so a blocked command is never approvable.
//! An empty signature or a store failure in nonce mode means "cannot
//! grant": deny with the reason, never allow. It does not parse the event.

use std::sync::mpsc;

use classifier::{Decision, Request, Tier, Verdict};

use super::config::Mode;
use super::{env_ms, test_fault, Answer, Ctx, CLASSIFY_BUDGET_MS};
use crate::realfs::RealFs;

enum Worked {
    /// The verdict and the grant key (empty unless needed).
    Done(Verdict, String),
    Panicked,
}

/// The classification itself: verdict and, when wanted, the grant key. Self-defence
/// is the library's (`tiergate.self-approval`, `tiergate.store`).
fn work(req: &Request, want_signature: bool) -> (Verdict, String) {
    test_fault("panic-worker");
    test_fault("slow-worker");
    // Ask mode needs the verdict alone (no trace to build: issue 14); in nonce
    // mode one trace gives the verdict and, when a grant may be involved, the key
    // to bind it to (`explain::verdict` is exactly `trace().verdict`).
    if !want_signature {
        return (classifier::explain::verdict(req, &RealFs), String::new());
    }
    let t = classifier::explain::trace(req, &RealFs);
    let needs = want_signature && !t.verdict.blocked && t.verdict.tier == Tier::T3;
    let key = if needs { grant_key(&t) } else { String::new() };
    (t.verdict, key)
}

/// Classifies on this thread under the watchdog's timer: the answer for a blown
/// budget (ask, `hook.timeout`) is rendered for the agent and armed first, so no
/// worker thread is needed. `None` when the net cannot be armed.
fn classify_here(ctx: &Ctx, req: &Request, want_signature: bool) -> Option<Worked> {
    let budget = env_ms("TIERGATE_HOOK_BUDGET_MS", CLASSIFY_BUDGET_MS);
    let late = timeout_answer(budget.as_millis());
    let out = ctx.who.0.render(Some(&late), ctx.who.1);
    let spool = ctx.row(&ctx.tool, &req.command, &late).and_then(|row| {
        let dir = ctx.data_dir()?;
        // The handler can only open the spool, not create its directory.
        super::store::create_private_dir(dir).ok()?;
        Some((dir.join(super::spool::SPOOL_FILE), super::spool::encode(&row).ok()?))
    });
    let net = super::watchdog::arm(budget, &out, spool).ok()?;
    let r = std::panic::catch_unwind(|| work(req, want_signature));
    drop(net);
    Some(match r {
        Ok((v, s)) => Worked::Done(v, s),
        Err(_) => Worked::Panicked,
    })
}

fn timeout_answer(ms: u128) -> Answer {
    Answer::ask("hook.timeout", format!("tiergate could not classify this command within {ms} ms; asking instead"))
}

/// Classifies off the main thread so a pathological input that escapes the
/// library's work budgets still gets an answer in time (events with several
/// calls, or when the watchdog cannot be armed).
/// `meanwhile` runs on this thread while the worker classifies (opening the
/// store, so its cost overlaps classification on a second core).
fn classify(req: Request, want_signature: bool, meanwhile: impl FnOnce()) -> Result<Worked, u128> {
    let budget = env_ms("TIERGATE_HOOK_BUDGET_MS", CLASSIFY_BUDGET_MS);
    let deadline = std::time::Instant::now() + budget;
    let (tx, rx) = mpsc::channel();
    let spawned = std::thread::Builder::new().name("classify".into()).spawn(move || {
        let r = std::panic::catch_unwind(|| work(&req, want_signature));
        let _ = tx.send(match r {
            Ok((v, s)) => Worked::Done(v, s),
            Err(_) => Worked::Panicked,
        });
    });
    if spawned.is_err() {
        return Ok(Worked::Panicked);
    }
    meanwhile();
    match rx.recv_timeout(deadline.saturating_duration_since(std::time::Instant::now())) {
        Ok(w) => Ok(w),
        Err(mpsc::RecvTimeoutError::Timeout) => Err(budget.as_millis()),
        // The worker died without sending: treat it as the panic it was.
        Err(mpsc::RecvTimeoutError::Disconnected) => Ok(Worked::Panicked),
    }
}

/// What a grant is bound to: the exact command's signature (every unit's words
/// in order, wrappers' words, assignments, redirections and working directory,
/// script contents included since their units are read: `Trace::signature`)
/// plus every rule hit with its reason. Empty when there is no signature: never
/// grantable.
fn grant_key(t: &classifier::Trace) -> String {
    let sig = t.signature();
    if sig.is_empty() {
        return sig;
    }
    let mut key = sig;
    for h in &t.hits {
        key.push('\n');
        key.push_str(h.rule.id);
        key.push_str(": ");
        key.push_str(h.reason());
    }
    key
}

pub(super) fn decide(ctx: &mut Ctx, command: &str) -> Answer {
    // The same protect configuration the file tools use: self-approval, the store
    // and every protected path are judged by the library, for Bash as for Write.
    let protect = match super::files::build(&ctx.cfg.files, &ctx.cfg.protected_paths, ctx.data_dir(), ctx.home.as_deref(), ctx.cwd.as_deref()) {
        Ok(p) => p,
        Err(e) => return Answer::ask("hook.config", format!("tiergate's config is invalid, so every call asks until it is fixed or removed: {e}")),
    };
    let mut req = Request::new(command).with_protected(protect);
    req.cwd = ctx.cwd.as_ref().map(|c| c.display().to_string());
    req.home = ctx.home.clone();
    let nonce_mode = ctx.mode == Mode::Nonce;
    let here = if ctx.single_call { classify_here(ctx, &req, nonce_mode) } else { None };
    let worked = match here {
        Some(w) => Ok(w),
        // Only grants need SQLite here (the audit log goes to the spool): open it
        // while the worker classifies.
        None => classify(req, nonce_mode, || {
            if nonce_mode {
                // Errors are kept in ctx and reported where the store is used.
                let _ = ctx.store();
            }
        }),
    };
    let (v, signature) = match worked {
        Ok(Worked::Done(v, s)) => (v, s),
        Ok(Worked::Panicked) => return Answer::ask("hook.panic", "tiergate hit an internal error while classifying; asking instead".into()),
        Err(ms) => return timeout_answer(ms),
    };
    let head = format!("tiergate {} ({}): {}", if v.blocked { "BLOCKED" } else { v.tier.as_str() }, v.rule, v.reason);
    if v.blocked {
        let suggest = classifier::rules::find(v.rule).map(|r| r.suggest).filter(|s| !s.is_empty());
        let instead = suggest.map(|s| format!(" Instead: `{s}`.")).unwrap_or_default();
        return Answer::new(Decision::Deny, v.rule, format!("{head}.{instead} This is never approvable."));
    }
    match (v.decision, ctx.mode) {
        (Decision::Allow, _) => Answer::new(Decision::Allow, v.rule, head),
        (Decision::Ask, Mode::Ask) => Answer::new(Decision::Ask, v.rule, head),
        (Decision::Ask, Mode::Nonce) => nonce(ctx, &v, command, &signature, head),
        // The verdict said deny without blocked: keep it a deny.
        (Decision::Deny, _) => Answer::new(Decision::Deny, v.rule, head),
    }
}

/// T3 in nonce mode: allow once if a live grant matches, else deny with a code.
fn nonce(ctx: &mut Ctx, v: &Verdict, command: &str, signature: &str, head: String) -> Answer {
    let deny = |why: String| Answer::new(Decision::Deny, v.rule, format!("{head}. {why}"));
    if signature.is_empty() {
        return deny(
            "tiergate cannot tell exactly what this command does, so it cannot be approved by code; \
             ask the user to run it themselves"
                .into(),
        );
    }
    super::grant_or_code(ctx, signature, command, v.rule, &head)
}
