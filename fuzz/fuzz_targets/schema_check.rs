#![no_main]
//! Schemas and values through `CompiledSchema`, which here (mcp-runtime
//! without its `validation` feature) is the built-in validator: the input
//! is a schema in JSON, a newline, then a value in JSON. A schema may come
//! from a mounted server and a value from any client, so compiling and
//! checking must never panic or hang, whatever either holds (`$ref` loops,
//! `anyOf` fan-out, huge bounds); a value the check passes must pass again.

use libfuzzer_sys::fuzz_target;
use mcp_runtime::schema::CompiledSchema;
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
    let Ok(compiled) = CompiledSchema::compile(&schema) else {
        return;
    };
    let verdict = compiled.check(&value);
    if let Err(report) = &verdict {
        assert!(!report.is_empty(), "a failed check says why");
    }
    assert_eq!(compiled.check(&value).is_ok(), verdict.is_ok(), "same verdict twice");
});
