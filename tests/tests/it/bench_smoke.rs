//! Keeps `bench/` building and running. Its load driver and raw responders
//! (the bench workspace, debug profile) and `echo-server` are built; ours
//! and every raw server answer a few hundred checked `tools/call`s over stdio
//! and Streamable HTTP, and `tables.py` turns the reports into its tables.
//! The measurements themselves, rmcp's servers among them, run outside CI
//! (`bench/README.md`).

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// Calls per run: enough to go through warm-up, measurement and report.
const CALLS: &str = "300";

/// Runs `command` and returns its standard output; fails the test with
/// its standard error unless it succeeds.
fn succeed(command: &mut Command) -> Vec<u8> {
    let output = command.output().expect("the command starts");
    assert!(
        output.status.success(),
        "{command:?} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

/// `cargo build ARGS` in the workspace.
fn build(args: &[&str]) {
    succeed(support::cargo().arg("build").args(args));
}

/// Runs `loadgen` with `args` and returns its report, which must count
/// every call and no wrong reply.
fn loadgen(loadgen: &Path, args: &[&str]) -> Value {
    let stdout = succeed(
        Command::new(loadgen)
            .args(["--requests", CALLS, "--warmup", "20"])
            .args(["--max-seconds", "120"])
            .args(args),
    );
    let report: Value = serde_json::from_slice(&stdout).expect("loadgen prints JSON");
    assert_eq!(report["errors"], 0, "{report}");
    assert_eq!(
        report["requests"],
        CALLS.parse::<u64>().unwrap(),
        "{report}"
    );
    assert!(
        report["rps"].as_f64().is_some_and(|rps| rps > 0.0),
        "{report}"
    );
    report
}

/// `path` as a command-line argument (loadgen splits `--server` at spaces).
fn utf8(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

#[test]
fn bench_tools_build_and_drive_ours_and_every_raw_server() {
    let root = support::workspace();
    let target = support::target_dir(&support::metadata());
    let bench_target = target.join("bench-smoke");
    let bench_manifest = root.join("bench/Cargo.toml");
    build(&[
        "--locked",
        "--manifest-path",
        utf8(&bench_manifest),
        "--target-dir",
        utf8(&bench_target),
        "-p",
        "loadgen",
        "-p",
        "raw-echo",
    ]);
    // `echo-server` as the whole workspace's build makes it (the same
    // command as run_examples'): with the features the test build unified,
    // so it reuses that build instead of compiling the tree again.
    build(&["--workspace", "--bins", "--examples"]);
    let bench_bin = |name: &str| -> PathBuf { bench_target.join("debug").join(name) };
    let driver = bench_bin("loadgen");
    let ours = target.join("debug/echo-server");
    let http =
        |server: &Path, extra: &str| format!("{} --http 127.0.0.1:{{port}}{extra}", utf8(server));
    let url = "http://127.0.0.1:{port}/mcp";

    let mut reports = Vec::new();
    let raw_stdio = bench_bin("raw-echo");
    for (name, tool, server) in [
        ("ours-stdio", "add", utf8(&ours)),
        ("raw-stdio", "echo", utf8(&raw_stdio)),
    ] {
        let report = loadgen(
            &driver,
            &[
                "--server",
                server,
                "--name",
                name,
                "--tool",
                tool,
                "--concurrency",
                "8",
            ],
        );
        assert_eq!(report["transport"], "stdio");
        reports.push(report);
    }
    let ours_http = http(&ours, "");
    let raw_http = http(&bench_bin("raw-echo-http"), "");
    let floor = http(&bench_bin("raw-echo-blocking"), "");
    let floor_spin = http(&bench_bin("raw-echo-blocking"), " --spin");
    for (name, server, protocol, concurrency) in [
        ("ours-session", &ours_http, "2025-11-25", "8"),
        ("ours-modern", &ours_http, "2026-07-28", "8"),
        ("raw", &raw_http, "2026-07-28", "8"),
        ("floor", &floor, "2026-07-28", "8"),
        // Busy-polls a core per connection: one connection is enough.
        ("floor-spin", &floor_spin, "2026-07-28", "1"),
    ] {
        let report = loadgen(
            &driver,
            &[
                "--server",
                server,
                "--url",
                url,
                "--protocol",
                protocol,
                "--name",
                name,
                "--tool",
                "add",
                "--concurrency",
                concurrency,
            ],
        );
        assert_eq!(report["transport"], "http");
        reports.push(report);
    }

    let results = bench_target.join("smoke.jsonl");
    let lines: Vec<String> = reports.iter().map(Value::to_string).collect();
    std::fs::write(&results, lines.join("\n") + "\n").expect("write the reports");
    let stdout = succeed(
        Command::new("python3")
            .arg(root.join("bench/tables.py"))
            .arg(&results)
            .args(["2", "ours-modern:raw", "floor:ours-modern"]),
    );
    let tables = String::from_utf8_lossy(&stdout);
    for row in [
        "| ours-modern | raw | 8 |",
        "| floor-spin | 2026-07-28 | 1 |",
    ] {
        assert!(tables.contains(row), "no row {row:?} in:\n{tables}");
    }
}

#[test]
fn bench_scripts_parse() {
    let bench = support::workspace().join("bench");
    let mut scripts = Vec::new();
    for dir in [
        bench.clone(),
        bench.join("compile-time"),
        bench.join("codegen-check"),
    ] {
        for entry in std::fs::read_dir(&dir)
            .expect("a bench directory")
            .flatten()
        {
            if entry.path().extension().is_some_and(|ext| ext == "sh") {
                scripts.push(entry.path());
            }
        }
    }
    assert!(scripts.len() >= 5, "bench scripts: {scripts:?}");
    for script in &scripts {
        succeed(Command::new("bash").arg("-n").arg(script));
    }
}
