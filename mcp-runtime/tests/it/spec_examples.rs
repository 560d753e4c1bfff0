//! Round-trips every example message of the current spec revision through its Rust type.
//!
//! Each folder of `shared/spec/2026-07-28/examples` is named after a schema definition; the
//! folder name is mapped to a Rust type in [`checker_for`]. Every file is parsed into that
//! type, serialized back and compared with the original as a `serde_json::Value`. An
//! unmapped folder fails the test so that new spec examples are noticed.
//!
//! The examples directory defaults to `../../shared/spec/2026-07-28/examples` relative to
//! this crate; `MCP_SPEC_EXAMPLES_DIR` overrides it.

use std::fs;
use std::path::PathBuf;

use mcp_toolkit_runtime::protocol::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

type Checker = fn(&Value) -> Result<(), String>;

fn examples_dir() -> PathBuf {
    match std::env::var_os("MCP_SPEC_EXAMPLES_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/spec/2026-07-28/examples")
        }
    }
}

/// Parses `original` as `T`, serializes it back and requires an identical JSON value.
fn roundtrip<T: Serialize + DeserializeOwned>(original: &Value) -> Result<T, String> {
    let parsed: T = serde_json::from_value(original.clone())
        .map_err(|e| format!("does not parse as {}: {e}", std::any::type_name::<T>()))?;
    let back = serde_json::to_value(&parsed).map_err(|e| format!("does not serialize: {e}"))?;
    if &back != original {
        return Err(format!(
            "round trip differs\n      original:     {original}\n      reserialized: {back}"
        ));
    }
    Ok(parsed)
}

fn expect_eq<T: PartialEq + std::fmt::Debug>(what: &str, got: T, want: T) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!("{what} is {got:?}, expected {want:?}"))
    }
}

fn plain<T: Serialize + DeserializeOwned>(v: &Value) -> Result<(), String> {
    roundtrip::<T>(v).map(drop)
}

fn request<P: Serialize + DeserializeOwned>(v: &Value, method: &str) -> Result<(), String> {
    let msg = roundtrip::<JsonRpcRequest<P>>(v)?;
    expect_eq("method", msg.method.as_str(), method)
}

fn notification<P: Serialize + DeserializeOwned>(v: &Value, method: &str) -> Result<(), String> {
    let msg = roundtrip::<JsonRpcNotification<P>>(v)?;
    expect_eq("method", msg.method.as_str(), method)
}

fn response<R: Serialize + DeserializeOwned>(v: &Value) -> Result<(), String> {
    roundtrip::<JsonRpcResponse<R>>(v).map(drop)
}

/// `InputResponses` keeps answers as JSON: each must also read as an
/// `InputResponse`.
fn input_responses(v: &Value) -> Result<(), String> {
    plain::<InputResponses>(v)?;
    each_entry::<InputResponse>(Some(v))
}

/// `InputRequiredResult` keeps questions as JSON: each must also read as an
/// `InputRequest`.
fn input_required(v: &Value) -> Result<(), String> {
    plain::<InputRequiredResult>(v)?;
    each_entry::<InputRequest>(v.get("inputRequests"))
}

/// Every member of the object `map` (none when absent) round-trips as `T`.
fn each_entry<T: Serialize + DeserializeOwned>(map: Option<&Value>) -> Result<(), String> {
    for (key, entry) in map.and_then(Value::as_object).into_iter().flatten() {
        plain::<T>(entry).map_err(|e| format!("{key}: {e}"))?;
    }
    Ok(())
}

/// Embedded input requests (`{method, params}`) carry their method as a struct tag.
fn embedded<T: Serialize + DeserializeOwned>(v: &Value, method: &str) -> Result<(), String> {
    roundtrip::<T>(v)?;
    expect_eq(
        "method",
        v.get("method").and_then(Value::as_str),
        Some(method),
    )
}

fn error_object(v: &Value, code: i64) -> Result<(), String> {
    let err = roundtrip::<JsonRpcError>(v)?;
    expect_eq("error code", err.code, code)
}

