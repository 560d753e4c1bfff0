//! `Client::mount_live`: server B, with a live registry, mounted under `b`
//! in server A's live registry through an in-memory client, in every pair
//! of eras. What B adds, changes and removes appears, changes and
//! disappears in A, and A's own listeners are told once per change.

use crate::client_support;

use std::time::Duration;

use client_support::{
    answering, connect_uncached, empty_prompt, is_unknown_tool, live_server, text_of, tool_names,
};

use mcp_toolkit_runtime::client::{
    Client, EraChoice, ListenEvent, LiveMount, MountError, Subscription,
};
use mcp_toolkit_runtime::jsonrpc::Notification;
use mcp_toolkit_runtime::protocol::SubscriptionFilter;
use mcp_toolkit_runtime::protocol::methods::{
    NOTIFICATION_PROMPTS_LIST_CHANGED, NOTIFICATION_TOOLS_LIST_CHANGED,
};
use mcp_toolkit_runtime::server::{Batch, LiveRegistry};
use tokio::sync::broadcast;

/// A's client's view of announcements: a `subscriptions/listen` stream in
/// 2026-07-28, the notifications a legacy server sends unasked.
enum Listener {
    Modern(Subscription),
    Legacy(broadcast::Receiver<Notification>),
}

impl Listener {
    async fn start(client: &Client, era: EraChoice) -> Listener {
        if era == EraChoice::Legacy {
            return Listener::Legacy(client.notifications());
        }
        let mut subscription = client
            .listen(SubscriptionFilter {
                tools_list_changed: Some(true),
                prompts_list_changed: Some(true),
                ..SubscriptionFilter::default()
            })
            .unwrap();
        let acknowledged = tokio::time::timeout(Duration::from_secs(5), subscription.next()).await;
        assert!(
            matches!(acknowledged, Ok(Some(ListenEvent::Acknowledged(_)))),
            "{acknowledged:?}"
        );
        Listener::Modern(subscription)
    }

    /// The next list change announced, as its method name.
    async fn next(&mut self) -> &'static str {
        match self {
            Listener::Modern(subscription) => match subscription.next().await {
                Some(ListenEvent::ToolsListChanged) => NOTIFICATION_TOOLS_LIST_CHANGED,
                Some(ListenEvent::PromptsListChanged) => NOTIFICATION_PROMPTS_LIST_CHANGED,
                other => panic!("not a list change: {other:?}"),
            },
            Listener::Legacy(notices) => loop {
                let notice = notices.recv().await.expect("the connection is open");
                match notice.method.as_str() {
                    NOTIFICATION_TOOLS_LIST_CHANGED => break NOTIFICATION_TOOLS_LIST_CHANGED,
                    NOTIFICATION_PROMPTS_LIST_CHANGED => break NOTIFICATION_PROMPTS_LIST_CHANGED,
                    _ => continue,
                }
            },
        }
    }

    /// Asserts that exactly one announcement, `expected`, comes.
    async fn told_once(&mut self, expected: &str, context: &str) {
        let first = tokio::time::timeout(Duration::from_secs(5), self.next()).await;
        assert_eq!(first.ok(), Some(expected), "{context}: told within 5 s");
        let more = tokio::time::timeout(Duration::from_millis(300), self.next()).await;
        assert!(more.is_err(), "{context}: told once, then {more:?}");
    }
}

/// B (`upstream` era) mounted in A, and A's client (`downstream` era).
struct Composed {
    b: LiveRegistry,
    a: LiveRegistry,
    client: Client,
    _mount: LiveMount,
}

async fn compose(upstream: EraChoice, downstream: EraChoice) -> Composed {
    let (b_server, b) = live_server(answering("status", "up"));
    let (a_server, a) = live_server(answering("own", "mine"));
    let to_b = connect_uncached(b_server, upstream).await;
    let mount = to_b.mount_live("b", &a).await.expect("mounted");
    let client = connect_uncached(a_server, downstream).await;
    Composed {
        b,
        a,
        client,
        _mount: mount,
    }
}

