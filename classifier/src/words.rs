//! `Words`: a static list of strings that costs the loader nothing per entry.
//!
//! A `&'static [&'static str]` table is an array of pointers. The shipped
//! `tiergate` is a static position-independent executable, so every one of those
//! pointers is a relocation the program applies to itself at each start, and the
//! page holding it is copied on write. Rule tables, rule examples and option
//! lists made about half of the binary's 25,600 relocations and most of the
//! hook's start-up cost above the spawn floor (docs/decisions/0005-hook-startup.md).
//!
//! [`words!`](crate::words!) packs a list at compile time into one string of the
//! entries back to back and one array of their end offsets: two pointers per
//! list, whatever its length. Reading an entry is an index into the offsets.

/// A compile-time list of strings: `words!["status", "log", "show"]`.
#[derive(Clone, Copy)]
pub struct Words {
    /// Every entry, concatenated.
    text: &'static str,
    /// Where each entry ends in `text`; entry `i` starts where `i - 1` ends.
    ends: &'static [u16],
}

/// A list of strings written in the source: `words![…]`, or `&["-o", "--output"]`
/// at a call site. Functions that read option spellings or names take this, so a
/// caller may pass either.
pub trait WordList<'a>: Copy {
    fn each(self) -> impl Iterator<Item = &'a str> + Clone;
    fn has(self, word: &str) -> bool {
        self.each().any(|w| w == word)
    }
}

impl<'a> WordList<'a> for Words {
    fn each(self) -> impl Iterator<Item = &'a str> + Clone {
        self.iter().map(|w| -> &'a str { w })
    }
    fn has(self, word: &str) -> bool {
        self.contains(word)
    }
}

impl<'a> WordList<'a> for &'a [&'a str] {
    fn each(self) -> impl Iterator<Item = &'a str> + Clone {
        self.iter().copied()
    }
}

impl<'a, const N: usize> WordList<'a> for &'a [&'a str; N] {
    fn each(self) -> impl Iterator<Item = &'a str> + Clone {
        self.iter().copied()
    }
}

impl Words {
    /// Used by [`words!`](crate::words!), which computes both halves at compile time.
    #[doc(hidden)]
    pub const fn packed(text: &'static str, ends: &'static [u16]) -> Words {
        Words { text, ends }
    }

    /// The two halves [`Words::packed`] takes, for passing a list as scalars (a
    /// struct passed by value may be copied from a relocated constant; a `&str` and
    /// a slice are two registers each).
    #[doc(hidden)]
    pub const fn parts(self) -> (&'static str, &'static [u16]) {
        (self.text, self.ends)
    }

    pub const fn len(&self) -> usize {
        self.ends.len()
    }

    pub const fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    const fn span(&self, i: usize) -> (usize, usize) {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        (start, self.ends[i] as usize)
    }

    /// Entry `i`'s bytes, in a `const` context (compile-time sorting).
    pub const fn bytes_at(&self, i: usize) -> &'static [u8] {
        let (start, end) = self.span(i);
        let (head, _) = self.text.as_bytes().split_at(end);
        head.split_at(start).1
    }

    /// Entry `i` (panics when `i >= len()`, like slice indexing).
    pub fn get(&self, i: usize) -> &'static str {
        let (start, end) = self.span(i);
        &self.text[start..end]
    }

    pub fn first(&self) -> Option<&'static str> {
        self.iter().next()
    }

    pub fn iter(&self) -> Iter {
        Iter { text: self.text, ends: self.ends, start: 0 }
    }

    /// Whether `word` is an entry. Compares lengths first, as a slice's `contains` does.
    pub fn contains(&self, word: impl AsRef<str>) -> bool {
        self.find(word.as_ref()).is_some()
    }

    /// The entry equal to `word` (as `'static`), if any.
    pub fn find(&self, word: &str) -> Option<&'static str> {
        let w = word.as_bytes();
        let mut start = 0;
        let text = self.text.as_bytes();
        for &end in self.ends {
            let end = usize::from(end);
            // Length, then first byte, before a `memcmp` call: most entries differ there.
            if end - start == w.len() && w.first().is_none_or(|b| text.get(start) == Some(b)) && &text[start..end] == w {
                return Some(&self.text[start..end]);
            }
            start = end;
        }
        None
    }
}

