//! Tiers, verdicts and `decision_of`: the one place allow/ask/deny is decided.
//!
//! It does not classify anything; `combine.rs` picks the verdict, this file only
//! says what a verdict means for the user.

/// How much a command can change the world. Ordered: a higher tier is stricter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tier {
    /// Read-only.
    T0,
    /// Local validation (lint, test, type-check).
    T1,
    /// Simulation or dry-run.
    T2,
    /// Changes live state; the user must consent.
    T3,
}

impl Tier {
    /// The wire spelling (`T0` … `T3`).
    pub fn as_str(self) -> &'static str {
        match self {
            Tier::T0 => "T0",
            Tier::T1 => "T1",
            Tier::T2 => "T2",
            Tier::T3 => "T3",
        }
    }
}

impl std::fmt::Display for Tier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What the hook tells the agent runtime.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Decision {
    Allow,
    Ask,
    Deny,
}

impl Decision {
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Allow => "allow",
            Decision::Ask => "ask",
            Decision::Deny => "deny",
        }
    }
}

/// Byte range of the command text that decided the verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

/// The classifier's answer for one command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub tier: Tier,
    /// Irreversible: denied and never approvable, whatever the tier says.
    pub blocked: bool,
    pub decision: Decision,
    /// Stable rule id (`git.push.force`, `parse.unsupported`, `default.elimination`).
    pub rule: &'static str,
    /// The one line a user sees: what matched and what to do instead.
    pub reason: String,
    /// The part of the command that decided it.
    pub span: Span,
}

impl Verdict {
    /// Builds a verdict; the decision is derived, never passed in.
    pub fn new(tier: Tier, blocked: bool, rule: &'static str, reason: String, span: Span) -> Self {
        let tier = if blocked { Tier::T3 } else { tier };
        Verdict { tier, blocked, decision: decision_of(tier, blocked), rule, reason, span }
    }
}

/// T0/T1/T2 → allow, T3 → ask, blocked → deny. Nothing else decides this.
pub fn decision_of(tier: Tier, blocked: bool) -> Decision {
    if blocked {
        return Decision::Deny;
    }
    match tier {
        Tier::T0 | Tier::T1 | Tier::T2 => Decision::Allow,
        Tier::T3 => Decision::Ask,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocked_dominates_tier() {
        assert_eq!(decision_of(Tier::T0, true), Decision::Deny);
        assert_eq!(Verdict::new(Tier::T0, true, "x", String::new(), Span::default()).tier, Tier::T3);
    }

    #[test]
    fn tiers_below_t3_allow() {
        for t in [Tier::T0, Tier::T1, Tier::T2] {
            assert_eq!(decision_of(t, false), Decision::Allow);
        }
        assert_eq!(decision_of(Tier::T3, false), Decision::Ask);
    }
}
