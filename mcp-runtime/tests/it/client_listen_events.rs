//! `Subscription::next` (2026-07-28): the typed events of one
//! `subscriptions/listen` stream, in memory and over Streamable HTTP. Each
//! subscription sees only the notifications tagged with its own stream, and
//! one read too slowly is told it missed some.

use crate::client_support;

use std::time::Duration;

use client_support::next_event;
use mcp_toolkit_runtime::client::{Client, ConnectOptions, EraChoice, ListenEvent};
use mcp_toolkit_runtime::protocol::{
    CallToolResult, GetPromptResult, ReadResourceResult, SubscriptionFilter,
};
use mcp_toolkit_runtime::server::{
    ListChanges, PromptDef, PromptRequest, ResourceDef, ResourceRead, Server, ToolCall, ToolDef,
};
use mcp_toolkit_runtime::transport::HttpConfig;

const URI: &str = "test://config";

fn server(changes: ListChanges) -> Server {
    let noop = ToolDef::new("noop", |_call: ToolCall| async move {
        Ok(CallToolResult::text("ok"))
    });
    Server::builder(mcp_toolkit_runtime::server_info!())
        .tool(noop)
        .prompt(PromptDef::new("greet", |_: PromptRequest| async {
            Ok(GetPromptResult {
                description: None,
                messages: Vec::new(),
                result_type: None,
                meta: None,
            })
        }))
        .resource(ResourceDef::new(
            URI,
            "config",
            |read: ResourceRead| async move { Ok(ReadResourceResult::text(read.uri, None, "{}")) },
        ))
        .list_changes(changes)
        .build()
        .unwrap()
}

async fn connect(http: bool, changes: ListChanges) -> Client {
    let options = ConnectOptions {
        era: EraChoice::Modern,
        ..ConnectOptions::default()
    };
    if !http {
        return Client::connect_in_memory(server(changes), options)
            .await
            .unwrap();
    }
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(server(changes).serve_http_with(
        listener,
        HttpConfig::default(),
        std::future::pending(),
    ));
    Client::connect_http_with(&url, options).await.unwrap()
}

#[tokio::test]
async fn each_subscription_reads_its_own_typed_events() {
    for http in [false, true] {
        let changes = ListChanges::new();
        let client = connect(http, changes.clone()).await;
        let tools = SubscriptionFilter {
            tools_list_changed: Some(true),
            ..SubscriptionFilter::default()
        };
        let others = SubscriptionFilter {
            prompts_list_changed: Some(true),
            resource_subscriptions: Some(vec![URI.into()]),
            ..SubscriptionFilter::default()
        };
        let mut a = client.listen(tools.clone()).unwrap();
        let mut b = client.listen(others.clone()).unwrap();
        assert_eq!(
            next_event(&mut a).await,
            ListenEvent::Acknowledged(tools),
            "{http}"
        );
        assert_eq!(
            next_event(&mut b).await,
            ListenEvent::Acknowledged(others),
            "{http}"
        );

        changes.tools_changed();
        assert_eq!(
            next_event(&mut a).await,
            ListenEvent::ToolsListChanged,
            "{http}"
        );
        changes.prompts_changed();
        changes.resource_updated(URI);
        assert_eq!(
            next_event(&mut b).await,
            ListenEvent::PromptsListChanged,
            "{http}"
        );
        assert_eq!(
            next_event(&mut b).await,
            ListenEvent::ResourceUpdated { uri: URI.into() },
            "{http}"
        );
        // The other stream's notifications came in between; `a` skips them.
        changes.tools_changed();
        assert_eq!(
            next_event(&mut a).await,
            ListenEvent::ToolsListChanged,
            "{http}"
        );
    }
}

#[tokio::test]
async fn a_subscription_read_too_slowly_is_told_it_missed_some() {
    let changes = ListChanges::new();
    let client = connect(false, changes.clone()).await;
    let filter = SubscriptionFilter {
        tools_list_changed: Some(true),
        ..SubscriptionFilter::default()
    };
    let mut subscription = client.listen(filter.clone()).unwrap();
    assert_eq!(
        next_event(&mut subscription).await,
        ListenEvent::Acknowledged(filter)
    );
    // More than the 256 the client keeps, in batches the server's own
    // 64-deep queue takes whole.
    for _ in 0..10 {
        for _ in 0..40 {
            changes.tools_changed();
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let ListenEvent::Missed { missed } = next_event(&mut subscription).await else {
        panic!("expected Missed first");
    };
    assert!(missed > 0);
    assert_eq!(
        next_event(&mut subscription).await,
        ListenEvent::ToolsListChanged,
        "the rest still arrives"
    );
}

#[tokio::test]
async fn a_refused_subscription_ends_its_events() {
    // No `list_changes`: the server does not offer `subscriptions/listen`.
    let server = Server::builder(mcp_toolkit_runtime::server_info!())
        .tool(ToolDef::new("noop", |_call: ToolCall| async move {
            Ok(CallToolResult::text("ok"))
        }))
        .build()
        .unwrap();
    let options = ConnectOptions {
        era: EraChoice::Modern,
        ..ConnectOptions::default()
    };
    let client = Client::connect_in_memory(server, options).await.unwrap();
    let mut subscription = client.listen(SubscriptionFilter::default()).unwrap();
    let ended = tokio::time::timeout(Duration::from_secs(5), subscription.next()).await;
    assert_eq!(ended, Ok(None), "no event, and no wait once refused");
}
