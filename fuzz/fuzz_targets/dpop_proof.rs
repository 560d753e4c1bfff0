//! DPoP proofs as a hostile client sends them, through the protected
//! server's checker: arbitrary bytes as the `DPoP` header (the first byte
//! odd), or arbitrary bytes as the claims of a proof signed by a fixed key
//! (the first byte even), since only a signed proof reaches the claims
//! checks. Checking never panics, and a proof taken in the second way is
//! one by that key.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_toolkit_runtime::fuzzing::{dpop_check, dpop_sign};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    if mode % 2 == 1 {
        let _ = dpop_check(rest);
        return;
    }
    let (proof, thumbprint) = dpop_sign(rest);
    if let Ok(taken) = dpop_check(proof.as_bytes()) {
        assert_eq!(taken, thumbprint, "{proof}");
    }
});
