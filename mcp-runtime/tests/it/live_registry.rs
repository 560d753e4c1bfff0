//! A live registry (`ServerBuilder::live_registry`): tools, prompts,
//! resources and templates added, replaced and removed while the server
//! runs, in both eras; a failed batch changes nothing; a listener is told
//! once per batch; a call racing a removal finishes with the definition it
//! started with or is refused as unknown, never anything else.

use crate::client_support;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use client_support::{
    answering, connect_uncached, empty_prompt, is_unknown_tool, live_server, next_event, text_of,
    tool_names,
};
use mcp_toolkit_runtime::client::{EraChoice, ListenEvent};
use mcp_toolkit_runtime::protocol::{
    CallToolResult, ReadResourceResult, ResourceContents, SubscriptionFilter,
};
use mcp_toolkit_runtime::server::{
    Batch, LiveRegistry, ResourceDef, ResourceRead, ResourceTemplateDef, Server, ToolCall, ToolDef,
};
use serde_json::json;
use tokio::sync::Notify;

fn resource(uri: &str, text: &'static str) -> ResourceDef {
    ResourceDef::new(uri, "r", move |read: ResourceRead| async move {
        Ok(ReadResourceResult::text(read.uri, None, text))
    })
}

fn text_in(read: &ReadResourceResult) -> Option<&str> {
    match &read.contents[0] {
        ResourceContents::Text(text) => Some(&text.text),
        ResourceContents::Blob(_) => None,
    }
}

const ERAS: [EraChoice; 2] = [EraChoice::Legacy, EraChoice::Modern];

#[tokio::test]
async fn tools_are_added_replaced_and_removed_in_both_eras() {
    for era in ERAS {
        let (server, registry) = live_server(answering("status", "up"));
        let client = connect_uncached(server, era).await;
        assert_eq!(tool_names(&client).await, ["status"]);

        registry.add_tool(answering("report", "v1")).unwrap();
        assert_eq!(tool_names(&client).await, ["report", "status"], "{era:?}");
        assert_eq!(text_of(&client, "report").await.unwrap(), "v1");

        registry.replace_tool(answering("report", "v2")).unwrap();
        assert_eq!(text_of(&client, "report").await.unwrap(), "v2", "{era:?}");

        registry.remove_tool("report").unwrap();
        assert_eq!(tool_names(&client).await, ["status"]);
        let gone = text_of(&client, "report").await.unwrap_err();
        assert!(is_unknown_tool(&gone), "{era:?}: {gone:?}");
    }
}

#[tokio::test]
async fn prompts_resources_and_templates_change_too() {
    for era in ERAS {
        let (server, registry) = live_server(answering("status", "up"));
        let client = connect_uncached(server, era).await;
        registry
            .apply(
                Batch::new()
                    .add_prompt(empty_prompt("greet"))
                    .add_resource(resource("test://a", "first"))
                    .add_resource_template(
                        ResourceTemplateDef::new(
                            "notes://{title}",
                            "notes",
                            |read: ResourceRead| async move {
                                Ok(ReadResourceResult::text(read.uri, None, "note"))
                            },
                        )
                        .unwrap(),
                    ),
            )
            .unwrap();
        let prompts = client.list_prompts().await.unwrap();
        assert_eq!(prompts[0].name, "greet", "{era:?}");
        let read = client.read_resource("test://a").await.unwrap();
        assert_eq!(text_in(&read), Some("first"));
        let note = client.read_resource("notes://x").await.unwrap();
        assert_eq!(text_in(&note), Some("note"));

        registry
            .apply(Batch::new().replace_resource(resource("test://a", "second")))
            .unwrap();
        let read = client.read_resource("test://a").await.unwrap();
        assert_eq!(text_in(&read), Some("second"), "{era:?}");

        registry
            .apply(
                Batch::new()
                    .remove_prompt("greet")
                    .remove_resource("test://a")
                    .remove_resource_template("notes://{title}"),
            )
            .unwrap();
        assert!(client.list_prompts().await.unwrap().is_empty());
        assert!(client.list_resources().await.unwrap().is_empty());
        assert!(client.read_resource("notes://x").await.is_err());
        assert_eq!(registry.resource_template_uris(), Vec::<String>::new());
    }
}

