//! Strictest unit wins: blocked dominates, then the highest tier; among equals the
//! first in command order, preferring a named rule over the default.

use crate::rules::{self, Hit};
use crate::verdict::{Span, Verdict};

pub fn verdict(hits: &[Hit]) -> Verdict {
    let key = |h: &Hit| (h.rule.blocked, h.rule.tier, !std::ptr::eq(h.rule, &rules::DEFAULT_ELIMINATION));
    let mut best: Option<&Hit> = None;
    for h in hits {
        if best.is_none_or(|b| key(h) > key(b)) {
            best = Some(h);
        }
    }
    match best {
        Some(h) => Verdict::new(h.rule.tier, h.rule.blocked, h.rule.id, h.reason().to_owned(), h.span),
        None => {
            let r = &rules::DEFAULT_EMPTY;
            Verdict::new(r.tier, r.blocked, r.id, r.reason.to_owned(), Span::default())
        }
    }
}
