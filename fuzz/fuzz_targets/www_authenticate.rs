#![no_main]
//! `WWW-Authenticate` values as a hostile server sends them: reading never
//! panics, and every challenge read, written back out, reads the same
//! (what a protected server writes, a client reads exactly).

use mcp_toolkit_runtime::oauth::challenge::{Challenge, parse};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(challenges) = parse(text) else {
        return;
    };
    for challenge in challenges {
        // A token68 has no parameter name and is written differently.
        if challenge.params.iter().any(|(name, _)| name.is_empty()) {
            continue;
        }
        let written = challenge.to_string();
        let read = parse(&written).unwrap_or_else(|e| panic!("{written:?}: {e}"));
        let expected = Challenge {
            scheme: challenge.scheme.clone(),
            params: challenge
                .params
                .iter()
                .map(|(name, value)| {
                    (
                        name.clone(),
                        value.chars().filter(|c| !c.is_control()).collect(),
                    )
                })
                .collect(),
        };
        assert_eq!(read, [expected], "{text:?} written as {written:?}");
    }
});
