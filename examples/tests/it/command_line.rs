//! Every example binary acts on each shared option it accepts and refuses
//! the others at startup: a non-zero exit, within seconds, with a message
//! naming the binary and the option. None ignores an option silently.
//!
//! Acting is shown where this file can show it cheaply: a state key file
//! that cannot be read and a server that cannot be mounted stop the binary
//! that takes them, and two `notes-server`s given the same key take each
//! other's confirmation rounds. (`--http`, `--auth-issuer` and `--redis-url`
//! are driven end to end by the other tests.)

use crate::support;

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;
use support::interop::{HttpFixture, repo};
use support::wire::request;

/// How long a binary may take to refuse its command line.
const DEADLINE: Duration = Duration::from_secs(10);

/// Each shared option, with a value that shows whether it is acted on.
const SHARED: [(&str, &str); 5] = [
    ("--http", "127.0.0.1:0"),
    ("--state-key-file", "/nonexistent/state.key"),
    ("--auth-issuer", "https://issuer.invalid"),
    ("--mount", "p=http://127.0.0.1:9/mcp"),
    ("--redis-url", "redis://127.0.0.1:9/"),
];

/// An example binary and the shared options it acts on.
struct Binary {
    name: &'static str,
    path: &'static str,
    takes: &'static [&'static str],
}

/// Every binary in `examples/src/bin` (checked below), with what it takes.
const BINARIES: [Binary; 7] = [
    Binary {
        name: "echo-server",
        path: env!("CARGO_BIN_EXE_echo-server"),
        takes: &[
            "--http",
            "--state-key-file",
            "--auth-issuer",
            "--mount",
            "--redis-url",
        ],
    },
    Binary {
        name: "notes-server",
        path: env!("CARGO_BIN_EXE_notes-server"),
        takes: &["--http", "--state-key-file", "--auth-issuer"],
    },
    Binary {
        name: "conformance-server",
        path: env!("CARGO_BIN_EXE_conformance-server"),
        takes: &["--http", "--state-key-file", "--auth-issuer", "--redis-url"],
    },
    Binary {
        name: "interop-server",
        path: env!("CARGO_BIN_EXE_interop-server"),
        takes: &["--http", "--state-key-file", "--auth-issuer", "--redis-url"],
    },
    Binary {
        name: "live-server",
        path: env!("CARGO_BIN_EXE_live-server"),
        takes: &["--http", "--redis-url"],
    },
    Binary {
        name: "demo",
        path: env!("CARGO_BIN_EXE_demo"),
        takes: &[],
    },
    Binary {
        name: "conformance-client",
        path: env!("CARGO_BIN_EXE_conformance-client"),
        takes: &[],
    },
];

/// How a run of a binary ended.
struct Ended {
    /// `None` when it was still running at the deadline (then killed).
    code: Option<i32>,
    stderr: String,
}

/// Runs `path args` with no stdin, killing it at the deadline.
fn run(path: &str, args: &[&str]) -> Ended {
    let mut child = Command::new(path)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {path}: {e}"));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    let _ = child.stderr.take().unwrap().read_to_string(&mut stderr);
    Ended {
        code: status.and_then(|s| s.code()),
        stderr,
    }
}

