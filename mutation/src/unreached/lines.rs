//! From the instrumented tiergate's coverage files and its DWARF line table to
//! "which source lines ran": text in, a map out, so each step is testable.
//!
//! A coverage file (sancov_rt.c) has a line per instrumented basic block, `<pc
//! offset in hex> <0|1>`, in the binary's PC-table order; every process of one binary
//! writes the same PCs, so the runs are merged by OR-ing the flags. The blocks are
//! those of LLVM's SanitizerCoverage at edge level with pruning off, so every block
//! that has code gets a flag, and a block runs whole once its first instruction ran.
//! So an instruction at address A ran iff the block starting at the greatest PC <= A
//! ran. The line table (binutils' `readelf --wide --debug-dump=decodedline`) gives
//! every instruction range's line, not only the block starts, and one batch
//! `addr2line` names each range's file: a line is *instrumented* when some of its
//! code lies in a block, and *hit* when some of that code's blocks ran. (`addr2line`
//! over the block PCs alone would name only the first line of each block; a function
//! body's later lines or a struct literal's field lines would then have no PC at all.)

use std::collections::BTreeMap;

/// The merged coverage of one binary: block start offsets, sorted, and whether each ran.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Blocks {
    pub pcs: Vec<u64>,
    pub hit: Vec<bool>,
}

impl Blocks {
    /// Merges coverage files of the same binary. Err when a file is malformed or
    /// lists other PCs than the first (another build's file in the directory).
    pub fn merge<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>) -> Result<Blocks, String> {
        let mut table: Option<Vec<u64>> = None;
        let mut hit: Vec<bool> = Vec::new();
        for (name, text) in files {
            let mut pcs = Vec::new();
            let mut flags = Vec::new();
            for (n, line) in text.lines().enumerate() {
                let mut w = line.split_whitespace();
                let (Some(pc), Some(flag), None) = (w.next(), w.next(), w.next()) else {
                    return Err(format!("{name}:{}: not `<pc> <0|1>`", n + 1));
                };
                pcs.push(u64::from_str_radix(pc, 16).map_err(|e| format!("{name}:{}: {e}", n + 1))?);
                flags.push(flag == "1");
            }
            match &table {
                None => {
                    table = Some(pcs);
                    hit = flags;
                }
                Some(t) if *t == pcs => hit.iter_mut().zip(flags).for_each(|(h, f)| *h |= f),
                Some(_) => return Err(format!("{name}: its PC table differs from the other files' (another binary's run?)")),
            }
        }
        let pcs = table.ok_or("no coverage file was written (did the instrumented tiergate run?)")?;
        // Offset 0: a block LLVM deleted after instrumenting it (sancov_rt.c); no code.
        let mut order: Vec<usize> = (0..pcs.len()).filter(|&i| pcs[i] != 0).collect();
        order.sort_by_key(|&i| pcs[i]);
        Ok(Blocks { pcs: order.iter().map(|&i| pcs[i]).collect(), hit: order.iter().map(|&i| hit[i]).collect() })
    }

    /// Whether the code in [start, end) lies in some block, and whether any block of it ran.
    fn range(&self, start: u64, end: u64) -> Option<bool> {
        let first = self.pcs.partition_point(|&p| p <= start).checked_sub(1)?;
        let last = self.pcs.partition_point(|&p| p < end.max(start + 1));
        Some(self.hit[first..last].iter().any(|&h| h))
    }
}

/// Per source line (file relative to the workspace, 1-based line): whether any of
/// its code ran.
pub type LineMap = BTreeMap<(String, usize), bool>;

/// One row of the line table whose code lies in blocks: its address (for addr2line),
/// line, and whether any of its blocks ran.
#[derive(Debug, PartialEq, Eq)]
pub struct Range {
    pub addr: u64,
    pub line: usize,
    pub ran: bool,
}

/// The rows of `readelf --wide --debug-dump=decodedline` whose file's base name
/// `keep` accepts: a row is `name line 0xADDR …`, and its code runs to the next row's
/// address in its sequence (a `-` row ends one). The name column is only the file's
/// base name, and the `path:` headers between rows are not printed at every change of
/// file, so neither names the file: addr2line does that, from the addresses
/// ([`attribute`]).
pub fn ranges(dump: &str, keep: &dyn Fn(&str) -> bool, blocks: &Blocks) -> Vec<Range> {
    let mut out = Vec::new();
    // The previous row of this sequence, when kept: (line, address).
    let mut prev: Option<(usize, u64)> = None;
    for l in dump.lines() {
        let w: Vec<&str> = l.split_whitespace().collect();
        let (Some(name), Some(line), Some(addr)) = (w.first(), w.get(1), w.get(2).and_then(|a| a.strip_prefix("0x"))) else { continue };
        let Ok(addr) = u64::from_str_radix(addr, 16) else { continue };
        if let Some((n, start)) = prev.take() {
            if let Some(ran) = blocks.range(start, addr) {
                out.push(Range { addr: start, line: n, ran });
            }
        }
        let base = name.rsplit('/').next().unwrap_or(name);
        prev = match line.parse::<usize>() {
            Ok(n) if n > 0 && keep(base) => Some((n, addr)),
            _ => None, // line 0 (no source line), another file, or `-` (the sequence ends)
        };
    }
    out
}

