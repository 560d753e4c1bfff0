//! The client's typed calls beyond tools (prompts, resources, templates,
//! completion, logging, ping, discovery) against the runtime's server, in
//! both eras, over an in-memory pipe.

use std::collections::BTreeMap;

use mcp_toolkit_runtime::client::{Client, ClientError, ConnectOptions, EraChoice};
use mcp_toolkit_runtime::protocol::{
    CallToolResult, Completion, ContentBlock, Era, GetPromptResult, LoggingLevel, PromptMessage,
    ReadResourceResult, ResourceContents, Role,
};
use mcp_toolkit_runtime::server::{
    CompletionRequest, PromptDef, PromptRequest, ResourceDef, ResourceRead, ResourceTemplateDef,
    Server, ServerOptions, ToolCall, ToolDef,
};
use serde_json::json;

fn server() -> Server {
    let readme = ResourceDef::new("docs://readme", "readme", |read: ResourceRead| async move {
        Ok(ReadResourceResult::text(
            read.uri,
            Some("text/markdown"),
            "# Hello",
        ))
    });
    let notes =
        ResourceTemplateDef::new("notes://{title}", "note", |read: ResourceRead| async move {
            let title = read.variables["title"].clone();
            Ok(ReadResourceResult::text(
                read.uri,
                None,
                format!("note {title}"),
            ))
        })
        .unwrap()
        .completion(|request: CompletionRequest| async move {
            let values = ["alpha", "beta", "alphabet"]
                .iter()
                .filter(|v| v.starts_with(&request.value))
                .map(|v| v.to_string())
                .collect();
            Completion {
                values,
                total: None,
                has_more: None,
            }
        });
    let greet = PromptDef::new("greet", |request: PromptRequest| async move {
        let name = &request.arguments["name"];
        Ok(GetPromptResult {
            description: None,
            messages: vec![PromptMessage {
                role: Role::User,
                content: ContentBlock::text(format!("Say hello to {name}")),
            }],
            result_type: None,
            meta: None,
        })
    })
    .argument("name", Some("Who to greet"), true)
    .completion(|request: CompletionRequest| async move {
        Completion {
            values: vec![format!("{}da", request.value)],
            total: Some(1),
            has_more: Some(false),
        }
    });
    let chatty = ToolDef::new("chatty", |call: ToolCall| async move {
        let context = call.context();
        for level in [LoggingLevel::Debug, LoggingLevel::Warning] {
            context.log(level, Some("chatty"), json!("said")).await;
        }
        Ok(CallToolResult::text("done"))
    });
    let mut builder = Server::builder(mcp_toolkit_runtime::server_info!())
        .resource(readme)
        .resource_template(notes)
        .prompt(greet)
        .tool(chatty)
        .options(ServerOptions {
            page_size: 2,
            ..ServerOptions::default()
        });
    // More prompts and resources than one page holds.
    for n in 0..3 {
        builder = builder.prompt(PromptDef::new(
            format!("extra{n}"),
            |_: PromptRequest| async {
                Ok(GetPromptResult {
                    description: None,
                    messages: Vec::new(),
                    result_type: None,
                    meta: None,
                })
            },
        ));
        let uri = format!("docs://extra{n}");
        builder =
            builder.resource(ResourceDef::new(
                uri,
                format!("extra{n}"),
                |read: ResourceRead| async move {
                    Ok(ReadResourceResult::text(read.uri, None, "extra"))
                },
            ));
    }
    builder.build().unwrap()
}

async fn connect(era: EraChoice) -> Client {
    let options = ConnectOptions {
        era,
        ..ConnectOptions::default()
    };
    Client::connect_in_memory(server(), options).await.unwrap()
}

fn text_of(contents: &ResourceContents) -> &str {
    match contents {
        ResourceContents::Text(text) => &text.text,
        ResourceContents::Blob(_) => panic!("a text resource"),
    }
}

