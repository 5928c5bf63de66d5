//! Renders corpus CSV text deterministically (RFC 4180 quoting, `\n` line ends) so a
//! regenerated file is byte-identical to the committed one. It does not read CSV.

/// Renders a header and rows into CSV text.
pub fn render(header: &[&str], rows: &[Vec<String>]) -> anyhow::Result<String> {
    let mut w = csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(Vec::new());
    w.write_record(header)?;
    for r in rows {
        w.write_record(r)?;
    }
    let bytes = w.into_inner().map_err(|e| anyhow::anyhow!("csv writer: {e}"))?;
    Ok(String::from_utf8(bytes)?)
}
