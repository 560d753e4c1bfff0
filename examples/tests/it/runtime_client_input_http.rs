//! The runtime's client against `interop-server --http` over Streamable
//! HTTP: a tool that asks for input (a server-to-client request on the
//! POST's event stream in the legacy era, `input_required` rounds in
//! 2026-07-28) and a tool that reports progress, in both eras.

use crate::support;

use std::path::Path;

use mcp_toolkit_runtime::client::{Client, EraChoice};
use mcp_toolkit_runtime::server::Era;
use serde_json::json;
use support::interop::HttpFixture;
use support::survey::{EXPECTED, SurveyAnswers};

fn fixture() -> HttpFixture {
    HttpFixture::start(Path::new(env!("CARGO_BIN_EXE_interop-server")), &[])
}

#[tokio::test]
async fn legacy_elicitation_over_http() {
    let fixture = fixture();
    let answers = SurveyAnswers::default();
    let client = Client::connect_http_with(&fixture.url, answers.options(EraChoice::Legacy))
        .await
        .unwrap();
    assert_eq!(client.server().era, Era::Legacy);
    let content = client
        .call_tool_content("survey", &json!({}))
        .await
        .unwrap();
    assert_eq!(
        content[0].as_text(),
        Some(format!("[interop-server] {EXPECTED}").as_str())
    );
    assert_eq!(answers.asked().len(), 2, "{:?}", answers.asked());
}

#[tokio::test]
async fn modern_input_rounds_over_http() {
    let fixture = fixture();
    let answers = SurveyAnswers::default();
    let client = Client::connect_http_with(&fixture.url, answers.options(EraChoice::Modern))
        .await
        .unwrap();
    assert_eq!(client.server().era, Era::Modern);
    let content = client
        .call_tool_content("survey", &json!({}))
        .await
        .unwrap();
    assert_eq!(
        content[0].as_text(),
        Some(format!("[interop-server] {EXPECTED}").as_str())
    );
    // One question per round: name, then colour.
    assert_eq!(answers.asked().len(), 2, "{:?}", answers.asked());
}

#[tokio::test]
async fn progress_over_http_in_both_eras() {
    let fixture = fixture();
    for era in [EraChoice::Modern, EraChoice::Legacy] {
        let client = Client::connect_http_with(&fixture.url, SurveyAnswers::default().options(era))
            .await
            .unwrap();
        let mut seen = Vec::new();
        let result = client
            .call_tool_with_progress("count", &json!({"steps": 5}), |p| seen.push(p.progress))
            .await
            .unwrap();
        assert_eq!(result.content[0].as_text(), Some("counted 5"));
        assert_eq!(seen, [1.0, 2.0, 3.0, 4.0, 5.0], "{era:?}");
    }
}