#[tokio::test]
async fn prompts_resources_and_templates_are_typed_in_both_eras() {
    for era in [EraChoice::Modern, EraChoice::Legacy] {
        let client = connect(era).await;
        let prompts = client.list_prompts().await.unwrap();
        let mut names: Vec<_> = prompts.iter().map(|p| p.name.as_str()).collect();
        names.sort_unstable();
        assert_eq!(names, ["extra0", "extra1", "extra2", "greet"], "{era:?}");
        let first = client.list_prompts_page(None).await.unwrap();
        assert_eq!(first.prompts.len(), 2, "{era:?}: one page of two");
        assert!(first.next_cursor.is_some(), "{era:?}");

        let prompt = client.get_prompt("greet", [("name", "Ada")]).await.unwrap();
        let ContentBlock::Text(text) = &prompt.messages[0].content else {
            panic!("{era:?}: a text message");
        };
        assert_eq!(text.text, "Say hello to Ada", "{era:?}");
        let missing = client.get_prompt::<&str, &str>("greet", []).await;
        assert!(
            matches!(missing, Err(ClientError::Protocol(_))),
            "{era:?}: {missing:?}"
        );

        let resources = client.list_resources().await.unwrap();
        assert_eq!(resources.len(), 4, "{era:?}");
        let readme = client.read_resource("docs://readme").await.unwrap();
        assert_eq!(text_of(&readme.contents[0]), "# Hello", "{era:?}");
        let templates = client.list_resource_templates().await.unwrap();
        assert_eq!(templates[0].uri_template, "notes://{title}", "{era:?}");
        let note = client.read_resource("notes://alpha").await.unwrap();
        assert_eq!(text_of(&note.contents[0]), "note alpha", "{era:?}");
        if era == EraChoice::Modern {
            assert_eq!(readme.ttl_ms, Some(0), "the read cache hint arrives");
        }
    }
}

#[tokio::test]
async fn completion_names_prompts_and_templates() {
    for era in [EraChoice::Modern, EraChoice::Legacy] {
        let client = connect(era).await;
        let none = BTreeMap::new();
        let names = client
            .complete_prompt_argument("greet", "name", "A", &none)
            .await
            .unwrap();
        assert_eq!(names.values, ["Ada"], "{era:?}");
        let titles = client
            .complete_template_variable("notes://{title}", "title", "al", &none)
            .await
            .unwrap();
        assert_eq!(titles.values, ["alpha", "alphabet"], "{era:?}");
    }
}

#[tokio::test]
async fn the_log_level_reaches_the_server_in_both_eras() {
    for era in [EraChoice::Modern, EraChoice::Legacy] {
        let client = connect(era).await;
        let mut notices = client.notifications();
        client.set_log_level(LoggingLevel::Warning).await.unwrap();
        client.call_tool("chatty", &json!({})).await.unwrap();
        let mut levels = Vec::new();
        while let Ok(notice) = notices.try_recv() {
            if notice.method == "notifications/message" {
                levels.push(notice.params.unwrap()["level"].clone());
            }
        }
        assert_eq!(levels, [json!("warning")], "{era:?}: debug is filtered out");
    }
}

#[tokio::test]
async fn era_specific_calls_say_what_to_use_instead() {
    let modern = connect(EraChoice::Modern).await;
    assert_eq!(modern.server().era, Era::Modern);
    modern.ping().await.unwrap();
    let discovered = modern.discover().await.unwrap();
    assert!(discovered.capabilities.prompts.is_some());
    match modern.subscribe_resource("docs://readme").await {
        Err(ClientError::NotInEra(why)) => assert!(why.contains("listen"), "{why}"),
        other => panic!("expected NotInEra, got {other:?}"),
    }

    let legacy = connect(EraChoice::Legacy).await;
    legacy.ping().await.unwrap();
    legacy.subscribe_resource("docs://readme").await.unwrap();
    legacy.unsubscribe_resource("docs://readme").await.unwrap();
    assert!(matches!(
        legacy.subscribe_resource("docs://nothing").await,
        Err(ClientError::Protocol(_))
    ));
    assert!(matches!(
        legacy.discover().await,
        Err(ClientError::NotInEra(_))
    ));
}
