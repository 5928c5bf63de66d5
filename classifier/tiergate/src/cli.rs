//! `tiergate classify` and `tiergate explain`.

use std::process::ExitCode;

use classifier::{Request, Verdict};

use crate::args::Parsed;
use crate::realfs::RealFs;

fn request(args: &Parsed) -> Result<Request, String> {
    let cwd = args.value("--cwd").map(str::to_owned).or_else(|| std::env::current_dir().ok().map(|p| p.to_string_lossy().into_owned()));
    let words = &args.operands;
    if words.is_empty() {
        return Err("give the command to classify as one argument, e.g. tiergate classify 'git push -f'".into());
    }
    let home = std::env::var("HOME").ok();
    let data_dir = crate::hook::store::data_dir(None).ok();
    let protect = crate::hook::files::build(&[], &[], data_dir.as_deref(), home.as_deref(), None).unwrap_or_default();
    let mut req = Request::new(&words.join(" ")).with_protected(protect);
    req.cwd = cwd;
    req.home = home;
    Ok(req)
}

pub fn verdict_json(v: &Verdict) -> String {
    serde_json::json!({
        "tier": v.tier.as_str(),
        "blocked": v.blocked,
        "decision": v.decision.as_str(),
        "rule": v.rule,
        "reason": v.reason,
        "span": [v.span.start, v.span.end],
    })
    .to_string()
}

pub fn classify(args: &Parsed) -> ExitCode {
    match request(args) {
        Ok(req) => {
            println!("{}", verdict_json(&classifier::classify_with(&req, &RealFs)));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tiergate classify: {e}");
            ExitCode::from(2)
        }
    }
}

pub fn explain(args: &Parsed) -> ExitCode {
    match request(args) {
        Ok(req) => {
            print!("{}", classifier::explain::trace(&req, &RealFs).render());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tiergate explain: {e}");
            ExitCode::from(2)
        }
    }
}
