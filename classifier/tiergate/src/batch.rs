//! `tiergate batch`: protocol v1. One JSON line in, one line out, same order; a
//! bad line is answered `input.invalid`/ask and the run goes on.

use std::io::{BufRead, BufWriter, Write};
use std::process::ExitCode;

use classifier::protocol::{OutLine, VERSION};
use classifier::Request;
use serde_json::Value;

use crate::realfs::RealFs;

pub fn run(args: &crate::args::Parsed) -> ExitCode {
    if args.has("--protocol") {
        println!("{VERSION}");
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
    let mut reader = std::io::BufReader::new(stdin);
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
        let line = answer(&buf, home.as_deref(), &protect);
        if writeln!(out, "{line}").is_err() {
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

fn answer(raw: &[u8], home: Option<&str>, protect: &classifier::Protected) -> String {
    let raw = raw.strip_suffix(b"\n").unwrap_or(raw);
    let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
    let null = Value::Null;
    let parsed: Result<Value, String> = std::str::from_utf8(raw)
        .map_err(|e| format!("line is not UTF-8: {e}"))
        .and_then(|s| serde_json::from_str(s).map_err(|e| format!("line is not JSON: {e}")));
    let obj = match parsed {
        Ok(Value::Object(o)) => o,
        Ok(_) => return to_line(&OutLine::invalid(&null, "line is not a JSON object")),
        Err(e) => return to_line(&OutLine::invalid(&null, &e)),
    };
    let id = obj.get("id").unwrap_or(&null);
    let Some(command) = obj.get("command").and_then(Value::as_str) else {
        return to_line(&OutLine::invalid(id, "missing string field `command`"));
    };
    let mut req = Request::new(command).with_protected(protect.clone());
    req.cwd = obj.get("cwd").and_then(Value::as_str).map(str::to_owned);
    req.home = home.map(str::to_owned);
    let verdict = match std::panic::catch_unwind(|| classifier::classify_with(&req, &RealFs)) {
        Ok(v) => v,
        Err(_) => return to_line(&OutLine::invalid(id, "internal error while classifying; asking")),
    };
    to_line(&OutLine::verdict(id, &verdict))
}

fn to_line(line: &OutLine<'_>) -> String {
    serde_json::to_string(line).unwrap_or_else(|_| {
        r#"{"v":1,"id":null,"error":"unserialisable","tier":"T3","blocked":false,"decision":"ask","rule":"input.invalid","reason":"unserialisable"}"#.to_owned()
    })
}
