//! Writes, as the families say them: "this program writes that path". The one
//! door from a family to the write policy (`rules::paths`, which decides where a
//! write lands and which rule that is, asking `crate::protect`); a family never
//! fires a `paths.*` rule itself.

use crate::call::Arg;
use crate::lanes::resolve;
use crate::protect::Guard;
use crate::rules::paths::{landing, place, Place, CLAUDE_HOOKS, DEVICE, DOTFILE, EXTRACT_PROTECTED, GIT_INTERNALS, OUTSIDE, SYSTEM, UNRESOLVED};
use crate::rules::{Cx, Rule};

/// Records the hit a write to `target` deserves (none inside the working tree).
/// This is the one entry point for every write a family sees: redirect targets,
/// copy destinations, `-o FILE` output flags, `of=`, extraction directories.
pub(crate) fn check_write(cx: &mut Cx<'_>, target: &Arg, cwd: Option<&str>) {
    let home = cx.home();
    let root = cx.root();
    // Every write is reported here, whatever it deserves: a later unit on the line
    // reads what this one put there (`Engine::written_earlier`), and a recording
    // caller learns it (`lanes::overlay`).
    let path = if target.exact { resolve(&target.text, cwd.or(root.as_deref()), home.as_deref()) } else { None };
    cx.wrote(path);
    let placed = place(&target.text, target.exact, cwd, root.as_deref(), home.as_deref(), cx.protected());
    // Lexically not protected: ask the file source where it really lands (a symlink
    // into `.claude`), as the hook does for the file tools.
    if target.exact && !matches!(placed, Place::Protected(_) | Place::Device | Place::Sink) {
        let abs = resolve(&target.text, Some(cwd.or(root.as_deref()).unwrap_or("/__worktree__")), Some(home.as_deref().unwrap_or("/home/~")));
        if let Some((abs, real)) = abs.and_then(|a| cx.canonical(&a).filter(|r| *r != a).map(|r| (a, r))) {
            if let Some(p) = cx.protected().check(&real) {
                cx.hit_because(p.rule, p.describe(&format!("{}, really {real} (from {abs})", target.text)));
                return;
            }
        }
    }
    let rule: &'static Rule = match placed {
        Place::WorkTree | Place::Scratch | Place::Sink => return,
        Place::Protected(p) => {
            cx.hit_because(p.rule, p.describe(&target.text));
            return;
        }
        Place::GitInternals => &GIT_INTERNALS,
        Place::Dotfile => &DOTFILE,
        Place::Device => &DEVICE,
        Place::System => &SYSTEM,
        Place::Outside => &OUTSIDE,
        Place::Unresolved => &UNRESOLVED,
    };
    cx.hit_because(rule, format!("{} (`{}`)", rule.reason, target.text));
}

/// Where an authoring write lands: the working tree, or scratch space (`/tmp`).
pub(crate) struct Authored {
    /// The absolute path, resolved against the unit's directory.
    pub abs: String,
    pub scratch: bool,
}

/// The absolute path a write to `target` lands on when it is authoring — inside
/// the working tree or in scratch space — judged against a known tree (the
/// request's cwd) and, when the file source resolves symlinks, against where the
/// path really leads. `None` when the tree is unknown, the word is computed, or
/// the write lands anywhere else (system, home, `.git`, protected, another tree).
pub(crate) fn authored(cx: &Cx<'_>, target: &Arg, cwd: Option<&str>) -> Option<Authored> {
    let root = cx.root_str()?;
    if !target.exact {
        return None;
    }
    let home = cx.home_str();
    let scratch = match place(&target.text, true, cwd, Some(root), home, cx.protected()) {
        Place::WorkTree => false,
        Place::Scratch => true,
        _ => return None,
    };
    let abs = landing(&target.text, cwd, Some(root), home).ok()?;
    // A symlink on the way (`link/x`, where link leads out of the tree) moves the
    // write; the tree's own path may be a link too (`/tmp` on macOS), so compare the
    // real forms of both.
    if let (Some(real), Some(real_root)) = (cx.canonical(&abs), cx.canonical(root)) {
        match place(&real, true, None, Some(&real_root), home, cx.protected()) {
            Place::WorkTree if !scratch => {}
            Place::Scratch if scratch => {}
            _ => return None,
        }
    }
    Some(Authored { abs, scratch })
}

/// An archive extracted into `dir` writes names tiergate cannot see: `check_write`
/// for the directory itself, then `Protected::may_hold` for what could land below
/// it (blocked inside `.claude`, T3 where a user-protected path may match).
pub(crate) fn check_extract_dir(cx: &mut Cx<'_>, dir: &Arg, cwd: Option<&str>) {
    let before = cx.hits.len();
    check_write(cx, dir, cwd);
    // The directory itself already answered (outside the tree, protected, unresolved).
    if !dir.exact || cx.hits.len() > before {
        return;
    }
    let home = cx.home();
    let root = cx.root();
    let Some(abs) = resolve(&dir.text, cwd.or(root.as_deref()).or(Some("/__worktree__")), home.as_deref()) else { return };
    let Some(p) = cx.protected().may_hold(&abs) else { return };
    let (rule, detail) = match p.guard {
        Guard::ClaudeHooks | Guard::ClaudeSettings => {
            (&CLAUDE_HOOKS, format!("{} (an archive extracted into `{}` can bring hooks and settings)", CLAUDE_HOOKS.reason, dir.text))
        }
        _ => (&EXTRACT_PROTECTED, format!("{} (`{}`: {})", EXTRACT_PROTECTED.reason, dir.text, p.matched.as_deref().unwrap_or("a protected path is below it"))),
    };
    cx.hit_because(rule, detail);
}

/// True when a path (as written) is protected (`crate::protect`); used by families
/// whose reads and writes are hard to tell apart (`rm`, `mv` sources, git operands),
/// which then send it through `check_write`.
pub(crate) fn is_protected(cx: &Cx<'_>, target: &str, cwd: Option<&str>) -> bool {
    let home = cx.home_str();
    // `place(target, true, cwd, cwd, …)` is `Protected` exactly when this holds; only
    // the protection is asked for here, on every operand of unmodelled programs.
    let landed = landing(target, cwd, cwd, home);
    if landed.as_ref().is_ok_and(|abs| cx.protected().check_resolved(abs).is_some()) {
        return true;
    }
    // With a cwd and a home to go by, `landing` resolved exactly this already.
    let abs = match landed {
        Ok(abs) if cwd.is_some() && home.is_some() => Some(abs),
        _ => resolve(target, cwd.or(cx.root_str()), home),
    };
    abs.and_then(|a| cx.canonical(&a)).is_some_and(|real| cx.protected().check(&real).is_some())
}

/// A directory that holds the guard's own files (`.claude`, `.claude/hooks`) is
/// replaced or removed whole (`cp -r x .claude`, `rm -rf .claude`, `git clone … .claude`);
/// `what` says how, after the rule's reason.
pub(crate) fn replaces_guard(cx: &mut Cx<'_>, what: &str) {
    cx.hit_because(&CLAUDE_HOOKS, format!("{} ({what})", CLAUDE_HOOKS.reason));
}

/// A write whose targets tiergate cannot know, which can land anywhere
/// (`tar -P` extracting absolute paths); `why` is the whole reason.
pub(crate) fn lands_anywhere(cx: &mut Cx<'_>, why: String) {
    cx.hit_because(&OUTSIDE, why);
}