fn error_response<D: Serialize + DeserializeOwned>(v: &Value, code: i64) -> Result<(), String> {
    let msg = roundtrip::<JsonRpcErrorResponse<D>>(v)?;
    expect_eq("error code", msg.error.code, code)
}

/// The single place mapping example folder names (schema definition names) to Rust types.
fn checker_for(folder: &str) -> Option<Checker> {
    use error_codes as ec;
    use methods as m;
    let checker: Checker = match folder {
        // Content.
        "AudioContent" => plain::<AudioContent>,
        "ImageContent" => plain::<ImageContent>,
        "TextContent" => plain::<TextContent>,
        "ResourceLink" => plain::<ResourceLink>,
        "EmbeddedResource" => plain::<EmbeddedResource>,
        "ToolUseContent" => plain::<ToolUseContent>,
        "ToolResultContent" => plain::<ToolResultContent>,
        // Resources.
        "Resource" => plain::<Resource>,
        "TextResourceContents" => plain::<TextResourceContents>,
        "BlobResourceContents" => plain::<BlobResourceContents>,
        "ListResourcesRequest" => |v| request::<PaginatedRequestParams>(v, m::RESOURCES_LIST),
        "ListResourcesResult" => plain::<ListResourcesResult>,
        "ListResourcesResultResponse" => response::<ListResourcesResult>,
        "ListResourceTemplatesRequest" => {
            |v| request::<PaginatedRequestParams>(v, m::RESOURCES_TEMPLATES_LIST)
        }
        "ListResourceTemplatesResult" => plain::<ListResourceTemplatesResult>,
        "ListResourceTemplatesResultResponse" => response::<ListResourceTemplatesResult>,
        "ReadResourceRequest" => |v| request::<ReadResourceRequestParams>(v, m::RESOURCES_READ),
        "ReadResourceResult" => plain::<ReadResourceResult>,
        "ReadResourceResultResponse" => response::<ResultOrInputRequired<ReadResourceResult>>,
        "ResourceListChangedNotification" => {
            |v| notification::<NotificationParams>(v, m::NOTIFICATION_RESOURCES_LIST_CHANGED)
        }
        "ResourceUpdatedNotification" => |v| {
            notification::<ResourceUpdatedNotificationParams>(v, m::NOTIFICATION_RESOURCES_UPDATED)
        },
        "ResourceUpdatedNotificationParams" => plain::<ResourceUpdatedNotificationParams>,
        // Tools.
        "Tool" => plain::<Tool>,
        "ListToolsRequest" => |v| request::<PaginatedRequestParams>(v, m::TOOLS_LIST),
        "ListToolsResult" => plain::<ListToolsResult>,
        "ListToolsResultResponse" => response::<ListToolsResult>,
        "CallToolRequest" => |v| request::<CallToolRequestParams>(v, m::TOOLS_CALL),
        "CallToolRequestParams" => plain::<CallToolRequestParams>,
        "CallToolResult" => plain::<CallToolResult>,
        "CallToolResultResponse" => response::<ResultOrInputRequired<CallToolResult>>,
        "ToolListChangedNotification" => {
            |v| notification::<NotificationParams>(v, m::NOTIFICATION_TOOLS_LIST_CHANGED)
        }
        // Prompts.
        "ListPromptsRequest" => |v| request::<PaginatedRequestParams>(v, m::PROMPTS_LIST),
        "ListPromptsResult" => plain::<ListPromptsResult>,
        "ListPromptsResultResponse" => response::<ListPromptsResult>,
        "GetPromptRequest" => |v| request::<GetPromptRequestParams>(v, m::PROMPTS_GET),
        "GetPromptRequestParams" => plain::<GetPromptRequestParams>,
        "GetPromptResult" => plain::<GetPromptResult>,
        "GetPromptResultResponse" => response::<ResultOrInputRequired<GetPromptResult>>,
        "PromptListChangedNotification" => {
            |v| notification::<NotificationParams>(v, m::NOTIFICATION_PROMPTS_LIST_CHANGED)
        }
        // Completion.
        "CompleteRequest" => |v| request::<CompleteRequestParams>(v, m::COMPLETION_COMPLETE),
        "CompleteRequestParams" => plain::<CompleteRequestParams>,
        "CompleteResult" => plain::<CompleteResult>,
        "CompleteResultResponse" => response::<CompleteResult>,
        // Lifecycle, capabilities, pagination.
        "DiscoverRequest" => |v| request::<RequestParams>(v, m::SERVER_DISCOVER),
        "DiscoverResult" => plain::<DiscoverResult>,
        "DiscoverResultResponse" => response::<DiscoverResult>,
        "ClientCapabilities" => plain::<ClientCapabilities>,
        "ServerCapabilities" => plain::<ServerCapabilities>,
        "PaginatedRequestParams" => plain::<PaginatedRequestParams>,
        // Subscriptions.
        "SubscriptionsListenRequest" => {
            |v| request::<SubscriptionsListenRequestParams>(v, m::SUBSCRIPTIONS_LISTEN)
        }
        "SubscriptionsListenResult" => plain::<SubscriptionsListenResult>,
        "SubscriptionsListenResultResponse" => response::<SubscriptionsListenResult>,
        "SubscriptionsAcknowledgedNotification" => |v| {
            notification::<SubscriptionsAcknowledgedNotificationParams>(
                v,
                m::NOTIFICATION_SUBSCRIPTIONS_ACKNOWLEDGED,
            )
        },
        // Notifications and logging.
        "CancelledNotification" => {
            |v| notification::<CancelledNotificationParams>(v, m::NOTIFICATION_CANCELLED)
        }
        "CancelledNotificationParams" => plain::<CancelledNotificationParams>,
        "ProgressNotification" => {
            |v| notification::<ProgressNotificationParams>(v, m::NOTIFICATION_PROGRESS)
        }
        "ProgressNotificationParams" => plain::<ProgressNotificationParams>,
        "LoggingMessageNotification" => {
            |v| notification::<LoggingMessageNotificationParams>(v, m::NOTIFICATION_MESSAGE)
        }
        "LoggingMessageNotificationParams" => plain::<LoggingMessageNotificationParams>,
        // Sampling.
        "CreateMessageRequest" => {
            |v| embedded::<CreateMessageRequest>(v, m::SAMPLING_CREATE_MESSAGE)
        }
        "CreateMessageRequestParams" => plain::<CreateMessageRequestParams>,
        "CreateMessageResult" => plain::<CreateMessageResult>,
        "SamplingMessage" => plain::<SamplingMessage>,
        "ModelPreferences" => plain::<ModelPreferences>,
        // Elicitation.
        "ElicitRequest" => |v| embedded::<ElicitRequest>(v, m::ELICITATION_CREATE),
        "ElicitRequestFormParams" => plain::<ElicitRequestFormParams>,
        "ElicitRequestURLParams" => plain::<ElicitRequestUrlParams>,
        "ElicitResult" => plain::<ElicitResult>,
        "StringSchema" => plain::<StringSchema>,
        "NumberSchema" => plain::<NumberSchema>,
        "BooleanSchema" => plain::<BooleanSchema>,
        "UntitledSingleSelectEnumSchema" => plain::<UntitledSingleSelectEnumSchema>,
        "TitledSingleSelectEnumSchema" => plain::<TitledSingleSelectEnumSchema>,
        "UntitledMultiSelectEnumSchema" => plain::<UntitledMultiSelectEnumSchema>,
        "TitledMultiSelectEnumSchema" => plain::<TitledMultiSelectEnumSchema>,
        // Roots.
        "ListRootsRequest" => |v| embedded::<ListRootsRequest>(v, m::ROOTS_LIST),
        "ListRootsResult" => plain::<ListRootsResult>,
        "Root" => plain::<Root>,
        // Multi-round-trip input.
        "InputRequests" => plain::<InputRequests>,
        "InputResponses" => input_responses,
        "InputRequiredResult" => input_required,
        // Errors: bare error objects and whole error responses.
        "ParseError" => |v| error_object(v, ec::PARSE_ERROR),
        "InvalidParamsError" => |v| error_object(v, ec::INVALID_PARAMS),
        "MethodNotFoundError" => |v| error_object(v, ec::METHOD_NOT_FOUND),
        "InternalError" => |v| error_object(v, ec::INTERNAL_ERROR),
        "InvalidRequestError" => |v| error_object(v, ec::INVALID_REQUEST),
        "HeaderMismatchError" => |v| error_response::<Value>(v, ec::HEADER_MISMATCH),
        "MissingRequiredClientCapabilityError" => |v| {
            error_response::<MissingRequiredClientCapabilityData>(
                v,
                ec::MISSING_REQUIRED_CLIENT_CAPABILITY,
            )
        },
        "UnsupportedProtocolVersionError" => |v| {
            error_response::<UnsupportedProtocolVersionData>(v, ec::UNSUPPORTED_PROTOCOL_VERSION)
        },
        _ => return None,
    };
    Some(checker)
}

