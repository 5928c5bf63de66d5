//! Protocol v1 wire types as the bench sees them: the request line it writes, the
//! tolerant reader of answer lines, and the verdict `Class` (T0 < T1 < T2 < T3 <
//! BLOCKED). It does not spawn processes (runner.rs does).

use serde::{Deserialize, Serialize};
use std::fmt;

/// The protocol version this harness speaks.
pub const VERSION: &str = "1";

/// A verdict reduced to one strictness scale: blocked dominates every tier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Class {
    T0,
    T1,
    T2,
    T3,
    #[serde(rename = "BLOCKED")]
    Blocked,
}

impl Class {
    pub const ALL: [Class; 5] = [Class::T0, Class::T1, Class::T2, Class::T3, Class::Blocked];

    pub fn parse(s: &str) -> Option<Class> {
        Some(match s {
            "T0" => Class::T0,
            "T1" => Class::T1,
            "T2" => Class::T2,
            "T3" => Class::T3,
            "BLOCKED" => Class::Blocked,
            _ => return None,
        })
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Class::T0 => "T0",
            Class::T1 => "T1",
            Class::T2 => "T2",
            Class::T3 => "T3",
            Class::Blocked => "BLOCKED",
        }
    }
    /// The hook decision this class maps to: allow for T0..T2, ask for T3, deny if blocked.
    pub fn prompts(self) -> bool {
        matches!(self, Class::T3 | Class::Blocked)
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One answer: a class with its rule and reason, or an error (protocol `error`,
/// timeout, a child that died) which never counts as a verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    pub class: Class,
    pub rule: String,
    pub reason: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl Verdict {
    pub fn error(why: impl Into<String>) -> Verdict {
        let why = why.into();
        Verdict { class: Class::T3, rule: "replay.error".into(), reason: why.clone(), error: Some(why) }
    }
    pub fn is_error(&self) -> bool {
        self.error.is_some()
    }
    /// `T3 git.push.force` — how examples show a verdict.
    pub fn short(&self) -> String {
        match &self.error {
            Some(e) => format!("error: {e}"),
            None => format!("{} {}", self.class, self.rule),
        }
    }
}

#[derive(Serialize)]
struct RequestLine<'a> {
    id: usize,
    command: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    cwd: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    session: Option<&'a str>,
}

/// The `tiergate batch` extension that replays a session's steps through what its
/// earlier steps wrote (`--extensions` lists it; the request field of the same name).
pub const SESSION_EXTENSION: &str = "session";

/// Encodes one request line (without the newline). `session` is set only for a
/// step of an agent's session (the extension); without it the line is plain v1.
///
/// The line is spelled one of four ways, by `id`, all the same JSON value: serde_json's
/// compact form; with whitespace between tokens; with every non-ASCII character as
/// `\uXXXX` and `/` as `\/`; or with the keys in reverse order. A v1 reader must read
/// them alike, and the classifier's hand-written reader (`classifier/src/protocol.rs`)
/// takes each of them on its own path, so a change there that misreads one spelling
/// moves the verdicts of a quarter of the rows instead of none.
pub fn request_line(id: usize, command: &str, cwd: Option<&str>, session: Option<&str>) -> String {
    let line = serde_json::to_string(&RequestLine { id, command, cwd, session }).unwrap_or_default();
    match id % 4 {
        0 => line,
        1 => spaced(&line),
        2 => ascii_escaped(&line),
        _ => serde_json::to_string(&Reversed { session, cwd, command, id }).unwrap_or_default(),
    }
}

#[derive(Serialize)]
struct Reversed<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    session: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cwd: Option<&'a str>,
    command: &'a str,
    id: usize,
}

/// Compact JSON with spaces, tabs and a carriage return around its `{ } : ,` (never a
/// newline: a request is one line).
fn spaced(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + 32);
    let (mut in_string, mut escaped) = (false, false);
    for c in line.chars() {
        if in_string {
            out.push(c);
            (in_string, escaped) = (escaped || c != '"', !escaped && c == '\\');
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '{' | ',' => {
                out.push(c);
                out.push_str(" \t");
            }
            ':' => out.push_str(" :\t"),
            '}' => out.push_str("\r }"),
            _ => out.push(c),
        }
    }
    out.push(' ');
    out
}

/// The same JSON with every non-ASCII character as `\uXXXX` (a surrogate pair past
/// the BMP) and every `/` as `\/`; outside strings compact JSON has neither.
fn ascii_escaped(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + 16);
    for c in line.chars() {
        match c {
            '/' => out.push_str("\\/"),
            c if c.is_ascii() => out.push(c),
            c => {
                for unit in c.encode_utf16(&mut [0; 2]) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
        }
    }
    out
}

