//! `tiergate batch`: protocol v1. One JSON line in, one line out, same order; a
//! bad line is answered `input.invalid`/ask and the run goes on.
//!
//! One extension, opt-in per line: a request with `"session": "<name>"` is one step
//! of an agent's session. Steps of one session are classified in the order they
//! arrive, each reading through an overlay of the files the session's earlier steps
//! wrote (`classifier::lanes::Overlay`, filled from the classifier's own record of
//! each command's writes); sessions may interleave. The answer keeps the v1 shape,
//! and a line without `session` is answered exactly as before.
//! `tiergate batch --extensions` prints the extensions this build speaks, one per line.

use std::borrow::Cow;
use std::io::{BufRead, BufWriter, Write};
use std::process::ExitCode;

use std::collections::HashMap;

use classifier::lanes::{Overlay, MAX_OVERLAY_BYTES};
use classifier::protocol::{InLine, OutLine, VERSION};
use classifier::Request;
use serde_json::Value;

use crate::realfs::RealFs;

pub fn run(args: &crate::args::Parsed) -> ExitCode {
    if args.has("--protocol") {
        println!("{VERSION}");
        return ExitCode::SUCCESS;
    }
    if args.has("--extensions") {
        println!("{SESSION}");
        return ExitCode::SUCCESS;
    }
    let home = std::env::var("HOME").ok();
    // The hook's protect configuration minus the user's config file: built-ins,
    // this binary and the data directory, so self-defence answers as in the hook.
    let data_dir = crate::hook::store::data_dir(None).ok();
    let protect = crate::hook::files::build(&[], &[], data_dir.as_deref(), home.as_deref(), None).unwrap_or_default();
    let stdin = std::io::stdin().lock();
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut buf = Vec::new();
    let mut line = Vec::new();
    let mut reader = std::io::BufReader::new(stdin);
    // One request, refilled per line: its buffers and protect policy are reused.
    let mut req = Request { command: String::new(), cwd: None, home, protect };
    let mut sessions = Sessions { overlays: HashMap::new(), budget: MAX_OVERLAY_BYTES };
    loop {
        buf.clear();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                eprintln!("tiergate batch: reading stdin: {e}");
                return ExitCode::from(2);
            }
        }
        line.clear();
        answer(&buf, &mut req, &mut sessions, &mut line);
        line.push(b'\n');
        if out.write_all(&line).is_err() {
            return ExitCode::SUCCESS; // the reader went away: nothing left to answer
        }
        // Flush per line when the reader is waiting on us line by line.
        if reader.buffer().is_empty() && out.flush().is_err() {
            return ExitCode::SUCCESS;
        }
    }
    let _ = out.flush();
    ExitCode::SUCCESS
}

/// The request field of the session extension.
const SESSION: &str = "session";

/// The sessions of one batch run: each one's overlay, and the text all of them may
/// still keep together (`MAX_OVERLAY_BYTES`), so no input grows the process without bound.
struct Sessions {
    overlays: HashMap<String, Overlay>,
    budget: usize,
}

/// Appends the answer to one input line to `out`. The usual line is read by hand
/// (`InLine::plain`); any other goes through serde_json, which words the errors.
fn answer(raw: &[u8], req: &mut Request, sessions: &mut Sessions, out: &mut Vec<u8>) {
    let raw = raw.strip_suffix(b"\n").unwrap_or(raw);
    let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
    let null = Value::Null;
    let text = std::str::from_utf8(raw).map_err(|e| format!("line is not UTF-8: {e}"));
    if let Some(line) = text.as_ref().ok().and_then(|t| InLine::plain(t)) {
        req.command.clear();
        req.command.push_str(&line.command);
        req.cwd = line.cwd.map(Cow::into_owned);
        return classified(&line.id, req, None, out);
    }
    let parsed: Result<Value, String> = text.and_then(|s| serde_json::from_str(s).map_err(|e| format!("line is not JSON: {e}")));
    let obj = match parsed {
        Ok(Value::Object(o)) => o,
        Ok(_) => return write(&OutLine::invalid(&null, "line is not a JSON object"), out),
        Err(e) => return write(&OutLine::invalid(&null, &e), out),
    };
    let id = obj.get("id").unwrap_or(&null);
    let Some(command) = obj.get("command").and_then(Value::as_str) else {
        return write(&OutLine::invalid(id, "missing string field `command`"), out);
    };
    let session = match obj.get(SESSION) {
        None | Some(Value::Null) => None,
        Some(Value::String(name)) => Some((sessions.overlays.entry(name.clone()).or_default(), &mut sessions.budget)),
        Some(_) => return write(&OutLine::invalid(id, "field `session` must be a string (the name of the session this step belongs to)"), out),
    };
    req.command.clear();
    req.command.push_str(command);
    req.cwd = obj.get("cwd").and_then(Value::as_str).map(str::to_owned);
    classified(id, req, session, out)
}

/// Classifies through the real file system, or, for a session's step, through the
/// session's overlay on it; the step's writes then join the overlay.
fn classified(id: &Value, req: &Request, session: Option<(&mut Overlay, &mut usize)>, out: &mut Vec<u8>) {
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match session {
        None => classifier::classify_with(req, &RealFs),
        Some((overlay, budget)) => {
            let (verdict, writes) = classifier::classify_recording(req, &overlay.over(&RealFs));
            overlay.apply(&writes, &RealFs, budget);
            verdict
        }
    }));
    match result {
        Ok(verdict) => write(&OutLine::verdict(id, &verdict), out),
        Err(_) => write(&OutLine::invalid(id, "internal error while classifying; asking"), out),
    }
}

fn write(line: &OutLine<'_>, out: &mut Vec<u8>) {
    let start = out.len();
    if line.write_json(out).is_err() {
        out.truncate(start);
        out.extend_from_slice(to_line(line).as_bytes());
    }
}

fn to_line(line: &OutLine<'_>) -> String {
    serde_json::to_string(line).unwrap_or_else(|_| {
        r#"{"v":1,"id":null,"error":"unserialisable","tier":"T3","blocked":false,"decision":"ask","rule":"input.invalid","reason":"unserialisable"}"#.to_owned()
    })
}
