//! What generated clients call beyond tools (`mcp_toolkit_runtime::codegen`),
//! against the runtime's server over an in-memory pipe, in both eras: a
//! prompt got with its arguments, a template read with a value its simple
//! expression must encode, and `verify` telling a missing or changed
//! prompt and a missing template from an unchanged server.

use mcp_toolkit_runtime::client::{Client, ConnectOptions, EraChoice};
use mcp_toolkit_runtime::codegen::{get_prompt, prompt_fingerprint, read_template, verify};
use mcp_toolkit_runtime::protocol::{
    ContentBlock, GetPromptResult, PromptMessage, ReadResourceResult, ResourceContents, Role,
};
use mcp_toolkit_runtime::server::{
    PromptDef, PromptRequest, ResourceRead, ResourceTemplateDef, Server,
};

fn server() -> Server {
    let notes =
        ResourceTemplateDef::new("notes://{title}", "note", |read: ResourceRead| async move {
            let title = read.variables["title"].clone();
            Ok(ReadResourceResult::text(
                read.uri,
                None,
                format!("note {title}"),
            ))
        })
        .unwrap();
    let greet = PromptDef::new("greet", |request: PromptRequest| async move {
        let name = &request.arguments["name"];
        let style = request
            .arguments
            .get("style")
            .map_or("plain", String::as_str);
        Ok(GetPromptResult {
            description: None,
            messages: vec![PromptMessage {
                role: Role::User,
                content: ContentBlock::text(format!("Say hello to {name} ({style})")),
            }],
            result_type: None,
            meta: None,
        })
    })
    .argument("name", Some("Who to greet"), true)
    .argument("style", None, false);
    Server::builder(mcp_toolkit_runtime::server_info!())
        .resource_template(notes)
        .prompt(greet)
        .build()
        .unwrap()
}

async fn connect(era: EraChoice) -> Client {
    let options = ConnectOptions {
        era,
        ..ConnectOptions::default()
    };
    Client::connect_in_memory(server(), options).await.unwrap()
}

#[tokio::test]
async fn prompts_and_templates_through_what_generated_code_calls() {
    for era in [EraChoice::Modern, EraChoice::Legacy] {
        let client = connect(era).await;
        let both = get_prompt(
            &client,
            "greet",
            &[("name", Some("Ada")), ("style", Some("warm"))],
        )
        .await
        .unwrap();
        assert_eq!(
            both.messages[0].content.as_text(),
            Some("Say hello to Ada (warm)")
        );
        let absent = get_prompt(&client, "greet", &[("name", Some("Ada")), ("style", None)])
            .await
            .unwrap();
        assert_eq!(
            absent.messages[0].content.as_text(),
            Some("Say hello to Ada (plain)")
        );

        // `{title}` encodes the `/`, so the value comes back whole.
        let read = read_template(&client, "notes://{title}", &[("title", Some("a/b.md"))])
            .await
            .unwrap();
        let ResourceContents::Text(text) = &read.contents[0] else {
            panic!("{read:?}")
        };
        assert_eq!(text.uri, "notes://a%2Fb.md");
        assert_eq!(text.text, "note a/b.md");
    }
}

#[tokio::test]
async fn verify_tells_missing_and_changed_prompts_and_templates() {
    let client = connect(EraChoice::Auto).await;
    let listed = client.list_prompts().await.unwrap();
    let greet = prompt_fingerprint(&listed[0]);
    let templates = [("note", "notes://{title}")];
    verify(&client, &[], &[("greet", &greet)], &templates)
        .await
        .expect("no drift");

    let drift = verify(
        &client,
        &[],
        &[("greet", "0000000000000000"), ("gone", &greet)],
        &[("note", "notes://{title}"), ("old", "old://{id}")],
    )
    .await
    .unwrap_err();
    assert_eq!(
        drift.missing,
        ["prompt gone", "resource template old://{id}"]
    );
    assert_eq!(drift.changed, ["prompt greet"]);
}
