#![no_main]
// Placeholder until the target is written (issue 10).
libfuzzer_sys::fuzz_target!(|_data: &[u8]| {});
