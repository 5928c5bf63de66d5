//! Answers one side's rows: cached answers from the store, the misses (deduplicated
//! by command and cwd) through one batch child, new answers stored. Also the
//! determinism check: a fresh head child re-answers a sample and must agree.

use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

use crate::build::Subject;
use crate::exit::ReplayError;
use crate::protocol::Verdict;
use crate::runner::{run, Job};
use crate::store::Store;

/// What one side did, for the terminal.
#[derive(Clone, Debug, Default)]
pub struct SideStats {
    pub rows: usize,
    pub cached: usize,
    pub ran: usize,
}

/// Answers `jobs` in order, using and filling the cache at `store_path`.
pub fn answer(
    subject: &Subject,
    jobs: &[Job],
    store_path: &Path,
    timeout: Duration,
    tick: &(dyn Fn() + Sync),
    log: fn(&str),
) -> Result<(Vec<Verdict>, SideStats), ReplayError> {
    let key = |j: &Job| (j.command.clone(), j.cwd.clone().unwrap_or_default());
    let mut store = match &subject.build_id {
        Some(_) => match Store::open(store_path) {
            Ok(s) => Some(s),
            Err(e) => {
                log(&format!("verdict cache unavailable ({e}); answering everything"));
                None
            }
        },
        None => None,
    };
    let mut known: HashMap<(String, String), Verdict> = match (&store, &subject.build_id) {
        (Some(s), Some(id)) => s.load(id).unwrap_or_default(),
        _ => HashMap::new(),
    };
    let mut misses: Vec<Job> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for j in jobs {
        let k = key(j);
        if !known.contains_key(&k) && seen.insert(k) {
            misses.push(j.clone());
        }
    }
    let cached = jobs.len() - misses.len().min(jobs.len());
    for _ in 0..cached {
        tick();
    }
    if !misses.is_empty() {
        let answers = run(subject, &misses, timeout, tick)?;
        if let (Some(s), Some(id)) = (store.as_mut(), &subject.build_id) {
            let items = misses.iter().zip(&answers).map(|(j, v)| (j.command.as_str(), j.cwd.as_deref().unwrap_or(""), v));
            if let Err(e) = s.insert(id, items) {
                log(&format!("could not store verdicts ({e}); the next run will answer them again"));
            }
        }
        for (j, v) in misses.iter().zip(answers) {
            known.insert(key(j), v);
        }
    }
    let out: Vec<Verdict> = jobs.iter().map(|j| known.get(&key(j)).cloned().unwrap_or_else(|| Verdict::error("no answer recorded"))).collect();
    let stats = SideStats { rows: jobs.len(), cached, ran: jobs.len() - cached };
    Ok((out, stats))
}

/// Re-answers an evenly spaced sample of `jobs` on a fresh child (no cache) and
/// fails if any verdict differs from `first`.
pub fn determinism(subject: &Subject, jobs: &[Job], first: &[Verdict], sample: usize, timeout: Duration) -> Result<usize, ReplayError> {
    if jobs.is_empty() || sample == 0 {
        return Ok(0);
    }
    let step = (jobs.len() / sample).max(1);
    let idx: Vec<usize> = (0..jobs.len()).step_by(step).take(sample).collect();
    let picked: Vec<Job> = idx.iter().map(|&i| jobs[i].clone()).collect();
    let again = run(subject, &picked, timeout, &|| {})?;
    for (&i, v) in idx.iter().zip(&again) {
        let a = &first[i];
        if a.is_error() || v.is_error() {
            continue; // timeouts are reported as error rows, not as nondeterminism
        }
        if a != v {
            return Err(ReplayError::infra(format!(
                "head is nondeterministic: `{}` answered {} then {} — verdicts must be repeatable",
                jobs[i].command,
                a.short(),
                v.short()
            )));
        }
    }
    Ok(idx.len())
}
