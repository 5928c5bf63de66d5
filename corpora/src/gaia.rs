//! `cargo xtask corpus gaia`: agreement with the Python original's own expectations
//! (`gaia_cases.csv`, issue 2). The cases are reduced to one class per distinct
//! command — free (allow), gated (ask/deny) or blocked — with the hook's gate lane
//! (validator/hook rows) winning over the api lane, and the api lane over the
//! flag-classifier unit lane. Rows about the original's own `gaia` CLI and its
//! orchestration-only policies are set aside (counted, with the reason). Every kept
//! command goes through `tiergate batch` (protocol v1); the task prints agreement
//! and writes the disagreements to `reports/gaia/`. It changes no corpus file.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{bail, Context};
use serde::Deserialize;

use replay::corpus::{Kind, Spec};
use replay::protocol::Class;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Gate {
    Free,
    Gated,
    Blocked,
}

impl Gate {
    fn as_str(self) -> &'static str {
        match self {
            Gate::Free => "free",
            Gate::Gated => "gated",
            Gate::Blocked => "blocked",
        }
    }
    fn of_class(c: Class) -> Gate {
        match c {
            Class::T0 | Class::T1 | Class::T2 => Gate::Free,
            Class::T3 => Gate::Gated,
            Class::Blocked => Gate::Blocked,
        }
    }
}

#[derive(Debug, Deserialize)]
struct Case {
    case_id: String,
    command: String,
    expected_tier: String,
    expected_mutative: String,
    lane: String,
    context: String,
    expected_blocked: String,
    expected_decision: String,
}

/// One distinct command with the class the original expects.
#[derive(Clone, Debug)]
pub struct Expectation {
    pub command: String,
    pub gate: Gate,
    pub lane: &'static str,
    pub case_id: String,
}

