//! Protocol v1 wire types (`tiergate batch`), kept apart from `Verdict` so the
//! wire format cannot drift with internals.
//!
//! Lines are read and written by hand on the common path (issue 14: serde's
//! `Value` tree and its per-field dispatch were ~15 % of a batch run): a request
//! line of the usual shape is read by [`InLine::plain`], anything else goes to
//! `serde_json` (which also words the errors), and [`OutLine::write_json`] writes
//! the bytes `serde_json::to_string` writes. Tests hold both equal to serde.

use std::borrow::Cow;

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

    /// Appends the line's JSON (no newline): the bytes `serde_json::to_string`
    /// gives, field by field in declaration order.
    pub fn write_json(&self, out: &mut Vec<u8>) -> Result<(), serde_json::Error> {
        out.extend_from_slice(b"{\"v\":");
        serde_json::to_writer(&mut *out, &self.v)?;
        out.extend_from_slice(b",\"id\":");
        serde_json::to_writer(&mut *out, self.id)?;
        if let Some(e) = self.error {
            out.extend_from_slice(b",\"error\":");
            escaped(out, e);
        }
        out.extend_from_slice(b",\"tier\":");
        escaped(out, self.tier);
        out.extend_from_slice(if self.blocked { b",\"blocked\":true" } else { b",\"blocked\":false" });
        out.extend_from_slice(b",\"decision\":");
        escaped(out, self.decision);
        out.extend_from_slice(b",\"rule\":");
        escaped(out, self.rule);
        out.extend_from_slice(b",\"reason\":");
        escaped(out, self.reason);
        out.push(b'}');
        Ok(())
    }
}

/// A JSON string as serde_json writes it: `"` and `\` escaped, the five short
/// control escapes, other control bytes as `\u00xx`; everything else as is.
fn escaped(out: &mut Vec<u8>, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push(b'"');
    let mut b = s.as_bytes();
    loop {
        let n = plain_run(b);
        out.extend_from_slice(&b[..n]);
        let Some(&c) = b.get(n) else { break };
        let short = match c {
            b'"' => b'"',
            b'\\' => b'\\',
            0x08 => b'b',
            0x09 => b't',
            0x0A => b'n',
            0x0C => b'f',
            0x0D => b'r',
            _ => b'u',
        };
        out.extend_from_slice(&[b'\\', short]);
        if short == b'u' {
            out.extend_from_slice(&[b'0', b'0', HEX[usize::from(c >> 4)], HEX[usize::from(c & 0xF)]]);
        }
        b = &b[n + 1..];
    }
    out.push(b'"');
}

/// How many leading bytes of `b` a JSON string holds as they are: up to the
/// first `"`, `\` or control byte. Eight bytes at a time (the reasons and
/// commands are long runs of plain text); a word with a candidate is rescanned
/// byte by byte, so the answer is exact.
fn plain_run(b: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Some byte of `x` is below `n` (n ≤ 128): the classic SWAR test, exact on "any".
    let below = |x: u64, n: u8| x.wrapping_sub(ONES * u64::from(n)) & !x & HIGH;
    let mut i = 0;
    while i + 8 <= b.len() {
        let mut w = [0u8; 8];
        w.copy_from_slice(&b[i..i + 8]);
        let x = u64::from_le_bytes(w);
        if below(x, 0x20) | below(x ^ (ONES * u64::from(b'"')), 1) | below(x ^ (ONES * u64::from(b'\\')), 1) != 0 {
            break;
        }
        i += 8;
    }
    i + b[i..].iter().position(|&c| c == b'"' || c == b'\\' || c < 0x20).unwrap_or(b.len() - i)
}

/// A request line in its usual shape: one object holding `command` (a string),
/// and optionally `id` (an integer of at most 18 digits, a string without
/// escapes, `null`, `true` or `false`) and `cwd` (a string or `null`), each once,
/// nothing else. Such a line means the same read either way; any other line
/// (other keys, other ids, bad JSON …) is left to `serde_json`.
#[derive(Debug, PartialEq)]
pub struct InLine<'a> {
    pub id: Value,
    pub command: Cow<'a, str>,
    pub cwd: Option<Cow<'a, str>>,
}

impl<'a> InLine<'a> {
    /// The line read by hand; `None` sends it to `serde_json`.
    pub fn plain(line: &'a str) -> Option<InLine<'a>> {
        let mut r = Reader { b: line.as_bytes(), s: line, i: 0 };
        let (mut id, mut command): (Option<Value>, Option<Cow<'a, str>>) = (None, None);
        // `Some(None)`: `"cwd": null`, which reads as no cwd, as a missing one does.
        let mut cwd: Option<Option<Cow<'a, str>>> = None;
        r.ws();
        r.eat(b'{')?;
        r.ws();
        if r.peek()? == b'}' {
            return None; // no `command`
        }
        loop {
            r.ws();
            let key = r.string()?;
            r.ws();
            r.eat(b':')?;
            r.ws();
            match &*key {
                "id" if id.is_none() => id = Some(r.id()?),
                "command" if command.is_none() => command = Some(r.string()?),
                "cwd" if cwd.is_none() => cwd = Some(if r.literal("null") { None } else { Some(r.string()?) }),
                _ => return None,
            }
            r.ws();
            match r.next()? {
                b',' => continue,
                b'}' => break,
                _ => return None,
            }
        }
        r.ws();
        if r.i != r.b.len() {
            return None;
        }
        Some(InLine { id: id.unwrap_or(Value::Null), command: command?, cwd: cwd.flatten() })
    }
}

struct Reader<'a> {
    b: &'a [u8],
    s: &'a str,
    i: usize,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.i += 1;
        Some(c)
    }