async fn mounted_entries_follow_their_server(upstream: EraChoice, downstream: EraChoice) {
    let context = format!("B {upstream:?}, A's client {downstream:?}");
    let Composed {
        b,
        a,
        client,
        _mount,
    } = compose(upstream, downstream).await;
    let mut listener = Listener::start(&client, downstream).await;
    assert_eq!(tool_names(&client).await, ["b_status", "own"], "{context}");

    // Added upstream: listed and called downstream, announced once.
    b.add_tool(answering("report", "v1").description("first"))
        .unwrap();
    listener
        .told_once(NOTIFICATION_TOOLS_LIST_CHANGED, &context)
        .await;
    assert_eq!(
        tool_names(&client).await,
        ["b_report", "b_status", "own"],
        "{context}"
    );
    assert_eq!(text_of(&client, "b_report").await.unwrap(), "v1");

    // Changed upstream: its new description downstream.
    b.replace_tool(answering("report", "v2").description("second"))
        .unwrap();
    listener
        .told_once(NOTIFICATION_TOOLS_LIST_CHANGED, &context)
        .await;
    let listed = client.list_tools().await.unwrap();
    let report = listed.iter().find(|t| t.name == "b_report").unwrap();
    assert_eq!(report.description.as_deref(), Some("second"), "{context}");
    assert_eq!(text_of(&client, "b_report").await.unwrap(), "v2");

    // Removed upstream: gone downstream, an unknown tool.
    b.remove_tool("report").unwrap();
    listener
        .told_once(NOTIFICATION_TOOLS_LIST_CHANGED, &context)
        .await;
    assert_eq!(tool_names(&client).await, ["b_status", "own"], "{context}");
    let gone = text_of(&client, "b_report").await.unwrap_err();
    assert!(is_unknown_tool(&gone), "{context}: {gone:?}");

    // Many tools in one upstream batch: one announcement downstream.
    let many = (0..5).fold(Batch::new(), |batch, i| {
        batch.add_tool(answering(&format!("t{i}"), "x"))
    });
    b.apply(many).unwrap();
    listener
        .told_once(NOTIFICATION_TOOLS_LIST_CHANGED, &context)
        .await;
    assert_eq!(a.tool_names().len(), 7, "{context}: {:?}", a.tool_names());

    // Prompts follow too.
    b.add_prompt(empty_prompt("greet")).unwrap();
    listener
        .told_once(NOTIFICATION_PROMPTS_LIST_CHANGED, &context)
        .await;
    let prompts = client.list_prompts().await.unwrap();
    let names: Vec<&str> = prompts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["b_greet"], "{context}");
}

#[tokio::test]
async fn mounted_entries_follow_a_modern_server_for_a_modern_client() {
    mounted_entries_follow_their_server(EraChoice::Modern, EraChoice::Modern).await;
}

#[tokio::test]
async fn mounted_entries_follow_a_legacy_server_for_a_modern_client() {
    mounted_entries_follow_their_server(EraChoice::Legacy, EraChoice::Modern).await;
}

#[tokio::test]
async fn mounted_entries_follow_a_modern_server_for_a_legacy_client() {
    mounted_entries_follow_their_server(EraChoice::Modern, EraChoice::Legacy).await;
}

#[tokio::test]
async fn mounted_entries_follow_a_legacy_server_for_a_legacy_client() {
    mounted_entries_follow_their_server(EraChoice::Legacy, EraChoice::Legacy).await;
}

#[tokio::test]
async fn following_stops_when_the_handle_is_dropped() {
    let Composed {
        b,
        a,
        client,
        _mount,
    } = compose(EraChoice::Modern, EraChoice::Modern).await;
    drop(_mount);
    b.add_tool(answering("late", "x")).unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(a.tool_names(), ["b_status", "own"]);
    // What was mounted stays, and still answers.
    assert_eq!(text_of(&client, "b_status").await.unwrap(), "up");
}

#[tokio::test]
async fn a_name_the_registry_serves_refuses_the_first_mount() {
    let (b_server, _b) = live_server(answering("status", "up"));
    let (_a_server, a) = live_server(answering("b_status", "mine"));
    let to_b = connect_uncached(b_server, EraChoice::Modern).await;
    match to_b.mount_live("b", &a).await {
        Err(MountError::Registry(error)) => {
            assert_eq!(error.to_string(), "two tools are named `b_status`");
        }
        other => panic!("expected a refusal: {other:?}"),
    }
    assert_eq!(a.tool_names(), ["b_status"], "nothing was added");
}
