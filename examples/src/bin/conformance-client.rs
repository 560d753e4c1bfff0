//! The client the official MCP conformance suite
//! (`@modelcontextprotocol/conformance ... client --command conformance-client`)
//! drives: the suite starts a mock server, then runs this binary with the
//! server's URL as the last argument and the scenario's name in
//! `MCP_CONFORMANCE_SCENARIO`. `MCP_CONFORMANCE_PROTOCOL_VERSION` (suite
//! 0.2) picks the era: `2026-07-28` is stateless, anything else (or unset)
//! the `initialize` handshake. `MCP_CONFORMANCE_CONTEXT` carries
//! scenario data (the tool calls of `http-custom-headers`, the client
//! credentials of `auth/pre-registration` and `auth/client-credentials-*`).
//! The `auth/*` scenarios authorize with OAuth 2.1: the suite's
//! authorization server approves without a user, so the interactive step
//! follows its redirect ([`FollowRedirect`]). The suite runs
//! the `sep-2640-*` (Skills extension) scenarios at 2025-11-25 unless told
//! otherwise; their mock server answers both handshakes.
//!
//! Exits 0 when the scenario's steps ran, 1 with a message on stderr
//! otherwise; the suite judges the traffic.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use mcp_toolkit_runtime::client::auth::{
    Assertion, ClientCredentials, ClientSecret, FollowRedirect, IdentityProvider, OAuthConfig,
};
use mcp_toolkit_runtime::client::{Client, ClientError, ConnectOptions, EraChoice, InputHandler};
use mcp_toolkit_runtime::protocol::{
    ClientCapabilities, Implementation, InputRequest, InputRequests, InputResponses,
    LATEST_PROTOCOL_VERSION, SKILLS_EXTENSION,
};
use mcp_toolkit_runtime::server::BoxFuture;
use serde_json::{Map, Value, json};

type Failure = Box<dyn std::error::Error>;

/// Answers the suite's questions: forms are accepted with every field's
/// `default` (and `confirmed: true`), sampling with a fixed reply, roots
/// with none. Before the first answer it can make one unrelated call, to
/// show that a pending multi-round request does not leak into it.
struct Answers {
    client: Arc<OnceLock<Client>>,
    unrelated_call: Option<&'static str>,
    called: std::sync::atomic::AtomicBool,
}

impl InputHandler for Answers {
    fn respond(&self, requests: InputRequests) -> BoxFuture<Result<InputResponses, ClientError>> {
        let unrelated = self
            .unrelated_call
            .filter(|_| !self.called.swap(true, std::sync::atomic::Ordering::SeqCst));
        let client = self.client.get().cloned();
        Box::pin(async move {
            if let (Some(tool), Some(client)) = (unrelated, client) {
                client.call_tool(tool, &json!({})).await?;
            }
            let mut responses = Map::new();
            for (key, request) in requests {
                responses.insert(key, answer(&request));
            }
            serde_json::from_value(Value::Object(responses))
                .map_err(|e| ClientError::InvalidResponse(format!("our own answers: {e}")))
        })
    }
}

/// The answer to one question, as JSON.
fn answer(request: &InputRequest) -> Value {
    match request {
        InputRequest::Elicit(elicit) => {
            let params = serde_json::to_value(&elicit.params).unwrap_or_default();
            let mut content = Map::new();
            if let Some(properties) = params["requestedSchema"]["properties"].as_object() {
                for (name, schema) in properties {
                    if let Some(default) = schema.get("default") {
                        content.insert(name.clone(), default.clone());
                    }
                }
            }
            if content.is_empty() {
                content.insert("confirmed".into(), json!(true));
            }
            json!({"action": "accept", "content": content})
        }
        InputRequest::CreateMessage(_) => json!({
            "role": "assistant",
            "content": {"type": "text", "text": "A reply from the conformance client"},
            "model": "conformance-client",
            "stopReason": "endTurn"
        }),
        InputRequest::ListRoots(_) => json!({"roots": []}),
    }
}

/// The suite's server URL: the one argument (the suite appends it to the
/// command it is given). Options and further arguments are refused, not
/// ignored.
fn server_url(args: impl Iterator<Item = String>) -> Result<String, String> {
    const USAGE: &str = "usage: conformance-client URL";
    let args: Vec<String> = args.collect();
    if let Some(option) = args.iter().find(|arg| arg.starts_with('-')) {
        return Err(format!(
            "conformance-client takes no options, so it refuses `{option}`; {USAGE}"
        ));
    }
    match <[String; 1]>::try_from(args) {
        Ok([url]) => Ok(url),
        Err(args) => Err(format!(
            "conformance-client takes one argument, the URL, not {}; {USAGE}",
            args.len()
        )),
    }
}

