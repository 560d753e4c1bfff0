//! A server's configuration in `Debug` output (as a log or a panic shows
//! it) names where the server is, never the credentials that reach it: no
//! userinfo, query or fragment of its URL, no header or variable values,
//! whether they were written in the file or came from `${VAR}`.

use mcp_toolkit_host::Config;

#[test]
fn server_config_debug_shows_no_credentials() {
    let text = r#"{"mcpServers": {
        "web": {
            "url": "https://user:hunter2@api.example.com/mcp?token=${TOKEN}&state=st-secret#frag-secret",
            "headers": {"Authorization": "Bearer ${TOKEN}"},
            "oauth": {"clientId": "host", "clientSecret": "client-secret",
                      "clientMetadataUrl": "https://user:hunter2@host.example/client.json?code=code-secret"}
        },
        "local": {"command": "server", "env": {"API_KEY": "${TOKEN}"}}
    }}"#;
    let config =
        Config::parse(text, |name| (name == "TOKEN").then(|| "tok-secret".into())).unwrap();
    let shown = format!("{config:?}\n{config:#?}");
    for secret in [
        "hunter2",
        "user:",
        "tok-secret",
        "state=",
        "st-secret",
        "code=",
        "frag-secret",
        "client-secret",
    ] {
        assert!(!shown.contains(secret), "Debug shows {secret:?}:\n{shown}");
    }
    assert!(shown.contains("https://api.example.com/mcp"), "{shown}");
    assert!(
        shown.contains("https://host.example/client.json"),
        "{shown}"
    );
    assert!(
        shown.contains("Authorization") && shown.contains("API_KEY"),
        "{shown}"
    );
}
