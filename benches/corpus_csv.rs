//! The commands of an `id,command,weight` corpus CSV, unquoted by the RFC 4180 rules
//! (commands hold quotes, commas and newlines). Shared by `benches/lanes.rs` and the
//! plain fast path's model-equality test (`classifier/src/parse/plain.rs`), which
//! cannot depend on a CSV crate: the library stays lean.

/// The second field of each record after the header.
pub fn commands(text: &str) -> Vec<String> {
    let (mut out, mut field, mut rec, mut q) = (Vec::new(), String::new(), Vec::new(), false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (q, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => q = false,
            (false, '"') => q = true,
            (false, ',') => rec.push(std::mem::take(&mut field)),
            (false, '\n') => {
                rec.push(std::mem::take(&mut field));
                out.extend(std::mem::take(&mut rec).into_iter().nth(1));
            }
            (_, c) => field.push(c),
        }
    }
    if !out.is_empty() {
        out.remove(0); // header
    }
    out
}
