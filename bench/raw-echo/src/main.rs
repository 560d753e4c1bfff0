//! The physical limit of newline-delimited JSON over stdio on this
//! machine, for `bench/run.sh`: one thread, blocking pipes, and per line
//! only what any responder must do: parse the message as JSON and write a
//! reply of the shape `loadgen` checks, with the same id. No MCP: no
//! method table, no schemas, no capabilities, no concurrency.
//!
//! `initialize` is answered with the protocol version it asked for,
//! notifications are skipped, and any other request is taken as a
//! `tools/call` of `add` (`structuredContent.sum` and its text copy) or,
//! for any other name, `echo` (the `text` argument back).

use std::io::{self, BufRead, BufReader, Write};

use raw_echo::answer;
use serde_json::Value;

fn main() -> io::Result<()> {
    let stdin = io::stdin().lock();
    let mut input = BufReader::with_capacity(64 * 1024, stdin);
    let mut output = io::stdout().lock();
    let mut line = String::new();
    let mut replies = Vec::with_capacity(64 * 1024);
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            break;
        }
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        if let Some(reply) = answer(&message) {
            serde_json::to_writer(&mut replies, &reply)?;
            replies.push(b'\n');
        }
        // Write once everything already read is answered: as few writes as
        // the load allows, and never a reply held back waiting for input.
        if input.buffer().is_empty() {
            output.write_all(&replies)?;
            output.flush()?;
            replies.clear();
        }
    }
    output.write_all(&replies)?;
    output.flush()
}
