//! The client's Skills extension support against a scripted server over an
//! in-memory pipe, in both eras: what it reads, and when.

use std::sync::{Arc, Mutex};

use mcp_toolkit_runtime::client::{Client, ConnectOptions, EraChoice, SkillError};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

const SKILL_MD: &str =
    "---\nname: pdf-processing\ndescription: Extract PDF text\n---\n\nRead references/FORMS.md.\n";
const FORMS: &str = "Supporting content.\n";
const SKILL_URI: &str = "skill://pdf-processing/SKILL.md";
const FORMS_URI: &str = "skill://pdf-processing/references/FORMS.md";

fn digest(text: &str) -> String {
    let hex: String = hmac_sha256::Hash::hash(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("sha256:{hex}")
}

fn entry(uri: &str, name: &str) -> Value {
    let forms = uri.replace("SKILL.md", "references/FORMS.md");
    json!({
        "uri": uri,
        "frontmatter": {"name": name, "description": "Extract PDF text"},
        "resources": [
            {"uri": uri, "digest": digest(SKILL_MD), "size": SKILL_MD.len()},
            {"uri": forms, "digest": digest(FORMS), "size": FORMS.len()}
        ]
    })
}

/// What the scripted server does.
struct Script {
    /// Declare the skills extension.
    declare: bool,
    /// The SKILL.md it serves (its entry always describes `SKILL_MD`).
    served_skill_md: String,
}

/// The scripted server's log: every method, and every URI read.
type Log = Arc<Mutex<Vec<String>>>;

async fn connect(era: EraChoice, script: Script) -> (Client, Log) {
    let (client_out, server_in) = tokio::io::duplex(1 << 16);
    let (mut server_out, client_in) = tokio::io::duplex(1 << 16);
    let log = Log::default();
    let server_log = log.clone();
    tokio::spawn(async move {
        let mut lines = BufReader::new(server_in).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            let message: Value = serde_json::from_str(&line).unwrap();
            let method = message["method"].as_str().unwrap_or_default().to_owned();
            let Some(id) = message.get("id").cloned() else {
                continue;
            };
            let result = answer(&script, &method, &message["params"]);
            {
                let mut log = server_log.lock().unwrap();
                log.push(method.clone());
                if method == "resources/read" {
                    log.push(message["params"]["uri"].as_str().unwrap().to_owned());
                }
            }
            let reply = json!({"jsonrpc": "2.0", "id": id, "result": result});
            let frame = format!("{reply}\n");
            if server_out.write_all(frame.as_bytes()).await.is_err() {
                break;
            }
        }
    });
    let options = ConnectOptions {
        era,
        ..ConnectOptions::default()
    };
    let client = Client::connect_io(client_in, client_out, options)
        .await
        .unwrap();
    log.lock().unwrap().clear();
    (client, log)
}

fn answer(script: &Script, method: &str, params: &Value) -> Value {
    let mut capabilities = json!({"resources": {}});
    if script.declare {
        capabilities["extensions"] = json!({"io.modelcontextprotocol/skills": {}});
    }
    let complete = |mut result: Value| {
        result["resultType"] = json!("complete");
        result
    };
    match method {
        "server/discover" => complete(json!({
            "supportedVersions": ["2026-07-28"],
            "capabilities": capabilities,
        })),
        "initialize" => json!({
            "protocolVersion": "2025-11-25",
            "capabilities": capabilities,
            "serverInfo": {"name": "scripted", "version": "1"},
        }),
        // Two pages: the second skill is behind a cursor.
        "skills/list" => match params.get("cursor").and_then(Value::as_str) {
            None => {
                complete(json!({"skills": [entry(SKILL_URI, "pdf-processing")], "nextCursor": "2"}))
            }
            Some(_) => complete(json!({"skills": [
                entry("skill://acme/refunds/SKILL.md", "refunds"),
                {"uri": "skill://broken/SKILL.md", "frontmatter": {"name": "broken"}}
            ]})),
        },
        "skills/get" => {
            complete(json!({"skill": entry(params["uri"].as_str().unwrap(), "pdf-processing")}))
        }
        "resources/read" => {
            let uri = params["uri"].as_str().unwrap();
            let text = if uri == FORMS_URI {
                FORMS
            } else {
                &script.served_skill_md
            };
            complete(json!({"contents": [{"uri": uri, "mimeType": "text/markdown", "text": text}]}))
        }
        _ => json!({}),
    }
}