/// The reduction's result: kept expectations and set-aside counts by reason.
pub struct Reduced {
    pub kept: Vec<Expectation>,
    pub dropped: Vec<(&'static str, usize)>,
    pub ignored_rows: Vec<(&'static str, usize)>,
    pub cases: usize,
    pub distinct: usize,
}

fn row_gate(c: &Case) -> Option<Gate> {
    let (t, d) = (c.expected_tier.as_str(), c.expected_decision.as_str());
    match c.lane.as_str() {
        "validator" | "hook" => match (t, d) {
            ("BLOCKED", _) | (_, "block") | (_, "BLOCKED") => Some(Gate::Blocked),
            (_, "allow") => Some(Gate::Free),
            (_, "ask") | (_, "deny") => Some(Gate::Gated),
            ("T0" | "T1" | "T2", _) => Some(Gate::Free),
            ("T3", _) => Some(Gate::Gated),
            _ => None,
        },
        "flags" => match d {
            "READ_ONLY" => Some(Gate::Free),
            "MUTATIVE" => Some(Gate::Gated),
            "BLOCKED" => Some(Gate::Blocked),
            _ => None,
        },
        _ => match t {
            "BLOCKED" => Some(Gate::Blocked),
            "T0" | "T1" | "T2" => Some(Gate::Free),
            "T3" => Some(Gate::Gated),
            _ if c.expected_blocked == "true" => Some(Gate::Blocked),
            _ => match c.expected_mutative.as_str() {
                "true" => Some(Gate::Gated),
                "false" => Some(Gate::Free),
                _ => None,
            },
        },
    }
}

/// The original's own CLI and data store: product-specific, not shell semantics.
fn is_gaia_cli(cmd: &str) -> bool {
    let words = cmd.split(|c: char| c.is_whitespace() || ";&|()`$/".contains(c));
    words.clone().any(|w| w == "gaia") || cmd.contains("gaia.db") || cmd.contains(".gaia/") || cmd.contains("GAIA_")
}

/// CLIs whose output the original forbids piping, redirecting or chaining.
const NATIVE_OUTPUT_CLIS: &[&str] =
    &["gcloud", "aws", "gsutil", "az", "eksctl", "kubectl", "helm", "flux", "terraform", "terragrunt", "tofu", "cdk", "pulumi", "cdktf"];

/// An orchestration-only policy verdict of the original's validator (not shell
/// semantics): the Conventional-Commits BLOCK on `git commit -m`, and the corrective
/// main-session deny on pipes/redirects/chains around cloud CLIs.
fn policy_row(c: &Case) -> Option<&'static str> {
    if !matches!(c.lane.as_str(), "validator" | "hook") {
        return None;
    }
    let cmd = c.command.trim_start();
    if cmd.starts_with("git commit") && c.expected_decision == "block" {
        return Some("commit-message format policy (Conventional Commits BLOCK)");
    }
    let cloud = cmd.split(['|', ';', '&']).filter_map(|s| s.split_whitespace().next()).any(|w| NATIVE_OUTPUT_CLIS.contains(&w));
    if c.context == "main" && c.expected_decision == "deny" && cloud {
        return Some("cloud-pipe/chaining/redirect corrective deny");
    }
    None
}

pub fn reduce(text: &[u8]) -> anyhow::Result<Reduced> {
    let mut rdr = csv::Reader::from_reader(text);
    let mut by_cmd: Vec<(String, Vec<Case>)> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut cases = 0usize;
    for (i, rec) in rdr.deserialize::<Case>().enumerate() {
        let c = rec.with_context(|| format!("gaia_cases.csv:{}", i + 2))?;
        cases += 1;
        let at = *index.entry(c.command.clone()).or_insert_with(|| {
            by_cmd.push((c.command.clone(), Vec::new()));
            by_cmd.len() - 1
        });
        by_cmd[at].1.push(c);
    }
    let distinct = by_cmd.len();
    let mut dropped: HashMap<&'static str, usize> = HashMap::new();
    let mut ignored: HashMap<&'static str, usize> = HashMap::new();
    let mut kept = Vec::new();
    for (cmd, rows) in by_cmd {
        if cmd.trim().is_empty() {
            *dropped.entry("empty command (the original BLOCKs it as product policy)").or_default() += 1;
            continue;
        }
        if is_gaia_cli(&cmd) {
            *dropped.entry("the original's own gaia CLI / gaia.db / GAIA_* environment").or_default() += 1;
            continue;
        }
        let mut usable = Vec::new();
        for r in &rows {
            match policy_row(r) {
                Some(why) => *ignored.entry(why).or_default() += 1,
                None => usable.push(r),
            }
        }
        let pick = |lanes: &[&str]| -> Vec<(&Case, Gate)> {
            usable.iter().filter(|r| lanes.contains(&r.lane.as_str())).filter_map(|r| row_gate(r).map(|g| (*r, g))).collect()
        };
        let (lane, chosen) = [("hook", &["validator", "hook"][..]), ("api", &["api"][..]), ("flags", &["flags"][..])]
            .into_iter()
            .map(|(name, lanes)| (name, pick(lanes)))
            .find(|(_, v)| !v.is_empty())
            .unwrap_or(("none", Vec::new()));
        let Some((case, gate)) = chosen.iter().max_by_key(|(_, g)| *g).map(|(c, g)| (*c, *g)) else {
            let why = if usable.len() < rows.len() {
                "only orchestration-policy expectations (commit format, cloud pipes)"
            } else {
                "no tier, decision or mutative expectation in any lane"
            };
            *dropped.entry(why).or_default() += 1;
            continue;
        };
        kept.push(Expectation { command: cmd, gate, lane, case_id: case.case_id.clone() });
    }
    let mut dropped: Vec<_> = dropped.into_iter().collect();
    dropped.sort();
    let mut ignored_rows: Vec<_> = ignored.into_iter().collect();
    ignored_rows.sort();
    Ok(Reduced { kept, dropped, ignored_rows, cases, distinct })
}

#[derive(Debug, Deserialize)]
struct Answer {
    blocked: Option<bool>,
    decision: Option<String>,
    tier: Option<String>,
    rule: Option<String>,
    error: Option<String>,
}

/// One command's answer: gate, tier and rule, or the error text.
type BatchAnswer = Result<(Gate, String, String), String>;

/// Runs `bin batch` over `commands`; one answer (or error text) per command, in order.
pub fn batch(bin: &Path, commands: &[String]) -> anyhow::Result<Vec<BatchAnswer>> {
    let mut child = Command::new(bin)
        .arg("batch")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .with_context(|| format!("starting {} batch", bin.display()))?;
    let mut stdin = child.stdin.take().context("no stdin")?;
    let lines: Vec<String> = commands.iter().enumerate().map(|(i, c)| serde_json::json!({"id": i, "command": c}).to_string()).collect();
    let writer = std::thread::spawn(move || -> std::io::Result<()> {
        for l in lines {
            stdin.write_all(l.as_bytes())?;
            stdin.write_all(b"\n")?;
        }
        Ok(())
    });
    let out = BufReader::new(child.stdout.take().context("no stdout")?);
    let mut answers = Vec::with_capacity(commands.len());
    for line in out.lines() {
        let line = line?;
        let a: Answer = match serde_json::from_str(&line) {
            Ok(a) => a,
            Err(e) => {
                answers.push(Err(format!("unparsable answer ({e}): {line}")));
                continue;
            }
        };
        let rule = a.rule.clone().unwrap_or_default();
        let tier = a.tier.clone().unwrap_or_default();
        answers.push(match (a.error, a.blocked, a.decision.as_deref()) {
            (Some(e), _, _) => Err(e),
            (None, Some(true), _) => Ok((Gate::Blocked, tier, rule)),
            (None, _, Some("allow")) => Ok((Gate::Free, tier, rule)),
            (None, _, Some("ask" | "deny")) => Ok((Gate::Gated, tier, rule)),
            _ => Err(format!("answer without blocked/decision: {line}")),
        });
    }
    let _ = writer.join();
    let status = child.wait()?;
    if answers.len() != commands.len() {
        bail!("{} batch answered {} of {} lines (exit {status})", bin.display(), answers.len(), commands.len());
    }
    Ok(answers)
}

/// Truth rows seeded from the original (`gaia:<case_id>` in the note), by command;
/// where their class differs from the original's, the divergence is deliberate.
fn deliberate(root: &Path) -> HashMap<String, (Gate, String)> {
    let mut m = HashMap::new();
    if let Ok(t) = replay::corpus::load_worktree(root, Kind::Truth) {
        for r in t.rows {
            if let Spec::Truth { expect, .. } = r.spec {
                if r.note.contains("gaia:") && r.cwd.is_none() {
                    m.insert(r.command.clone(), (Gate::of_class(expect), r.id.clone()));
                }
            }
        }
    }
    m
}

pub fn run(root: &Path, bin: Option<PathBuf>, cases: Option<PathBuf>) -> anyhow::Result<i32> {
    let cases = cases.unwrap_or_else(|| root.join("../shared/reference/gaia_cases.csv"));
    let text = std::fs::read(&cases).with_context(|| format!("reading {} (pass --cases PATH)", cases.display()))?;
    let red = reduce(&text)?;
    let bin = bin.unwrap_or_else(|| root.join("target/release/tiergate"));
    if !bin.exists() {
        bail!("{} not found: run `cargo build --release -p tiergate --bin tiergate` or pass --bin PATH", bin.display());
    }
    let cmds: Vec<String> = red.kept.iter().map(|e| e.command.clone()).collect();
    let answers = batch(&bin, &cmds)?;
    let ours = deliberate(root);
    let (mut agree, mut errors) = (0usize, 0usize);
    let mut matrix: HashMap<(Gate, Option<Gate>), usize> = HashMap::new();
    let mut dis = Vec::new();
    let (mut div_total, mut div_agree_with_us) = (0usize, 0usize);
    for (e, a) in red.kept.iter().zip(&answers) {
        let got = a.as_ref().ok().map(|x| x.0);
        *matrix.entry((e.gate, got)).or_default() += 1;
        if got == Some(e.gate) {
            agree += 1;
            continue;
        }
        if got.is_none() {
            errors += 1;
        }
        let our = ours.get(&e.command).filter(|(g, _)| *g != e.gate);
        if let Some((g, _)) = our {
            div_total += 1;
            if got == Some(*g) {
                div_agree_with_us += 1;
            }
        }
        let (tier, rule) = match a {
            Ok((_, t, r)) => (t.clone(), r.clone()),
            Err(err) => ("error".to_owned(), err.clone()),
        };
        dis.push(vec![
            e.case_id.clone(),
            e.lane.to_owned(),
            e.gate.as_str().to_owned(),
            got.map_or("error", Gate::as_str).to_owned(),
            tier,
            rule,
            our.map_or(String::new(), |(g, id)| format!("{id} expects {}", g.as_str())),
            e.command.clone(),
        ]);
    }
    let n = red.kept.len();
    let pct = |a: usize, b: usize| if b == 0 { 0.0 } else { 100.0 * a as f64 / b as f64 };
    let excl = n - div_total;
    let mut md = String::new();
    md += "# Agreement with gaia_cases.csv\n\n";
    md += &format!("Binary: `{}`\n\n", bin.strip_prefix(root).unwrap_or(&bin).display());
    md += &format!("{} cases, {} distinct commands; {} kept after the reduction.\n\n", red.cases, red.distinct, n);
    md += "Set aside (whole commands):\n\n";
    for (why, k) in &red.dropped {
        md += &format!("- {k}: {why}\n");
    }
    md += "\nIgnored expectation rows (the command is kept if another lane speaks):\n\n";
    for (why, k) in &red.ignored_rows {
        md += &format!("- {k}: {why}\n");
    }
    md += &format!("\n**Agreement: {agree}/{n} = {:.1}%** ({errors} error answers).\n\n", pct(agree, n));
    md += &format!(
        "Excluding the {div_total} disagreements on commands where corpus/truth deliberately corrects the original \
         (see docs/divergences.md): {agree}/{excl} = {:.1}%; on those {div_total}, tiergate matches our truth row in {div_agree_with_us}.\n\n",
        pct(agree, excl)
    );
    md += "| expected \\ got | free | gated | blocked | error |\n|---|---|---|---|---|\n";
    for g in [Gate::Free, Gate::Gated, Gate::Blocked] {
        let c = |x: Option<Gate>| matrix.get(&(g, x)).copied().unwrap_or(0);
        md += &format!("| {} | {} | {} | {} | {} |\n", g.as_str(), c(Some(Gate::Free)), c(Some(Gate::Gated)), c(Some(Gate::Blocked)), c(None));
    }
    md += &format!("\n{} disagreements are listed in `reports/gaia/disagreements.csv`.\n", dis.len());
    let header = ["case_id", "lane", "gaia", "tiergate", "tier", "rule", "our_truth", "command"];
    let csv = super::csvout::render(&header, &dis)?;
    let dir = root.join("reports/gaia");
    replay::report::write::atomic(&dir.join("agreement.md"), md.as_bytes())?;
    replay::report::write::atomic(&dir.join("disagreements.csv"), csv.as_bytes())?;
    print!("{md}");
    println!("written: reports/gaia/agreement.md, reports/gaia/disagreements.csv");
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "source_file,case_id,command,expected_tier,expected_mutative,family,notes,lane,context,expected_blocked,expected_api_tier,expected_decision,expected_validator_tier,method\n";

    #[test]
    fn hook_lane_wins_and_policies_are_set_aside() {
        let text = format!(
            "{HEAD}f,a1,git checkout .,T0,false,,,api,,,T0,,,trace\n\
             f,v1,git checkout .,,,,,flags,,,,BLOCKED,,trace\n\
             f,h1,git checkout .,T3,,,,validator,main,,,ask,T3,trace\n\
             f,a2,rm -rf /,BLOCKED,,,,api,,true,,,,trace\n\
             f,h2,kubectl get pods | grep x,,,,,validator,main,,,deny,,trace\n\
             f,a3,kubectl get pods | grep x,T0,false,,,api,,,T0,,,trace\n\
             f,h3,git commit -m 'bad',,,,,validator,main,,,block,,trace\n\
             f,a4,gaia brief list,T0,,,,api,,,,,,trace\n\
             f,a5,ls,,,,,api,,false,,,,trace\n"
        );
        let r = reduce(text.as_bytes()).unwrap();
        let got: Vec<(&str, Gate, &str)> = r.kept.iter().map(|e| (e.command.as_str(), e.gate, e.lane)).collect();
        assert_eq!(got, [("git checkout .", Gate::Gated, "hook"), ("rm -rf /", Gate::Blocked, "api"), ("kubectl get pods | grep x", Gate::Free, "api")]);
        assert_eq!(r.cases, 9);
        let dropped: usize = r.dropped.iter().map(|d| d.1).sum();
        assert_eq!(dropped, 3, "{:?}", r.dropped);
        assert_eq!(r.ignored_rows.iter().map(|d| d.1).sum::<usize>(), 2);
    }
}
