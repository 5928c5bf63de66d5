//! stub
use std::path::Path;
pub fn run(_root: &Path) -> anyhow::Result<i32> { Ok(0) }
