//! The server side of the Skills extension, read back by the runtime's own
//! client over an in-memory pipe in both eras: what the server publishes
//! passes the client's verification end to end, and unknown URIs are
//! -32602.

use mcp_toolkit_runtime::client::{Client, ClientError, ConnectOptions, EraChoice, SkillError};
use mcp_toolkit_runtime::jsonrpc::ErrorObject;
use mcp_toolkit_runtime::protocol::{SKILLS_EXTENSION, SkillResources};
use mcp_toolkit_runtime::server::{Server, SkillDef};
use mcp_toolkit_runtime::transport::StdioConfig;
use serde_json::{Value, json};

const SKILL_MD: &str = "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\nlicense: Apache-2.0\nmetadata:\n  version: \"2.1\"\n---\n\n# PDF processing\n\nFill forms as references/FORMS.md says.\n";
const FORMS: &str = "# Forms\n\nUse the field names.\r\n";
/// Not UTF-8: served as a blob.
const LOGO: &[u8] = &[0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a, 0xff];
const ROOT: &str = "skill://pdf-processing";

fn server() -> Server {
    let pdf = SkillDef::new("pdf-processing")
        .file("SKILL.md", SKILL_MD)
        .file("references/FORMS.md", FORMS)
        .file("assets/logo.png", LOGO);
    let refunds = SkillDef::new("acme/billing/refunds").file(
        "SKILL.md",
        "---\nname: refunds\ndescription: Process refund requests\n---\n\nBe kind.\n",
    );
    Server::builder(mcp_toolkit_runtime::server_info!())
        .skill(pdf)
        .skill(refunds)
        .build()
        .unwrap()
}

async fn connect(server: Server, era: EraChoice) -> Client {
    let (client_out, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, client_in) = tokio::io::duplex(1 << 16);
    tokio::spawn(server.serve_io(server_in, server_out, StdioConfig::default()));
    let options = ConnectOptions {
        era,
        ..ConnectOptions::default()
    };
    Client::connect_io(client_in, client_out, options)
        .await
        .unwrap()
}

/// The JSON-RPC error code of a failed request.
fn code(error: ClientError) -> i64 {
    match error {
        ClientError::Protocol(error) => error.code,
        other => panic!("expected a JSON-RPC error, got {other}"),
    }
}

#[tokio::test]
async fn skills_load_and_verify_in_both_eras() {
    for era in [EraChoice::Legacy, EraChoice::Modern] {
        let client = connect(server(), era).await;
        assert!(client.supports_skills(), "{era:?}");
        let settings = &client.server().capabilities.extensions.as_ref().unwrap()[SKILLS_EXTENSION];
        assert_eq!(
            Value::Object(settings.clone()),
            json!({"directoryRead": true})
        );

        let skills = client.list_skills().await.unwrap();
        let uris: Vec<_> = skills.iter().map(|s| s.uri.as_str()).collect();
        assert_eq!(
            uris,
            [
                "skill://acme/billing/refunds/SKILL.md",
                "skill://pdf-processing/SKILL.md"
            ]
        );
        let entry = &skills[1];
        assert_eq!(
            Value::Object(entry.frontmatter.clone()),
            json!({
                "name": "pdf-processing",
                "description": "Extract, fill, and assemble PDF documents",
                "license": "Apache-2.0",
                "metadata": {"version": "2.1"}
            })
        );

        // Loading verifies SKILL.md's size, digest and frontmatter.
        let skill = client.load_skill(entry).await.unwrap();
        assert_eq!(skill.text(), SKILL_MD);
        let mut read = Vec::new();
        for file in skill.supporting_files() {
            let file = client.read_skill_file(&skill, &file.uri).await.unwrap();
            read.push((file.uri, file.mime_type, file.bytes));
        }
        assert_eq!(
            read,
            [
                (
                    format!("{ROOT}/assets/logo.png"),
                    Some("image/png".to_owned()),
                    LOGO.to_vec()
                ),
                (
                    format!("{ROOT}/references/FORMS.md"),
                    Some("text/markdown".to_owned()),
                    FORMS.as_bytes().to_vec()
                ),
            ]
        );
        let refunds = client.load_skill(&skills[0]).await.unwrap();
        assert_eq!(refunds.body(), "\nBe kind.\n");

        // skills/get returns the listed entry.
        assert_eq!(&client.get_skill(&entry.uri).await.unwrap(), entry);
        let SkillResources::Files(files) = &entry.resources else {
            panic!("a static skill has a manifest")
        };
        assert_eq!(files.len(), 3);
    }
}