/// The ranges' lines, in files `keep` accepts (relative to `root`), from addr2line's
/// answer for their addresses (`path:line`, one a line, in the ranges' order).
pub fn attribute(ranges: &[Range], addr2line: &str, root: &str, keep: &dyn Fn(&str) -> bool) -> Result<LineMap, String> {
    let answers: Vec<&str> = addr2line.lines().collect();
    if answers.len() != ranges.len() {
        return Err(format!("addr2line answered {} lines for {} addresses", answers.len(), ranges.len()));
    }
    let prefix = format!("{}/", root.trim_end_matches('/'));
    let mut out = LineMap::new();
    for (r, a) in ranges.iter().zip(answers) {
        // `path:line` or `path:line (discriminator N)`; `??:0` or `path:?` when unknown.
        let a = a.split(" (").next().unwrap_or(a);
        let Some((path, _)) = a.rsplit_once(':') else { continue };
        let rel = path.strip_prefix(&prefix).unwrap_or(path);
        if keep(rel) {
            *out.entry((rel.to_owned(), r.line)).or_insert(false) |= r.ran;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blocks() -> Blocks {
        // Two processes of one binary (PC table order is not address order); the
        // block at 0x20 ran in the first, the one at 0x40 in the second.
        let a = "40 0\n10 0\n0 1\n20 1\n30 0\n";
        let b = "40 1\n10 0\n0 1\n20 0\n30 0\n";
        Blocks::merge([("a.cov", a), ("b.cov", b)]).unwrap()
    }

    #[test]
    fn runs_are_merged_by_or_and_sorted_by_address() {
        let b = blocks();
        assert_eq!(b.pcs, vec![0x10, 0x20, 0x30, 0x40]);
        assert_eq!(b.hit, vec![false, true, false, true]);
        let err = Blocks::merge([("a.cov", "10 1\n"), ("b.cov", "11 1\n")]).unwrap_err();
        assert!(err.contains("b.cov"), "{err}");
        assert!(Blocks::merge([("a.cov", "10 1 x\n")]).is_err());
        assert!(Blocks::merge(std::iter::empty()).is_err(), "no file at all is an error, not empty coverage");
    }

    /// A line is hit when any of its code lies in a block that ran, even code past
    /// the block's first instruction; a line whose code is all in blocks that did
    /// not run is instrumented and unhit; code of other files and line 0 are left out,
    /// and the file is addr2line's, whatever the name column says.
    #[test]
    fn every_instruction_range_counts_for_its_line() {
        let dump = "\
CU: /work/r/classifier/src/a.rs:
File name                            Line number    Starting address    View    Stmt
a.rs                                           1                0x10               x
a.rs                                           2                0x14               x
a.rs                                           3                0x18               x
option.rs                                    900                0x1c               x
a.rs                                           4                0x24               x
a.rs                                           0                0x28
b.rs                                           5                0x30               x
b.rs                                           2                0x38               x
b.rs                                           -                0x40
";
        let keep = |f: &str| f == "a.rs" || f == "b.rs";
        let r = ranges(dump, &keep, &blocks());
        let lines: Vec<(u64, usize, bool)> = r.iter().map(|r| (r.addr, r.line, r.ran)).collect();
        assert_eq!(lines, vec![(0x10, 1, false), (0x14, 2, false), (0x18, 3, false), (0x24, 4, true), (0x30, 5, false), (0x38, 2, false)]);
        let a2l = "/work/r/classifier/src/a.rs:1\n/work/r/classifier/src/a.rs:2\nclassifier/src/a.rs:3 (discriminator 2)\n\
                   /work/r/classifier/src/x/a.rs:4\n/work/r/classifier/src/b.rs:5\n/rustc/abc/library/core/src/b.rs:2\n";
        let m = attribute(&r, a2l, "/work/r", &|f: &str| f.starts_with("classifier/src/")).unwrap();
        let got = |f: &str, n: usize| m.get(&(format!("classifier/src/{f}"), n)).copied();
        assert_eq!(got("a.rs", 1), Some(false), "block 0x10 did not run");
        assert_eq!(got("a.rs", 3), Some(false), "0x18..0x1c lies in block 0x10");
        assert_eq!(got("x/a.rs", 4), Some(true), "0x24 lies in block 0x20, which ran; addr2line names the file");
        assert_eq!(got("b.rs", 5), Some(false), "0x30..0x38 is block 0x30");
        assert_eq!(m.len(), 5, "line 0, option.rs and the std b.rs are not mapped: {m:?}");
        assert!(attribute(&r, "x:1\n", "/work/r", &|_: &str| true).is_err(), "one answer per address");
    }
}
