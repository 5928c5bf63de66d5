//! The `agents` family: coding agents started as child processes. A child agent
//! with its own permission checks is left to them; one started with its guards
//! off (`--dangerously-skip-permissions`, `--yolo`) runs whatever it decides,
//! unseen by tiergate.

use crate::call::args::{ArgSpec, Args, Token};
use crate::call::Invocation;
use crate::rules::{Card, Cx, Family, Rule};
use crate::words;
use crate::words::Words;

pub static FAMILY: Family = Family::new("agents", CARDS, RULES);

static CARDS: &[Card] = &[Card::of(
    words![
        "claude", "codex", "gemini", "qwen", "aider", "cursor-agent", "amp", "opencode", "copilot", "crush", "droid", "cline", "kiro-cli", "auggie", "plandex"
    ],
    check,
)];

static RULES: &[&Rule] = &[&UNGUARDED];

crate::table! {
    /// Flags that switch a child agent's own approval checks off. Options whose *value*
    /// does it (`--permission-mode bypassPermissions`, `--sandbox danger-full-access`,
    /// `--approval-mode yolo`) are read by `check` in both spellings, not listed here.
    UNGUARDED_FLAGS = [
        "--dangerously-skip-permissions", "--dangerously-bypass-approvals-and-sandbox", "--yolo", "-y", "--full-auto", "--yes-always", "--yes", "--force",
        "--dangerously-allow-all", "--allow-all-tools", "--allow-all", "--auto-approve", "--trust-all-tools", "--skip-permissions", "--no-sandbox",
    ];
    probe "claude {} -p hi" => T3, "agents.unguarded";
}

/// ## What it matches
/// A coding agent started with its own approval checks off: `claude --dangerously-skip-permissions`, `codex --dangerously-bypass-approvals-and-sandbox`, `codex --full-auto`, `gemini --yolo`, `aider --yes-always`, `copilot --allow-all-tools`, `amp --dangerously-allow-all`.
/// ## Why this tier
/// The child runs whatever it decides, and tiergate never sees its commands.
pub static UNGUARDED: Rule = Rule::t3("agents.unguarded")
    .reason("starts a coding agent with its own approval checks turned off, so its commands are never checked; run it with its guards on or ask the user")
    .matches(words![
        "claude --dangerously-skip-permissions -p 'fix it'", "codex --dangerously-bypass-approvals-and-sandbox 'x'", "gemini --yolo -p x",
        "aider --yes-always", "codex exec --full-auto 'x'", "claude --permission-mode bypassPermissions -p x", "codex -s danger-full-access 'x'",
        "cursor-agent --force -p 'update the README'",
    ])
    .not_matches(words!["claude -p 'explain this'", "codex --help", "gemini -p 'summarise'", "claude --permission-mode plan -p x"]);

fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    // Each option is read on its own, so no other option can be taken to hide it
    // as its value: these CLIs are not declared here.
    let given = |names: Words, unsafe_value: &dyn Fn(&str) -> bool| {
        Args::parse(&inv.args, ArgSpec::values(names)).any(|t| matches!(t, Token::Opt { value: Some(v), .. } if unsafe_value(v)))
    };
    let unguarded = inv.words().any(|w| UNGUARDED_FLAGS.contains(w))
        || given(words!["--permission-mode"], &|v| v == "bypassPermissions")
        || given(words!["-s", "--sandbox"], &|v| v == "danger-full-access")
        || given(words!["--approval-mode"], &|v| v == "yolo")
        || given(words!["-c"], &|v| v.contains("danger-full-access"));
    if unguarded {
        cx.hit_because(&UNGUARDED, format!("`{}` with its guards off: {}", inv.program, UNGUARDED.reason));
    }
    // `claude update`, `opencode uninstall`: what an unmodelled CLI would get.
    cx.or_unowned(inv);
}

crate::tables![UNGUARDED_FLAGS];
