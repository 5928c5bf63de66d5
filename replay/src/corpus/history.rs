//! The history kind: `corpus/history/*.csv`, columns `id,command,weight`, weight =
//! occurrence count >= 1 — real command lines, weighted. A user's own history from
//! `--history` joins it through crate::import. Head must give every row a verdict;
//! its commands are shown redacted in reports.

use super::table::{self, Fields, Parsed, Table};
use super::{CorpusKind, Kind, Row, Source, Spec};
use crate::checks::Failure;
use crate::protocol::Verdict;

pub(super) const TABLE: Table = Table { kind: Kind::History, columns: &["id", "command", "weight"], alt_columns: None, spec };

fn spec(f: &Fields, bad: &mut dyn FnMut(&str, String)) -> Option<Parsed> {
    match f.get("weight").parse::<u64>() {
        Ok(w) if w >= 1 => Some((Spec::History, w, None, String::new())),
        _ => {
            bad("weight", format!("{:?} is not an occurrence count >= 1", f.get("weight")));
            None
        }
    }
}

pub(super) struct History;

impl CorpusKind for History {
    fn location(&self) -> &'static str {
        "corpus/history/*.csv"
    }

    fn load(&self, src: &dyn Source) -> Result<Vec<Row>, Vec<String>> {
        table::load(&TABLE, src)
    }

    fn check(&self, r: &Row, v: &Verdict) -> Option<Failure> {
        let e = v.error.as_ref()?;
        Some(Failure::new("error", Some(&r.id), format!("history {}: head gave no verdict ({e})", r.id)))
    }

    fn private(&self) -> bool {
        true
    }
}
