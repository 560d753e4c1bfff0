//! Server notifications reach the client: `subscriptions/listen` kept open
//! by `Client::listen` (2026-07-28) delivers list changes through
//! `Client::notifications` until the subscription is dropped, and
//! `Client::tool_list` reports the list's `ttlMs` and `cacheScope`.

use std::time::Duration;

use mcp_toolkit_runtime::client::{Client, ConnectOptions, EraChoice};
use mcp_toolkit_runtime::protocol::{CacheScope, CallToolResult, SubscriptionFilter};
use mcp_toolkit_runtime::server::{ListChanges, Server, ServerOptions, ToolCall, ToolDef};

async fn connect(era: EraChoice, changes: ListChanges) -> Client {
    let noop = ToolDef::new("noop", |_call: ToolCall| async move {
        Ok(CallToolResult::text("ok"))
    });
    let server = Server::builder(mcp_toolkit_runtime::server_info!())
        .tool(noop)
        .list_changes(changes)
        .options(ServerOptions {
            list_ttl_ms: 1234,
            list_cache_scope: CacheScope::Private,
            ..ServerOptions::default()
        })
        .build()
        .unwrap();
    let options = ConnectOptions {
        era,
        ..ConnectOptions::default()
    };
    Client::connect_in_memory(server, options).await.unwrap()
}

/// The next notification with `method`, within 5 s.
async fn next(
    notices: &mut tokio::sync::broadcast::Receiver<mcp_toolkit_runtime::jsonrpc::Notification>,
    method: &str,
) -> mcp_toolkit_runtime::jsonrpc::Notification {
    tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            let notice = notices.recv().await.expect("the channel is open");
            if notice.method == method {
                return notice;
            }
        }
    })
    .await
    .unwrap_or_else(|_| panic!("no {method} within 5 s"))
}

#[tokio::test]
async fn listen_delivers_list_changes_until_dropped() {
    let changes = ListChanges::new();
    let client = connect(EraChoice::Auto, changes.clone()).await;
    let mut notices = client.notifications();
    let filter = SubscriptionFilter {
        tools_list_changed: Some(true),
        ..SubscriptionFilter::default()
    };
    let subscription = client.listen(filter).unwrap();
    next(&mut notices, "notifications/subscriptions/acknowledged").await;
    changes.tools_changed();
    let change = next(&mut notices, "notifications/tools/list_changed").await;
    let tag = &change.params.unwrap()["_meta"]["io.modelcontextprotocol/subscriptionId"];
    assert!(!tag.is_null(), "tagged with the subscription");
    // Not asked for: not delivered.
    changes.prompts_changed();
    drop(subscription);
    tokio::time::sleep(Duration::from_millis(200)).await;
    changes.tools_changed();
    tokio::time::sleep(Duration::from_millis(200)).await;
    while let Ok(notice) = notices.try_recv() {
        assert_ne!(notice.method, "notifications/prompts/list_changed");
        assert_ne!(
            notice.method, "notifications/tools/list_changed",
            "delivered after the subscription was dropped"
        );
    }
}

#[tokio::test]
async fn tool_list_reports_how_long_it_may_be_cached() {
    let client = connect(EraChoice::Auto, ListChanges::new()).await;
    let list = client.tool_list().await.unwrap();
    assert_eq!(list.tools.len(), 1);
    assert_eq!(list.ttl, Some(Duration::from_millis(1234)));
    assert_eq!(list.cache_scope, Some(CacheScope::Private));

    let legacy = connect(EraChoice::Legacy, ListChanges::new()).await;
    assert!(legacy.listen(SubscriptionFilter::default()).is_err());
    let list = legacy.tool_list().await.unwrap();
    assert_eq!((list.ttl, list.cache_scope), (None, None));
}
