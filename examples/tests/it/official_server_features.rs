//! The runtime client's typed calls beyond tools (prompts, resources,
//! resource templates, completion, subscriptions) against servers we did
//! not write: the reference server `@modelcontextprotocol/server-everything`
//! (npm, TypeScript SDK, legacy era) over stdio and Streamable HTTP, and
//! `tests/interop/py_features_server.py` (Python SDK 2.3.0) in both eras
//! over stdio and Streamable HTTP. Installed by `tests/interop/setup.sh`.

use crate::support;

use std::collections::BTreeMap;
use std::net::TcpListener;
use std::path::PathBuf;
use std::time::Duration;

use mcp_toolkit_runtime::client::{Client, ConnectOptions, EraChoice};
use mcp_toolkit_runtime::protocol::{
    ContentBlock, Era, Prompt, ReadResourceResult, ResourceContents, SubscriptionFilter,
};
use mcp_toolkit_uri_template::{UriTemplate, Value as TemplateValue};
use serde_json::json;
use support::interop::{HttpFixture, python, script, sdks};

fn options(era: EraChoice) -> ConnectOptions {
    ConnectOptions {
        era,
        ..ConnectOptions::default()
    }
}

/// The reference server's launcher, installed by `tests/interop/setup.sh`.
fn everything() -> PathBuf {
    let bin = sdks().join("node/node_modules/.bin/mcp-server-everything");
    assert!(bin.exists(), "{} is not installed", bin.display());
    bin
}

/// The arguments for `prompt`: each from the server's own completion of it
/// (given the ones chosen before) when it completes it, else `fallback`.
async fn arguments_for(
    client: &Client,
    prompt: &Prompt,
    fallback: &str,
) -> (BTreeMap<String, String>, usize) {
    let mut chosen = BTreeMap::new();
    let mut completed = 0;
    for argument in prompt.arguments.iter().flatten() {
        let completion = client
            .complete_prompt_argument(&prompt.name, &argument.name, "", &chosen)
            .await
            .unwrap_or_else(|e| panic!("completing {}.{}: {e}", prompt.name, argument.name));
        let value = match completion.values.first() {
            Some(value) => {
                completed += 1;
                value.clone()
            }
            None if argument.required == Some(true) => fallback.to_owned(),
            None => continue,
        };
        chosen.insert(argument.name.clone(), value);
    }
    (chosen, completed)
}

fn non_empty(result: &ReadResourceResult, uri: &str) {
    assert!(!result.contents.is_empty(), "{uri}: no contents");
    for contents in &result.contents {
        match contents {
            ResourceContents::Text(text) => assert!(!text.text.is_empty(), "{uri}: empty text"),
            ResourceContents::Blob(blob) => assert!(!blob.blob.is_empty(), "{uri}: empty blob"),
        }
    }
}

/// Every template expanded once, each variable from the server's completion
/// of it, else `fallback`.
async fn read_one_per_template(client: &Client, fallback: &str) -> Vec<String> {
    let mut read = Vec::new();
    for template in client.list_resource_templates().await.unwrap() {
        let parsed = UriTemplate::parse(&template.uri_template)
            .unwrap_or_else(|e| panic!("{}: {e}", template.uri_template));
        let mut values = BTreeMap::new();
        for variable in parsed.variables() {
            let completion = client
                .complete_template_variable(&template.uri_template, variable, "", &BTreeMap::new())
                .await
                .unwrap();
            let value = completion
                .values
                .first()
                .cloned()
                .unwrap_or_else(|| fallback.to_owned());
            values.insert(variable.to_owned(), TemplateValue::String(value));
        }
        let uri = parsed.expand(&values).unwrap();
        let result = client
            .read_resource(&uri)
            .await
            .unwrap_or_else(|e| panic!("reading {uri}: {e}"));
        non_empty(&result, &uri);
        read.push(uri);
    }
    read
}