#[test]
fn every_spec_example_round_trips() {
    let dir = examples_dir();
    let entries = fs::read_dir(&dir).unwrap_or_else(|e| {
        panic!(
            "spec examples directory {} is not readable ({e}); it is expected at \
             <repo>/../shared/spec/2026-07-28/examples (or set MCP_SPEC_EXAMPLES_DIR)",
            dir.display()
        )
    });
    let mut folders: Vec<PathBuf> = entries
        .map(|e| e.expect("readable directory entry").path())
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    assert!(
        !folders.is_empty(),
        "no example folders in {}",
        dir.display()
    );

    let mut failures = Vec::new();
    let mut checked = 0usize;
    for folder in &folders {
        let name = folder.file_name().unwrap().to_string_lossy().into_owned();
        let Some(check) = checker_for(&name) else {
            failures.push(format!(
                "{name}/: no Rust type mapped for this example folder (add it to checker_for)"
            ));
            continue;
        };
        let mut files: Vec<PathBuf> = fs::read_dir(folder)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", folder.display()))
            .map(|e| e.expect("readable directory entry").path())
            .filter(|p| p.extension().is_some_and(|ext| ext == "json"))
            .collect();
        files.sort();
        if files.is_empty() {
            failures.push(format!("{name}/: folder holds no .json examples"));
        }
        for file in files {
            let label = format!("{name}/{}", file.file_name().unwrap().to_string_lossy());
            let result = fs::read_to_string(&file)
                .map_err(|e| format!("unreadable: {e}"))
                .and_then(|text| {
                    serde_json::from_str::<Value>(&text).map_err(|e| format!("invalid JSON: {e}"))
                })
                .and_then(|value| check(&value));
            checked += 1;
            if let Err(err) = result {
                failures.push(format!("{label}: {err}"));
            }
        }
    }

    assert!(
        failures.is_empty(),
        "{} of {checked} spec examples failed:\n  - {}",
        failures.len(),
        failures.join("\n  - ")
    );
}