#[tokio::main]
async fn main() {
    mcp_examples::init_logging();
    if let Err(error) = run().await {
        eprintln!("conformance-client: {error}");
        std::process::exit(1);
    }
}

async fn run() -> Result<(), Failure> {
    let url = server_url(std::env::args().skip(1))?;
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO")
        .map_err(|_| "MCP_CONFORMANCE_SCENARIO is not set")?;
    let modern = std::env::var("MCP_CONFORMANCE_PROTOCOL_VERSION")
        .is_ok_and(|v| v == LATEST_PROTOCOL_VERSION);
    let slot = Arc::new(OnceLock::new());
    let answers = Answers {
        client: slot.clone(),
        unrelated_call: (scenario == "sep-2322-client-request-state")
            .then_some("test_mrtr_unrelated"),
        called: Default::default(),
    };
    let options = ConnectOptions {
        era: if modern {
            EraChoice::Modern
        } else {
            EraChoice::Legacy
        },
        client_info: Implementation::new(
            "mcp-toolkit-conformance-client",
            env!("CARGO_PKG_VERSION"),
        ),
        capabilities: capabilities(&scenario)?,
        input_handler: Some(Arc::new(answers)),
        oauth: oauth(&scenario)?.map(Arc::new),
        ..ConnectOptions::default()
    };
    let client = Client::connect_http_with(&url, options).await?;
    let _ = slot.set(client.clone());
    match scenario.as_str() {
        "initialize" | "request-metadata" | "json-schema-ref-no-deref" => {
            client.list_tools().await?;
        }
        "tools_call" => {
            client.list_tools().await?;
            client
                .call_tool("add_numbers", &json!({"a": 2, "b": 3}))
                .await?;
        }
        "elicitation-sep1034-client-defaults" => {
            client.list_tools().await?;
            client
                .call_tool("test_client_elicitation_defaults", &json!({}))
                .await?;
        }
        "sse-retry" => {
            client.list_tools().await?;
            client.call_tool("test_reconnection", &json!({})).await?;
        }
        "sep-2322-client-request-state" => {
            for tool in [
                "test_mrtr_echo_state",
                "test_mrtr_no_state",
                "test_mrtr_no_result_type",
            ] {
                client.call_tool(tool, &json!({})).await?;
            }
        }
        "sep-2640-client-no-prefetch" => {
            // Listing is all a host does until a skill is needed.
            client.list_skills().await?;
        }
        "sep-2640-client-verify-digest"
        | "sep-2640-client-verify-size"
        | "sep-2640-client-verify-frontmatter" => load_first_skill(&client).await?,
        "http-standard-headers" => standard_headers(&client).await?,
        "http-custom-headers" => custom_headers(&client).await?,
        "http-invalid-tool-headers" => {
            let tools = client.list_tools().await?;
            if tools.iter().any(|t| t.name == "valid_tool") {
                client
                    .call_tool("valid_tool", &json!({"region": "us-west1"}))
                    .await?;
            }
        }
        "json-schema-2020-12-preservation" => {
            let tools = client.list_tools().await?;
            let schema = tools
                .iter()
                .find(|t| t.name == "json_schema_2020_12_tool")
                .map(|t| t.input_schema.clone())
                .ok_or("json_schema_2020_12_tool is not listed")?;
            client
                .call_tool("json_schema_echo", &json!({ "schema": schema }))
                .await?;
        }
        "auth/client-credentials-basic" | "auth/client-credentials-jwt" => {
            client.list_tools().await?;
        }
        auth if auth.starts_with("auth/") => {
            // A call after the listing: where a server asks for more scope.
            client.list_tools().await?;
            client.call_tool("test-tool", &json!({})).await?;
        }
        other => return Err(format!("unknown scenario `{other}`").into()),
    }
    Ok(())
}

/// The Client ID Metadata Document URL the suite expects (it never fetches
/// it).
const CLIENT_METADATA_URL: &str = "https://conformance-test.local/client-metadata.json";

