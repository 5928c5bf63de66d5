//! Answers one side's rows: cached answers from the store, the misses through one
//! batch child, new answers stored. Also the determinism check: a fresh head child
//! re-answers a sample and must agree.
//!
//! A command on its own is keyed by (command, cwd) and deduplicated. A step of an
//! agent's session may read what the session's earlier steps wrote, so its key adds
//! `after`, a digest of those steps (`contexts`), and a session with any miss is
//! sent whole, in order, up to its last miss (the child rebuilds its files only by
//! classifying them).

use std::collections::{HashMap, HashSet};
use std::path::Path;

use sha2::{Digest, Sha256};

use crate::build::Subject;
use crate::exit::ReplayError;
use crate::protocol::Verdict;
use crate::runner::{run, Job, Patience};
use crate::store::Store;

/// What one side did, for the terminal.
#[derive(Clone, Debug, Default)]
pub struct SideStats {
    pub rows: usize,
    pub cached: usize,
    pub ran: usize,
}

/// The `after` of every job: empty for a command on its own and for a session's
/// first step; otherwise a digest of the session's earlier steps (command and cwd),
/// which is all that decides what the step can read.
pub fn contexts(jobs: &[Job]) -> Vec<String> {
    let mut running: HashMap<&str, (Sha256, usize)> = HashMap::new();
    jobs.iter()
        .map(|j| {
            let Some(s) = j.session.as_deref() else { return String::new() };
            let (h, steps) = running.entry(s).or_insert_with(|| (Sha256::new(), 0));
            let after = if *steps == 0 { String::new() } else { crate::build::hex(&h.clone().finalize())[..24].to_owned() };
            h.update(j.command.as_bytes());
            h.update([0]);
            h.update(j.cwd.as_deref().unwrap_or("").as_bytes());
            h.update([0]);
            *steps += 1;
            after
        })
        .collect()
}

type Key = (String, String, String);

/// Answers `jobs` in order, using and filling the cache at `store_path`.
pub fn answer(
    subject: &Subject,
    jobs: &[Job],
    store_path: &Path,
    patience: impl Into<Patience>,
    tick: &(dyn Fn() + Sync),
    log: fn(&str),
) -> Result<(Vec<Verdict>, SideStats), ReplayError> {
    let after = contexts(jobs);
    let key = |i: usize| -> Key { (jobs[i].command.clone(), jobs[i].cwd.clone().unwrap_or_default(), after[i].clone()) };
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
    let mut known: HashMap<Key, Verdict> = match (&store, &subject.build_id) {
        (Some(s), Some(id)) => s.load(id).unwrap_or_default(),
        _ => HashMap::new(),
    };
    let send = misses(jobs, &|i| known.contains_key(&key(i)));
    let sent: HashSet<usize> = send.iter().copied().collect();
    let cached = (0..jobs.len()).filter(|i| !sent.contains(i)).count();
    for _ in 0..cached {
        tick();
    }
    if !send.is_empty() {
        let sent_jobs: Vec<Job> = send.iter().map(|&i| jobs[i].clone()).collect();
        let answers = run(subject, &sent_jobs, patience, tick)?;
        if let (Some(s), Some(id)) = (store.as_mut(), &subject.build_id) {
            let items = send.iter().zip(&answers).map(|(&i, v)| (jobs[i].command.as_str(), jobs[i].cwd.as_deref().unwrap_or(""), after[i].as_str(), v));
            if let Err(e) = s.insert(id, items) {
                log(&format!("could not store verdicts ({e}); the next run will answer them again"));
            }
        }
        for (&i, v) in send.iter().zip(answers) {
            known.insert(key(i), v);
        }
    }
    let out: Vec<Verdict> = (0..jobs.len()).map(|i| known.get(&key(i)).cloned().unwrap_or_else(|| Verdict::error("no answer recorded"))).collect();
    let stats = SideStats { rows: jobs.len(), cached, ran: jobs.len() - cached };
    Ok((out, stats))
}

/// The jobs to send, in order: each uncached command on its own once, and every
/// session with an uncached step from its first step to its last uncached one.
fn misses(jobs: &[Job], cached: &dyn Fn(usize) -> bool) -> Vec<usize> {
    let mut last_miss: HashMap<&str, usize> = HashMap::new();
    for (i, j) in jobs.iter().enumerate() {
        if let Some(s) = j.session.as_deref() {
            if !cached(i) {
                last_miss.insert(s, i);
            }
        }
    }
    let mut seen = HashSet::new();
    (0..jobs.len())
        .filter(|&i| match jobs[i].session.as_deref() {
            Some(s) => last_miss.get(s).is_some_and(|&last| i <= last),
            None => !cached(i) && seen.insert((&jobs[i].command, &jobs[i].cwd)),
        })
        .collect()
}

/// Re-answers an evenly spaced sample of `jobs` on a fresh child (no cache) and
/// fails if any verdict differs from `first`. A sampled session step is sent after
/// its session's earlier steps, under a session name of its own.
pub fn determinism(subject: &Subject, jobs: &[Job], first: &[Verdict], sample: usize, patience: impl Into<Patience>) -> Result<usize, ReplayError> {
    if jobs.is_empty() || sample == 0 {
        return Ok(0);
    }
    let step = (jobs.len() / sample).max(1);
    let idx: Vec<usize> = (0..jobs.len()).step_by(step).take(sample).collect();
    let mut picked: Vec<Job> = Vec::new();
    let mut at: Vec<usize> = Vec::new();
    for (n, &i) in idx.iter().enumerate() {
        if let Some(s) = jobs[i].session.as_deref() {
            let own = format!("determinism-{n}:{s}");
            for j in (0..i).filter(|&j| jobs[j].session.as_deref() == Some(s)) {
                picked.push(Job { session: Some(own.clone()), ..jobs[j].clone() });
            }
            at.push(picked.len());
            picked.push(Job { session: Some(own), ..jobs[i].clone() });
        } else {
            at.push(picked.len());
            picked.push(jobs[i].clone());
        }
    }
    let again = run(subject, &picked, patience, &|| {})?;
    for (&i, &p) in idx.iter().zip(&at) {
        let (a, v) = (&first[i], &again[p]);
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
