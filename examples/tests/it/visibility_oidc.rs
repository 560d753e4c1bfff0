//! Visibility per caller: tools, prompts and resources restricted to
//! callers with a scope (`visible_with_scopes`) or a predicate
//! (`visible_to`), on a server protected by JWTs from a real issuer (the
//! npm `oidc-provider`, tests/interop/oidc_issuer.mjs). Two tokens with
//! different scopes see different lists, in both eras; a hidden tool is an
//! unknown tool (-32602), a hidden prompt an unknown prompt, a hidden
//! resource a missing one; a list that hides something is cached
//! privately; a restricted tool added to a live registry is hidden too.

use crate::support;

use mcp_toolkit_runtime::client::{Caching, Client, ClientError, ConnectOptions, EraChoice};
use mcp_toolkit_runtime::jsonrpc::code::INVALID_PARAMS;
use mcp_toolkit_runtime::protocol::{CallToolResult, GetPromptResult, ReadResourceResult};
use mcp_toolkit_runtime::server::auth::AuthConfig;
use mcp_toolkit_runtime::server::{
    PromptDef, PromptRequest, ResourceDef, ResourceRead, Server, ToolCall, ToolDef,
};
use mcp_toolkit_runtime::transport::HttpConfig;
use serde_json::{Value, json};
use support::oidc::Issuer;

fn tool(name: &str) -> ToolDef {
    ToolDef::new(name, |_call: ToolCall| async {
        Ok(CallToolResult::text("done"))
    })
}

fn server() -> Server {
    Server::builder(mcp_toolkit_runtime::server_info!())
        .tool(tool("notes_read"))
        .tool(tool("audit_report").visible_with_scopes(["admin"]))
        // A predicate over the whole principal: here, one subject.
        .tool(tool("alice_only").visible_to(|p| p.subject.as_deref() == Some("nobody")))
        .prompt(
            PromptDef::new("audit_prompt", |_: PromptRequest| async {
                Ok(GetPromptResult {
                    description: None,
                    messages: Vec::new(),
                    result_type: None,
                    meta: None,
                })
            })
            .visible_with_scopes(["admin"]),
        )
        .resource(
            ResourceDef::new("audit://log", "log", |read: ResourceRead| async move {
                Ok(ReadResourceResult::text(read.uri, None, "secret"))
            })
            .visible_with_scopes(["admin"]),
        )
        .live_registry()
        .build()
        .unwrap()
}

async fn connect(url: &str, token: &str, era: EraChoice) -> Client {
    let options = ConnectOptions {
        era,
        cache: Caching::Off,
        ..ConnectOptions::default()
    }
    .bearer_token(token)
    .unwrap();
    Client::connect_http_with(url, options).await.unwrap()
}

async fn tool_names(client: &Client) -> Vec<String> {
    let mut names: Vec<String> = client
        .list_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name)
        .collect();
    names.sort();
    names
}

fn is_invalid_params(result: Result<impl std::fmt::Debug, ClientError>, what: &str) {
    match result {
        Err(ClientError::Protocol(error)) if error.code == INVALID_PARAMS => {
            assert!(error.message.contains(what), "{error:?}");
        }
        other => panic!("expected -32602 naming {what:?}, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_tokens_with_different_scopes_see_different_tools() {
    let issuer = Issuer::start_with(&[("SCOPES", "notes admin")]);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let reader_token = issuer.token("mcp-test", &url, "notes");
    let admin_token = issuer.token("mcp-test", &url, "notes admin");
    let server = server();
    let registry = server.registry().unwrap();
    let config = HttpConfig {
        auth: Some(AuthConfig::jwt(&url, &issuer.url).unwrap()),
        ..HttpConfig::default()
    };
    tokio::spawn(server.serve_http_with(listener, config, std::future::pending()));

    for era in [EraChoice::Legacy, EraChoice::Modern] {
        let reader = connect(&url, &reader_token, era).await;
        let admin = connect(&url, &admin_token, era).await;
        assert_eq!(tool_names(&reader).await, ["notes_read"], "{era:?}");
        assert_eq!(
            tool_names(&admin).await,
            ["audit_report", "notes_read"],
            "{era:?}"
        );

        // Hidden is unknown: the same error as a tool that does not exist.
        is_invalid_params(
            reader.call_tool("audit_report", &json!({})).await,
            "Unknown tool: audit_report",
        );
        is_invalid_params(
            reader.call_tool("no_such_tool", &json!({})).await,
            "Unknown tool: no_such_tool",
        );
        assert!(admin.call_tool("audit_report", &json!({})).await.is_ok());
        is_invalid_params(
            admin.call_tool("alice_only", &json!({})).await,
            "Unknown tool",
        );

        assert!(reader.list_prompts().await.unwrap().is_empty(), "{era:?}");
        assert_eq!(admin.list_prompts().await.unwrap().len(), 1);
        is_invalid_params(
            reader.get_prompt("audit_prompt", [("x", "y")]).await,
            "Unknown prompt",
        );
        assert!(reader.list_resources().await.unwrap().is_empty());
        assert!(reader.read_resource("audit://log").await.is_err());
        assert!(admin.read_resource("audit://log").await.is_ok());

        if era == EraChoice::Modern {
            // A list that depends on the caller is not for shared caches.
            let listed: Value = reader.request("tools/list", &json!({})).await.unwrap();
            assert_eq!(listed["cacheScope"], "private", "{listed}");
        }
    }

    // A restricted tool added while serving is hidden just the same.
    registry
        .add_tool(tool("late_admin").visible_with_scopes(["admin"]))
        .unwrap();
    let reader = connect(&url, &reader_token, EraChoice::Modern).await;
    let admin = connect(&url, &admin_token, EraChoice::Modern).await;
    assert_eq!(tool_names(&reader).await, ["notes_read"]);
    assert!(tool_names(&admin).await.contains(&"late_admin".to_owned()));
    is_invalid_params(
        reader.call_tool("late_admin", &json!({})).await,
        "Unknown tool",
    );
}
