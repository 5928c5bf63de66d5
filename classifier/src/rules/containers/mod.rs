//! The `containers` family. (Stub: no rules yet.)

use crate::call::Invocation;
use crate::rules::{Cx, Family, Rule};

pub static FAMILY: Family = Family { name: "containers", programs: &[], check, rules: RULES };

static RULES: &[&Rule] = &[];

fn check(_inv: &Invocation, _cx: &mut Cx<'_>) {}
