//! The `cloud` family (stub being filled): shared verb tables live here.

pub(crate) mod generic;
pub(crate) mod verbs;

use crate::call::Invocation;
use crate::rules::{Cx, Family, Rule};

pub static FAMILY: Family = Family { name: "cloud", programs: &[], check, rules: RULES };

static RULES: &[&Rule] = &[];

fn check(_inv: &Invocation, _cx: &mut Cx<'_>) {}
