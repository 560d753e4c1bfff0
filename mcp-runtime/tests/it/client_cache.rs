//! The client's cache of list and read results, seen from the server: a
//! counting middleware records every request it receives (method and who
//! sent it), so each test asserts how many requests a sequence of calls
//! made. A second list within `ttlMs` makes none; a list change, a resource
//! update or an expired `ttlMs` makes the next call a request; results
//! without a lifetime (legacy, `ttlMs: 0`) and a client with caching off
//! always ask; and with one cache shared by two clients holding different
//! tokens, a `public` result is fetched once while a `private` one is
//! fetched by each.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_toolkit_runtime::client::{Caching, Client, ClientCache, ConnectOptions, EraChoice};
use mcp_toolkit_runtime::jsonrpc::Notification;
use mcp_toolkit_runtime::protocol::{
    CacheScope, CallToolResult, ContentBlock, GetPromptResult, PromptMessage, ReadResourceResult,
    ResourceContents, Role, SubscriptionFilter,
};
use mcp_toolkit_runtime::server::auth::{
    AuthConfig, Principal, TokenError, TokenVerifier, VerifyFuture,
};
use mcp_toolkit_runtime::server::middleware::{McpRequest, Next};
use mcp_toolkit_runtime::server::{
    ListChanges, PromptDef, PromptRequest, ResourceDef, ResourceRead, ResourceTemplateDef, Server,
    ServerOptions, ToolCall, ToolDef,
};
use mcp_toolkit_runtime::transport::HttpConfig;

/// A request the server received: its method and the subject of its
/// access token.
type Request = (String, Option<String>);

/// Every request the server received.
#[derive(Clone, Default)]
struct Seen(Arc<Mutex<Vec<Request>>>);

impl Seen {
    /// How many `method` requests arrived.
    fn count(&self, method: &str) -> usize {
        let seen = self.0.lock().unwrap();
        seen.iter().filter(|(m, _)| m == method).count()
    }

    /// How many `method` requests `subject` sent.
    fn count_from(&self, method: &str, subject: &str) -> usize {
        let seen = self.0.lock().unwrap();
        seen.iter()
            .filter(|(m, s)| m == method && s.as_deref() == Some(subject))
            .count()
    }
}

/// A public resource: its handler says so, whatever the server's options.
const SHARED: &str = "docs://shared";
/// A resource whose text names the reader; `private` by the server's
/// default `read_cache_scope`.
const MINE: &str = "docs://mine";

/// A server with a tool, a prompt, two resources and a template, whose
/// every request is recorded in `seen`.
fn server(options: ServerOptions, changes: ListChanges, seen: Seen) -> Server {
    let noop = ToolDef::new("noop", |_call: ToolCall| async move {
        Ok(CallToolResult::text("ok"))
    });
    let greet = PromptDef::new("greet", |_request: PromptRequest| async move {
        Ok(GetPromptResult {
            description: None,
            messages: vec![PromptMessage {
                role: Role::User,
                content: ContentBlock::text("hello"),
            }],
            result_type: None,
            meta: None,
        })
    });
    let shared = ResourceDef::new(SHARED, "shared", |read: ResourceRead| async move {
        let mut result = ReadResourceResult::text(read.uri, None, "for everyone");
        result.ttl_ms = Some(60_000);
        result.cache_scope = Some(CacheScope::Public);
        Ok(result)
    });
    let mine = ResourceDef::new(MINE, "mine", |read: ResourceRead| async move {
        let reader = read
            .context
            .principal()
            .and_then(|principal| principal.subject.clone())
            .unwrap_or_default();
        Ok(ReadResourceResult::text(
            read.uri,
            None,
            format!("secret of {reader}"),
        ))
    });
    let notes = ResourceTemplateDef::new("notes://{title}", "note", |read: ResourceRead| async {
        Ok(ReadResourceResult::text(read.uri, None, "a note"))
    })
    .unwrap();
    Server::builder(mcp_toolkit_runtime::server_info!())
        .tool(noop)
        .prompt(greet)
        .resource(shared)
        .resource(mine)
        .resource_template(notes)
        .list_changes(changes)
        .options(options)
        .middleware(move |request: McpRequest, next: Next| {
            let subject = request.principal().and_then(|p| p.subject.clone());
            seen.0
                .lock()
                .unwrap()
                .push((request.method().to_owned(), subject));
            next.run(request)
        })
        .build()
        .unwrap()
}

/// Lists and reads are fresh for a minute.
fn cacheable() -> ServerOptions {
    ServerOptions {
        list_ttl_ms: 60_000,
        read_ttl_ms: 60_000,
        ..ServerOptions::default()
    }
}

/// A client of `server(options)` in memory, and what the server sees.
async fn connect(options: ServerOptions, era: EraChoice, cache: Caching) -> (Client, Seen) {
    connect_with_changes(options, era, cache, ListChanges::new()).await
}

