//! The real file system behind `FileSource`, for the binary only.

use classifier::lanes::{Entry, FileSource, MAX_FILE_BYTES};
use std::io::Read;
use std::path::{Path, PathBuf};

pub struct RealFs;

impl FileSource for RealFs {
    fn read(&self, path: &str) -> Result<Option<Vec<u8>>, String> {
        // Only a regular file holds the text a command will read: a FIFO would block
        // the open, and a device or a symlink to `/dev/stdin` is not that text (it
        // would be the hook's own input). `metadata` follows symlinks and never blocks.
        match std::fs::metadata(path) {
            Ok(m) if !m.is_file() => return Err("not a regular file".into()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            _ => {}
        }
        let file = match std::fs::File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e.to_string()),
        };
        let mut buf = Vec::new();
        file.take(MAX_FILE_BYTES as u64 + 1).read_to_end(&mut buf).map_err(|e| e.to_string())?;
        if buf.len() > MAX_FILE_BYTES {
            return Err(format!("larger than {MAX_FILE_BYTES} bytes"));
        }
        Ok(Some(buf))
    }

    fn canonical(&self, path: &str) -> Option<String> {
        resolve_existing(Path::new(path)).map(|p| p.display().to_string())
    }

    /// One `lstat`: a link is not followed (a dangling one is something too, and a
    /// rename onto a link replaces it or lands where it points); an error other
    /// than "not found" (a directory it may not search) cannot tell.
    fn entry(&self, path: &str) -> Entry {
        match std::fs::symlink_metadata(path) {
            Ok(m) if m.is_file() => Entry::File,
            Ok(m) if m.is_dir() => Entry::Dir,
            Ok(_) => Entry::Other,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Entry::Missing,
            Err(_) => Entry::Unknown,
        }
    }
}

/// Resolves symlinks for the longest existing ancestor and re-appends the rest.
pub fn resolve_existing(p: &Path) -> Option<PathBuf> {
    let mut base = p.to_path_buf();
    let mut rest = Vec::new();
    loop {
        // A name that is not there even as a link cannot canonicalise: one `lstat`
        // instead of a `realpath` (a readlink per component) for each missing level.
        let missing = matches!(std::fs::symlink_metadata(&base), Err(e) if e.kind() == std::io::ErrorKind::NotFound);
        if let Some(real) = (!missing).then(|| base.canonicalize().ok()).flatten() {
            let mut out = real;
            out.extend(rest.iter().rev());
            return Some(out);
        }
        rest.push(base.file_name()?.to_owned());
        if !base.pop() {
            return None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_are_read() {
        let dir = std::env::temp_dir().join(format!("tiergate-realfs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("x.sh");
        std::fs::write(&file, "echo hi\n").unwrap();
        assert_eq!(RealFs.read(file.to_str().unwrap()), Ok(Some(b"echo hi\n".to_vec())));
        assert_eq!(RealFs.read(dir.join("missing").to_str().unwrap()), Ok(None));
        // A directory, and a FIFO (whose open would block until a writer came).
        assert!(RealFs.read(dir.to_str().unwrap()).is_err());
        let fifo = dir.join("p");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success());
        if made {
            assert!(RealFs.read(fifo.to_str().unwrap()).is_err());
        }
        // A symlink to a device (as `/dev/stdin` is, in a hook) is not a file either.
        let link = dir.join("in.sh");
        std::os::unix::fs::symlink("/dev/null", &link).unwrap();
        assert!(RealFs.read(link.to_str().unwrap()).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(made, "mkfifo is needed for this test");
    }
}