#[test]
fn result_or_input_required_dispatches_on_result_type() {
    let input_required = json!({"resultType": "input_required", "requestState": "abc"});
    let parsed: ResultOrInputRequired<CallToolResult> =
        serde_json::from_value(input_required).unwrap();
    assert!(matches!(parsed, ResultOrInputRequired::InputRequired(_)));

    let complete = json!({"resultType": "complete", "content": []});
    let parsed: ResultOrInputRequired<CallToolResult> = serde_json::from_value(complete).unwrap();
    assert!(matches!(parsed, ResultOrInputRequired::Complete(_)));
}

#[test]
fn tagged_unions_reject_unknown_tags() {
    assert!(serde_json::from_value::<ContentBlock>(json!({"type": "video", "data": ""})).is_err());
    assert!(serde_json::from_value::<InputRequest>(json!({"method": "tools/call"})).is_err());
    assert!(
        serde_json::from_value::<JsonRpcRequest<RequestParams>>(
            json!({"jsonrpc": "1.0", "id": 1, "method": "ping", "params": {}})
        )
        .is_err()
    );
}

#[test]
fn content_block_helpers() {
    let block = ContentBlock::text("hello");
    assert_eq!(block.as_text(), Some("hello"));
    assert_eq!(
        serde_json::to_value(&block).unwrap(),
        json!({"type": "text", "text": "hello"})
    );
}