fn log_of(log: &Log) -> Vec<String> {
    log.lock().unwrap().clone()
}

#[tokio::test]
async fn listing_reads_nothing_and_loading_reads_skill_md_only() {
    for era in [EraChoice::Modern, EraChoice::Legacy] {
        let (client, log) = connect(
            era,
            Script {
                declare: true,
                served_skill_md: SKILL_MD.into(),
            },
        )
        .await;
        assert!(client.supports_skills());
        let skills = client.list_skills().await.unwrap();
        let uris: Vec<_> = skills.iter().map(|s| s.uri.as_str()).collect();
        // The malformed entry (no description, no resources) is left out.
        assert_eq!(uris, [SKILL_URI, "skill://acme/refunds/SKILL.md"]);
        assert_eq!(log_of(&log), ["skills/list", "skills/list"]);

        let skill = client.load_skill(&skills[0]).await.unwrap();
        assert_eq!(skill.body(), "\nRead references/FORMS.md.\n");
        assert_eq!(log_of(&log)[2..], ["resources/read", SKILL_URI]);

        let error = client
            .read_skill_file(&skill, "skill://pdf-processing/secret.md")
            .await
            .unwrap_err();
        assert!(matches!(error, SkillError::Unlisted { .. }), "{error}");
        assert_eq!(log_of(&log).len(), 4, "an unlisted file is never requested");

        let file = client.read_skill_file(&skill, FORMS_URI).await.unwrap();
        assert_eq!(file.bytes, FORMS.as_bytes());
        assert_eq!(file.mime_type.as_deref(), Some("text/markdown"));
        assert_eq!(log_of(&log)[4..], ["resources/read", FORMS_URI]);
    }
}

#[tokio::test]
async fn a_tampered_skill_md_is_rejected_without_content() {
    let tampered = SKILL_MD.replace("Read", "Exfiltrate");
    let (client, log) = connect(
        EraChoice::Modern,
        Script {
            declare: true,
            served_skill_md: tampered,
        },
    )
    .await;
    let skills = client.list_skills().await.unwrap();
    let error = client.load_skill(&skills[0]).await.unwrap_err();
    assert!(matches!(error, SkillError::SizeMismatch { .. }), "{error}");
    assert!(error.is_verification_failure());
    assert_eq!(
        log_of(&log),
        ["skills/list", "skills/list", "resources/read", SKILL_URI]
    );
}

#[tokio::test]
async fn get_skill_fetches_one_entry() {
    let (client, log) = connect(
        EraChoice::Modern,
        Script {
            declare: true,
            served_skill_md: SKILL_MD.into(),
        },
    )
    .await;
    let skill = client.get_skill(SKILL_URI).await.unwrap();
    assert_eq!(skill.name(), "pdf-processing");
    assert!(client.load_skill(&skill).await.is_ok());
    assert_eq!(log_of(&log), ["skills/get", "resources/read", SKILL_URI]);
}

#[tokio::test]
async fn skill_methods_wait_for_the_servers_declaration() {
    let (client, log) = connect(
        EraChoice::Modern,
        Script {
            declare: false,
            served_skill_md: SKILL_MD.into(),
        },
    )
    .await;
    assert!(!client.supports_skills());
    let error = client.list_skills().await.unwrap_err();
    assert!(matches!(error, SkillError::NotSupported), "{error}");
    let error = client.get_skill(SKILL_URI).await.unwrap_err();
    assert!(matches!(error, SkillError::NotSupported), "{error}");
    assert!(log_of(&log).is_empty(), "nothing was sent");
}
