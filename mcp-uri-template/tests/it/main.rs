//! mcp-toolkit-uri-template's integration tests: the RFC 6570 examples and
//! property tests, in one binary.

mod rfc6570;
mod roundtrip;
