//! Every runnable example (`examples/examples/*.rs` and the
//! `build-codegen` package) runs to completion, exits 0 and prints the
//! lines that show its capability, so that the examples the README lists
//! never rot.
//!
//! The examples are built once with one `cargo build` (they belong to
//! targets and a package that `cargo test -p mcp-examples --test
//! run_examples` would not build otherwise), then run from the target
//! directory, each with a deadline. That build asks for the whole
//! workspace's binaries and examples, so that cargo resolves the features
//! `cargo test --workspace` resolves and reuses what it built.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use support::cargo::workspace_binaries;

use crate::support;

/// How long one example may take; each needs well under a second.
const DEADLINE: Duration = Duration::from_secs(30);

/// The target directory's profile folder (`target/debug`), after building
/// every example and the servers the `host` example starts.
fn built() -> &'static Path {
    workspace_binaries()
}

/// Runs `program` (a path under `target/debug`), waits at most
/// [`DEADLINE`], and checks that it exits 0 and that its output contains
/// each of `expected`.
fn run(program: &str, expected: &[&str]) {
    let program = built().join(program);
    let started = Instant::now();
    let mut child = Command::new(&program)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", program.display()));
    // Read both pipes on threads so that a chatty example cannot block.
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    let err = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{} did not finish within {DEADLINE:?}", program.display());
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let (stdout, stderr) = (out.join().unwrap(), err.join().unwrap());
    eprintln!("{} ran in {:.0?}", program.display(), started.elapsed());
    assert!(
        status.success(),
        "{} failed ({status}):\n{stdout}\n{stderr}",
        program.display()
    );
    for line in expected {
        assert!(
            stdout.contains(line),
            "{} did not print {line:?}:\n{stdout}",
            program.display()
        );
    }
}

/// Runs the Cargo example `name` of this package.
fn example(name: &str, expected: &[&str]) {
    run(&format!("examples/{name}"), expected);
}

#[test]
fn auth() {
    example(
        "auth",
        &[
            "without a token: the server requires authorization (HTTP 401)",
            "reader: read_notes -> \"no notes yet, reader\"",
            "reader: add_note -> the access token lacks a scope",
            "writer: add_note -> \"added \\\"hi\\\"\"",
        ],
    );
}

#[test]
fn host() {
    example(
        "host",
        &[
            "server broken: unavailable",
            "echo.add -> {\"sum\":42} (from server echo)",
            "notes.add_note -> \"saved notes://todo\"",
            "echo.echo -> refused (exit code 3)",
            "notes.clear_notes -> refused (exit code 3)",
            "echo.add -> refused (exit code 2)",
        ],
    );
}

#[test]
fn tasks() {
    example(
        "tasks",
        &[
            "tasks/get -> Completed",
            "result: \"a report of 3 pages\"",
            "tasks/get -> Cancelled",
        ],
    );
}

#[test]
fn skills() {
    example(
        "skills",
        &[
            "skill release-notes at skill://release-notes/SKILL.md",
            "read skill://release-notes/templates/NOTES.md (19 bytes, digest verified)",
            "refused unlisted",
        ],
    );
}

#[test]
fn middleware() {
    example(
        "middleware",
        &[
            "echo(\"hi\") -> \"hi\"",
            "drop_tables() -> isError: \"drop_tables is switched off on this server\"",
            "took longer than 200ms",
            "[timing] tools/call slow",
        ],
    );
}

#[test]
fn axum() {
    example(
        "axum",
        &[
            "GET /health -> \"HTTP/1.1 200 OK\"",
            "whereami() -> \"tenant acme, called from ide-plugin\"",
        ],
    );
}

#[test]
fn composition() {
    example(
        "composition",
        &[
            "front server tools: about, math_add, weather_forecast",
            "weather_forecast(Lisbon) -> \"sunny in Lisbon\"",
            "math_add(2, 40) -> {\"result\":42}",
            "Invalid arguments for tool math_add",
        ],
    );
}

#[test]
fn build_codegen() {
    run(
        "build-codegen",
        &[
            "the live server matches the tools.json",
            "+2 days: 68 °F, sunny",
        ],
    );
}
