//! The real file system behind `FileSource`, for the binary only.

use classifier::lanes::{FileSource, MAX_FILE_BYTES};
use std::io::Read;

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
}
