//! The official SDK clients drive `echo-server --http` over Streamable HTTP:
//! the TypeScript SDK 1.32 (legacy era, with a session it ends by DELETE)
//! and the Python SDK 2.3.0 (2026-07-28, and its legacy mode).
//! `tests/interop/setup.sh` installs them into `target/interop`; the test
//! fails if they cannot be installed.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::sync::mpsc;
use std::time::Duration;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Installs the clients once per test binary; returns the install folder.
fn clients() -> &'static Path {
    static TARGET: OnceLock<PathBuf> = OnceLock::new();
    TARGET.get_or_init(|| {
        let target = repo().join("target/interop");
        let status = Command::new("bash")
            .arg(repo().join("tests/interop/setup.sh"))
            .env("TARGET", &target)
            .status()
            .expect("run tests/interop/setup.sh");
        assert!(
            status.success(),
            "installing the official SDK clients failed"
        );
        target
    })
}

/// `echo-server --http 127.0.0.1:0`, stopped on drop.
struct HttpServer {
    child: Child,
    url: String,
}

impl HttpServer {
    /// Starts the server and reads the URL it prints once bound.
    fn start() -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_echo-server"))
            .args(["--http", "127.0.0.1:0"])
            .stdin(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start echo-server --http");
        let stderr = BufReader::new(child.stderr.take().unwrap());
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in stderr.lines() {
                let Ok(line) = line else { break };
                match line.strip_prefix("listening on ") {
                    Some(url) => {
                        let _ = tx.send(url.to_owned());
                    }
                    None => eprintln!("echo-server: {line}"),
                }
            }
        });
        let url = rx
            .recv_timeout(Duration::from_secs(10))
            .expect("echo-server did not report its address");
        HttpServer { child, url }
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn run(program: &Path, script: &str, extra: &[&str]) {
    let server = HttpServer::start();
    let output = Command::new(program)
        .arg(repo().join("tests/interop").join(script))
        .args(extra)
        .args(["--url", &server.url])
        .env("MCP_INTEROP_NODE_DIR", clients().join("node"))
        .output()
        .unwrap_or_else(|e| panic!("cannot run {script}: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{script} {extra:?} failed\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert!(stdout.contains(r#""transport": "http""#) || stdout.contains(r#""transport":"http""#));
    println!("{script} {extra:?}: {stdout}");
}

#[test]
fn python_sdk_client_over_http_in_the_2026_era() {
    let python = clients().join("venv/bin/python");
    run(
        &python,
        "py_client.py",
        &["--mode", "auto", "--expect-version", "2026-07-28"],
    );
}

#[test]
fn python_sdk_client_over_http_in_legacy_mode() {
    let python = clients().join("venv/bin/python");
    run(
        &python,
        "py_client.py",
        &["--mode", "legacy", "--expect-version", "2025-11-25"],
    );
}

#[test]
fn typescript_sdk_client_over_http_with_a_legacy_session() {
    run(Path::new("node"), "ts_client.mjs", &[]);
}
