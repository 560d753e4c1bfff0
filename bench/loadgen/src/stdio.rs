//! The stdio mode: the server's stdin and stdout are pipes, as MCP clients
//! launch local servers.
//!
//! After the legacy `initialize` / `notifications/initialized` handshake, a
//! writer future sends as many requests as there are free slots in one
//! `write`, and a reader future matches replies by id, validates them and
//! frees the slot. Per-request latency is send -> reply.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::process::Stdio;
use std::time::{Duration, Instant};

use hdrhistogram::Histogram;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::sync::Semaphore;

use crate::calls::{self, Kind, Reply, Tool};
use crate::{Args, Driver, Handshake, Measurement, PhaseStats};

/// Longest reply line accepted, in bytes.
const MAX_LINE: u64 = 1 << 20;

struct Io {
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    line: Vec<u8>,
    timeout: Duration,
    tool: Tool,
    concurrency: usize,
}

impl Io {
    /// Reads one line (without bounds beyond `MAX_LINE`), failing on timeout
    /// or end of output.
    async fn read_line(&mut self) -> Result<&[u8], String> {
        read_line(&mut self.stdout, &mut self.line, self.timeout).await?;
        Ok(&self.line)
    }
}

async fn read_line(
    stdout: &mut BufReader<ChildStdout>,
    line: &mut Vec<u8>,
    timeout: Duration,
) -> Result<(), String> {
    line.clear();
    let read = tokio::time::timeout(
        timeout,
        (&mut *stdout).take(MAX_LINE).read_until(b'\n', line),
    )
    .await
    .map_err(|_| format!("timeout: no reply line within {timeout:?}"))?
    .map_err(|e| format!("reading server stdout: {e}"))?;
    if read == 0 {
        return Err("server closed its stdout".to_owned());
    }
    if line.last() != Some(&b'\n') {
        return Err(format!(
            "reply line longer than {MAX_LINE} bytes or cut short"
        ));
    }
    Ok(())
}

