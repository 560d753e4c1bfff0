//! The `tools/call` requests the driver sends and the checks their replies
//! must pass; shared by the stdio and HTTP modes.

use std::borrow::Cow;
use std::io::Write;

use serde::Deserialize;
use serde::de::IgnoredAny;

/// The first protocol version without `initialize`, where every request
/// carries its protocol version and the client's capabilities in `_meta`.
pub const MODERN_PROTOCOL: &str = "2026-07-28";

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    Add,
    Echo,
}

impl Tool {
    pub fn name(self) -> &'static str {
        match self {
            Tool::Add => "add",
            Tool::Echo => "echo",
        }
    }
}

/// Whether `protocol` is 2026-07-28 or later (dates compare as strings).
pub fn is_modern(protocol: &str) -> bool {
    protocol >= MODERN_PROTOCOL
}

/// The arguments of request `id` and the answer it must get.
fn add_operands(id: u64) -> (i64, i64) {
    let id = id as i64;
    (id * 3 - 1_000_000, id % 1000 + 7)
}

/// Appends the JSON-RPC `tools/call` request `id` to `buf`, without a line
/// end. With `meta` (a 2026-07-28 protocol version), `params._meta` names it
/// and declares no client capabilities.
pub fn write_request(buf: &mut Vec<u8>, tool: Tool, id: u64, meta: Option<&str>) {
    // Writing into a Vec cannot fail.
    let _ = write!(
        buf,
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{}","arguments":"#,
        tool.name()
    );
    let _ = match tool {
        Tool::Add => {
            let (a, b) = add_operands(id);
            write!(buf, r#"{{"a":{a},"b":{b}}}"#)
        }
        Tool::Echo => write!(buf, r#"{{"text":"hello-{id}"}}"#),
    };
    if let Some(version) = meta {
        let _ = write!(
            buf,
            r#","_meta":{{"io.modelcontextprotocol/protocolVersion":"{version}","io.modelcontextprotocol/clientCapabilities":{{}}}}"#
        );
    }
    buf.extend_from_slice(b"}}");
}

/// A message from the server, as far as the checks need it.
#[derive(Deserialize)]
pub struct Reply<'a> {
    pub id: Option<u64>,
    pub method: Option<IgnoredAny>,
    error: Option<serde_json::Value>,
    #[serde(borrow)]
    result: Option<CallResult<'a>>,
}

#[derive(Deserialize)]
struct CallResult<'a> {
    #[serde(default, borrow)]
    content: Vec<Content<'a>>,
    #[serde(rename = "structuredContent")]
    structured: Option<SumOut>,
    #[serde(rename = "isError", default)]
    is_error: bool,
}

#[derive(Deserialize)]
struct Content<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(borrow)]
    text: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct SumOut {
    sum: i64,
}

/// What a message from the server is.
pub enum Kind {
    /// A notification (no id): skipped.
    Notification,
    /// The reply to request `id`.
    Reply(u64),
}

impl Reply<'_> {
    /// Notification or reply; `Err` for anything else (a request from the
    /// server, a reply without an id).
    pub fn kind(&self) -> Result<Kind, &'static str> {
        match (self.id, &self.method) {
            (None, Some(_)) => Ok(Kind::Notification),
            (Some(id), None) => Ok(Kind::Reply(id)),
            _ => Err("unexpected message (a server request or a reply without id)"),
        }
    }
}

/// Checks a `tools/call` result for request `id`; `Err` describes the mismatch.
pub fn validate(tool: Tool, id: u64, reply: &Reply<'_>) -> Result<(), String> {
    if let Some(error) = &reply.error {
        return Err(format!("JSON-RPC error {error}"));
    }
    let result = reply.result.as_ref().ok_or("no result")?;
    if result.is_error {
        return Err("isError: true".to_owned());
    }
    let first_text = match result.content.first() {
        Some(Content {
            kind,
            text: Some(text),
        }) if kind == "text" => text,
        _ => return Err("content[0] is not a text block".to_owned()),
    };
    match tool {
        Tool::Add => {
            let (a, b) = add_operands(id);
            let want = a + b;
            let got = result
                .structured
                .as_ref()
                .ok_or("no structuredContent")?
                .sum;
            if got != want {
                return Err(format!("structuredContent.sum {got}, want {want}"));
            }
            let text: SumOut = serde_json::from_str(first_text)
                .map_err(|e| format!("text copy {first_text:?} is not {{\"sum\":N}}: {e}"))?;
            if text.sum != want {
                return Err(format!("text copy sum {}, want {want}", text.sum));
            }
        }
        Tool::Echo => {
            let want = format!("hello-{id}");
            if *first_text != want || result.content.len() != 1 {
                return Err(format!(
                    "echo content {first_text:?} ({} blocks), want {want:?}",
                    result.content.len()
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(tool: Tool, meta: Option<&str>) -> serde_json::Value {
        let mut buf = Vec::new();
        write_request(&mut buf, tool, 5, meta);
        serde_json::from_slice(&buf).expect("valid JSON")
    }

    #[test]
    fn requests_are_json_with_the_operands_of_their_id() {
        let add = request(Tool::Add, None);
        assert_eq!(add["id"], 5);
        assert_eq!(
            add["params"]["arguments"],
            serde_json::json!({"a": -999_985, "b": 12})
        );
        assert!(add["params"].get("_meta").is_none());
        let echo = request(Tool::Echo, Some(MODERN_PROTOCOL));
        assert_eq!(echo["params"]["arguments"]["text"], "hello-5");
        assert_eq!(
            echo["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
            MODERN_PROTOCOL
        );
        assert_eq!(
            echo["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"],
            serde_json::json!({})
        );
    }

    #[test]
    fn validate_checks_the_sum_and_its_text_copy() {
        let check = |text: &str| {
            let reply: Reply<'_> = serde_json::from_str(text).unwrap();
            validate(Tool::Add, 5, &reply)
        };
        let good = r#"{"id":5,"result":{"content":[{"type":"text","text":"{\"sum\":-999973}"}],"structuredContent":{"sum":-999973}}}"#;
        assert_eq!(check(good), Ok(()));
        assert!(check(&good.replace("\"sum\":-999973}}}", "\"sum\":1}}}")).is_err());
        assert!(check(r#"{"id":5,"error":{"code":-32602,"message":"x"}}"#).is_err());
    }

    #[test]
    fn modern_versions() {
        assert!(is_modern("2026-07-28"));
        assert!(!is_modern("2025-11-25"));
    }
}