/// The table above names every binary the crate has.
#[test]
fn every_binary_is_checked() {
    let mut found: Vec<String> = std::fs::read_dir(repo().join("examples/src/bin"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter_map(|path| Some(path.file_stem()?.to_str()?.to_owned()))
        .collect();
    found.sort();
    let mut checked: Vec<&str> = BINARIES.iter().map(|b| b.name).collect();
    checked.sort();
    assert_eq!(found, checked);
}

#[test]
fn options_a_binary_does_not_act_on_are_refused() {
    for binary in &BINARIES {
        for (option, value) in SHARED {
            if binary.takes.contains(&option) {
                continue;
            }
            let ended = run(binary.path, &[option, value]);
            let why = format!("{} {option} {value}", binary.name);
            let code = ended.code.unwrap_or_else(|| {
                panic!("{why}: still running after {DEADLINE:?}\n{}", ended.stderr)
            });
            assert_ne!(code, 0, "{why}: exited 0\n{}", ended.stderr);
            assert!(
                ended.stderr.contains(binary.name) && ended.stderr.contains(&format!("`{option}`")),
                "{why}: the message names neither the binary nor the option:\n{}",
                ended.stderr
            );
        }
    }
}

/// `--state-key-file` and `--mount` are acted on where they are taken:
/// a key that cannot be read and a server that cannot be reached stop the
/// binary, naming what failed.
#[test]
fn options_a_binary_takes_are_acted_on() {
    let probes = [
        ("--state-key-file", "cannot read /nonexistent/state.key"),
        ("--mount", "cannot mount http://127.0.0.1:9/mcp"),
    ];
    for binary in &BINARIES {
        for (option, expected) in probes {
            if !binary.takes.contains(&option) {
                continue;
            }
            let value = SHARED.iter().find(|(o, _)| *o == option).unwrap().1;
            let ended = run(binary.path, &[option, value, "--http", "127.0.0.1:0"]);
            let why = format!("{} {option} {value}", binary.name);
            assert!(
                ended.code.is_some_and(|code| code != 0),
                "{why}: did not fail ({:?})\n{}",
                ended.code,
                ended.stderr
            );
            assert!(ended.stderr.contains(expected), "{why}: {}", ended.stderr);
        }
    }
}

/// Two `notes-server`s given the same `--state-key-file` take each other's
/// rounds: `clear_notes` asks on one and is confirmed on the other. A third
/// without the key refuses the round.
#[test]
fn notes_servers_sharing_a_state_key_take_each_others_rounds() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("state.key");
    std::fs::write(&key, "5eed".repeat(16)).unwrap();
    let notes = Path::new(env!("CARGO_BIN_EXE_notes-server"));
    let keyed = || HttpFixture::start(notes, &[Path::new("--state-key-file"), &key]);
    let (first, second) = (keyed(), keyed());
    let unkeyed = HttpFixture::start(notes, &[]);

    let clear = || json!({"name": "clear_notes", "arguments": {}});
    let asked = request(&first.url, 1, "tools/call", Some("clear_notes"), clear());
    assert_eq!(asked["result"]["resultType"], "input_required", "{asked}");
    assert!(
        asked["result"]["inputRequests"]["input-0"].is_object(),
        "{asked}"
    );
    let mut answered = clear();
    answered["requestState"] = asked["result"]["requestState"].clone();
    answered["inputResponses"] = json!({
        "input-0": {"action": "accept", "content": {"confirm": true}}
    });

    let confirmed = request(
        &second.url,
        2,
        "tools/call",
        Some("clear_notes"),
        answered.clone(),
    );
    assert_eq!(
        confirmed["result"]["content"][0]["text"], "deleted 0 notes",
        "{confirmed}"
    );
    let refused = request(&unkeyed.url, 3, "tools/call", Some("clear_notes"), answered);
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
}

/// What a binary prints to stderr up to its line `listening on ...`
/// (killed then, or at the deadline).
fn startup_lines(path: &str, args: &[&str]) -> String {
    let mut child = Command::new(path)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {path}: {e}"));
    let stderr = child.stderr.take().unwrap();
    let (lines, received) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufRead::lines(std::io::BufReader::new(stderr)) {
            let Ok(line) = line else { break };
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let started = Instant::now();
    let mut shown = String::new();
    while let Some(left) = DEADLINE.checked_sub(started.elapsed()) {
        let Ok(line) = received.recv_timeout(left) else {
            break;
        };
        shown += &line;
        shown.push('\n');
        if line.starts_with("listening on") {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    shown
}

/// The URLs a binary names (a server it cannot mount, the resource and
/// issuer it starts with) are shown without userinfo or query.
#[test]
fn urls_on_stderr_are_redacted() {
    let echo = env!("CARGO_BIN_EXE_echo-server");
    let mount = "p=http://user:hunter2@127.0.0.1:9/mcp?token=tok-secret";
    let ended = run(echo, &["--mount", mount, "--http", "127.0.0.1:0"]);
    assert!(ended.code.is_some_and(|code| code != 0), "{}", ended.stderr);
    assert!(
        ended
            .stderr
            .contains("cannot mount http://127.0.0.1:9/mcp:"),
        "{}",
        ended.stderr
    );
    let issuer = "http://user:hunter2@127.0.0.1:9";
    let resource = "http://user:hunter2@127.0.0.1/mcp";
    let args = ["--http", "127.0.0.1:0", "--auth-issuer", issuer];
    let started = startup_lines(echo, &[&args[..], &["--resource", resource]].concat());
    assert!(
        started.contains("protected resource http://127.0.0.1/mcp; tokens from http://127.0.0.1:9"),
        "{started}"
    );
    for shown in [&ended.stderr, &started] {
        for secret in ["hunter2", "user:", "tok-secret"] {
            assert!(!shown.contains(secret), "shows {secret}:\n{shown}");
        }
    }
}
