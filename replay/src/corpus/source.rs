//! Where corpus files are read from: the work tree, or a commit through git (the
//! base's corpora). A kind lists and reads its files through `Source` only, so the
//! same loader serves both sides.

use std::path::Path;

use super::Row;

/// A read-only tree of corpus files, addressed by repository-relative paths.
pub trait Source: Sync {
    /// Files below `dir` (recursively) whose name ends with `suffix`, sorted. A
    /// missing directory is no files.
    fn files(&self, dir: &str, suffix: &str) -> Result<Vec<String>, String>;
    /// The bytes of one file listed by `files`.
    fn read(&self, path: &str) -> Result<Vec<u8>, String>;
}

/// The work tree under a root.
pub struct WorkTree<'a>(pub &'a Path);

impl Source for WorkTree<'_> {
    fn files(&self, dir: &str, suffix: &str) -> Result<Vec<String>, String> {
        let mut out = Vec::new();
        let mut stack = vec![dir.to_owned()];
        while let Some(d) = stack.pop() {
            let rd = match std::fs::read_dir(self.0.join(&d)) {
                Ok(rd) => rd,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(format!("{d}: cannot read {}: {e}", self.0.join(&d).display())),
            };
            for e in rd.flatten() {
                let rel = format!("{d}/{}", e.file_name().to_string_lossy());
                if e.file_type().is_ok_and(|t| t.is_dir()) {
                    stack.push(rel);
                } else if rel.ends_with(suffix) {
                    out.push(rel);
                }
            }
        }
        out.sort();
        Ok(out)
    }
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        std::fs::read(self.0.join(path)).map_err(|e| format!("{path}:1: cannot read: {e}"))
    }
}

/// The tree of a commit, read with git (nothing is checked out).
pub struct AtCommit<'a> {
    pub root: &'a Path,
    pub commit: &'a str,
}

impl Source for AtCommit<'_> {
    fn files(&self, dir: &str, suffix: &str) -> Result<Vec<String>, String> {
        Ok(crate::git::ls_tree(self.root, self.commit, dir, suffix, true))
    }
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        crate::git::show(self.root, self.commit, path).ok_or_else(|| format!("{path}: cannot read at {}", self.commit))
    }
}

/// The rows of every `DIR/<folder>/FILE` of `src`, one folder per `what` (a peer,
/// an agent source): `parse` reads one file with its folder's name. All problems of
/// all files, each `file:line: …`; a file in any other place is one.
pub(super) fn load_per_folder(
    src: &dyn Source,
    (dir, file, what): (&str, &str, &str),
    parse: impl Fn(&str, &str, &[u8]) -> Result<Vec<Row>, Vec<String>>,
) -> Result<Vec<Row>, Vec<String>> {
    let files = src.files(dir, &format!("/{file}")).map_err(|e| vec![e])?;
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    for f in files {
        let Some(folder) = f.strip_prefix(&format!("{dir}/")).and_then(|r| r.strip_suffix(&format!("/{file}"))).filter(|s| !s.contains('/')) else {
            errors.push(format!("{f}:1: {file} lives in {dir}/<{what}>/{file}, one folder per {what}"));
            continue;
        };
        match src.read(&f).map_err(|e| vec![e]).and_then(|b| parse(folder, &f, &b)) {
            Ok(r) => rows.extend(r),
            Err(e) => errors.extend(e),
        }
    }
    if errors.is_empty() {
        Ok(rows)
    } else {
        Err(errors)
    }
}