async fn connect_with_changes(
    options: ServerOptions,
    era: EraChoice,
    cache: Caching,
    changes: ListChanges,
) -> (Client, Seen) {
    let seen = Seen::default();
    let server = server(options, changes, seen.clone());
    let options = ConnectOptions {
        era,
        cache,
        ..ConnectOptions::default()
    };
    let client = Client::connect_in_memory(server, options).await.unwrap();
    (client, seen)
}

/// Every list once and every resource read once.
async fn list_and_read_everything(client: &Client) {
    assert_eq!(client.list_tools().await.unwrap().len(), 1);
    assert_eq!(client.list_prompts().await.unwrap().len(), 1);
    assert_eq!(client.list_resources().await.unwrap().len(), 2);
    assert_eq!(client.list_resource_templates().await.unwrap().len(), 1);
    for uri in [SHARED, MINE] {
        client.read_resource(uri).await.unwrap();
    }
}

const LISTS: [&str; 4] = [
    "tools/list",
    "prompts/list",
    "resources/list",
    "resources/templates/list",
];

#[tokio::test]
async fn a_second_call_within_the_ttl_makes_no_request() {
    let (client, seen) = connect(cacheable(), EraChoice::Auto, Caching::Own).await;
    list_and_read_everything(&client).await;
    list_and_read_everything(&client).await;
    for method in LISTS {
        assert_eq!(seen.count(method), 1, "{method}");
    }
    assert_eq!(seen.count("resources/read"), 2, "one per resource");
    // What the cache serves says how long it has left.
    let list = client.tool_list().await.unwrap();
    assert!(list.ttl.unwrap() <= Duration::from_secs(60));
    assert_eq!(list.cache_scope, Some(CacheScope::Public));
    let read = client.read_resource(MINE).await.unwrap();
    assert!(read.ttl_ms.unwrap() <= 60_000);
    assert_eq!(seen.count("tools/list"), 1);
}

/// The next notification named `method`, within 5 s.
async fn next(notices: &mut tokio::sync::broadcast::Receiver<Notification>, method: &str) {
    tokio::time::timeout(Duration::from_secs(5), async {
        while notices.recv().await.expect("the channel is open").method != method {}
    })
    .await
    .unwrap_or_else(|_| panic!("no {method} within 5 s"));
}

#[tokio::test]
async fn a_list_change_or_a_resource_update_makes_the_next_call_a_request() {
    let changes = ListChanges::new();
    let (client, seen) =
        connect_with_changes(cacheable(), EraChoice::Auto, Caching::Own, changes.clone()).await;
    let mut notices = client.notifications();
    let filter = SubscriptionFilter {
        tools_list_changed: Some(true),
        prompts_list_changed: Some(true),
        resources_list_changed: Some(true),
        resource_subscriptions: Some(vec![MINE.into(), SHARED.into()]),
    };
    let _subscription = client.listen(filter).unwrap();
    next(&mut notices, "notifications/subscriptions/acknowledged").await;
    list_and_read_everything(&client).await;

    changes.tools_changed();
    next(&mut notices, "notifications/tools/list_changed").await;
    list_and_read_everything(&client).await;
    assert_eq!(seen.count("tools/list"), 2, "listed again after the change");
    for method in &LISTS[1..] {
        assert_eq!(seen.count(method), 1, "{method}: unchanged, still cached");
    }
    assert_eq!(seen.count("resources/read"), 2);

    changes.resource_updated(MINE);
    next(&mut notices, "notifications/resources/updated").await;
    client.read_resource(MINE).await.unwrap();
    client.read_resource(SHARED).await.unwrap();
    assert_eq!(
        seen.count("resources/read"),
        3,
        "only the updated one again"
    );

    changes.prompts_changed();
    next(&mut notices, "notifications/prompts/list_changed").await;
    client.list_prompts().await.unwrap();
    assert_eq!(seen.count("prompts/list"), 2);

    // A resource list change makes both resource lists and every read
    // stale (a resource gone from the list must not be read from memory).
    changes.resources_changed();
    next(&mut notices, "notifications/resources/list_changed").await;
    list_and_read_everything(&client).await;
    assert_eq!(seen.count("resources/list"), 2);
    assert_eq!(seen.count("resources/templates/list"), 2);
    assert_eq!(seen.count("resources/read"), 5);
    assert_eq!(seen.count("tools/list"), 2);
}

#[tokio::test]
async fn a_result_is_kept_only_as_long_as_its_ttl() {
    let options = ServerOptions {
        list_ttl_ms: 1000,
        ..ServerOptions::default()
    };
    let (client, seen) = connect(options, EraChoice::Auto, Caching::Own).await;
    client.list_tools().await.unwrap();
    client.list_tools().await.unwrap();
    assert_eq!(seen.count("tools/list"), 1);
    tokio::time::sleep(Duration::from_millis(1200)).await;
    client.list_tools().await.unwrap();
    assert_eq!(seen.count("tools/list"), 2, "listed again once stale");
}