#[test]
fn elicit_params_without_mode_are_form_mode() {
    let v = json!({"message": "m", "requestedSchema": {"type": "object", "properties": {}}});
    let parsed: ElicitRequestParams = serde_json::from_value(v).unwrap();
    assert!(matches!(parsed, ElicitRequestParams::Form(_)));
}

#[test]
fn request_meta_view_reads_reserved_keys() {
    let meta: Meta = serde_json::from_value(json!({
        META_PROTOCOL_VERSION: LATEST_PROTOCOL_VERSION,
        META_CLIENT_CAPABILITIES: {"sampling": {}},
        META_CLIENT_INFO: {"name": "c", "version": "1"},
        META_LOG_LEVEL: "warning",
        "progressToken": 7,
        "com.example/other": true
    }))
    .unwrap();
    let view = RequestMetaObject::from_meta(&meta).unwrap();
    assert_eq!(
        view.protocol_version.as_deref(),
        Some(LATEST_PROTOCOL_VERSION)
    );
    assert_eq!(view.client_info, Some(Implementation::new("c", "1")));
    assert_eq!(view.log_level, Some(LoggingLevel::Warning));
    assert_eq!(view.progress_token, Some(ProgressToken::Integer(7)));
    assert!(view.client_capabilities.unwrap().sampling.is_some());
}

#[test]
fn legacy_lifecycle_messages_round_trip() {
    let init = json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {"roots": {"listChanged": true}, "sampling": {}, "elicitation": {"form": {}}},
            "clientInfo": {"name": "client", "version": "1.0.0", "websiteUrl": "https://example.com"}
        }
    });
    let req = roundtrip::<InitializeRequest>(&init).unwrap();
    assert_eq!(req.method, methods::INITIALIZE);
    assert!(LEGACY_PROTOCOL_VERSIONS.contains(&req.params.protocol_version.as_str()));

    let result = json!({
        "jsonrpc": "2.0", "id": 0,
        "result": {
            "protocolVersion": "2025-11-25",
            "capabilities": {
                "logging": {}, "completions": {}, "experimental": {"x": {}},
                "prompts": {"listChanged": true},
                "resources": {"subscribe": true, "listChanged": true},
                "tools": {"listChanged": false},
                "tasks": {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}
            },
            "serverInfo": {"name": "server", "version": "2.0.0"},
            "instructions": "be nice"
        }
    });
    roundtrip::<InitializeResultResponse>(&result).unwrap();

    let set_level = json!({"jsonrpc": "2.0", "id": "x", "method": "logging/setLevel", "params": {"level": "emergency"}});
    let req = roundtrip::<SetLevelRequest>(&set_level).unwrap();
    assert_eq!(req.params.level, LoggingLevel::Emergency);
    assert!(LoggingLevel::Debug < LoggingLevel::Emergency);

    let legacy_sampling = json!({
        "jsonrpc": "2.0", "id": 3, "method": "sampling/createMessage",
        "params": {"messages": [], "maxTokens": 10, "temperature": 0.5, "includeContext": "thisServer"}
    });
    roundtrip::<InputRequest>(&legacy_sampling).unwrap();

    let legacy_tool = json!({
        "name": "t", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "optional"}
    });
    roundtrip::<Tool>(&legacy_tool).unwrap();
}

#[test]
fn integral_floats_serialize_as_integers() {
    let p = ProgressNotificationParams {
        progress_token: ProgressToken::String("t".into()),
        progress: 3.0,
        total: Some(10.5),
        message: None,
        meta: None,
    };
    assert_eq!(
        serde_json::to_value(&p).unwrap(),
        json!({"progressToken": "t", "progress": 3, "total": 10.5})
    );
}
