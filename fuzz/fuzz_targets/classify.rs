//! Parser front and engine: `classify` on arbitrary bytes (lossy UTF-8) must not
//! panic, must repeat itself, and must keep `blocked ⇒ deny`.
#![no_main]

use classifier::{classify, semantic_signature, Decision, Request};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let cmd = String::from_utf8_lossy(data);
    let req = Request::new(&cmd).with_cwd("/work/proj").with_home("/home/user");
    let a = classify(&req);
    let b = classify(&req);
    assert_eq!(a, b, "not deterministic for {cmd:?}");
    if a.blocked {
        assert_eq!(a.decision, Decision::Deny, "blocked but {:?} for {cmd:?}", a.decision);
    }
    let _ = semantic_signature(&req);
});
