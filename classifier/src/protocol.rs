//! Protocol v1 wire types (`tiergate batch`), kept apart from `Verdict` so the
//! wire format cannot drift with internals.

use serde::Serialize;
use serde_json::Value;

use crate::verdict::Verdict;

/// The protocol version `tiergate batch --protocol` prints.
pub const VERSION: u32 = 1;

/// One output line.
#[derive(Serialize)]
pub struct OutLine<'a> {
    pub v: u32,
    pub id: &'a Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<&'a str>,
    pub tier: &'static str,
    pub blocked: bool,
    pub decision: &'static str,
    pub rule: &'a str,
    pub reason: &'a str,
}

impl<'a> OutLine<'a> {
    pub fn verdict(id: &'a Value, v: &'a Verdict) -> OutLine<'a> {
        OutLine { v: VERSION, id, error: None, tier: v.tier.as_str(), blocked: v.blocked, decision: v.decision.as_str(), rule: v.rule, reason: &v.reason }
    }

    /// A line that could not be read: answered ask, and the run goes on.
    pub fn invalid(id: &'a Value, error: &'a str) -> OutLine<'a> {
        OutLine { v: VERSION, id, error: Some(error), tier: "T3", blocked: false, decision: "ask", rule: "input.invalid", reason: error }
    }
}
