//! Name tables searched by halves (issue 14): an index of a table's positions,
//! sorted by name at compile time, so asking whether a program is a wrapper, an
//! exempt reader or a known verb costs ~log2(n) comparisons instead of a scan
//! of every entry (those scans were ~10 % of the library's instructions).
//!
//! The tables themselves stay as declared (lists other code reads in order); the
//! index holds positions (`u16`), not `&str`s, so it adds no relocation for the
//! loader to apply at each start (see `rules::OWNERS`). Equal names sort by
//! position, so [`find`] answers the first declared entry, as `iter().find` does.

use crate::words::Words;

/// The positions of `names` sorted by name, then by position.
pub(crate) const fn order<const N: usize>(names: Words) -> [u16; N] {
    order_by(names, false)
}

/// The positions of `names` sorted by name with ASCII letters folded to lower
/// case (`Rscript` beside `rscript`), then by position: the index
/// [`find_folded`] searches (`crate::names`).
pub(crate) const fn order_folded<const N: usize>(names: Words) -> [u16; N] {
    order_by(names, true)
}

const fn order_by<const N: usize>(names: Words, folded: bool) -> [u16; N] {
    assert!(names.len() == N && N <= u16::MAX as usize);
    let mut t = [0u16; N];
    let mut i = 0;
    while i < N {
        t[i] = i as u16;
        i += 1;
    }
    // Heapsort: O(n log n) steps at compile time, no allocation.
    let mut start = N / 2;
    while start > 0 {
        start -= 1;
        sift_down(&mut t, names, folded, start, N);
    }
    let mut end = N;
    while end > 1 {
        end -= 1;
        let top = t[0];
        t[0] = t[end];
        t[end] = top;
        sift_down(&mut t, names, folded, 0, end);
    }
    t
}

const fn sift_down<const N: usize>(t: &mut [u16; N], names: Words, folded: bool, mut root: usize, end: usize) {
    loop {
        let mut child = 2 * root + 1;
        if child >= end {
            return;
        }
        if child + 1 < end && before(names, folded, t[child], t[child + 1]) {
            child += 1;
        }
        if !before(names, folded, t[root], t[child]) {
            return;
        }
        let x = t[root];
        t[root] = t[child];
        t[child] = x;
        root = child;
    }
}

/// Position `a` sorts before position `b`: by name (folded or not), then by position.
const fn before(names: Words, folded: bool, a: u16, b: u16) -> bool {
    let (x, y) = (names.bytes_at(a as usize), names.bytes_at(b as usize));
    if folded {
        return less_folded(x, y) || (!less_folded(y, x) && a < b);
    }
    less(x, y) || (!less(y, x) && a < b)
}

/// `a < b` with ASCII upper-case letters read as lower case.
const fn less_folded(a: &[u8], b: &[u8]) -> bool {
    let mut i = 0;
    while i < a.len() && i < b.len() {
        let (x, y) = (a[i].to_ascii_lowercase(), b[i].to_ascii_lowercase());
        if x != y {
            return x < y;
        }
        i += 1;
    }
    a.len() < b.len()
}

/// Byte-wise lexicographic `a < b` (`Ord` for `[u8]` is not `const`).
pub(crate) const fn less(a: &[u8], b: &[u8]) -> bool {
    let mut i = 0;
    while i < a.len() && i < b.len() {
        if a[i] != b[i] {
            return a[i] < b[i];
        }
        i += 1;
    }
    a.len() < b.len()
}

/// The first declared position whose name is `key`; `name(i)` is the name at
/// position `i` of the table `order` indexes.
pub(crate) fn find<'t>(order: &[u16], key: &str, name: impl Fn(usize) -> &'t [u8]) -> Option<usize> {
    let key = key.as_bytes();
    let at = order.partition_point(|&i| below(name(usize::from(i)), key));
    order.get(at).map(|&i| usize::from(i)).filter(|&i| name(i) == key)
}

/// The first declared position whose name folds to `key` (ASCII case ignored;
/// `key` itself is already lower case), through an [`order_folded`] index.
pub(crate) fn find_folded<'t>(order: &[u16], key: &str, name: impl Fn(usize) -> &'t [u8]) -> Option<usize> {
    let key = key.as_bytes();
    let at = order.partition_point(|&i| less_folded(name(usize::from(i)), key));
    order.get(at).map(|&i| usize::from(i)).filter(|&i| name(i).eq_ignore_ascii_case(key))
}

/// `a < b` for byte strings, deciding on the first byte in place when it differs
/// (most probes of a search), so `memcmp` is called only for names that share it.
#[inline]
pub(crate) fn below(a: &[u8], b: &[u8]) -> bool {
    match (a.first(), b.first()) {
        (Some(x), Some(y)) if x != y => x < y,
        _ => a < b,
    }
}

/// `names.contains(&key)`, through `order` (from [`order`] over `names`).
pub(crate) fn contains(names: Words, order: &[u16], key: &str) -> bool {
    find(order, key, |i| names.bytes_at(i)).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const LIST: &[&str] = &["sudo", "env", "", "a", "ab", "b", "env", "zz", "A", "é", "ab-c", "env"];
    const NAMES: Words = crate::words!["sudo", "env", "", "a", "ab", "b", "env", "zz", "A", "é", "ab-c", "env"];
    static ORDER: [u16; NAMES.len()] = order(NAMES);
    static FOLDED: [u16; NAMES.len()] = order_folded(NAMES);

    #[test]
    fn the_index_is_a_sorted_permutation() {
        let mut seen: Vec<u16> = ORDER.to_vec();
        seen.sort_unstable();
        assert_eq!(seen, (0..NAMES.len() as u16).collect::<Vec<_>>());
        assert!(ORDER.windows(2).all(|w| (LIST[usize::from(w[0])], w[0]) < (LIST[usize::from(w[1])], w[1])), "{ORDER:?}");
    }

    proptest! {
        /// Finding through the index answers what a scan in declared order answers.
        #[test]
        fn find_is_the_first_declared_match(key in prop_oneof![proptest::sample::select(LIST).prop_map(str::to_owned), "[a-z]{0,3}"]) {
            prop_assert_eq!(find(&ORDER, &key, |i| NAMES.bytes_at(i)), LIST.iter().position(|n| *n == key));
            prop_assert_eq!(contains(NAMES, &ORDER, &key), LIST.contains(&key.as_str()));
        }

        /// The folded index answers what a case-insensitive scan in declared order answers.
        #[test]
        fn find_folded_is_the_first_declared_match_ignoring_case(key in prop_oneof![proptest::sample::select(LIST).prop_map(str::to_lowercase), "[a-z]{0,3}"]) {
            prop_assert_eq!(find_folded(&FOLDED, &key, |i| NAMES.bytes_at(i)), LIST.iter().position(|n| n.eq_ignore_ascii_case(&key)));
        }

        #[test]
        fn below_is_less_than(a in proptest::collection::vec(0u8..4, 0..4), b in proptest::collection::vec(0u8..4, 0..4)) {
            prop_assert_eq!(below(&a, &b), a < b);
        }
    }
}
