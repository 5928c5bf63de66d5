//! Text tools with an output-file option or a program hook: `sort -o`, `uniq IN OUT`,
//! `shuf -o`, `split … PREFIX`, `base64 -o`, `tree -o` (writes through
//! `writes::check_write`), and `rg --pre CMD` (runs a program).
//!
//! Without those options these tools only read; they are owned here only so the
//! options are seen.

use super::{operand_args, value_arg, wrote};
use crate::call::{Arg, Invocation};
use crate::rules::{Cx, Rule};
use crate::words;

/// ## What it matches
/// Options that make a text or file tool run another program: `rg --pre CMD`,
/// `install --strip-program=CMD`.
/// ## Why this tier
/// The named program runs on every file searched or installed, unseen.
pub(super) static RUNS_PROGRAM: Rule = Rule::t3("coreutils.runs-program")
    .reason("this option runs another program on each file; run that program yourself, or search without it")
    .matches(words!["rg --pre ./decode.sh foo", "rg --pre=pdftotext term docs/"])
    .not_matches(words!["rg --files", "rg -n TODO src/", "rg --pre-glob '*.pdf' x"]);

pub(super) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    let cwd = inv.cwd.as_deref();
    match inv.program.as_str() {
        "rg" => {
            if inv.has_long("--pre") {
                cx.hit(&RUNS_PROGRAM);
            }
            return;
        }
        "uniq" => {
            let ops = operand_args(inv, words!["-f", "--skip-fields", "-s", "--skip-chars", "-w", "--check-chars", "--group", "--all-repeated"]);
            let Some(out) = ops.get(1) else {
                return;
            };
            super::write_to(cx, out, cwd);
        }
        "xxd" => {
            // `xxd [-r] IN OUT`: the second operand is written.
            let ops = operand_args(inv, words!["-c", "-cols", "-g", "-groupsize", "-l", "-len", "-o", "-offset", "-s", "-seek", "-n", "-name"]);
            let Some(out) = ops.get(1) else {
                return;
            };
            super::write_to(cx, out, cwd);
        }
        "split" => {
            let ops = operand_args(
                inv,
                words![
                    "-a", "--suffix-length", "-b", "--bytes", "-C", "--line-bytes", "-l", "--lines", "-n", "--number", "-t", "--separator",
                    "--additional-suffix", "--filter",
                ],
            );
            let prefix = ops.get(1).map(|a| (*a).clone()).unwrap_or_else(|| Arg::lit("x"));
            super::write_to(cx, &prefix, cwd);
            if inv.has_long("--filter") {
                cx.hit_because(&RUNS_PROGRAM, "split --filter runs a shell command on each piece; split to files instead".to_owned());
            }
        }
        _ => {
            // sort, shuf, base64, tree: `-o FILE` / `--output=FILE`.
            if inv.program == "sort" && inv.has_long("--compress-program") {
                cx.hit_because(&RUNS_PROGRAM, "sort --compress-program runs that program on temporary files; drop the option".to_owned());
            }
            let Some(out) = value_arg(inv, words!["-o", "--output"]) else {
                return;
            };
            super::write_to(cx, &out, cwd);
        }
    }
    wrote(cx);
}
