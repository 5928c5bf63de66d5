//! Patch text (unified and git-format diffs), as `patch`, `git apply` and `git am`
//! read it: which files it writes, and whether it deletes any. It reads no file
//! and fires no rule; the families judge what it finds.

/// What a patch text says it touches.
pub(crate) enum PatchScan {
    /// Paths written (created or modified), after stripping `strip` components.
    Targets { writes: Vec<String>, deletes: bool },
    /// Not recognisable as a patch.
    Unknown,
}

fn strip_components(path: &str, strip: usize) -> String {
    let mut p = path;
    for _ in 0..strip {
        match p.split_once('/') {
            Some((_, rest)) => p = rest,
            None => break,
        }
    }
    p.to_owned()
}

/// The word after a `+++ `/`--- ` marker, without the tab-separated timestamp
/// or git's quoting.
fn header_path(rest: &str) -> &str {
    let p = rest.split('\t').next().unwrap_or(rest).trim_end();
    p.trim_matches('"')
}

/// Scans unified / git-format diff text for the files it writes.
pub(crate) fn patch_targets(text: &str, strip: usize) -> PatchScan {
    let mut writes = Vec::new();
    let mut deletes = false;
    let mut seen = false;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("+++ ") {
            seen = true;
            let p = header_path(rest);
            if p == "/dev/null" {
                deletes = true;
            } else {
                writes.push(strip_components(p, strip));
            }
        } else if let Some(rest) = line.strip_prefix("rename to ").or_else(|| line.strip_prefix("copy to ")) {
            seen = true;
            writes.push(rest.trim().to_owned());
        } else if line.starts_with("deleted file mode") || line.starts_with("rename from ") {
            seen = true;
            deletes = true;
        }
    }
    if seen {
        PatchScan::Targets { writes, deletes }
    } else {
        PatchScan::Unknown
    }
}