impl PartialEq for Words {
    fn eq(&self, other: &Words) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Eq for Words {}

impl Default for Words {
    fn default() -> Words {
        crate::words![]
    }
}

impl std::fmt::Debug for Words {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl IntoIterator for Words {
    type Item = &'static str;
    type IntoIter = Iter;
    fn into_iter(self) -> Iter {
        self.iter()
    }
}

impl IntoIterator for &Words {
    type Item = &'static str;
    type IntoIter = Iter;
    fn into_iter(self) -> Iter {
        self.iter()
    }
}

/// The entries of a [`Words`], in declared order.
#[derive(Clone)]
pub struct Iter {
    text: &'static str,
    ends: &'static [u16],
    start: usize,
}

impl Iterator for Iter {
    type Item = &'static str;
    fn next(&mut self) -> Option<&'static str> {
        let (&end, rest) = self.ends.split_first()?;
        let end = usize::from(end);
        let w = &self.text[self.start..end];
        self.ends = rest;
        self.start = end;
        Some(w)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.ends.len(), Some(self.ends.len()))
    }
}

impl ExactSizeIterator for Iter {}

impl DoubleEndedIterator for Iter {
    fn next_back(&mut self) -> Option<&'static str> {
        let (&end, rest) = self.ends.split_last()?;
        let start = rest.last().map_or(self.start, |&e| usize::from(e));
        self.ends = rest;
        Some(&self.text[start..usize::from(end)])
    }
}

/// Total length of `list`'s entries (for [`words!`](crate::words!)).
#[doc(hidden)]
pub const fn total_len(list: &[&str]) -> usize {
    let (mut n, mut i) = (0, 0);
    while i < list.len() {
        n += list[i].len();
        i += 1;
    }
    assert!(n <= u16::MAX as usize, "a words! list holds at most 65,535 bytes");
    n
}

/// Copies `bytes` into `out` at `at`; returns where the copy ends.
const fn put(out: &mut [u8], mut at: usize, bytes: &[u8]) -> usize {
    let mut j = 0;
    while j < bytes.len() {
        out[at] = bytes[j];
        at += 1;
        j += 1;
    }
    at
}

/// `list`'s entries back to back (for [`words!`](crate::words!)).
#[doc(hidden)]
pub const fn join<const N: usize>(list: &[&str]) -> [u8; N] {
    let mut out = [0u8; N];
    let (mut at, mut i) = (0, 0);
    while i < list.len() {
        at = put(&mut out, at, list[i].as_bytes());
        i += 1;
    }
    assert!(at == N);
    out
}

/// Where each of `list`'s entries ends in [`join`]'s output.
#[doc(hidden)]
pub const fn ends<const N: usize>(list: &[&str]) -> [u16; N] {
    let mut out = [0u16; N];
    let (mut at, mut i) = (0, 0);
    while i < N {
        at += list[i].len();
        out[i] = at as u16;
        i += 1;
    }
    out
}