#[derive(Deserialize)]
struct AnswerLine {
    v: serde_json::Value,
    id: serde_json::Value,
    #[serde(default)]
    error: Option<String>,
    tier: Option<String>,
    blocked: Option<bool>,
    decision: Option<String>,
    rule: Option<String>,
    reason: Option<String>,
}

/// Reads one answer line for request `id`. Unknown fields are ignored (protocol v1
/// allows growth); a missing field, a wrong version or a wrong id is an error verdict.
pub fn parse_answer(line: &str, id: usize) -> Verdict {
    let a: AnswerLine = match serde_json::from_str(line) {
        Ok(a) => a,
        Err(e) => return Verdict::error(format!("answer is not protocol v1 JSON ({e}): {}", clip(line))),
    };
    if a.v != serde_json::json!(1) {
        return Verdict::error(format!("answer has \"v\":{} instead of 1", a.v));
    }
    if a.id != serde_json::json!(id) {
        return Verdict::error(format!("answer id {} does not match request id {id}", a.id));
    }
    if let Some(e) = a.error {
        return Verdict::error(format!("classifier rejected the line: {e}"));
    }
    let (Some(tier), Some(blocked), Some(rule), Some(reason)) = (a.tier, a.blocked, a.rule, a.reason) else {
        return Verdict::error(format!("answer lacks tier/blocked/rule/reason: {}", clip(line)));
    };
    let class = match (blocked, Class::parse(&tier)) {
        (true, _) => Class::Blocked,
        (false, Some(c)) if c != Class::Blocked => c,
        _ => return Verdict::error(format!("answer has unknown tier {tier:?}")),
    };
    // The hook acts on `decision`, not on the tier: an answer whose decision is not its
    // class's (T0–T2 allow, T3 ask, blocked deny) is a broken answer, whatever its tier.
    let want = match class {
        Class::Blocked => "deny",
        Class::T3 => "ask",
        _ => "allow",
    };
    if a.decision.as_deref() != Some(want) {
        return Verdict::error(format!("answer's decision {:?} is not {want:?}, the decision of {class}: {}", a.decision, clip(line)));
    }
    Verdict { class, rule, reason, error: None }
}

fn clip(s: &str) -> String {
    s.chars().take(200).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every spelling is the same JSON value as the compact line, for commands with
    /// quotes, escapes, control characters, slashes and characters past the BMP.
    #[test]
    fn every_spelling_of_a_request_is_the_same_json() {
        let commands = ["ls", "echo \"a\\\"b\" 'c' \\ /tmp/x", "printf '\t\n\u{1}\u{1b}'", "echo é € 😀 \u{2028}", "", "{\"k\":[1,2]} : , }"];
        for (n, command) in commands.iter().enumerate() {
            for cwd in [None, Some("/w/a b/é")] {
                for session in [None, Some("s/1")] {
                    let want: serde_json::Value = serde_json::from_str(&serde_json::to_string(&RequestLine { id: n, command, cwd, session }).unwrap()).unwrap();
                    for id in (n * 4)..(n * 4 + 4) {
                        let line = request_line(id, command, cwd, session);
                        assert!(!line.contains('\n'), "{line:?}");
                        let mut got: serde_json::Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{line:?}: {e}"));
                        got["id"] = serde_json::json!(n);
                        assert_eq!(got, want, "{line:?}");
                    }
                }
            }
        }
    }

    /// An answer whose `decision` is not its class's hook decision is an error, not a
    /// verdict: the hook acts on the decision, so a classifier that says T0 and `ask`,
    /// or blocked and `allow`, is broken whatever the tier says.
    #[test]
    fn an_answer_must_carry_its_class_decision() {
        let line = |tier: &str, blocked: bool, decision: Option<&str>| {
            let d = decision.map_or(String::new(), |d| format!(",\"decision\":\"{d}\""));
            format!("{{\"v\":1,\"id\":3,\"tier\":\"{tier}\",\"blocked\":{blocked}{d},\"rule\":\"r\",\"reason\":\"x\"}}")
        };
        for (tier, blocked, want) in [("T0", false, "allow"), ("T2", false, "allow"), ("T3", false, "ask"), ("T3", true, "deny")] {
            let ok = parse_answer(&line(tier, blocked, Some(want)), 3);
            assert!(!ok.is_error(), "{tier} {blocked} {want}: {ok:?}");
            for wrong in ["allow", "ask", "deny", "xyzzy"].into_iter().filter(|w| *w != want) {
                let v = parse_answer(&line(tier, blocked, Some(wrong)), 3);
                assert!(v.is_error() && v.reason.contains("decision"), "{tier} {blocked} {wrong}: {v:?}");
            }
            assert!(parse_answer(&line(tier, blocked, None), 3).is_error(), "{tier}: a missing decision");
        }
    }
}
