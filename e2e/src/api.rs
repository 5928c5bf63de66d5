//! A scripted stand-in for the Anthropic Messages API on 127.0.0.1, enough for
//! Claude Code to hold a conversation: `POST /v1/messages` (streamed as SSE or
//! as one JSON message), `count_tokens`, and 404 for anything else.
//!
//! A conversation's request names its tools; when the script's next step is a
//! tool it offers, the answer is that `tool_use` (the step index is how many of
//! this server's `tool_use` blocks the history already holds), else the final
//! text. Every `tool_result` coming back is recorded once: that is what the
//! model was told, which the cases check (tiergate's reason reaching the model).
//! Only loopback is bound, and the whole run sits in a network namespace with
//! nothing but loopback up.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

use serde_json::{json, Value};

/// Ids of the `tool_use` blocks this server issues start with this.
const ID_PREFIX: &str = "toolu_01tiergate";

/// What the scripted model does in the current conversation.
#[derive(Clone, Debug, Default)]
pub struct Script {
    /// Tool calls, in order: `{"name": "Bash", "input": {...}}`.
    pub steps: Vec<Value>,
}

/// One `tool_result` the model received.
#[derive(Clone, Debug)]
pub struct ToolResult {
    pub is_error: bool,
    pub content: String,
}

#[derive(Default)]
struct State {
    script: Script,
    results: Vec<(String, ToolResult)>,
    issued: usize,
}

/// The running server: its port, the script to follow, what came back.
#[derive(Clone)]
pub struct Api {
    pub port: u16,
    state: Arc<Mutex<State>>,
}

impl Api {
    /// Binds 127.0.0.1 on a free port and serves on a background thread.
    pub fn start() -> std::io::Result<Api> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let port = listener.local_addr()?.port();
        let api = Api { port, state: Arc::default() };
        let served = api.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let api = served.clone();
                std::thread::spawn(move || {
                    let _ = api.serve(stream);
                });
            }
        });
        Ok(api)
    }

    /// The script of the next conversation (the results so far are kept).
    pub fn set_script(&self, script: Script) {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).script = script;
    }

    /// Every `tool_result` received so far, in arrival order.
    pub fn results(&self) -> Vec<ToolResult> {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).results.iter().map(|(_, r)| r.clone()).collect()
    }

    fn serve(&self, stream: TcpStream) -> std::io::Result<()> {
        let mut reader = BufReader::new(stream.try_clone()?);
        let mut line = String::new();
        reader.read_line(&mut line)?;
        let mut parts = line.split_whitespace();
        let (method, target) = (parts.next().unwrap_or_default().to_owned(), parts.next().unwrap_or_default().to_owned());
        let (mut length, mut chunked) = (0usize, false);
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h)? == 0 || h.trim().is_empty() {
                break;
            }
            let (k, v) = h.split_once(':').unwrap_or((&h, ""));
            match k.trim().to_ascii_lowercase().as_str() {
                "content-length" => length = v.trim().parse().unwrap_or(0),
                "transfer-encoding" => chunked = v.trim().eq_ignore_ascii_case("chunked"),
                _ => {}
            }
        }
        let body = if chunked { read_chunked(&mut reader)? } else { read_exact(&mut reader, length)? };
        let path = target.split('?').next().unwrap_or_default();
        let mut out = stream;
        match (method.as_str(), path) {
            ("POST", "/v1/messages") => {
                let req: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
                let (block, stop) = self.answer(&req);
                let model = req["model"].as_str().unwrap_or("claude-sonnet-4-5").to_owned();
                if req["stream"].as_bool() == Some(true) {
                    stream_message(&mut out, &model, &block, stop)
                } else {
                    let msg = json!({"id": "msg_tiergate", "type": "message", "role": "assistant", "model": model, "content": [block],
                        "stop_reason": stop, "stop_sequence": null, "usage": usage()});
                    respond(&mut out, "200 OK", "application/json", msg.to_string().as_bytes())
                }
            }
            ("POST", "/v1/messages/count_tokens") => {
                respond(&mut out, "200 OK", "application/json", json!({"input_tokens": body.len() / 4 + 1}).to_string().as_bytes())
            }
            _ => {
                let err = json!({"type": "error", "error": {"type": "not_found_error", "message": format!("no {path} here")}});
                respond(&mut out, "404 Not Found", "application/json", err.to_string().as_bytes())
            }
        }
    }

    /// Records the request's tool results and picks the reply block.
    fn answer(&self, req: &Value) -> (Value, &'static str) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let tools: Vec<&str> = req["tools"].as_array().into_iter().flatten().filter_map(|t| t["name"].as_str()).collect();
        let mut issued = 0;
        for m in req["messages"].as_array().into_iter().flatten() {
            for b in m["content"].as_array().into_iter().flatten() {
                if m["role"] == "assistant" && b["type"] == "tool_use" && b["id"].as_str().is_some_and(|id| id.starts_with(ID_PREFIX)) {
                    issued += 1;
                }
                if m["role"] == "user" && b["type"] == "tool_result" {
                    let id = b["tool_use_id"].as_str().unwrap_or_default().to_owned();
                    if !s.results.iter().any(|(seen, _)| *seen == id) {
                        let r = ToolResult { is_error: b["is_error"].as_bool() == Some(true), content: text_of(&b["content"]) };
                        s.results.push((id, r));
                    }
                }
            }
        }
        let next = s.script.steps.get(issued).filter(|st| st["name"].as_str().is_some_and(|n| tools.contains(&n))).cloned();
        match next {
            Some(step) => {
                s.issued += 1;
                let id = format!("{ID_PREFIX}{:08}", s.issued);
                (json!({"type": "tool_use", "id": id, "name": step["name"], "input": step["input"]}), "tool_use")
            }
            None => (json!({"type": "text", "text": "Finished."}), "end_turn"),
        }
    }
}

