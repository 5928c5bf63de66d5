//! Curated columns: `id,command,cwd,expect,family,note`, family `bypass` (head at
//! least as strict as expect), `fp` (at most as strict) or `worst` (at least). It
//! validates fields; crate::checks applies the direction.

use super::{cwd_of, Spec};
use crate::protocol::Class;

pub(super) const COLUMNS: &[&str] = &["id", "command", "cwd", "expect", "family", "note"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CuratedFamily {
    Bypass,
    Fp,
    Worst,
}

type Parsed = (Spec, u64, Option<String>, String);

pub(super) fn spec(f: &super::Fields, bad: &mut dyn FnMut(&str, String)) -> Option<Parsed> {
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