/// How the `auth/*` scenarios authorize: client credentials where the
/// context gives them, else the authorization code flow, with
/// pre-registered credentials when the context has them.
fn oauth(scenario: &str) -> Result<Option<OAuthConfig>, Failure> {
    if !scenario.starts_with("auth/") {
        return Ok(None);
    }
    let context: Value = match std::env::var("MCP_CONFORMANCE_CONTEXT") {
        Ok(text) => serde_json::from_str(&text)?,
        Err(_) => json!({}),
    };
    let text = |key: &str| context[key].as_str().map(str::to_owned);
    let secret = match (text("client_secret"), text("private_key_pem")) {
        (Some(secret), _) => ClientSecret::Secret(secret),
        (None, Some(pem)) => ClientSecret::PrivateKeyJwt {
            pem,
            algorithm: text("signing_algorithm").unwrap_or_else(|| "ES256".into()),
        },
        (None, None) => ClientSecret::None,
    };
    let credentials = text("client_id").map(|id| ClientCredentials::new(id, secret));
    let config = match credentials {
        Some(credentials) if scenario.starts_with("auth/client-credentials") => {
            OAuthConfig::client_credentials(credentials)
        }
        // Enterprise-managed authorization: the context holds the user's
        // ID token from the identity provider and where to exchange it.
        Some(credentials) if context["idp_token_endpoint"].is_string() => {
            let idp_client = ClientCredentials::new(
                text("idp_client_id").unwrap_or_default(),
                ClientSecret::None,
            );
            let idp = IdentityProvider::new(
                text("idp_issuer").unwrap_or_default(),
                text("idp_token_endpoint").unwrap_or_default(),
                idp_client,
                Assertion::fixed(text("idp_id_token").unwrap_or_default()),
            );
            OAuthConfig::enterprise_managed(idp, credentials)
        }
        // Workload identity federation: the workload's JWT.
        Some(credentials) if context["valid_jwt"].is_string() => OAuthConfig::workload_identity(
            credentials,
            Assertion::fixed(text("valid_jwt").unwrap_or_default()),
        ),
        credentials => {
            let step = FollowRedirect::new("http://localhost:3000/callback");
            let config = OAuthConfig::authorization_code("mcp-toolkit-conformance-client", step)
                .client_metadata_url(CLIENT_METADATA_URL);
            match credentials {
                Some(credentials) => config.pre_registered(credentials),
                None => config,
            }
        }
    };
    Ok(Some(config))
}

/// What the client declares: elicitation and sampling, and for the Skills
/// scenarios the extension too (extensions are declared by both sides).
fn capabilities(scenario: &str) -> Result<ClientCapabilities, Failure> {
    let mut capabilities = json!({"elicitation": {}, "sampling": {}});
    if scenario.starts_with("sep-2640-") {
        capabilities["extensions"] = json!({ SKILLS_EXTENSION: {} });
    }
    Ok(serde_json::from_value(capabilities)?)
}

/// Loads the first listed skill as a host would when it is needed: reads
/// its `SKILL.md`, verified against the entry, then each supporting file.
/// A skill that fails verification is rejected (reported on stderr) and
/// none of its files are read.
async fn load_first_skill(client: &Client) -> Result<(), Failure> {
    let skills = client.list_skills().await?;
    let entry = skills.first().ok_or("the server lists no skill")?;
    let skill = match client.load_skill(entry).await {
        Ok(skill) => skill,
        Err(error) if error.is_verification_failure() => {
            eprintln!("conformance-client: skill rejected: {error}");
            return Ok(());
        }
        Err(error) => return Err(error.into()),
    };
    for file in skill.supporting_files() {
        client.read_skill_file(&skill, &file.uri).await?;
    }
    Ok(())
}

/// Every method whose headers the suite checks, once.
async fn standard_headers(client: &Client) -> Result<(), Failure> {
    let empty = json!({});
    client.list_tools().await?;
    for tool in ["test_headers", "my-hyphenated-tool"] {
        client.call_tool(tool, &empty).await?;
    }
    let _: Value = client.request("resources/list", &empty).await?;
    for uri in [
        "file:///path/to/file%20name.txt",
        "https://example.com/resource?id=123",
    ] {
        let _: Value = client
            .request("resources/read", &json!({ "uri": uri }))
            .await?;
    }
    let _: Value = client.request("prompts/list", &empty).await?;
    let _: Value = client
        .request("prompts/get", &json!({"name": "test_prompt"}))
        .await?;
    Ok(())
}

/// The tool calls `MCP_CONFORMANCE_CONTEXT` lists, with their arguments.
async fn custom_headers(client: &Client) -> Result<(), Failure> {
    let context: Value = serde_json::from_str(
        &std::env::var("MCP_CONFORMANCE_CONTEXT")
            .map_err(|_| "MCP_CONFORMANCE_CONTEXT is not set")?,
    )?;
    client.list_tools().await?;
    let calls = context["toolCalls"].as_array().cloned().unwrap_or_default();
    for call in calls {
        let name = call["name"].as_str().ok_or("a tool call without a name")?;
        let arguments: BTreeMap<String, Value> =
            serde_json::from_value(call["arguments"].clone()).unwrap_or_default();
        client.call_tool(name, &arguments).await?;
    }
    Ok(())
}
