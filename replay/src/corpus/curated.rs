//! The curated kind: `corpus/curated/*.csv`, columns `id,command,cwd,expect,family,note`,
//! family `bypass` (head at least as strict as expect), `fp` (at most as strict) or
//! `worst` (at least) — adversarial forms and false positives seen in peers' trackers.

use super::table::{self, cwd_of, Fields, Parsed, Table};
use super::{CorpusKind, Kind, Row, Source, Spec};
use crate::checks::Failure;
use crate::protocol::{Class, Verdict};

pub(super) const TABLE: Table = Table { kind: Kind::Curated, columns: &["id", "command", "cwd", "expect", "family", "note"], alt_columns: None, spec };

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CuratedFamily {
    Bypass,
    Fp,
    Worst,
}

fn spec(f: &Fields, bad: &mut dyn FnMut(&str, String)) -> Option<Parsed> {
    let expect = Class::parse(f.get("expect"));
    if expect.is_none() {
        bad("expect", format!("{:?} is not one of T0 T1 T2 T3 BLOCKED", f.get("expect")));
    }
    let family = match f.get("family") {
        "bypass" => Some(CuratedFamily::Bypass),
        "fp" => Some(CuratedFamily::Fp),
        "worst" => Some(CuratedFamily::Worst),
        other => {
            bad("family", format!("{other:?} is not one of bypass fp worst"));
            None
        }
    };
    Some((Spec::Curated { expect: expect?, family: family? }, 1, cwd_of(f.get("cwd")), f.get("note").to_owned()))
}

pub(super) struct Curated;

impl CorpusKind for Curated {
    fn location(&self) -> &'static str {
        "corpus/curated/*.csv"
    }

    fn load(&self, src: &dyn Source) -> Result<Vec<Row>, Vec<String>> {
        table::load(&TABLE, src)
    }

    /// Bypass and worst-case rows: head at least as strict as expected; false-positive
    /// guards: at most.
    fn check(&self, r: &Row, v: &Verdict) -> Option<Failure> {
        let Spec::Curated { expect, family } = r.spec else { return None };
        let at = format!("{}:{} {}", r.file, r.line, r.id);
        if let Some(e) = &v.error {
            return Some(Failure::new("curated", Some(&r.id), format!("{at}: head gave no verdict ({e})")));
        }
        let (holds, what) = match family {
            CuratedFamily::Bypass => (v.class >= expect, "bypass: expected at least"),
            CuratedFamily::Worst => (v.class >= expect, "worst case: expected at least"),
            CuratedFamily::Fp => (v.class <= expect, "false-positive guard: expected at most"),
        };
        (!holds).then(|| Failure::new("curated", Some(&r.id), format!("{at}: {what} {expect}, head says {} ({}: {})", v.class, v.rule, v.reason)))
    }
}