/// Waits (bounded) for `notifications/resources/updated` about `uri`.
async fn updated(
    notices: &mut tokio::sync::broadcast::Receiver<mcp_toolkit_runtime::jsonrpc::Notification>,
    uri: &str,
) {
    let wait = async {
        loop {
            let notice = notices
                .recv()
                .await
                .expect("the notification stream stays open");
            let about = notice.params.as_ref().and_then(|p| p.get("uri"));
            if notice.method == "notifications/resources/updated" && about == Some(&json!(uri)) {
                return;
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(15), wait)
        .await
        .unwrap_or_else(|_| panic!("no notifications/resources/updated for {uri}"));
}

async fn exercise_everything(client: &Client) {
    assert_eq!(client.server().era, Era::Legacy);
    let prompts = client.list_prompts().await.unwrap();
    let mut names: Vec<_> = prompts.iter().map(|p| p.name.as_str()).collect();
    names.sort_unstable();
    for expected in [
        "args-prompt",
        "completable-prompt",
        "resource-prompt",
        "simple-prompt",
    ] {
        assert!(names.contains(&expected), "{expected} in {names:?}");
    }
    let mut completed = 0;
    for prompt in &prompts {
        let (arguments, from_completion) = arguments_for(client, prompt, "1").await;
        completed += from_completion;
        let got = client
            .get_prompt(&prompt.name, arguments.clone())
            .await
            .unwrap_or_else(|e| panic!("{} with {arguments:?}: {e}", prompt.name));
        assert!(!got.messages.is_empty(), "{}", prompt.name);
    }
    assert!(
        completed >= 2,
        "the server completed arguments ({completed})"
    );
    let completable = client
        .get_prompt(
            "completable-prompt",
            [("department", "Engineering"), ("name", "Bob")],
        )
        .await
        .unwrap();
    let ContentBlock::Text(text) = &completable.messages[0].content else {
        panic!("a text message");
    };
    assert!(
        text.text.contains("Bob") && text.text.contains("Engineering"),
        "{}",
        text.text
    );

    let resources = client.list_resources().await.unwrap();
    assert!(!resources.is_empty());
    for resource in &resources {
        let result = client.read_resource(&resource.uri).await.unwrap();
        non_empty(&result, &resource.uri);
    }
    let from_templates = read_one_per_template(client, "1").await;
    assert!(from_templates.len() >= 2, "{from_templates:?}");

    // The server announces updates of subscribed resources once the tool
    // turns its simulated updates on (and once at once).
    let uri = &from_templates[0];
    let mut notices = client.notifications();
    client.subscribe_resource(uri).await.unwrap();
    client
        .call_tool("toggle-subscriber-updates", &json!({}))
        .await
        .unwrap();
    updated(&mut notices, uri).await;
    client.unsubscribe_resource(uri).await.unwrap();
}

#[tokio::test]
async fn server_everything_over_stdio() {
    let program = everything().to_string_lossy().into_owned();
    let client = Client::connect_stdio_with(&program, &["stdio".into()], options(EraChoice::Auto))
        .await
        .unwrap();
    exercise_everything(&client).await;
}

/// server-everything's Streamable HTTP mode on a free port (it takes it
/// from `PORT`).
struct EverythingHttp {
    child: std::process::Child,
    url: String,
}

impl EverythingHttp {
    fn start() -> Self {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = std::process::Command::new(everything())
            .arg("streamableHttp")
            .env("PORT", port.to_string())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("node starts server-everything");
        EverythingHttp {
            child,
            url: format!("http://127.0.0.1:{port}/mcp"),
        }
    }

    /// Connects once the server listens (bounded).
    async fn connect(&self) -> Client {
        for _ in 0..200 {
            if let Ok(client) = Client::connect_http_with(&self.url, options(EraChoice::Auto)).await
            {
                return client;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("server-everything did not listen on {}", self.url);
    }
}

impl Drop for EverythingHttp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[tokio::test]
async fn server_everything_over_streamable_http() {
    let server = EverythingHttp::start();
    let client = server.connect().await;
    exercise_everything(&client).await;
}

/// The Python server's prompts, resources, template, completion and
/// subscriptions, in `era` (`resources/subscribe` in legacy,
/// `subscriptions/listen` in 2026-07-28).
async fn exercise_python(client: &Client, era: Era) {
    assert_eq!(client.server().era, era);
    let prompts = client.list_prompts().await.unwrap();
    assert_eq!(prompts.len(), 1);
    let (arguments, completed) = arguments_for(client, &prompts[0], "nobody").await;
    assert_eq!(completed, 1, "{era:?}: `name` is completed, `style` is not");
    assert_eq!(arguments["name"], "Ada");
    let greeting = client.get_prompt("greet", arguments).await.unwrap();
    let ContentBlock::Text(text) = &greeting.messages[0].content else {
        panic!("a text message");
    };
    assert_eq!(text.text, "Hello, Ada!", "{era:?}");
    let loud = client
        .get_prompt("greet", [("name", "Grace"), ("style", "loud")])
        .await
        .unwrap();
    let ContentBlock::Text(text) = &loud.messages[0].content else {
        panic!("a text message");
    };
    assert_eq!(text.text, "HELLO, GRACE!", "{era:?}");

    let resources = client.list_resources().await.unwrap();
    assert_eq!(resources.len(), 1);
    let readme = client.read_resource("docs://readme").await.unwrap();
    non_empty(&readme, "docs://readme");
    let read = read_one_per_template(client, "x").await;
    assert_eq!(read, ["notes://alpha"], "{era:?}: the first completion");
    let titles = client
        .complete_template_variable("notes://{title}", "title", "al", &BTreeMap::new())
        .await
        .unwrap();
    assert_eq!(titles.values, ["alpha", "alphabet"], "{era:?}");

    let uri = "notes://alpha";
    let mut notices = client.notifications();
    let _subscription = match era {
        Era::Legacy => {
            client.subscribe_resource(uri).await.unwrap();
            None
        }
        Era::Modern => {
            let filter = SubscriptionFilter {
                resource_subscriptions: Some(vec![uri.to_owned()]),
                ..SubscriptionFilter::default()
            };
            let subscription = client.listen(filter).unwrap();
            // The stream is open once the server acknowledges it.
            let acknowledged = async {
                loop {
                    let notice = notices.recv().await.unwrap();
                    if notice.method == "notifications/subscriptions/acknowledged" {
                        return;
                    }
                }
            };
            tokio::time::timeout(Duration::from_secs(15), acknowledged)
                .await
                .expect("the listen stream is acknowledged");
            Some(subscription)
        }
    };
    client
        .call_tool("touch", &json!({ "uri": uri }))
        .await
        .unwrap();
    updated(&mut notices, uri).await;
    if era == Era::Legacy {
        client.unsubscribe_resource(uri).await.unwrap();
    }
}

#[tokio::test]
async fn python_sdk_features_over_stdio_in_both_eras() {
    let program = python().to_string_lossy().into_owned();
    let args = [script("py_features_server.py")
        .to_string_lossy()
        .into_owned()];
    for (choice, era) in [
        (EraChoice::Modern, Era::Modern),
        (EraChoice::Legacy, Era::Legacy),
    ] {
        let client = Client::connect_stdio_with(&program, &args, options(choice))
            .await
            .unwrap();
        exercise_python(&client, era).await;
    }
}

#[tokio::test]
async fn python_sdk_features_over_http_in_both_eras() {
    let fixture = HttpFixture::start(&python(), &[&script("py_features_server.py")]);
    for (choice, era) in [
        (EraChoice::Modern, Era::Modern),
        (EraChoice::Legacy, Era::Legacy),
    ] {
        let client = Client::connect_http_with(&fixture.url, options(choice))
            .await
            .unwrap();
        exercise_python(&client, era).await;
    }
}