#[tokio::test]
async fn a_failed_batch_changes_nothing_and_says_what_build_would() {
    let (_server, registry) = live_server(answering("status", "up"));
    let duplicate = registry
        .apply(
            Batch::new()
                .add_tool(answering("fresh", "x"))
                .add_tool(answering("status", "again")),
        )
        .unwrap_err();
    assert_eq!(duplicate.to_string(), "two tools are named `status`");
    let built = Server::builder(mcp_toolkit_runtime::server_info!())
        .tool(answering("status", "a"))
        .tool(answering("status", "b"))
        .build()
        .err()
        .unwrap();
    assert_eq!(
        built, duplicate,
        "the same rule, the same error as at build"
    );

    let invalid = registry
        .apply(
            Batch::new()
                .add_tool(answering("fine", "x"))
                .add_tool(answering("no spaces allowed", "x")),
        )
        .unwrap_err();
    assert!(invalid.to_string().contains("is invalid"), "{invalid}");
    let missing = registry
        .apply(
            Batch::new()
                .add_tool(answering("fine", "x"))
                .remove_tool("nope"),
        )
        .unwrap_err();
    assert_eq!(missing.to_string(), "there is no tool `nope`");
    assert_eq!(registry.tool_names(), ["status"], "no batch left a trace");

    // In order: a batch may remove a name and reuse it.
    registry
        .apply(
            Batch::new()
                .remove_tool("status")
                .add_tool(answering("status", "new")),
        )
        .unwrap();
    assert_eq!(registry.tool_names(), ["status"]);
}

#[tokio::test]
async fn a_listener_is_told_once_per_batch() {
    let (server, registry) = live_server(answering("status", "up"));
    let client = connect_uncached(server, EraChoice::Modern).await;
    let mut subscription = client
        .listen(SubscriptionFilter {
            tools_list_changed: Some(true),
            prompts_list_changed: Some(true),
            resources_list_changed: Some(true),
            ..SubscriptionFilter::default()
        })
        .unwrap();
    assert!(matches!(
        next_event(&mut subscription).await,
        ListenEvent::Acknowledged(_)
    ));
    let many = (0..20).fold(Batch::new(), |batch, i| {
        batch.add_tool(answering(&format!("tool{i}"), "x"))
    });
    registry.apply(many.add_prompt(empty_prompt("p"))).unwrap();
    let mut told = Vec::new();
    told.push(next_event(&mut subscription).await);
    told.push(next_event(&mut subscription).await);
    assert!(told.contains(&ListenEvent::ToolsListChanged), "{told:?}");
    assert!(told.contains(&ListenEvent::PromptsListChanged), "{told:?}");
    let more = tokio::time::timeout(Duration::from_millis(300), subscription.next()).await;
    assert!(
        more.is_err(),
        "one announcement per kind per batch: {more:?}"
    );
    // A batch that fails announces nothing.
    registry.add_tool(answering("tool0", "x")).unwrap_err();
    let more = tokio::time::timeout(Duration::from_millis(300), subscription.next()).await;
    assert!(more.is_err(), "{more:?}");
}

#[tokio::test]
async fn a_call_that_started_keeps_its_definition() {
    for era in ERAS {
        let (server, registry) = live_server(answering("status", "up"));
        let started = Arc::new(Notify::new());
        let release = Arc::new(Notify::new());
        let (s, r) = (started.clone(), release.clone());
        let slow = ToolDef::new("slow", move |_call: ToolCall| {
            let (started, release) = (s.clone(), r.clone());
            async move {
                started.notify_one();
                release.notified().await;
                Ok(CallToolResult::text("old"))
            }
        });
        registry.add_tool(slow).unwrap();
        let client = connect_uncached(server, era).await;
        let call = tokio::spawn({
            let client = client.clone();
            async move { text_of(&client, "slow").await }
        });
        started.notified().await;
        registry.remove_tool("slow").unwrap();
        let late = text_of(&client, "slow").await.unwrap_err();
        assert!(is_unknown_tool(&late), "{era:?}: {late:?}");
        release.notify_one();
        assert_eq!(call.await.unwrap().unwrap(), "old", "{era:?}");
    }
}

/// A tool `flip` whose handler answers `parity` and whose output schema
/// accepts only that parity: a call served by one definition's handler and
/// checked against another's schema fails (-32603) instead of answering.
fn flip(parity: &'static str) -> ToolDef {
    ToolDef::new("flip", move |_call: ToolCall| async move {
        pause().await; // let a change land mid-call
        CallToolResult::structured(&json!({ "parity": parity }))
    })
    .output_schema(json!({
        "type": "object",
        "properties": {"parity": {"const": parity}},
        "required": ["parity"]
    }))
}

/// A few turns of the scheduler, so that calls run between two changes.
async fn pause() {
    for _ in 0..4 {
        tokio::task::yield_now().await;
    }
}