/// `bytes` as a `str` (they are whole `&str`s joined, so always UTF-8).
#[doc(hidden)]
pub const fn text(bytes: &'static [u8]) -> &'static str {
    match std::str::from_utf8(bytes) {
        Ok(s) => s,
        Err(_) => panic!("words!: joined entries are not UTF-8"),
    }
}

/// How many entries `parts` hold together (for [`joined_words!`](crate::joined_words!)).
#[doc(hidden)]
pub const fn parts_count(parts: &[Words]) -> usize {
    let (mut n, mut i) = (0, 0);
    while i < parts.len() {
        n += parts[i].len();
        i += 1;
    }
    n
}

/// How many bytes `parts` hold together.
#[doc(hidden)]
pub const fn parts_len(parts: &[Words]) -> usize {
    let (mut n, mut i) = (0, 0);
    while i < parts.len() {
        n += parts[i].text.len();
        i += 1;
    }
    assert!(n <= u16::MAX as usize, "a joined list holds at most 65,535 bytes");
    n
}

/// `parts`' texts back to back.
#[doc(hidden)]
pub const fn parts_text<const N: usize>(parts: &[Words]) -> [u8; N] {
    let mut out = [0u8; N];
    let (mut at, mut i) = (0, 0);
    while i < parts.len() {
        at = put(&mut out, at, parts[i].text.as_bytes());
        i += 1;
    }
    assert!(at == N);
    out
}

/// `parts`' end offsets, shifted to where each part lands in [`parts_text`].
#[doc(hidden)]
pub const fn parts_ends<const M: usize>(parts: &[Words]) -> [u16; M] {
    let mut out = [0u16; M];
    let (mut n, mut base, mut i) = (0, 0, 0);
    while i < parts.len() {
        let mut k = 0;
        while k < parts[i].ends.len() {
            out[n] = base + parts[i].ends[k];
            n += 1;
            k += 1;
        }
        base += parts[i].text.len() as u16;
        i += 1;
    }
    assert!(n == M);
    out
}

/// One [`Words`] of every entry of several, in order, built at compile time:
/// `joined_words!(&[A, B])`, for a family's program list made of its tables.
#[macro_export]
macro_rules! joined_words {
    ($parts:expr) => {{
        const JOINED_PARTS: &[$crate::words::Words] = $parts;
        const LEN: usize = $crate::words::parts_len(JOINED_PARTS);
        const TEXT: [u8; LEN] = $crate::words::parts_text::<LEN>(JOINED_PARTS);
        const ENDS: [u16; $crate::words::parts_count(JOINED_PARTS)] = $crate::words::parts_ends::<{ $crate::words::parts_count(JOINED_PARTS) }>(JOINED_PARTS);
        const TEXT_STR: &str = $crate::words::text(&TEXT);
        $crate::words::Words::packed(TEXT_STR, &ENDS)
    }};
}

/// A [`Words`] list: `const READ: Words = words!["status", "log"];`.
///
/// Entries are string literals. The list is packed at compile time into one
/// string and one offset array (see the module doc for why).
#[macro_export]
macro_rules! words {
    [$($w:literal),* $(,)?] => {
        $crate::words!(@from &[$($w),*])
    };
    // A `const` slice computed elsewhere (a table's names gathered at compile time).
    (@from $list:expr) => {{
        const LIST: &[&str] = $list;
        const LEN: usize = $crate::words::total_len(LIST);
        const TEXT: [u8; LEN] = $crate::words::join::<LEN>(LIST);
        const ENDS: [u16; LIST.len()] = $crate::words::ends::<{ LIST.len() }>(LIST);
        // Checked as UTF-8 at compile time; a list written inline in a function is then
        // two addresses and two lengths, with no relocation and no check at run time.
        const TEXT_STR: &str = $crate::words::text(&TEXT);
        $crate::words::Words::packed(TEXT_STR, &ENDS)
    }};
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const SOME: Words = words!["status", "", "log", "é", "log"];
    const NONE: Words = words![];

    #[test]
    fn entries_come_back_in_order() {
        assert_eq!(SOME.iter().collect::<Vec<_>>(), ["status", "", "log", "é", "log"]);
        assert_eq!(SOME.iter().rev().collect::<Vec<_>>(), ["log", "é", "log", "", "status"]);
        assert_eq!((SOME.len(), SOME.get(3), SOME.bytes_at(0)), (5, "é", &b"status"[..]));
        assert!(NONE.is_empty() && NONE.iter().next().is_none());
        const BOTH: Words = crate::joined_words!(&[SOME, NONE, crate::words!["x", "yz"]]);
        assert_eq!(BOTH.iter().collect::<Vec<_>>(), ["status", "", "log", "é", "log", "x", "yz"]);
        assert_eq!(BOTH.get(6), "yz");
    }

    #[test]
    fn contains_is_whole_entry_equality() {
        for w in ["status", "", "log", "é"] {
            assert!(SOME.contains(w), "{w}");
        }
        for w in ["stat", "statuslog", "lo", "e", "og"] {
            assert!(!SOME.contains(w), "{w}");
        }
        assert!(!NONE.contains(""));
    }

    proptest! {
        /// A packed list answers what the slice it was written as answers.
        #[test]
        fn packed_answers_as_the_slice(key in "[a-z]{0,3}|status|é") {
            const SLICE: &[&str] = &["status", "", "log", "é", "log", "a", "ab"];
            const PACKED: Words = words!["status", "", "log", "é", "log", "a", "ab"];
            prop_assert_eq!(PACKED.contains(&key), SLICE.contains(&key.as_str()));
            prop_assert_eq!(PACKED.iter().collect::<Vec<_>>(), SLICE.to_vec());
        }
    }
}
