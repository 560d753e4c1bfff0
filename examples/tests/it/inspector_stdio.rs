//! The stdio servers under the MCP Inspector's command-line mode, in both
//! protocol eras: `.ci/inspector.sh` runs `@modelcontextprotocol/inspector-cli`
//! 1.0.3 (legacy) or `@modelcontextprotocol/inspector` 2.12.0 with
//! `protocolEra: modern` (2026-07-28) against `conformance-server` and
//! `echo-server`, listing and calling tools. The server runs behind `tee` on
//! both pipes, so each run also checks on the wire that the era it asked for
//! is the one spoken. The script installs Node 22 and the inspectors from npm
//! into `target/`; the tests fail (never skip) when it cannot.
//!
//! Every passing check writes one line to stderr directly (libtest captures
//! `println!` and `eprintln!`), so the CI log shows what ran.

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use serde_json::{Value, json};

/// The metadata key that carries the protocol version in 2026-07-28 requests.
const VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";

#[derive(Clone, Copy, Debug, PartialEq)]
enum Era {
    Legacy,
    Modern,
}

impl fmt::Display for Era {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Era::Legacy => "legacy",
            Era::Modern => "modern",
        })
    }
}

/// The script, with Node 22 and both inspectors installed (once per test
/// binary, so that the tests running in parallel do not race on npm).
fn script() -> &'static Path {
    static SCRIPT: OnceLock<PathBuf> = OnceLock::new();
    SCRIPT.get_or_init(|| {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.ci/inspector.sh");
        let output = Command::new("bash")
            .arg(&script)
            .arg("install")
            .output()
            .expect("bash runs .ci/inspector.sh");
        assert!(
            output.status.success(),
            "installing Node 22 and the inspectors failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        script
    })
}

/// One inspector run: what it printed and what crossed the server's pipes.
struct Run {
    /// The inspector's exit status.
    status: i32,
    /// The result the inspector printed.
    result: Value,
    /// The messages the inspector sent, in order.
    sent: Vec<Value>,
    /// The messages the server sent, in order.
    received: Vec<Value>,
}