    fn eat(&mut self, c: u8) -> Option<()> {
        (self.next()? == c).then_some(())
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn literal(&mut self, word: &str) -> bool {
        let hit = self.b[self.i..].starts_with(word.as_bytes());
        if hit {
            self.i += word.len();
        }
        hit
    }

    /// `null`, `true`, `false`, a string without escapes, or an integer that
    /// serde_json keeps as an integer (not `-0`, at most 18 digits).
    fn id(&mut self) -> Option<Value> {
        for (word, v) in [("null", Value::Null), ("true", Value::Bool(true)), ("false", Value::Bool(false))] {
            if self.literal(word) {
                return Some(v);
            }
        }
        if self.peek()? == b'"' {
            let s = self.string()?;
            return matches!(s, Cow::Borrowed(_)).then(|| Value::String(s.into_owned()));
        }
        let negative = self.peek()? == b'-';
        let start = self.i + usize::from(negative);
        let len = self.b[start..].iter().take_while(|c| c.is_ascii_digit()).count();
        let digits = &self.s[start..start + len];
        let end = start + len;
        if len == 0 || len > 18 || (len > 1 && digits.starts_with('0')) || matches!(self.b.get(end), Some(b'.' | b'e' | b'E')) {
            return None;
        }
        let n: u64 = digits.parse().ok()?;
        self.i = end;
        match (negative, n) {
            (false, n) => Some(Value::from(n)),
            (true, 0) => None,
            (true, n) => Some(Value::from(-i64::try_from(n).ok()?)),
        }
    }

    /// A JSON string; borrowed when it holds no escape. Control characters, lone
    /// surrogates and unknown escapes are left to serde_json (which refuses them).
    fn string(&mut self) -> Option<Cow<'a, str>> {
        self.eat(b'"')?;
        let start = self.i;
        let len = plain_run(&self.b[start..]);
        self.i = start + len;
        if self.next()? == b'"' {
            return Some(Cow::Borrowed(&self.s[start..start + len]));
        }
        if self.b[self.i - 1] != b'\\' {
            return None;
        }
        let mut out = String::from(&self.s[start..start + len]);
        self.i -= 1;
        loop {
            match self.next()? {
                b'"' => return Some(Cow::Owned(out)),
                b'\\' => out.push(match self.next()? {
                    b'"' => '"',
                    b'\\' => '\\',
                    b'/' => '/',
                    b'b' => '\u{8}',
                    b'f' => '\u{c}',
                    b'n' => '\n',
                    b'r' => '\r',
                    b't' => '\t',
                    b'u' => {
                        let hex = self.s.get(self.i..self.i + 4)?;
                        if !hex.bytes().all(|c| c.is_ascii_hexdigit()) {
                            return None;
                        }
                        self.i += 4;
                        char::from_u32(u32::from_str_radix(hex, 16).ok()?)?
                    }
                    _ => return None,
                }),
                c if c < 0x20 => return None,
                _ => {
                    // A run of plain bytes up to the next quote, escape or control byte.
                    let from = self.i - 1;
                    self.i += plain_run(&self.b[self.i..]);
                    out.push_str(&self.s[from..self.i]);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    /// What `tiergate batch` reads from a line through serde_json: id, command, cwd.
    fn serde_read(line: &str) -> Option<(Value, String, Option<String>)> {
        let Ok(Value::Object(o)) = serde_json::from_str::<Value>(line) else { return None };
        let command = o.get("command")?.as_str()?.to_owned();
        Some((o.get("id").cloned().unwrap_or(Value::Null), command, o.get("cwd").and_then(Value::as_str).map(str::to_owned)))
    }

    /// A line the hand reader takes reads as serde_json reads it.
    fn same_read(line: &str) -> Result<bool, TestCaseError> {
        let Some(mine) = InLine::plain(line) else { return Ok(false) };
        let theirs = serde_read(line);
        prop_assert_eq!(Some((mine.id, mine.command.into_owned(), mine.cwd.map(Cow::into_owned))), theirs, "{:?}", line);
        Ok(true)
    }

    fn check_read(line: &str, taken: bool) {
        assert_eq!(same_read(line).unwrap_or_else(|e| panic!("{e}")), taken, "{line:?}");
    }

    #[test]
    fn the_usual_lines_are_read_by_hand_as_serde_reads_them() {
        for line in [
            r#"{"id":0,"command":"ls -la"}"#,
            r#"{"command":"ls","id":7}"#,
            r#" { "id" : -12 , "command" : "a\"b\\c\/d\n\t\r\b\f" , "cwd" : "/w" } "#,
            r#"{"id":"x","command":"\u00e9\u20AC é","cwd":null}"#,
            r#"{"command":"x"}"#,
            r#"{"id":null,"command":""}"#,
            r#"{"id":true,"command":"x"}"#,
            r#"{"id":999999999999999999,"command":"x"}"#,
            r#"{"id":-999999999999999999,"command":"x"}"#,
            r#"{"id":0,"command":"\u0000"}"#,
        ] {
            check_read(line, true);
        }
        for line in [
            "", "{}", "[]", "null", r#"{"id":1}"#, r#"{"id":1,"command":1}"#, r#"{"id":-0,"command":"x"}"#, r#"{"id":01,"command":"x"}"#,
            r#"{"id":1.5,"command":"x"}"#, r#"{"id":1e3,"command":"x"}"#, r#"{"id":1234567890123456789,"command":"x"}"#, r#"{"id":"a\nb","command":"x"}"#,
            r#"{"id":[1],"command":"x"}"#, r#"{"command":"x","command":"y"}"#, r#"{"command":"x","extra":1}"#, r#"{"command":"x",}"#, r#"{"command":"x"} x"#,
            r#"{"command":"\ud83d\ude00"}"#, r#"{"command":"\ud800"}"#, r#"{"command":"\x"}"#, "{\"command\":\"a\tb\"}", r#"{"command":"x","cwd":1}"#,
            r#"{"command":"x""#, r#"{"command":"x\u12"}"#, r#"{"id":-,"command":"x"}"#, r#"{"id":nul,"command":"x"}"#,
            // A raw control byte after an escape (serde refuses it; the escape loop must too).
            "{\"command\":\"a\\nb\tc\"}", "{\"command\":\"a\\n\u{1}\"}",
        ] {
            check_read(line, false);
        }
    }

    /// Pieces of JSON, right and wrong, for lines the reader must either read as serde does or leave alone.
    fn soup() -> impl Strategy<Value = String> {
        const TOKENS: &[&str] = &[
            "{", "}", "\"id\"", "\"command\"", "\"cwd\"", "\"comm\\u0061nd\"", ":", ",", " ", "\t", "\n", "\"x\"", "\"a\\nb\"", "\"\\u00e9\"", "\"\\ud800\"",
            "\"\\uD83D\\uDE00\"", "12", "-0", "-7", "01", "1.5", "2e1", "null", "true", "false", "nul", "\"é\"", "\"\t\"", "\\", "\"", "[1]",
            "99999999999999999999",
        ];
        proptest::collection::vec(proptest::sample::select(TOKENS), 0..16).prop_map(|t| t.concat())
    }

    proptest! {
        #[test]
        fn the_word_scan_stops_where_the_byte_scan_does(b in proptest::collection::vec(prop_oneof![any::<u8>(), Just(b'a'), Just(b'"'), Just(b'\\')], 0..40)) {
            let slow = b.iter().position(|&c| c == b'"' || c == b'\\' || c < 0x20).unwrap_or(b.len());
            prop_assert_eq!(plain_run(&b), slow);
        }

        #[test]
        fn json_soup_is_read_as_serde_reads_it_or_left_to_serde(line in soup()) {
            same_read(&line)?;
        }

        #[test]
        fn any_command_and_cwd_round_trip(id in any::<i64>(), command in any::<String>(), cwd in proptest::option::of(any::<String>())) {
            let line = json!({"id": id % 1_000_000_000_000_000_000, "command": command, "cwd": cwd}).to_string();
            prop_assert!(same_read(&line)?, "{:?} not read by hand", line);
            // The same line with every non-ASCII character escaped, as other writers send it.
            let escaped: String = line.chars().map(|c| if c.is_ascii() { c.to_string() } else { c.encode_utf16(&mut [0; 2]).iter().map(|u| format!("\\u{u:04x}")).collect() }).collect();
            same_read(&escaped)?;
        }

        #[test]
        fn written_lines_are_the_bytes_serde_writes(reason in any::<String>(), rule in "[ -~]{0,12}", error in proptest::option::of(any::<String>()), blocked in any::<bool>()) {
            for id in [json!(null), json!(3), json!(-4), json!(1.5), json!("i\"d\u{1}"), json!({"b": [1, "x"], "a": null}), json!(true)] {
                let line = OutLine { v: VERSION, id: &id, error: error.as_deref(), tier: "T2", blocked, decision: "allow", rule: &rule, reason: &reason };
                let mut mine = Vec::new();
                line.write_json(&mut mine).map_err(|e| TestCaseError::fail(e.to_string()))?;
                prop_assert_eq!(String::from_utf8(mine).ok(), serde_json::to_string(&line).ok());
            }
        }
    }

    #[test]
    fn every_control_character_is_escaped_as_serde_escapes_it() {
        let all: String = (0u8..=0x7F).map(char::from).chain(['é', '\u{2028}', '\u{FFFF}', '😀']).collect();
        let id = json!(1);
        let line = OutLine::invalid(&id, &all);
        let mut mine = Vec::new();
        line.write_json(&mut mine).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(String::from_utf8(mine).ok(), serde_json::to_string(&line).ok());
    }
}
