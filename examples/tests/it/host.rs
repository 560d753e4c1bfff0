//! `mcp-host` over five configured servers: `echo-server` over stdio and
//! over HTTP, the npm reference servers `server-everything` and
//! `server-filesystem`, and one whose command does not exist. The command
//! is built by cargo for this test (`cargo build -p mcp-toolkit-host`).

use crate::support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use mcp_toolkit_host::{CallOptions, Config, Host, HostError, HostOptions};
use serde_json::{Value, json};
use support::host::mcp_host;
use support::interop::{HttpFixture, sdks};

struct Setup {
    _http: HttpFixture,
    dir: tempfile::TempDir,
    config: PathBuf,
}

impl Setup {
    fn new(policy: Value) -> Self {
        let http = HttpFixture::start(Path::new(env!("CARGO_BIN_EXE_echo-server")), &[]);
        let dir = tempfile::tempdir().unwrap();
        let bin = sdks().join("node/node_modules/.bin");
        let config = json!({
            "mcpServers": {
                "echo": {"command": env!("CARGO_BIN_EXE_echo-server")},
                "web": {"url": http.url},
                "everything": {"command": bin.join("mcp-server-everything"), "args": ["stdio"]},
                "fs": {"command": bin.join("mcp-server-filesystem"), "args": [dir.path()]},
                "missing": {"command": "/nonexistent/mcp-server"}
            },
            "policy": policy
        });
        let path = dir.path().join(".mcp.json");
        std::fs::write(&path, config.to_string()).unwrap();
        Setup {
            _http: http,
            config: path,
            dir,
        }
    }

    fn run(&self, args: &[&str]) -> Output {
        Command::new(mcp_host())
            .arg("--config")
            .arg(&self.config)
            .args(args)
            .stdin(std::process::Stdio::null())
            .output()
            .expect("run mcp-host")
    }
}

fn text(output: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        output.status.code(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

#[test]
fn servers_and_tools_of_every_working_server() {
    let setup = Setup::new(json!({}));
    let servers = setup.run(&["servers"]);
    let listing = String::from_utf8_lossy(&servers.stdout).into_owned();
    assert!(servers.status.success(), "{}", text(&servers));
    for ready in [
        "echo\tready",
        "web\tready",
        "everything\tready",
        "fs\tready",
    ] {
        assert!(listing.contains(ready), "{ready}:\n{listing}");
    }
    assert!(
        listing.contains("missing\tfailed\tcannot start `/nonexistent/mcp-server`"),
        "{listing}"
    );

    let tools = setup.run(&["tools", "--json"]);
    assert!(tools.status.success(), "{}", text(&tools));
    let tools: Vec<Value> = serde_json::from_slice(&tools.stdout).unwrap();
    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    for name in [
        "echo.add",
        "web.add",
        "everything.echo",
        "fs.read_text_file",
        "fs.write_file",
    ] {
        assert!(names.contains(&name), "{name} not in {names:?}");
    }
    assert!(!names.iter().any(|n| n.starts_with("missing.")));
}

#[test]
fn calls_work_on_each_server_and_exit_codes_say_what_happened() {
    let setup = Setup::new(json!({"deny": ["everything.get-env"]}));
    let sum = setup.run(&["call", "echo.add", "a=2", "b=40"]);
    assert!(sum.status.success(), "{}", text(&sum));
    assert_eq!(
        serde_json::from_slice::<Value>(&sum.stdout).unwrap(),
        json!({"sum": 42})
    );
    let web = setup.run(&["call", "web.echo", "text=over http", "--yes"]);
    assert_eq!(
        String::from_utf8_lossy(&web.stdout).trim(),
        "over http",
        "{}",
        text(&web)
    );
    let everything = setup.run(&["call", "everything.echo", "message=hi", "--yes"]);
    assert!(
        String::from_utf8_lossy(&everything.stdout).contains("hi"),
        "{}",
        text(&everything)
    );

    // Validation: nothing is sent, the argument is named.
    let invalid = setup.run(&["call", "echo.add", "a=two", "b=40"]);
    assert_eq!(invalid.status.code(), Some(2), "{}", text(&invalid));
    assert!(
        String::from_utf8_lossy(&invalid.stderr).contains("/a"),
        "{}",
        text(&invalid)
    );
    // Policy: a deny rule refuses.
    let denied = setup.run(&["call", "everything.get-env", "--yes"]);
    assert_eq!(denied.status.code(), Some(3), "{}", text(&denied));
    assert!(String::from_utf8_lossy(&denied.stderr).contains("everything.get-env"));
    // Unknown tool, unavailable server.
    assert_eq!(setup.run(&["call", "echo.nope"]).status.code(), Some(2));
    let missing = setup.run(&["call", "missing.anything"]);
    assert_eq!(missing.status.code(), Some(5), "{}", text(&missing));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("server missing"));
}

#[test]
fn side_effects_need_consent_and_read_only_tools_do_not() {
    let setup = Setup::new(json!({}));
    let file = setup.dir.path().join("note.txt");
    let path = file.to_str().unwrap();
    let content = "content=hello";
    let refused = setup.run(&["call", "fs.write_file", &format!("path={path}"), content]);
    assert_eq!(refused.status.code(), Some(3), "{}", text(&refused));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--yes"));
    assert!(!file.exists(), "nothing was written");

    let written = setup.run(&[
        "call",
        "fs.write_file",
        &format!("path={path}"),
        content,
        "--yes",
    ]);
    assert!(written.status.success(), "{}", text(&written));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "hello");

    // read_text_file is marked read-only: no confirmation needed.
    let read = setup.run(&["call", "fs.read_text_file", &format!("path={path}")]);
    assert!(read.status.success(), "{}", text(&read));
    assert!(String::from_utf8_lossy(&read.stdout).contains("hello"));
}

