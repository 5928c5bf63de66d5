//! Trace: the units of a command, the wrappers stripped and the rules hit.
//! Used by `tiergate explain` and by tests. (Stub.)

use crate::lanes::FileSource;
use crate::verdict::{Span, Tier, Verdict};
use crate::Request;

pub struct Trace {
    pub verdict: Verdict,
}

impl Trace {
    pub fn signature(&self) -> String {
        String::new()
    }
    pub fn render(&self) -> String {
        String::new()
    }
}

pub fn trace(_req: &Request, _files: &dyn FileSource) -> Trace {
    Trace { verdict: Verdict::new(Tier::T3, false, "parse.unsupported", "stub".into(), Span::default()) }
}

pub fn explain(req: &Request) -> String {
    trace(req, &crate::NoFiles).render()
}
