//! Progress bars for the two replay sides (indicatif), shown only when the caller
//! says stderr is a terminal; otherwise every call is a no-op.

/// Progress bars on a terminal only.
pub struct Bars(Option<(indicatif::MultiProgress, [indicatif::ProgressBar; 2])>);

impl Bars {
    pub fn new(on: bool, head: usize, base: usize) -> Bars {
        if !on {
            return Bars(None);
        }
        let mp = indicatif::MultiProgress::new();
        let style =
            indicatif::ProgressStyle::with_template("{prefix:>5} [{bar:40}] {pos}/{len} {per_sec}").unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
        let mk = |n: usize, p: &'static str| {
            let b = mp.add(indicatif::ProgressBar::new(n as u64));
            b.set_style(style.clone());
            b.set_prefix(p);
            b
        };
        let bars = [mk(head, "head"), mk(base, "base")];
        Bars(Some((mp, bars)))
    }
    pub fn tick(&self, i: usize) {
        if let Some((_, b)) = &self.0 {
            b[i].inc(1);
        }
    }
    pub fn finish(&self) {
        if let Some((_, b)) = &self.0 {
            b.iter().for_each(|b| b.finish_and_clear());
        }
    }
}
