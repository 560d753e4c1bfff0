//! What the raw responders of `bench/` answer: the reply `loadgen` checks,
//! built from the parsed message alone, with no protocol machinery.

use serde_json::{Value, json};

/// The reply to `message`, `None` for a notification.
pub fn answer(message: &Value) -> Option<Value> {
    let id = message.get("id")?;
    let params = &message["params"];
    let result = match message["method"].as_str() {
        Some("initialize") => json!({
            "protocolVersion": params["protocolVersion"],
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "raw-echo", "version": "0.0.0"},
        }),
        _ => {
            let arguments = &params["arguments"];
            match params["name"].as_str() {
                Some("add") => {
                    let a = arguments["a"].as_i64().unwrap_or_default();
                    let b = arguments["b"].as_i64().unwrap_or_default();
                    let sum = json!({"sum": a.wrapping_add(b)});
                    json!({
                        "content": [{"type": "text", "text": sum.to_string()}],
                        "structuredContent": sum,
                    })
                }
                _ => json!({
                    "content": [{"type": "text", "text": arguments["text"]}],
                }),
            }
        }
    };
    Some(json!({"jsonrpc": "2.0", "id": id, "result": result}))
}
