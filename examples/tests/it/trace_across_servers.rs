//! One call followed across three processes by its W3C trace context
//! (SEP-414): this test's client → echo-server A over HTTP → A's mounted
//! tool `b_echo` (composition, `--mount b=URL`) → echo-server B. Every hop's
//! `tracing` span names the same trace id, and each span's parent is the
//! span that called it.

use crate::support;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mcp_toolkit_runtime::client::Client;
use mcp_toolkit_runtime::trace::TraceContext;
use serde_json::json;
use support::interop::HttpFixture;
use tracing_subscriber::filter::LevelFilter;
use tracing_subscriber::fmt::format::FmtSpan;
use tracing_subscriber::util::SubscriberInitExt;

/// Collects this process's `tracing` output.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    fn lines(&self) -> Vec<String> {
        String::from_utf8_lossy(&self.0.lock().unwrap())
            .lines()
            .map(str::to_owned)
            .collect()
    }
}

/// The fields of the closed span `span` (e.g. `mcp.request`) naming `name`
/// in `trace`, from a server's or our own output; waits up to 10 s for it
/// to be written.
fn closed_span(output: impl Fn() -> Vec<String>, span: &str, name: &str, trace: &str) -> String {
    let started = Instant::now();
    loop {
        let found = output()
            .into_iter()
            .filter_map(|line| closing(&plain(&line), span))
            .find(|fields| {
                field(fields, "name") == Some(name) && field(fields, "trace_id") == Some(trace)
            });
        if let Some(line) = found {
            return line;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "no closed `{span}` span for `{name}` in trace {trace}; output:\n{}",
            output().join("\n")
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The fields of `span` when `line` reports its close (`span{fields}:
/// target: close …`); a line where `span` only encloses the closing span
/// (`span{…}:inner{…}: target: close`) is not it.
fn closing(line: &str, span: &str) -> Option<String> {
    let start = line.rfind(&format!("{span}{{"))?;
    let segment = &line[start + span.len()..];
    let end = segment.find('}')?;
    let after = &segment[end + 1..];
    (after.starts_with(": ") && after.contains(": close ")).then(|| segment[..=end].to_owned())
}

/// The line without terminal colour codes.
fn plain(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            chars.by_ref().find(|c| c.is_ascii_alphabetic());
        } else {
            out.push(c);
        }
    }
    out
}

/// The value of `key=value` (quotes removed) in a span's fields.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let start = [format!("{{{key}="), format!(" {key}=")]
        .iter()
        .find_map(|pattern| line.find(pattern.as_str()).map(|at| at + pattern.len()))?;
    let value = &line[start..];
    let end = value.find([' ', '}']).unwrap_or(value.len());
    Some(value[..end].trim_matches('"'))
}

/// The span id `key` (`span_id` or `parent_span_id`) in a span's fields:
/// 16 hex digits, not all zero. A hop that lost its id fails here, where
/// comparing two missing ids would have found them equal.
fn span_id<'a>(fields: &'a str, key: &str) -> &'a str {
    let id = field(fields, key).unwrap_or_else(|| panic!("no `{key}` in {fields}"));
    assert!(
        id.len() == 16
            && id.bytes().all(|b| b.is_ascii_hexdigit())
            && id.bytes().any(|b| b != b'0'),
        "`{key}` is no span id in {fields}"
    );
    id
}

#[tokio::test(flavor = "current_thread")]
async fn one_trace_id_in_all_three_processes() {
    let echo = Path::new(env!("CARGO_BIN_EXE_echo-server"));
    let log = [("RUST_LOG", "mcp_toolkit_runtime=info")];
    let b = HttpFixture::start_with_env(echo, &[], &log);
    let mut command = Command::new(echo);
    command
        .args(["--http", "0", "--mount", &format!("b={}", b.url)])
        .envs(log);
    let a = HttpFixture::start_command(echo, command);

    let ours = Captured::default();
    let writer = ours.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(LevelFilter::INFO)
        .with_span_events(FmtSpan::CLOSE)
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .finish();
    let _logging = subscriber.set_default();

    let client = Client::connect_http(&a.url).await.unwrap();
    let root = TraceContext::new_root();
    let trace = root.trace_id();
    let result = root
        .clone()
        .in_scope(client.call_tool("b_echo", &json!({"text": "traced"})))
        .await
        .unwrap();
    assert_eq!(result.content[0].as_text(), Some("traced"));

    // Here → A: our request span is a child of the root we started.
    let sent = closed_span(|| ours.lines(), "mcp.client.request", "b_echo", &trace);
    assert_eq!(span_id(&sent, "parent_span_id"), root.span_id());
    // A serves `b_echo` as a child of our request span…
    let served_a = closed_span(|| a.stderr(), "mcp.request", "b_echo", &trace);
    assert_eq!(
        span_id(&served_a, "parent_span_id"),
        span_id(&sent, "span_id")
    );
    // …and forwards `echo` to B from inside it…
    let forwarded = closed_span(|| a.stderr(), "mcp.client.request", "echo", &trace);
    assert_eq!(
        span_id(&forwarded, "parent_span_id"),
        span_id(&served_a, "span_id")
    );
    // …where B serves it as a child of A's forwarding span.
    let served_b = closed_span(|| b.stderr(), "mcp.request", "echo", &trace);
    assert_eq!(
        span_id(&served_b, "parent_span_id"),
        span_id(&forwarded, "span_id")
    );
    // Every hop is a span of its own.
    let root_id = root.span_id();
    let ids: BTreeSet<&str> = [&sent, &served_a, &forwarded, &served_b]
        .map(|fields| span_id(fields, "span_id"))
        .into_iter()
        .chain([root_id.as_str()])
        .collect();
    assert_eq!(ids.len(), 5, "a span id repeats: {ids:?}");
}
