//! The `packages` family. (Being written.)

pub(crate) mod args;

use crate::call::Invocation;
use crate::rules::{Cx, Family, Rule};

pub static FAMILY: Family = Family { name: "packages", programs: &[], check, rules: RULES };

static RULES: &[&Rule] = &[];

fn check(_inv: &Invocation, _cx: &mut Cx<'_>) {}