/// Runs the inspector of `era` with `options` against `server`, and checks
/// that the session spoke `era`.
fn inspect(era: Era, server: &str, options: &[&str]) -> Run {
    let dir = tempfile::tempdir().expect("a temp dir");
    let sent = dir.path().join("sent.jsonl");
    let received = dir.path().join("received.jsonl");
    let output = Command::new("bash")
        .arg(script())
        .arg(era.to_string())
        .args(options)
        .arg("--")
        .args(["sh", "-c", r#"tee "$1" | "$3" | tee "$2""#, "sh"])
        .args([&sent, &received])
        .arg(server)
        .output()
        .expect("bash runs .ci/inspector.sh");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let context = format!("{era} inspector {options:?}\nstdout:\n{stdout}\nstderr:\n{stderr}");
    let result = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("the inspector printed no JSON result ({e}): {context}"));
    let run = Run {
        status: output.status.code().expect("the inspector exited"),
        result,
        sent: transcript(&sent),
        received: transcript(&received),
    };
    check_era(era, &run, &context);
    run
}

/// The JSON lines of one direction of a session.
fn transcript(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON-RPC message per line"))
        .collect()
}

/// Checks that the session spoke `era`. Legacy: an `initialize` handshake
/// that agrees on 2025-11-25, no per-request version. Modern: no handshake,
/// every request carries 2026-07-28, and the server's results say
/// `resultType`, which only 2026-07-28 has.
fn check_era(era: Era, run: &Run, context: &str) {
    let requests: Vec<&Value> = run
        .sent
        .iter()
        .filter(|m| m.get("id").is_some() && m.get("method").is_some())
        .collect();
    let results: Vec<&Value> = run
        .received
        .iter()
        .filter_map(|m| m.get("result"))
        .collect();
    assert!(
        !requests.is_empty() && !results.is_empty(),
        "no session on the wire: {context}"
    );
    let versions: Vec<Option<&str>> = requests
        .iter()
        .map(|r| r["params"]["_meta"][VERSION_KEY].as_str())
        .collect();
    let typed = results.iter().filter(|r| r.get("resultType").is_some());
    match era {
        Era::Legacy => {
            assert_eq!(requests[0]["method"], "initialize", "{context}");
            assert_eq!(
                requests[0]["params"]["protocolVersion"], "2025-11-25",
                "{context}"
            );
            assert_eq!(results[0]["protocolVersion"], "2025-11-25", "{context}");
            assert!(versions.iter().all(Option::is_none), "{context}");
            assert_eq!(typed.count(), 0, "{context}");
        }
        Era::Modern => {
            assert!(
                requests.iter().all(|r| r["method"] != "initialize"),
                "{context}"
            );
            assert!(
                versions.iter().all(|v| *v == Some("2026-07-28")),
                "{context}"
            );
            assert_eq!(typed.count(), results.len(), "{context}");
        }
    }
}

/// Writes one summary line past libtest's capture.
fn report(era: Era, server: &str, check: &str) {
    let name = Path::new(server).file_name().unwrap().to_string_lossy();
    let line = format!("inspector {era}: {name} {check}: passed\n");
    std::io::stderr()
        .write_all(line.as_bytes())
        .expect("write to stderr");
}

/// The names `tools/list` returns, sorted.
fn tool_names(era: Era, server: &str) -> Vec<String> {
    let run = inspect(era, server, &["--method", "tools/list"]);
    assert_eq!(run.status, 0);
    let mut names: Vec<String> = run.result["tools"]
        .as_array()
        .expect("a tools array")
        .iter()
        .map(|tool| tool["name"].as_str().expect("a tool name").to_owned())
        .collect();
    names.sort();
    names
}

/// Calls `tool` with `--tool-arg` pairs; returns the exit status and result.
fn call(era: Era, server: &str, tool: &str, args: &[&str]) -> (i32, Value) {
    let mut options = vec!["--method", "tools/call", "--tool-name", tool];
    if !args.is_empty() {
        options.push("--tool-arg");
        options.extend(args);
    }
    let run = inspect(era, server, &options);
    let calls: Vec<&Value> = run
        .sent
        .iter()
        .filter(|m| m["method"] == "tools/call")
        .collect();
    assert_eq!(calls.len(), 1, "one tools/call on the wire: {:?}", run.sent);
    assert_eq!(calls[0]["params"]["name"], tool);
    let mut result = run.result;
    // The modern inspector prints `resultType` for conformance-server (which
    // offers the tasks extension) but not for echo-server; only the value
    // "complete" is right here, and the wire check has seen it either way.
    if let Some(kind) = result.as_object_mut().and_then(|r| r.remove("resultType")) {
        assert_eq!((era, kind), (Era::Modern, json!("complete")), "{tool}");
    }
    (run.status, result)
}

fn text(text: &str) -> Value {
    json!({"content": [{"type": "text", "text": text}]})
}

fn conformance_server(era: Era) {
    let server = env!("CARGO_BIN_EXE_conformance-server");
    let names = tool_names(era, server);
    for expected in [
        "json_schema_2020_12_tool",
        "test_simple_text",
        "test_image_content",
        "test_audio_content",
        "test_embedded_resource",
        "test_multiple_content_types",
        "test_tool_with_logging",
        "test_tool_with_progress",
        "test_error_handling",
        "test_sampling",
        "test_elicitation",
    ] {
        assert!(
            names.iter().any(|n| n == expected),
            "{expected} in {names:?}"
        );
    }
    report(era, server, &format!("tools/list ({} tools)", names.len()));

    let (status, result) = call(era, server, "test_simple_text", &[]);
    assert_eq!(status, 0);
    assert_eq!(result, text("This is a simple text response for testing."));
    report(era, server, "tools/call test_simple_text");

    let (status, result) = call(
        era,
        server,
        "json_schema_2020_12_tool",
        &["email=ada@example.com"],
    );
    assert_eq!(status, 0);
    assert_eq!(
        result,
        text(r#"JSON Schema 2020-12 tool called with: {"email":"ada@example.com"}"#)
    );
    report(era, server, "tools/call json_schema_2020_12_tool email=…");

    // A tool error is a result, not a protocol error. The 2.x inspector
    // prints it and exits with its "tool returned isError" status, 5.
    let (status, result) = call(era, server, "test_error_handling", &[]);
    assert_eq!(status, if era == Era::Modern { 5 } else { 0 });
    let mut expected = text("This tool intentionally returns an error for testing");
    expected["isError"] = json!(true);
    assert_eq!(result, expected);
    report(era, server, "tools/call test_error_handling (isError)");
}

fn echo_server(era: Era) {
    let server = env!("CARGO_BIN_EXE_echo-server");
    assert_eq!(tool_names(era, server), ["add", "echo", "sleep", "whoami"]);
    report(era, server, "tools/list");

    let (status, result) = call(era, server, "echo", &["text=héllo, wörld"]);
    assert_eq!(status, 0);
    assert_eq!(result, text("héllo, wörld"));
    report(era, server, "tools/call echo text=…");

    let (status, result) = call(era, server, "add", &["a=2", "b=40"]);
    assert_eq!(status, 0);
    assert_eq!(
        result,
        json!({
            "content": [{"type": "text", "text": r#"{"sum":42}"#}],
            "structuredContent": {"sum": 42}
        })
    );
    report(era, server, "tools/call add a=2 b=40 (structured)");
}

#[test]
fn conformance_server_lists_and_calls_tools_for_the_legacy_inspector() {
    conformance_server(Era::Legacy);
}

#[test]
fn conformance_server_lists_and_calls_tools_for_the_modern_inspector() {
    conformance_server(Era::Modern);
}

#[test]
fn echo_server_lists_and_calls_tools_for_the_legacy_inspector() {
    echo_server(Era::Legacy);
}

#[test]
fn echo_server_lists_and_calls_tools_for_the_modern_inspector() {
    echo_server(Era::Modern);
}
