use brush_parser::{Parser, ParserOptions};
use std::time::Instant;

fn brush_ok(src: &str) -> bool {
    let opts = ParserOptions::default();
    let mut p = Parser::new(std::io::BufReader::new(src.as_bytes()), &opts);
    p.parse_program().is_ok()
}

fn ts_ok(parser: &mut tree_sitter::Parser, src: &str) -> bool {
    match parser.parse(src, None) {
        Some(t) => !t.root_node().has_error(),
        None => false,
    }
}

fn bash_ok(src: &str) -> bool {
    let out = std::process::Command::new("bash").arg("-n").arg("-c").arg(src).stderr(std::process::Stdio::null()).status();
    out.map(|s| s.success()).unwrap_or(false)
}

fn main() {
    let cases: Vec<String> = std::fs::read_to_string("/tmp/probe/cases.txt").unwrap().split("\n---\n").map(|s| s.to_string()).collect();
    let mut ts = tree_sitter::Parser::new();
    ts.set_language(&tree_sitter_bash::LANGUAGE.into()).unwrap();
    let (mut b_agree, mut t_agree) = (0, 0);
    for c in &cases {
        let (b, t, g) = (brush_ok(c), ts_ok(&mut ts, c), bash_ok(c));
        if b == g { b_agree += 1 }
        if t == g { t_agree += 1 }
        if b != g || t != g {
            println!("bash={g} brush={b} ts={t}: {:?}", c);
        }
    }
    println!("cases {} brush agrees {} tree-sitter agrees {}", cases.len(), b_agree, t_agree);
    let corpus: Vec<&str> = cases.iter().map(|s| s.as_str()).collect();
    let n = 20000;
    let t0 = Instant::now();
    for i in 0..n { let _ = brush_ok(corpus[i % corpus.len()]); }
    let bt = t0.elapsed();
    let t0 = Instant::now();
    for i in 0..n { let _ = ts_ok(&mut ts, corpus[i % corpus.len()]); }
    let tt = t0.elapsed();
    println!("brush {:.1} us/parse, tree-sitter {:.1} us/parse", bt.as_secs_f64()*1e6/n as f64, tt.as_secs_f64()*1e6/n as f64);
}
