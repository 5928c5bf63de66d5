//! History columns: `id,command,weight`, weight = occurrence count >= 1. It validates
//! a row's fields; user history from `--history` comes through crate::import instead.

use super::Spec;

pub(super) const COLUMNS: &[&str] = &["id", "command", "weight"];

type Parsed = (Spec, u64, Option<String>, String);

pub(super) fn spec(f: &super::Fields, bad: &mut dyn FnMut(&str, String)) -> Option<Parsed> {
    match f.get("weight").parse::<u64>() {
        Ok(w) if w >= 1 => Some((Spec::History, w, None, String::new())),
        _ => {
            bad("weight", format!("{:?} is not an occurrence count >= 1", f.get("weight")));
            None
        }
    }
}