#[tokio::test]
async fn calls_racing_changes_get_a_whole_definition_or_unknown_tool() {
    for era in ERAS {
        let (server, registry) = live_server(answering("status", "up"));
        let client = connect_uncached(server, era).await;
        let done = Arc::new(AtomicBool::new(false));
        let changer = tokio::spawn({
            let done = done.clone();
            async move {
                // Until the caller is done (bounded): replace, remove, again.
                for round in 0..100_000 {
                    if done.load(Ordering::Relaxed) {
                        break;
                    }
                    let parity = if round % 2 == 0 { "even" } else { "odd" };
                    registry.replace_tool(flip(parity)).unwrap();
                    pause().await;
                    if round % 2 == 1 {
                        registry.remove_tool("flip").unwrap();
                        pause().await;
                    }
                }
            }
        });
        let (mut answered, mut unknown) = (0, 0);
        for _ in 0..400 {
            match client.call_tool("flip", &json!({})).await {
                Ok(result) => {
                    let parity = &result.structured_content.as_ref().unwrap()["parity"];
                    assert!(parity == "even" || parity == "odd", "{era:?}: {result:?}");
                    answered += 1;
                }
                Err(error) if is_unknown_tool(&error) => unknown += 1,
                Err(error) => panic!("{era:?}: a call mixed two definitions: {error:?}"),
            }
        }
        done.store(true, Ordering::Relaxed);
        changer.await.unwrap();
        // Both outcomes happened, so the calls did race the changes.
        assert!(
            answered > 0 && unknown > 0,
            "{era:?}: {answered} answered, {unknown} unknown"
        );
    }
}

#[tokio::test]
async fn a_live_server_says_list_changed_in_both_eras() {
    for era in ERAS {
        let (server, _registry) = live_server(answering("status", "up"));
        let client = connect_uncached(server, era).await;
        let capabilities = &client.server().capabilities;
        assert_eq!(
            capabilities.tools.as_ref().and_then(|t| t.list_changed),
            Some(true),
            "{era:?}"
        );
        // Declared although the server started with no prompt or resource:
        // any may appear.
        assert_eq!(
            capabilities.prompts.as_ref().and_then(|p| p.list_changed),
            Some(true)
        );
        assert_eq!(
            capabilities.resources.as_ref().and_then(|r| r.list_changed),
            Some(true)
        );
    }
    let fixed = Server::builder(mcp_toolkit_runtime::server_info!())
        .tool(answering("status", "up"))
        .build()
        .unwrap();
    assert!(fixed.registry().is_none(), "only when asked for");
}

/// The signed-in user's inbox.
#[mcp_toolkit_runtime::mcp_tool]
fn inbox() -> String {
    "3 new messages".into()
}

/// Sign in: the tools that need a user appear.
#[mcp_toolkit_runtime::mcp_tool]
fn login(registry: Option<LiveRegistry>) -> Result<String, String> {
    let registry = registry.ok_or("the registry is not live")?;
    registry
        .register(mcp_toolkit_runtime::definitions![inbox])
        .map_err(|e| e.to_string())?;
    Ok("signed in".into())
}

/// Sign out: they disappear again.
#[mcp_toolkit_runtime::mcp_tool]
fn logout(registry: Option<LiveRegistry>) -> Result<String, String> {
    let registry = registry.ok_or("the registry is not live")?;
    registry.remove_tool("inbox").map_err(|e| e.to_string())?;
    Ok("signed out".into())
}

#[tokio::test]
async fn macro_built_tools_come_and_go_from_a_handler() {
    for era in ERAS {
        let server = Server::builder(mcp_toolkit_runtime::server_info!())
            .register(mcp_toolkit_runtime::definitions![login, logout])
            .live_registry()
            .build()
            .unwrap();
        let client = connect_uncached(server, era).await;
        assert_eq!(tool_names(&client).await, ["login", "logout"]);
        assert_eq!(text_of(&client, "login").await.unwrap(), "signed in");
        assert_eq!(
            tool_names(&client).await,
            ["inbox", "login", "logout"],
            "{era:?}"
        );
        assert_eq!(text_of(&client, "inbox").await.unwrap(), "3 new messages");
        // A second login is refused by the registry's rules, and says why.
        let again = client.call_tool("login", &json!({})).await.unwrap();
        assert_eq!(again.is_error, Some(true));
        assert_eq!(
            again.content[0].as_text(),
            Some("two tools are named `inbox`")
        );
        assert_eq!(text_of(&client, "logout").await.unwrap(), "signed out");
        assert_eq!(tool_names(&client).await, ["login", "logout"]);
    }
    // On a server whose registry is fixed, the handler is told so.
    let fixed = Server::builder(mcp_toolkit_runtime::server_info!())
        .register(mcp_toolkit_runtime::definitions![login])
        .build()
        .unwrap();
    let client = connect_uncached(fixed, EraChoice::Modern).await;
    let refused = client.call_tool("login", &json!({})).await.unwrap();
    assert_eq!(
        refused.content[0].as_text(),
        Some("the registry is not live")
    );
}
