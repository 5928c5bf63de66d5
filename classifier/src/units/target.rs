//! A unit once its wrappers are peeled: the invocation is built, the families
//! run on it, and the trace records it. Kept out of `simple`, whose stack frame
//! every nesting level pays for (the worst cases run on a 512 KiB stack).

use super::trace::Bound;
use super::{append, dispatch_unit, Eng};
use crate::call::{Arg, Invocation, Secret, Stdin};
use crate::rules::{self, flow, shell, Cx, Hit};
use crate::verdict::Span;

impl Eng<'_> {
    /// The unit's program after its wrappers: builds the invocation, runs the
    /// families on it and records it. Out of `simple`, whose frame every nesting
    /// level pays for (the worst cases run on a 512 KiB stack): the invocation and
    /// the families' context live in this frame, which the recursion through a
    /// word's substitutions does not hold.
    #[inline(never)]
    pub(super) fn run_target(
        &mut self,
        t: Target,
        slot: usize,
        span: Span,
        cwd: Option<&str>,
        procsub_programs: &[String],
        (mut hits, redirected): (Vec<Hit>, std::ops::Range<usize>),
    ) -> (Vec<Hit>, Option<Invocation>) {
        let Target { mut args, start, unit, stdin, peeled, piped, secret_input, fed_input, mut cx_hits, notes, bound, redirect_hits } = t;
        // The program's own words move into the invocation (no copy). Its name is
        // the one a case-insensitive file system finds (`Rm` is `rm`: `names`).
        let program = crate::names::program(&args[start].text).into_owned();
        let mut own_args = args.split_off(start + 1);
        // `git reset --h` is `--hard`: every family sees the full option.
        if rules::exec::options::expand_abbreviations(&mut own_args) {
            cx_hits.push(Hit { rule: &rules::exec::options::ABBREVIATION, detail: None, span });
        }
        let inv = Invocation {
            program,
            program_path: std::mem::take(&mut args[start].text),
            args: own_args,
            cwd: cwd.map(str::to_owned),
            stdin,
            wrappers: peeled,
            piped,
            secret_input,
            span,
            search_paths: self.exported_paths.iter().chain(&self.unit_paths).cloned().collect(),
        };
        self.note_secrets(&inv);
        self.handed = None;
        let outer = std::mem::replace(&mut self.judging, unit);
        let mut cx = Cx::new(self, span);
        // A shell string with an input line pasted in is code tiergate cannot see.
        if fed_input && rules::traits_of(&inv.program).has(rules::Traits::SHELL) && inv.args.iter().any(|a| !a.exact) {
            let detail = format!(
                "`xargs -I` pastes each input line into the words of this `{}`, so the shell code it runs is unknown; run the command directly",
                inv.program
            );
            cx.hit_because(&shell::DYNAMIC_COMMAND, detail);
        }
        dispatch_unit(&inv, &mut cx);
        if !procsub_programs.is_empty() {
            flow::check_procsub_exec(&inv, procsub_programs, &mut cx);
        }
        if cx.hits.is_empty() {
            cx.hit(&rules::DEFAULT_ELIMINATION);
        }
        let mut unit_hits = std::mem::take(&mut cx.hits);
        self.judging = outer;
        // Hits found while peeling wrappers (`env LD_PRELOAD=…`) belong to this unit.
        unit_hits.extend(cx_hits);
        self.record_invocation(slot, (&inv, &args[..start]), bound, (redirect_hits, &hits[redirected]), notes, &unit_hits);
        append(&mut hits, unit_hits);
        // A runner that handed its input to a child is that child to the pipeline.
        match self.handed.take() {
            Some((depth, child)) if depth == self.depth => (hits, Some(child)),
            _ => (hits, Some(inv)),
        }
    }
}

/// A unit's words once its wrappers are peeled, for [`Eng::run_target`]: the
/// program is `args[start]`.
pub(super) struct Target {
    pub(super) args: Vec<Arg>,
    pub(super) start: usize,
    /// The unit's number (`Eng::judging` while its families run).
    pub(super) unit: usize,
    pub(super) stdin: Stdin,
    pub(super) peeled: Vec<&'static str>,
    pub(super) piped: bool,
    pub(super) secret_input: Secret,
    /// Some word of the target is an input line (`xargs -I{} sh -c {}`).
    pub(super) fed_input: bool,
    /// Hits found while peeling wrappers.
    pub(super) cx_hits: Vec<Hit>,
    /// What each peeled wrapper runs, for `explain`.
    pub(super) notes: Vec<Hit>,
    /// What a grant binds besides the words (`trace::Parts`).
    pub(super) bound: Bound,
    pub(super) redirect_hits: Vec<Hit>,
}
