#![no_main]
//! Schemas and values through mcp-toolkit-runtime's built-in validator (the one a
//! server built without the `validation` feature uses; this workspace has
//! that feature on through mcp-codegen, so the target calls the validator
//! itself). The input is a schema in JSON, a newline, then a value in JSON.
//! A schema may come from a mounted server and a value from any client, so
//! compiling and checking must never panic or hang, whatever either holds
//! (`$ref` loops, `anyOf` fan-out, huge bounds, long arrays), every
//! violation must say why, and the same value must get the same verdict.

use libfuzzer_sys::fuzz_target;
use mcp_toolkit_runtime::fuzzing::lean_schema_check;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (schema, value) = text.split_once('\n').unwrap_or((text, "null"));
    let (Ok(schema), Ok(value)) = (
        serde_json::from_str::<Value>(schema),
        serde_json::from_str::<Value>(value),
    ) else {
        return;
    };
    let Ok(errors) = lean_schema_check(&schema, &value) else {
        return;
    };
    for (_, message) in &errors {
        assert!(!message.is_empty(), "a violation says why");
    }
    let again = lean_schema_check(&schema, &value).expect("compiled once");
    assert_eq!(again.is_empty(), errors.is_empty(), "same verdict twice");
});
