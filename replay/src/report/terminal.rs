//! The terminal summary: the verdict line, counts and caps as `tabled` tables, and
//! the first failures. Timings are added by the caller (they never reach files).

use tabled::builder::Builder;
use tabled::settings::Style;

use super::markdown::verdict_line;
use super::Report;
use crate::diff::{counts, Category};

/// Failures printed on the terminal before "N more".
const SHOWN: usize = 20;

pub fn render(r: &Report) -> String {
    let mut out = String::new();
    out.push_str(&verdict_line(r));
    out.push('\n');
    let mut b = Builder::default();
    let mut header = vec!["corpus".to_owned(), "rows".to_owned()];
    header.extend(Category::ALL.iter().map(|c| c.as_str().to_owned()));
    b.push_record(header);
    let counts = counts(&r.rows);
    for k in &r.corpora {
        let m = counts.get(k);
        let total: u64 = m.map(|m| m.values().map(|c| c.rows).sum()).unwrap_or(0);
        let mut rec = vec![k.as_str().to_owned(), total.to_string()];
        for c in Category::ALL {
            rec.push(m.and_then(|m| m.get(&c)).map(|c| c.rows).unwrap_or(0).to_string());
        }
        b.push_record(rec);
    }
    out.push_str(&b.build().with(Style::sharp()).to_string());
    out.push('\n');
    if !r.caps.is_empty() {
        let mut b = Builder::default();
        b.push_record(["corpus", "cap", "used/limit", ""]);
        for c in &r.caps {
            let mark = if c.exceeded() { "EXCEEDED" } else { "ok" };
            b.push_record([c.corpus.as_str().to_owned(), c.cap.to_owned(), format!("{}/{}", c.used, c.limit), mark.to_owned()]);
        }
        out.push_str(&b.build().with(Style::sharp()).to_string());
        out.push('\n');
    }
    for n in &r.notes {
        out.push_str(&format!("note: {n}\n"));
    }
    for f in r.failures.iter().take(SHOWN) {
        out.push_str(&format!("FAIL [{}] {}\n", f.area, f.message));
    }
    if r.failures.len() > SHOWN {
        out.push_str(&format!("… {} more failures in summary.md\n", r.failures.len() - SHOWN));
    }
    out
}
