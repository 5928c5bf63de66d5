//! `tiergate rules`: the rule registry as JSON lines (id, family, class, examples),
//! so the bench (`cargo xtask coverage`, `cargo xtask mutants`) can read the rules
//! of the very binary it replays without linking the classifier.

use std::io::Write;
use std::process::ExitCode;

use classifier::rules::FAMILIES;

pub fn run() -> ExitCode {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for f in FAMILIES {
        for r in f.rules {
            let class = if r.blocked { "BLOCKED" } else { r.tier.as_str() };
            let line = serde_json::json!({"id": r.id, "family": f.name, "class": class, "matches": r.matches.iter().collect::<Vec<_>>(), "not_matches": r.not_matches.iter().collect::<Vec<_>>()});
            if writeln!(out, "{line}").is_err() {
                return ExitCode::SUCCESS;
            }
        }
    }
    let _ = out.flush();
    ExitCode::SUCCESS
}