/// The text of a `tool_result`'s content (a string, or text blocks).
fn text_of(c: &Value) -> String {
    match c {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts.iter().map(|p| p["text"].as_str().map_or_else(|| p.to_string(), str::to_owned)).collect::<Vec<_>>().join("\n"),
        other => other.to_string(),
    }
}

fn usage() -> Value {
    json!({"input_tokens": 10, "output_tokens": 5, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0})
}

fn read_exact(r: &mut impl Read, n: usize) -> std::io::Result<Vec<u8>> {
    let mut buf = vec![0; n];
    r.read_exact(&mut buf)?;
    Ok(buf)
}

fn read_chunked(r: &mut impl BufRead) -> std::io::Result<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let mut size = String::new();
        r.read_line(&mut size)?;
        let n = usize::from_str_radix(size.trim().split(';').next().unwrap_or("0"), 16).unwrap_or(0);
        if n == 0 {
            let mut end = String::new();
            r.read_line(&mut end)?;
            return Ok(body);
        }
        body.extend(read_exact(r, n)?);
        let mut crlf = String::new();
        r.read_line(&mut crlf)?;
    }
}

/// A whole response; the connection closes after it.
fn respond(out: &mut TcpStream, status: &str, kind: &str, body: &[u8]) -> std::io::Result<()> {
    write!(out, "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nrequest-id: req_tiergate\r\nConnection: close\r\n\r\n", body.len())?;
    out.write_all(body)?;
    out.flush()
}

/// The reply as the Messages API streams it: server-sent events, the body
/// ending when the connection closes.
fn stream_message(out: &mut TcpStream, model: &str, block: &Value, stop: &str) -> std::io::Result<()> {
    write!(
        out,
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\nCache-Control: no-cache\r\nrequest-id: req_tiergate\r\nConnection: close\r\n\r\n"
    )?;
    let mut ev = |name: &str, data: Value| -> std::io::Result<()> {
        write!(out, "event: {name}\ndata: {data}\n\n")?;
        out.flush()
    };
    ev(
        "message_start",
        json!({"type": "message_start", "message": {"id": "msg_tiergate", "type": "message", "role": "assistant", "model": model,
        "content": [], "stop_reason": null, "stop_sequence": null, "usage": usage()}}),
    )?;
    if block["type"] == "tool_use" {
        ev(
            "content_block_start",
            json!({"type": "content_block_start", "index": 0,
            "content_block": {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}}),
        )?;
        ev(
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": block["input"].to_string()}}),
        )?;
    } else {
        ev("content_block_start", json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}))?;
        ev("content_block_delta", json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": block["text"]}}))?;
    }
    ev("content_block_stop", json!({"type": "content_block_stop", "index": 0}))?;
    ev("message_delta", json!({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": null}, "usage": {"output_tokens": 20}}))?;
    ev("message_stop", json!({"type": "message_stop"}))
}
