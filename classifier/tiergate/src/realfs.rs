//! The real file system behind `FileSource`, for the binary only.

use classifier::lanes::{FileSource, MAX_FILE_BYTES};
use std::io::Read;
use std::path::{Path, PathBuf};

pub struct RealFs;

impl FileSource for RealFs {
    fn read(&self, path: &str) -> Result<Option<Vec<u8>>, String> {
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
}

/// Resolves symlinks for the longest existing ancestor and re-appends the rest.
pub fn resolve_existing(p: &Path) -> Option<PathBuf> {
    let mut base = p.to_path_buf();
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = base.canonicalize() {
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
