//! The compile-time checks (the macros', and a call that needs a feature
//! this build lacks): every `ui/fail` case must fail with the message in its
//! `.stderr` file, every `ui/pass` case must compile.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.pass("ui/pass/*.rs");
    cases.compile_fail("ui/fail/*.rs");
}