#[test]
fn progress_extends_the_timeout_under_a_cap() {
    let setup = Setup::new(json!({}));
    // 8 steps of 0.5 s: progress every 0.5 s keeps a 1.5 s timeout alive.
    let started = Instant::now();
    let long = setup.run(&[
        "call",
        "everything.trigger-long-running-operation",
        "duration=4",
        "steps=8",
        "--timeout",
        "1.5",
    ]);
    assert!(long.status.success(), "{}", text(&long));
    assert!(started.elapsed() >= Duration::from_secs(4));

    // 24 steps of 0.5 s, capped at 3 s in all: exit 4 after about 3 s,
    // long before the 12 s the operation would take (the margin is for
    // starting the host and its servers on a loaded machine).
    let started = Instant::now();
    let capped = setup.run(&[
        "call",
        "everything.trigger-long-running-operation",
        "duration=12",
        "steps=24",
        "--timeout",
        "1.5",
        "--max-timeout",
        "3",
    ]);
    let took = started.elapsed();
    assert_eq!(capped.status.code(), Some(4), "{}", text(&capped));
    assert!(
        took >= Duration::from_secs(3) && took < Duration::from_secs(9),
        "took {took:?}"
    );
}

/// The library: a killed stdio server is restarted; its read-only call is
/// retried on the new process, a call with side effects is not (the next
/// one works); the other servers answer throughout.
#[tokio::test(flavor = "multi_thread")]
async fn a_killed_server_is_restarted_and_the_others_keep_answering() {
    let setup = Setup::new(json!({}));
    let config = Config::load(&setup.config).unwrap();
    let host = Host::start(config, HostOptions::default()).await;
    let yes = mcp_toolkit_host::AlwaysAllow;
    let options = CallOptions::new(&yes);
    let add = || json!({"a": 1, "b": 2});
    let echo_pid = || {
        host.servers()
            .into_iter()
            .find(|s| s.name == "echo")
            .and_then(|s| s.pid)
            .expect("the echo server's pid")
    };
    let kill = |pid: u32| {
        let killed = Command::new("kill")
            .args(["-9", &pid.to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
    };
    assert!(host.call("echo.add", add(), &options).await.is_ok());
    let first = echo_pid();
    kill(first);

    // The others answer while echo is down.
    let web = host
        .call("web.add", add(), &options)
        .await
        .expect("web still answers");
    assert_eq!(web.result.structured_content, Some(json!({"sum": 3})));
    assert_eq!(web.server, "web");
    let everything = host
        .call("everything.get-sum", json!({"a": 1, "b": 2}), &options)
        .await
        .expect("everything still answers");
    assert!(format!("{:?}", everything.result.content).contains('3'));

    // add is read-only: retried on the restarted server.
    let sum = host
        .call("echo.add", add(), &options)
        .await
        .expect("restarted and retried");
    assert_eq!(sum.result.structured_content, Some(json!({"sum": 3})));
    let second = echo_pid();
    assert_ne!(first, second, "a new process");

    // echo may have side effects: not retried, but the server comes back.
    kill(second);
    match host.call("echo.echo", json!({"text": "x"}), &options).await {
        Err(HostError::Unavailable { server, why }) => {
            assert_eq!(server, "echo");
            assert!(why.contains("closed"), "{why}");
        }
        other => panic!("a call with side effects must not be retried: {other:?}"),
    }
    let again = host
        .call("echo.echo", json!({"text": "back"}), &options)
        .await
        .expect("back");
    assert_eq!(again.result.content[0].as_text(), Some("back"));
}

/// `mcp-codegen generate --config FILE --server NAME`: a typed client for a
/// configured server, reached as the host reaches it.
#[tokio::test(flavor = "multi_thread")]
async fn codegen_generates_a_client_for_a_configured_server() {
    let setup = Setup::new(json!({}));
    let source = mcp_toolkit_codegen::Source::Config {
        path: setup.config.clone(),
        server: "everything".into(),
    };
    let tools = source.tools().await.expect("the configured server's tools");
    let generated =
        mcp_toolkit_codegen::generate(&tools, &mcp_toolkit_codegen::Options::default()).unwrap();
    assert!(
        generated.code.contains("pub fn get_sum("),
        "{}",
        generated.code.len()
    );
    let missing = mcp_toolkit_codegen::Source::Config {
        path: setup.config.clone(),
        server: "missing".into(),
    };
    let error = missing.tools().await.unwrap_err().to_string();
    assert!(
        error.contains("server missing") && error.contains("cannot start"),
        "{error}"
    );
}

/// A server that drops the connection on the first call of each tool, and
/// one whose structured output breaks its own schema.
#[tokio::test(flavor = "multi_thread")]
async fn retries_only_what_is_safe_and_output_is_checked() {
    let flaky = HttpFixture::start(
        &support::interop::python(),
        &[support::interop::script("flaky_server.py").as_path()],
    );
    let config = Config::parse(
        &json!({"mcpServers": {"flaky": {"url": flaky.url}}}).to_string(),
        |_| None,
    )
    .unwrap();
    let host = Host::start(config, HostOptions::default()).await;
    let yes = mcp_toolkit_host::AlwaysAllow;
    let options = CallOptions::new(&yes);

    // Read-only: retried after the dropped connection, and answered.
    let read = host
        .call("flaky.flaky_read", json!({}), &options)
        .await
        .expect("retried");
    assert_eq!(read.result.content[0].as_text(), Some("ok after 2 calls"));
    // Destructive: not retried; the failure is reported.
    match host.call("flaky.flaky_write", json!({}), &options).await {
        Err(HostError::Unavailable { server, why }) => {
            assert_eq!(server, "flaky");
            assert!(why.contains("flaky_write"), "{why}");
        }
        other => panic!("a destructive call must not be retried: {other:?}"),
    }
    // Output that breaks the tool's own schema is an error, not a value.
    match host.call("flaky.bad_output", json!({}), &options).await {
        Err(HostError::Unavailable { why, .. }) => {
            assert!(
                why.contains("broke its own output schema") && why.contains("/n"),
                "{why}"
            );
        }
        other => panic!("expected an output schema error, got {other:?}"),
    }
    let calls: Value = {
        let url = flaky.url.replace("/mcp", "/calls");
        let client = std::process::Command::new(support::interop::python())
            .args([
                "-c",
                &format!(
                    "import urllib.request;print(urllib.request.urlopen('{url}').read().decode())"
                ),
            ])
            .output()
            .unwrap();
        serde_json::from_slice(&client.stdout).unwrap()
    };
    assert_eq!(
        calls,
        json!({"flaky_read": 2, "flaky_write": 1, "bad_output": 1})
    );
}

/// When a call runs out of time, the server is told: it receives
/// `notifications/cancelled` for the request before `mcp-host` exits 4.
#[test]
fn a_call_that_runs_out_of_time_is_cancelled_at_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let received = dir.path().join("received.jsonl");
    let config = dir.path().join(".mcp.json");
    let server = json!({"mcpServers": {"slow": {
        "command": support::interop::python(),
        "args": [support::interop::script("hostile_server.py"), "slow"],
        "env": {"RECEIVED_LOG": received},
    }}});
    std::fs::write(&config, server.to_string()).unwrap();
    let host = mcp_host();
    let started = Instant::now();
    let output = Command::new(host)
        .arg("--config")
        .arg(&config)
        .args(["call", "slow.slow", "--timeout", "1", "--max-timeout", "2"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(4), "{}", text(&output));
    assert!(started.elapsed() < Duration::from_secs(10));
    let log = std::fs::read_to_string(&received).unwrap();
    let cancelled: Vec<Value> = log
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|m| m["method"] == "notifications/cancelled")
        .collect();
    let call_id = log
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .find(|m| m["method"] == "tools/call")
        .map(|m| m["id"].clone())
        .expect("the call reached the server");
    assert_eq!(cancelled.len(), 1, "{log}");
    assert_eq!(cancelled[0]["params"]["requestId"], call_id);
}

/// Two official-SDK servers whose tool lists change while the host runs:
/// the Python SDK's (2026-07-28: the host asks with `subscriptions/listen`)
/// and the TypeScript SDK's (legacy: it announces unasked).
fn changing_servers(python_args: &[&str]) -> Config {
    let python = support::interop::python();
    let mut args = vec![
        support::interop::script("py_changing_server.py")
            .display()
            .to_string(),
    ];
    args.extend(python_args.iter().map(|arg| arg.to_string()));
    let config = json!({"mcpServers": {
        "py": {"command": python, "args": args},
        "ts": {
            "command": "node",
            "args": [support::interop::script("ts_changing_server.mjs")],
            "env": {"MCP_INTEROP_NODE_DIR": sdks().join("node")}
        }
    }});
    Config::parse(&config.to_string(), |_| None).unwrap()
}

fn catalogue(host: &Host) -> Vec<String> {
    host.tools().iter().map(|entry| entry.name()).collect()
}

fn relisted(host: &Host, server: &str) -> u32 {
    let status = host.servers().into_iter().find(|s| s.name == server);
    status.expect("configured").relisted
}

#[tokio::test(flavor = "multi_thread")]
async fn the_catalogue_follows_list_changes_in_both_eras() {
    let host = Host::start(changing_servers(&[]), HostOptions::default()).await;
    let versions: Vec<_> = host.servers().into_iter().map(|s| s.state).collect();
    assert_eq!(
        versions,
        [Ok("2026-07-28".to_owned()), Ok("2025-11-25".to_owned())],
        "py speaks 2026-07-28 and ts the legacy era"
    );
    let yes = mcp_toolkit_host::AlwaysAllow;
    let options = CallOptions::new(&yes);
    for server in ["py", "ts"] {
        let added = format!("{server}.extra");
        assert!(!catalogue(&host).contains(&added));
        host.call(
            &format!("{server}.add_tool"),
            json!({"name": "extra"}),
            &options,
        )
        .await
        .expect("add_tool");
        let deadline = Instant::now() + Duration::from_secs(20);
        while !catalogue(&host).contains(&added) {
            assert!(
                Instant::now() < deadline,
                "{server}: the catalogue was not refreshed: {:?}",
                catalogue(&host)
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(relisted(&host, server) >= 1);
        let outcome = host.call(&added, json!({}), &options).await.unwrap();
        assert_eq!(outcome.result.content[0].as_text(), Some("I am extra"));
    }
    host.shutdown(Duration::from_millis(500)).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_list_past_its_ttl_is_fetched_again_before_a_call() {
    // ttlMs 1500, and the server does not announce its new tool.
    let host = Host::start(
        changing_servers(&["--ttl-ms", "1500", "--quiet"]),
        HostOptions::default(),
    )
    .await;
    let yes = mcp_toolkit_host::AlwaysAllow;
    let options = CallOptions::new(&yes);
    host.call("py.add_tool", json!({"name": "late"}), &options)
        .await
        .expect("add_tool");
    // Still fresh: the host does not know the new tool.
    match host.call("py.late", json!({}), &options).await {
        Err(HostError::UnknownTool(name)) => assert_eq!(name, "py.late"),
        other => panic!("the list is still fresh, expected an unknown tool: {other:?}"),
    }
    assert_eq!(relisted(&host, "py"), 0);
    tokio::time::sleep(Duration::from_millis(1600)).await;
    // Stale now: the call lists the tools again first, and finds it.
    let outcome = host.call("py.late", json!({}), &options).await.unwrap();
    assert_eq!(outcome.result.content[0].as_text(), Some("I am late"));
    assert_eq!(relisted(&host, "py"), 1);
    assert!(catalogue(&host).contains(&"py.late".to_owned()));
    host.shutdown(Duration::from_millis(500)).await;
}

/// Keeps every audit record.
#[derive(Default)]
struct Records(std::sync::Mutex<Vec<mcp_toolkit_host::AuditRecord>>);

impl mcp_toolkit_host::AuditSink for Records {
    fn record(&self, record: &mcp_toolkit_host::AuditRecord) {
        self.0.lock().unwrap().push(record.clone());
    }
}

/// Audit records keep the arguments as an HMAC under the host's key: the
/// application's own key when it gives one (so digests compare across
/// runs), else a fresh one per run (so they do not).
#[tokio::test(flavor = "multi_thread")]
async fn audit_digests_are_keyed_with_the_hosts_key() {
    use mcp_toolkit_host::{AuditKey, argument_digest};
    let arguments = json!({"a": 2, "b": 40});
    let digest_of_a_run = |key: Option<AuditKey>| {
        let arguments = arguments.clone();
        async move {
            let config = Config::parse(
                &json!({"mcpServers": {"echo": {"command": env!("CARGO_BIN_EXE_echo-server")}}})
                    .to_string(),
                |_| None,
            )
            .unwrap();
            let options = HostOptions {
                audit_key: key,
                ..HostOptions::default()
            };
            let mut host = Host::start(config, options).await;
            let records = std::sync::Arc::new(Records::default());
            host.add_audit_sink(records.clone());
            let yes = mcp_toolkit_host::AlwaysAllow;
            host.call("echo.add", arguments, &CallOptions::new(&yes))
                .await
                .expect("echo.add answers");
            host.shutdown(Duration::from_millis(100)).await;
            let records = records.0.lock().unwrap();
            assert_eq!(records.len(), 1, "one record per call");
            records[0].argument_digest.clone()
        }
    };
    let kept = AuditKey::from_bytes([7; 32]);
    let with_kept_key = digest_of_a_run(Some(kept.clone())).await;
    assert_eq!(with_kept_key, argument_digest(&kept, &arguments));
    assert_eq!(digest_of_a_run(Some(kept)).await, with_kept_key);
    let (one, other) = (digest_of_a_run(None).await, digest_of_a_run(None).await);
    assert_ne!(one, other, "a fresh key per run");
}
