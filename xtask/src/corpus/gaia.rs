//! stub
use std::path::Path;
pub fn run(_root: &Path, _b: Option<std::path::PathBuf>, _c: Option<std::path::PathBuf>) -> anyhow::Result<i32> { Ok(0) }