async fn handshake(io: &mut Io, protocol: &str) -> Result<serde_json::Value, String> {
    let init = format!(
        r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{protocol}","capabilities":{{}},"clientInfo":{{"name":"loadgen","version":"0.0.0"}}}}}}"#
    );
    io.stdin
        .write_all(format!("{init}\n").as_bytes())
        .await
        .map_err(|e| format!("writing initialize: {e}"))?;
    io.stdin.flush().await.map_err(|e| e.to_string())?;
    let reply: serde_json::Value = loop {
        let line = io.read_line().await?;
        let value: serde_json::Value = serde_json::from_slice(line).map_err(|e| {
            format!(
                "initialize reply is not JSON ({e}): {}",
                String::from_utf8_lossy(line)
            )
        })?;
        if value.get("id").is_some() {
            break value;
        }
        // A notification before the reply (e.g. a log message): skip it.
    };
    let server_info = check_initialize_reply(&reply, protocol)?;
    io.stdin
        .write_all(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n")
        .await
        .map_err(|e| format!("writing notifications/initialized: {e}"))?;
    Ok(server_info)
}

/// The `serverInfo` of a reply to `initialize` (id 0) that agreed to `protocol`.
pub fn check_initialize_reply(
    reply: &serde_json::Value,
    protocol: &str,
) -> Result<serde_json::Value, String> {
    if reply["id"] != 0 {
        return Err(format!("initialize reply has the wrong id: {reply}"));
    }
    let negotiated = reply["result"]["protocolVersion"]
        .as_str()
        .unwrap_or_default();
    if negotiated != protocol {
        return Err(format!(
            "server answered initialize with protocolVersion {negotiated:?}, want {protocol:?}: {reply}"
        ));
    }
    Ok(reply["result"]["serverInfo"].clone())
}

impl Driver for Io {
    async fn phase(
        &mut self,
        first_id: u64,
        count: u64,
        mut hist: Option<&mut Histogram<u64>>,
    ) -> Result<PhaseStats, String> {
        let (tool, concurrency) = (self.tool, self.concurrency);
        let slots = Semaphore::new(concurrency);
        let sent: RefCell<HashMap<u64, Instant>> =
            RefCell::new(HashMap::with_capacity(concurrency * 2));
        let errors = Cell::new(0u64);
        let end = first_id + count;
        let (slots, sent, errors) = (&slots, &sent, &errors);
        let Io {
            stdin,
            stdout,
            line,
            timeout,
            ..
        } = self;
        let timeout = *timeout;
        let start = Instant::now();

        let writer = async move {
            let mut buf = Vec::with_capacity(concurrency * 160);
            let mut next = first_id;
            while next < end {
                slots.acquire().await.map_err(|e| e.to_string())?.forget();
                let mut batch = 1;
                while next + batch < end {
                    match slots.try_acquire() {
                        Ok(permit) => permit.forget(),
                        Err(_) => break,
                    }
                    batch += 1;
                }
                buf.clear();
                for id in next..next + batch {
                    calls::write_request(&mut buf, tool, id, None);
                    buf.push(b'\n');
                }
                let now = Instant::now();
                {
                    let mut sent = sent.borrow_mut();
                    for id in next..next + batch {
                        sent.insert(id, now);
                    }
                }
                next += batch;
                stdin
                    .write_all(&buf)
                    .await
                    .map_err(|e| format!("writing to server stdin: {e}"))?;
            }
            Ok::<(), String>(())
        };

        let reader = async move {
            let mut received = 0u64;
            let mut notifications = 0u64;
            while received < count {
                read_line(stdout, line, timeout).await.map_err(|e| {
                    format!(
                        "{e} ({} of {count} replies received, {} in flight)",
                        received,
                        sent.borrow().len()
                    )
                })?;
                let now = Instant::now();
                let reply: Reply<'_> = serde_json::from_slice(line).map_err(|e| {
                    format!("unparseable reply ({e}): {}", String::from_utf8_lossy(line))
                })?;
                let id = match reply
                    .kind()
                    .map_err(|e| format!("{e}: {}", String::from_utf8_lossy(line)))?
                {
                    Kind::Notification => {
                        notifications += 1;
                        continue;
                    }
                    Kind::Reply(id) => id,
                };
                let sent_at = sent.borrow_mut().remove(&id).ok_or_else(|| {
                    format!(
                        "reply for id {id}, which is not in flight: {}",
                        String::from_utf8_lossy(line)
                    )
                })?;
                if let Some(hist) = hist.as_deref_mut() {
                    let ns = now.duration_since(sent_at).as_nanos().max(1) as u64;
                    hist.saturating_record(ns);
                }
                if let Err(why) = calls::validate(tool, id, &reply) {
                    let mut n = errors.get();
                    crate::report_mismatch(&mut n, id, &why, line);
                    errors.set(n);
                }
                received += 1;
                slots.add_permits(1);
            }
            Ok::<u64, String>(notifications)
        };

        let ((), notifications) = tokio::try_join!(writer, reader)?;
        Ok(PhaseStats {
            elapsed: start.elapsed(),
            errors: errors.get(),
            notifications,
        })
    }
}

async fn shutdown(mut child: Child, io: Io) -> String {
    drop(io);
    match tokio::time::timeout(Duration::from_secs(10), child.wait()).await {
        Ok(Ok(status)) => status.to_string(),
        Ok(Err(e)) => format!("wait failed: {e}"),
        Err(_) => {
            let _ = child.kill().await;
            "killed: did not exit within 10 s of stdin closing".to_owned()
        }
    }
}

/// Spawns the server on pipes, shakes hands and measures; the server exits
/// when its stdin closes.
pub async fn run(args: &Args) -> Result<(Measurement, String), String> {
    let mut words = args.server.split_whitespace();
    let program = words.next().unwrap_or_default();
    let mut child = Command::new(program)
        .args(words)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("spawning {program}: {e}"))?;
    let pid = child.id().ok_or("server exited at once")?;
    let mut io = Io {
        stdin: child.stdin.take().ok_or("no stdin")?,
        stdout: BufReader::with_capacity(256 * 1024, child.stdout.take().ok_or("no stdout")?),
        line: Vec::with_capacity(4096),
        timeout: args.timeout,
        tool: args.tool,
        concurrency: args.concurrency,
    };
    let server_info = handshake(&mut io, &args.protocol).await?;
    let measurement = crate::measure(
        &mut io,
        pid,
        args,
        Handshake {
            server_info,
            session: None,
        },
    )
    .await?;
    Ok((measurement, shutdown(child, io).await))
}
