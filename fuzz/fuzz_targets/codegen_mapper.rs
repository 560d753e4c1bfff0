#![no_main]
//! The codegen mapper: any JSON becomes a `tools/list` document (as given,
//! or as the input schema of one tool), is generated with the default
//! options, and the module must parse as a Rust file. Generation may refuse
//! the input with a clear error, never panic, and never report
//! `Error::Internal` (code it produced that breaks its own rules).

use libfuzzer_sys::fuzz_target;
use mcp_toolkit_codegen::{Error, Options, generate, parse_tools};
use serde_json::{Value, json};

fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let as_schema = json!({"tools": [{"name": "fuzz", "inputSchema": value}]}).to_string();
    let as_list = value.to_string();
    for text in [as_list, as_schema] {
        let Ok(tools) = parse_tools(&text) else {
            continue;
        };
        match generate(&tools, &Options::default()) {
            Ok(generated) => {
                if let Err(e) = syn::parse_file(&generated.code) {
                    panic!("generated code does not parse ({e}):\n{}", generated.code);
                }
            }
            Err(Error::Internal(e)) => panic!("internal error: {e}"),
            Err(_) => {}
        }
    }
});