#[tokio::test]
async fn files_are_listed_and_directories_read_in_both_eras() {
    for era in [EraChoice::Legacy, EraChoice::Modern] {
        let client = connect(server(), era).await;
        let listed: Value = client.request("resources/list", &json!({})).await.unwrap();
        let skill_md = listed["resources"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["uri"] == format!("{ROOT}/SKILL.md"))
            .unwrap();
        assert_eq!(
            *skill_md,
            json!({
                "uri": format!("{ROOT}/SKILL.md"),
                "name": "pdf-processing",
                "description": "Extract, fill, and assemble PDF documents",
                "mimeType": "text/markdown",
                "size": SKILL_MD.len()
            })
        );
        assert_eq!(listed["resources"].as_array().unwrap().len(), 4);

        let root: Value = client
            .request("resources/directory/read", &json!({"uri": ROOT}))
            .await
            .unwrap();
        let children: Vec<_> = root["resources"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r["uri"].as_str().unwrap(), r["mimeType"].as_str().unwrap()))
            .collect();
        assert_eq!(
            children,
            [
                ("skill://pdf-processing/SKILL.md", "text/markdown"),
                ("skill://pdf-processing/assets", "inode/directory"),
                ("skill://pdf-processing/references", "inode/directory"),
            ]
        );
        let expected_type = (era == EraChoice::Modern).then_some("complete");
        assert_eq!(root["resultType"].as_str(), expected_type, "{era:?}");
        let references: Value = client
            .request(
                "resources/directory/read",
                &json!({"uri": format!("{ROOT}/references")}),
            )
            .await
            .unwrap();
        assert_eq!(
            references["resources"][0]["uri"],
            format!("{ROOT}/references/FORMS.md")
        );
    }
}

#[tokio::test]
async fn unknown_uris_are_invalid_params() {
    for era in [EraChoice::Legacy, EraChoice::Modern] {
        let client = connect(server(), era).await;
        for uri in [
            "skill://nothing/SKILL.md",
            "skill://pdf-processing/references/FORMS.md",
        ] {
            let error = client.get_skill(uri).await.unwrap_err();
            let SkillError::Client(error) = error else {
                panic!("expected a request error, got {error}")
            };
            assert_eq!(code(error), -32602, "skills/get {uri}");
        }
        for uri in [
            format!("{ROOT}/SKILL.md"),
            format!("{ROOT}/nothing"),
            format!("{ROOT}/"),
        ] {
            let error = client
                .request::<_, Value>("resources/directory/read", &json!({"uri": uri}))
                .await
                .unwrap_err();
            assert_eq!(code(error), -32602, "resources/directory/read {uri}");
        }
        let error = client
            .request::<_, Value>(
                "resources/read",
                &json!({"uri": format!("{ROOT}/references/MISSING.md")}),
            )
            .await
            .unwrap_err();
        assert_eq!(code(error), -32602);
    }
}

#[tokio::test]
async fn a_server_without_skills_does_not_declare_or_answer_them() {
    let server = Server::builder(mcp_toolkit_runtime::server_info!())
        .build()
        .unwrap();
    let client = connect(server, EraChoice::Modern).await;
    assert!(!client.supports_skills());
    assert!(matches!(
        client.list_skills().await,
        Err(SkillError::NotSupported)
    ));
    for method in ["skills/list", "resources/directory/read"] {
        let error = client
            .request::<_, Value>(method, &json!({"uri": ROOT}))
            .await
            .unwrap_err();
        assert_eq!(code(error), -32601, "{method}");
    }
}

#[test]
fn an_invalid_skill_fails_the_build_with_the_reason() {
    let wrong_name = SkillDef::new("pdf").file("SKILL.md", SKILL_MD);
    let error = Server::builder(mcp_toolkit_runtime::server_info!())
        .skill(wrong_name)
        .build()
        .err()
        .unwrap();
    assert_eq!(
        error.to_string(),
        "skill `pdf`: the frontmatter name `pdf-processing` differs from `pdf`, \
         the last segment of the skill's path"
    );
    // A skill file may not take the URI of another resource.
    let clash = mcp_toolkit_runtime::server::ResourceDef::new(
        format!("{ROOT}/SKILL.md"),
        "clash",
        |_| async { Err(ErrorObject::internal("never read")) },
    );
    let error = Server::builder(mcp_toolkit_runtime::server_info!())
        .resource(clash)
        .skill(SkillDef::new("pdf-processing").file("SKILL.md", SKILL_MD))
        .build()
        .err()
        .unwrap();
    assert!(error.to_string().contains("two resources"), "{error}");
}
