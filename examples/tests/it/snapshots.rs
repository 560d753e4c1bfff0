//! Snapshots of what each example server lists (`tools/list`, and
//! `resources/list`, `resources/templates/list`, `prompts/list` where the
//! server has them), so that any schema or description change shows in
//! review as a diff of `tests/snapshots/<server>.json`.
//!
//! After an intended change, rewrite the files with
//! `UPDATE_SNAPSHOTS=1 cargo test -p mcp-examples --test it snapshots::`.

use std::path::PathBuf;

use mcp_toolkit_runtime::client::Client;
use serde_json::{Map, Value, json};

/// Every page of one list method, as the items of `key`.
async fn list(client: &Client, method: &str, key: &str) -> Value {
    let mut items = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..100 {
        let params = match &cursor {
            Some(cursor) => json!({ "cursor": cursor }),
            None => json!({}),
        };
        let page: Value = client.request(method, &params).await.unwrap();
        items.extend(page[key].as_array().cloned().unwrap_or_default());
        match page.get("nextCursor").and_then(Value::as_str) {
            Some(next) => cursor = Some(next.to_owned()),
            None => break,
        }
    }
    Value::Array(items)
}

async fn listing(binary: &str) -> Value {
    let client = Client::connect_stdio(binary, &[]).await.unwrap();
    let capabilities = serde_json::to_value(&client.server().capabilities).unwrap();
    let mut snapshot = Map::new();
    let lists = [
        ("tools", "tools/list", "tools"),
        ("resources", "resources/list", "resources"),
        ("resources", "resources/templates/list", "resourceTemplates"),
        ("prompts", "prompts/list", "prompts"),
    ];
    for (capability, method, key) in lists {
        if capabilities.get(capability).is_some() {
            snapshot.insert(method.to_owned(), list(&client, method, key).await);
        }
    }
    Value::Object(snapshot)
}

async fn check(name: &str, binary: &str) {
    let actual = serde_json::to_string_pretty(&listing(binary).await).unwrap() + "\n";
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(format!("{name}.json"));
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some_and(|v| v == "1") {
        std::fs::write(&path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; create it with UPDATE_SNAPSHOTS=1 cargo test -p mcp-examples --test it snapshots::",
            path.display()
        )
    });
    assert!(
        expected == actual,
        "{name}: the listing changed.\n--- expected ({})\n{expected}\n--- actual\n{actual}\nIf the change is intended, run UPDATE_SNAPSHOTS=1 cargo test -p mcp-examples --test it snapshots:: and commit the file.",
        path.display()
    );
}

#[tokio::test]
async fn echo_server_listing() {
    check("echo-server", env!("CARGO_BIN_EXE_echo-server")).await;
}

#[tokio::test]
async fn notes_server_listing() {
    check("notes-server", env!("CARGO_BIN_EXE_notes-server")).await;
}
