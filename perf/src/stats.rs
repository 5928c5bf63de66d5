//! The robust statistics the benches judge by: medians, nearest-rank percentiles,
//! and paired differences with a MAD-based standard error.

/// A case's per-round differences from the floor spawned in the same round.
pub(crate) struct Paired {
    pub(crate) p50: f64,
    pub(crate) p90: f64,
    /// Standard error of `p50`: 1.2533 σ / √n, with σ estimated as 1.4826 × the
    /// median absolute deviation (robust to the one-off outliers of a shared machine).
    pub(crate) se50: f64,
}

impl Paired {
    pub(crate) fn of(case: &[f64], floor: &[f64]) -> Paired {
        Paired::of_differences(case.iter().zip(floor).map(|(c, f)| c - f).collect())
    }

    /// The same figures over differences (or ratios) already paired by the caller.
    pub(crate) fn of_differences(mut d: Vec<f64>) -> Paired {
        if d.is_empty() {
            return Paired { p50: 0.0, p90: 0.0, se50: 0.0 };
        }
        d.sort_by(f64::total_cmp);
        let (p50, p90) = (percentile(&d, 0.50), percentile(&d, 0.90));
        let mut dev: Vec<f64> = d.iter().map(|x| (x - p50).abs()).collect();
        dev.sort_by(f64::total_cmp);
        let sigma = 1.4826 * percentile(&dev, 0.50);
        Paired { p50, p90, se50: 1.2533 * sigma / (d.len() as f64).sqrt() }
    }
}

pub(crate) fn median(xs: &mut [f64]) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// Nearest-rank percentile of sorted `xs`.
pub(crate) fn percentile(xs: &[f64], p: f64) -> f64 {
    let rank = ((p * xs.len() as f64).ceil() as usize).clamp(1, xs.len());
    xs[rank - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paired_differences_cancel_a_load_swing_that_moves_both_sides() {
        // Every other round the machine is 5 ms slower for both spawns of the round.
        let floor: Vec<f64> = (0..200).map(|r| 1.0 + if r % 2 == 0 { 5.0 } else { 0.0 }).collect();
        let case: Vec<f64> = floor.iter().map(|f| f + 0.2).collect();
        let p = Paired::of(&case, &floor);
        assert!((p.p50 - 0.2).abs() < 1e-9 && (p.p90 - 0.2).abs() < 1e-9 && p.se50 < 1e-9, "{}", p.p50);
        // A hook that is really 0.5 ms slower shows as 0.5 ms more, whatever the swing.
        let slower: Vec<f64> = case.iter().map(|c| c + 0.5).collect();
        assert!((Paired::of(&slower, &floor).p50 - 0.7).abs() < 1e-9);
    }

    #[test]
    fn percentile_is_nearest_rank() {
        let xs: Vec<f64> = (1..=200).map(f64::from).collect();
        assert_eq!(percentile(&xs, 0.50), 100.0);
        assert_eq!(percentile(&xs, 0.99), 198.0);
    }
}
