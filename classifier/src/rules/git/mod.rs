//! The `git` family: parses `git [globals] <subcommand> [args]` into a typed
//! `GitCall` and dispatches to one rule file per command group.
//!
//! Globals understood: `-C dir`, `-c key=val`, `--config-env`, `--git-dir`,
//! `--work-tree`, `--namespace`, `--exec-path[=dir]`, `-p/-P/--paginate/--no-pager`
//! and the boolean pathspec/lock/advice switches. It does not read the
//! repository or its config: aliases defined in `.gitconfig` are unknown to it.
//! `gh`/`glab` live in the cloud family.

use crate::words;
use crate::words::Words;

mod config;
mod discard;
mod globals;
mod history;
mod local;
mod push;
mod read;

use crate::call::args::{asks_help, ArgSpec, Help};
use crate::call::{Arg, Invocation};
use crate::lanes::resolve;
use crate::rules::vocab::writes;
use crate::rules::{Card, Cx, Family, Rule};

pub static FAMILY: Family = Family::new("git", &[Card::of(words!["git"], check)], RULES);

static RULES: &[&Rule] = &[
    &read::READ,
    &read::HELP,
    &read::OUTPUT_PROGRAM,
    &read::UNKNOWN,
    &read::UNKNOWN_MUTATIVE,
    &globals::EXEC_CONFIG,
    &globals::UNKNOWN_OPTION,
    &local::LOCAL,
    &local::PATCH,
    &local::FETCH_FORCE,
    &local::CLONE_EXEC,
    &local::REMOTE_CMD,
    &discard::RESET_HARD,
    &discard::CHECKOUT_DISCARD,
    &discard::RESTORE_WORKTREE,
    &discard::CLEAN,
    &discard::CLEAN_DRY_RUN,
    &discard::STASH_DROP,
    &discard::RM_FORCE,
    &local::MV_FORCE,
    &history::BRANCH_FORCE,
    &history::MERGE,
    &history::REBASE,
    &history::PULL,
    &history::REWRITE,
    &history::REFS,
    &history::PRUNE,
    &history::OUTSIDE,
    &history::PULL_DRY_RUN,
    &push::PUSH,
    &push::FORCE,
    &push::DELETE,
    &push::DRY_RUN,
    &config::CONFIG_READ,
    &config::CONFIG_WRITE,
    &config::REMOTE_WRITE,
    &config::TAG_WRITE,
    &config::WORKTREE_WRITE,
    &config::SUBMODULE_WRITE,
    &config::LFS_WRITE,
];

/// One `git` invocation after the global options.
pub(crate) struct GitCall {
    /// The subcommand word (`push`), empty when none was given.
    pub sub: String,
    /// The arguments after the subcommand, as an `Invocation` so the flag
    /// helpers (`has_short`, `value_of` …) see only the subcommand's own options.
    pub inv: Invocation,
    /// The directory git works in (`-C` applied to the unit's cwd).
    pub cwd: Option<String>,
    /// `--work-tree` value, when given.
    pub work_tree: Option<Arg>,
    /// A global `-h`/`--help` was given (`git --help push`).
    pub global_help: bool,
}

impl GitCall {
    pub fn cwd(&self) -> Option<&str> {
        self.cwd.as_deref()
    }

    /// Judges a write to `target`, a path relative to the directory git works in
    /// (`-C`), against the unit's own working tree: `git -C /etc diff --output=x`
    /// writes `/etc/x`, outside the tree.
    pub fn write(&self, cx: &mut Cx<'_>, target: &Arg) {
        let unit_cwd = self.inv.cwd.as_deref();
        if self.cwd.as_deref() != unit_cwd && target.exact && !target.text.starts_with('/') && !target.text.starts_with('~') {
            let home = cx.home();
            if let Some(abs) = resolve(&target.text, self.cwd(), home.as_deref()) {
                writes::check_write(cx, &Arg { text: abs, ..target.clone() }, unit_cwd);
                return;
            }
        }
        writes::check_write(cx, target, unit_cwd);
    }

    /// True when a help flag stands alone before any `--` (not as the value of the
    /// option before it: `git clean -fdx -e -h` cleans, with the exclude pattern
    /// `-h`; `git commit -m -h` commits), or a global help flag is followed by a
    /// bare subcommand (`git --help push`; with more words the original did not
    /// exempt it, and neither do we).
    pub fn help_asked(&self) -> bool {
        let args = &self.inv.args;
        asks_help(args, ArgSpec::values(words![]).help(Help::LONG.with(Help::DASH_H))) || (self.global_help && args.is_empty())
    }
}

fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    let Some(call) = globals::parse(inv, cx) else {
        return;
    };
    if call.sub.is_empty() {
        cx.hit(&read::READ);
        return;
    }
    // Help is never honoured on a blocked form (`git push -f --help` stays a force push).
    if call.help_asked() && !push::is_force(&call) {
        cx.hit(&read::HELP);
        return;
    }
    if let Some(wt) = &call.work_tree {
        if local::WRITES_WORKTREE.contains(call.sub.as_str()) {
            writes::check_write(cx, wt, inv.cwd.as_deref());
        }
    }
    let from = cx.hits.len();
    dispatch(&call, cx);
    other_tree(&call, cx, from);
}

/// A git write in a directory outside the request's working tree (`cd /srv/app &&
/// git commit`, `git -C ../other commit`) changes another repository: it gets the
/// path policy's verdict for that directory, as a redirect there would (decision
/// 0014). Reads stay free anywhere; so does scratch space.
fn other_tree(call: &GitCall, cx: &mut Cx<'_>, from: usize) {
    // Only the free writes need it: every other git write already asks.
    let writes = cx.hits[from..].iter().any(|h| std::ptr::eq(h.rule, &local::LOCAL));
    let (Some(dir), Some(root)) = (call.cwd(), cx.root_str()) else { return };
    let root = if root.len() > 1 { root.trim_end_matches('/') } else { root };
    if !writes || dir == root || root == "/" || dir.strip_prefix(root).is_some_and(|r| r.starts_with('/')) {
        return;
    }
    let target = Arg { text: dir.to_owned(), ..Arg::lit("") };
    let before = cx.hits.len();
    writes::check_write(cx, &target, None);
    for h in &mut cx.hits[before..] {
        h.detail = Some(format!("`git {}` writes the repository at `{dir}`, outside the working tree; {}", call.sub, h.rule.reason));
    }
}

fn dispatch(call: &GitCall, cx: &mut Cx<'_>) {
    match call.sub.as_str() {
        "push" | "send-pack" | "http-push" => push::check(call, cx),
        "config" => config::config(call, cx),
        "remote" => config::remote(call, cx),
        "tag" => config::tag(call, cx),
        "worktree" => config::worktree(call, cx),
        "submodule" => config::submodule(call, cx),
        "lfs" => config::lfs(call, cx),
        "reset" | "checkout" | "switch" | "restore" | "clean" | "stash" | "rm" => discard::check(call, cx),
        "branch" | "merge" | "rebase" | "pull" | "filter-branch" | "filter-repo" | "reflog" | "update-ref" | "symbolic-ref" | "replace" | "gc" | "prune"
        | "send-email" | "svn" | "p4" | "daemon" | "instaweb" | "credential" | "maintenance" | "fast-import" => history::check(call, cx),
        _ => {
            if !local::check(call, cx) {
                read::check(call, cx);
            }
        }
    }
}

/// Operands of a subcommand split at `--` (before, after): a view of [`crate::call::args::Args::operands`].
pub(crate) fn split_operands(args: &[Arg], value_flags: Words) -> (Vec<&Arg>, Vec<&Arg>) {
    let (after, before): (Vec<_>, Vec<_>) =
        crate::call::args::Args::parse(args, crate::call::args::ArgSpec::values(value_flags)).operands().partition(|o| o.after_dashdash);
    (before.into_iter().map(|o| o.arg).collect(), after.into_iter().map(|o| o.arg).collect())
}

/// Blocks a git command whose path operand is a protected `.claude` file: git
/// rewrites the operands of `mv`, `checkout`, `restore`, `rm` … in place.
pub(crate) fn check_protected_operands(call: &GitCall, cx: &mut Cx<'_>, ops: &[&Arg]) {
    for a in ops {
        if writes::is_protected(cx, &a.text, call.cwd()) {
            call.write(cx, a);
        }
    }
}

/// `-C dir` applied to the cwd (None when it cannot be known).
pub(crate) fn chdir(cwd: Option<&str>, dir: &Arg, home: Option<&str>) -> Option<String> {
    if !dir.exact {
        return None;
    }
    resolve(&dir.text, cwd, home)
}

crate::tables![; config, discard, globals, local, push, read];