#[tokio::test]
async fn results_without_a_lifetime_are_not_kept() {
    // Legacy results carry no ttlMs.
    let (legacy, seen) = connect(cacheable(), EraChoice::Legacy, Caching::Own).await;
    list_and_read_everything(&legacy).await;
    list_and_read_everything(&legacy).await;
    assert_eq!(seen.count("tools/list"), 2);
    assert_eq!(seen.count("resources/read"), 4);
    // ttlMs 0 is stale at once (the server's default for reads).
    let (modern, seen) = connect(ServerOptions::default(), EraChoice::Auto, Caching::Own).await;
    modern.read_resource(MINE).await.unwrap();
    modern.read_resource(MINE).await.unwrap();
    assert_eq!(seen.count("resources/read"), 2);
}

#[tokio::test]
async fn with_caching_off_every_call_is_a_request() {
    let (client, seen) = connect(cacheable(), EraChoice::Auto, Caching::Off).await;
    list_and_read_everything(&client).await;
    list_and_read_everything(&client).await;
    for method in LISTS {
        assert_eq!(seen.count(method), 2, "{method}");
    }
    assert_eq!(seen.count("resources/read"), 4);
}

/// Accepts `<name>-token` for `alice` and `bob`, speaking for `<name>`.
struct TwoUsers;

impl TokenVerifier for TwoUsers {
    fn verify<'a>(&'a self, token: &'a str) -> VerifyFuture<'a> {
        Box::pin(async move {
            match token.strip_suffix("-token") {
                Some(name @ ("alice" | "bob")) => {
                    let claims = serde_json::json!({ "sub": name });
                    let claims = claims.as_object().cloned().unwrap_or_default();
                    Ok(Principal::from_claims(claims))
                }
                _ => Err(TokenError::Invalid("unknown token".into())),
            }
        })
    }
}

/// A protected server on a free port that accepts alice's and bob's
/// tokens: its URL.
async fn protected(options: ServerOptions, seen: Seen) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let server = server(options, ListChanges::new(), seen);
    let auth = AuthConfig::new(&url, TwoUsers)
        .unwrap()
        .authorization_server("https://issuer.example")
        .unwrap();
    let config = HttpConfig {
        auth: Some(auth),
        ..HttpConfig::default()
    };
    tokio::spawn(server.serve_http_with(listener, config, std::future::pending()));
    url
}

/// Alice's and Bob's clients of `url`, sharing `cache`.
async fn alice_and_bob(url: &str, cache: &Arc<ClientCache>) -> (Client, Client) {
    let connect = |name: &str| {
        let options = ConnectOptions {
            cache: Caching::Shared(cache.clone()),
            ..ConnectOptions::default()
        }
        .bearer_token(&format!("{name}-token"))
        .unwrap();
        Client::connect_http_with(url, options)
    };
    (
        connect("alice").await.unwrap(),
        connect("bob").await.unwrap(),
    )
}

fn text(result: &ReadResourceResult) -> &str {
    match &result.contents[0] {
        ResourceContents::Text(contents) => &contents.text,
        other => panic!("expected text, got {other:?}"),
    }
}

#[tokio::test]
async fn a_private_result_is_not_served_to_another_principal() {
    // Lists public (the default), reads private (the default).
    let seen = Seen::default();
    let url = protected(cacheable(), seen.clone()).await;
    let cache = Arc::new(ClientCache::default());
    let (alice, bob) = alice_and_bob(&url, &cache).await;

    let first = alice.read_resource(MINE).await.unwrap();
    let again = alice.read_resource(MINE).await.unwrap();
    assert_eq!(
        (text(&first), text(&again)),
        ("secret of alice", "secret of alice")
    );
    assert_eq!(
        seen.count_from("resources/read", "alice"),
        1,
        "alice's own, kept"
    );
    let theirs = bob.read_resource(MINE).await.unwrap();
    assert_eq!(text(&theirs), "secret of bob");
    assert_eq!(
        seen.count_from("resources/read", "bob"),
        1,
        "bob asks himself"
    );

    // Public results are fetched once for both.
    alice.read_resource(SHARED).await.unwrap();
    let shared = bob.read_resource(SHARED).await.unwrap();
    assert_eq!(text(&shared), "for everyone");
    alice.list_tools().await.unwrap();
    assert_eq!(bob.list_tools().await.unwrap().len(), 1);
    assert_eq!(seen.count("tools/list"), 1, "listed once, by alice");
    assert_eq!(seen.count_from("resources/read", "bob"), 1);

    // With private lists, each asks for his own.
    let seen = Seen::default();
    let private_lists = ServerOptions {
        list_cache_scope: CacheScope::Private,
        ..cacheable()
    };
    let url = protected(private_lists, seen.clone()).await;
    let (alice, bob) = alice_and_bob(&url, &cache).await;
    for client in [&alice, &bob, &alice, &bob] {
        client.list_tools().await.unwrap();
    }
    assert_eq!(seen.count_from("tools/list", "alice"), 1);
    assert_eq!(seen.count_from("tools/list", "bob"), 1);
}
