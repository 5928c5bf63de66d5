//! Every xtask flag, declared once, parsed into typed values. Parsing only
//! validates; building a `replay::config::Config` happens in replay_task.rs.

use std::path::PathBuf;

pub const USAGE: &str = "\
usage: cargo xtask <task>

  replay [accept] [--base REV] [--check] [--corpus truth,history,curated]
         [--only ID[,ID…]]… [--history PATH]… [--against CMD] [--require-base]
         [--timeout SECS] [--shard I/N]
  replay merge FILE|DIR… [replay flags]
      Replays every corpus through tiergate at the base and at the work tree,
      diffs, checks truth, declarations and caps, writes reports/<base>..<head>/.
      `accept` then writes pending moves into truth CSVs and
      declared/<base>..<head>.json templates (reason TODO), restricted by --only.
      --shard I/N replays only the rows hashing to shard I and exports their answers
      to reports/<base>..<head>.shards/I-of-N.jsonl; `merge` loads shard answers into
      the verdict cache, then runs the whole replay (the same report as one run).
      Exit: 0 clean, 1 policy, 2 usage/config, 3 infrastructure.
  bench [classify|lanes|hook]… [--check]
      classify: tiergate batch throughput; lanes: library ns/command per lane;
      hook: tiergate hook p50/p99 over the /bin/true floor (shipped build),
      interleaved: T0, T3, blocked, log on/off, after 10,000 logged calls, nonce
      grant. Without --check rewrites benches/baselines/<group>.json.
  bench batch [--base REV]
      tiergate batch and library (benches/lanes.rs) throughput over the tldr
      corpus, base (default main) against head in one run, passes alternating;
      writes benches/baselines/batch.json.
  dist
      Builds the shipped tiergate (profile dist, static; target/dist/tiergate).
  bench replay [--base REV] [--runs N] [--corpus LIST] [--save]
      Times warm replays of every corpus excluding the head build (budget 10 s);
      --save writes benches/baselines/replay.json.
  probe --command C [--cwd D] --expect allow|ask|deny|T0..T3|BLOCKED [--rev REV] [--root DIR]
      Verdict of one command at REV (default: work tree): exit 0 match, 1 mismatch,
      125 cannot build/test (the `git bisect run` contract).
  bisect (--command C [--cwd D] | --corpus-row ID) [--good REV] [--bad REV]
         [--regress changed|loosened|tightened] [--root DIR]
      First commit on --first-parent good..bad that moved the verdict.
  coverage [--check | --bless] [--bin PATH]
      Per rule: truth rows hitting it on each side, the nearest control, curated and
      history rows; prints gaps in corpus/coverage-exemptions.csv form; writes
      reports/coverage/. --check (or CI): exit 1 on a gap not exempted or a stale line;
      --bless rewrites the exemption file (reasons kept, new gaps as todo: lines).
  mutants [--list] [--shard I/N] [--rules PREFIX] [--sample N] [--keep-going]
      Seeded regressions of the rule tables, each built and put through the bench's
      gate (rule examples, truth, curated, caps, declarations); reports/mutants/.
  mutants merge DIR…   joins shard reports into reports/mutants/.
  oracle [--sample N] [--shard I/N] [--corpus tldr,truth,curated] [--timeout SECS] [--jobs N] [--selftest]
      Opt-in (root, bwrap, strace): runs what head's tiergate allows in a verified sandbox
      under strace (the self-test runs first, every time), classifies attempted effects,
      diffs them against corpus/oracle/baseline.csv; reports/oracle/.
  oracle --metamorphic [--check]   regenerates (verifies) corpus/curated/oracle_wrappers.csv
  oracle --reanalyse REPORT_DIR    reclassifies a run's kept traces (no sandbox)
  corpus …   corpus maintenance (see xtask/src/corpus.rs)";

#[derive(Debug, Default)]
pub struct ReplayFlags {
    pub accept: bool,
    pub base: Option<String>,
    pub check: bool,
    pub corpus: Option<Vec<String>>,
    pub only: Vec<String>,
    pub history: Vec<PathBuf>,
    pub against: Option<String>,
    pub require_base: bool,
    pub timeout: Option<f64>,
    pub shard: Option<(usize, usize)>,
}

fn value<'a>(it: &mut impl Iterator<Item = &'a String>, flag: &str) -> Result<String, String> {
    it.next().cloned().ok_or_else(|| format!("{flag} needs a value"))
}

pub fn parse_replay(args: &[String]) -> Result<ReplayFlags, String> {
    let mut f = ReplayFlags::default();
    let mut it = args.iter().peekable();
    let mut after_only = false;
    if it.peek().map(|s| s.as_str()) == Some("accept") {
        f.accept = true;
        it.next();
    }
    while let Some(a) = it.next() {
        let (flag, inline) = match a.split_once('=') {
            Some((k, v)) if k.starts_with("--") => (k, Some(v.to_owned())),
            _ => (a.as_str(), None),
        };
        let val = |it: &mut std::iter::Peekable<std::slice::Iter<'_, String>>| match &inline {
            Some(v) => Ok(v.clone()),
            None => value(it, flag),
        };
        match flag {
            "--base" => f.base = Some(val(&mut it)?),
            "--check" => f.check = true,
            "--require-base" => f.require_base = true,
            "--corpus" => f.corpus = Some(val(&mut it)?.split(',').map(str::to_owned).collect()),
            "--only" => {
                f.only.extend(val(&mut it)?.split(',').filter(|s| !s.is_empty()).map(str::to_owned));
                after_only = true;
                continue;
            }
            "--history" => f.history.push(PathBuf::from(val(&mut it)?)),
            "--against" => f.against = Some(val(&mut it)?),
            "--shard" => {
                let v = val(&mut it)?;
                let parsed = v.split_once('/').and_then(|(i, n)| Some((i.parse::<usize>().ok()?, n.parse::<usize>().ok()?)));
                match parsed {
                    Some((i, n)) if i >= 1 && i <= n => f.shard = Some((i, n)),
                    _ => return Err(format!("--shard {v:?}: expected I/N with 1 <= I <= N")),
                }
            }
            "--timeout" => {
                let v = val(&mut it)?;
                f.timeout = Some(v.parse().map_err(|_| format!("--timeout {v:?}: not a number of seconds"))?);
            }
            other if after_only && !other.starts_with('-') => {
                // `--only a b,c`: bare words after --only are more ids.
                f.only.extend(other.split(',').filter(|s| !s.is_empty()).map(str::to_owned));
                continue;
            }
            other => return Err(format!("unknown argument {other:?} for `replay`")),
        }
        after_only = false;
    }
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn accept_takes_several_only_ids() {
        let f = parse_replay(&v("accept --only a b,c --check")).unwrap();
        assert!(f.accept && f.check);
        assert_eq!(f.only, ["a", "b", "c"]);
    }

    #[test]
    fn unknown_flag_is_an_error() {
        assert!(parse_replay(&v("--bogus")).unwrap_err().contains("--bogus"));
        assert!(parse_replay(&v("--base")).unwrap_err().contains("needs a value"));
        assert_eq!(parse_replay(&v("--shard 2/3")).unwrap().shard, Some((2, 3)));
        assert!(parse_replay(&v("--shard 4/3")).is_err() && parse_replay(&v("--shard x")).is_err());
    }
}
