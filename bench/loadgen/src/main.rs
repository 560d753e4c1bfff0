//! Pipelined stdio `tools/call` load driver for MCP servers.
//!
//! ```text
//! loadgen --server "CMD ARGS" --requests N --concurrency C --tool add|echo
//!         [--warmup W] [--name LABEL] [--protocol 2025-11-25]
//!         [--timeout-ms 10000] [--max-seconds 600]
//! ```
//!
//! Spawns the server (the command line is split on whitespace, no shell),
//! performs the legacy `initialize` / `notifications/initialized` handshake,
//! runs `W` warm-up calls and then `N` measured calls, keeping `C` requests in
//! flight: a writer future sends as many requests as there are free slots in
//! one `write`, a reader future matches replies by id, validates them and
//! frees the slot. Per-request latency is send -> reply. At the end the
//! server's peak RSS (`VmHWM`) and CPU time are read from `/proc/<pid>` before
//! its stdin is closed. Prints one JSON line on stdout.
//!
//! Exit status: 0 when every reply was correct, 1 when some reply was wrong
//! (the JSON line is still printed, with `errors` > 0, and the first few
//! mismatches go to stderr), 2 on a fatal error (timeout, server exit,
//! malformed line, bad arguments).

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::process::{ExitCode, Stdio};
use std::time::{Duration, Instant};

use hdrhistogram::Histogram;
use serde::Deserialize;
use serde::de::IgnoredAny;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::sync::Semaphore;

/// Longest reply line accepted, in bytes.
const MAX_LINE: u64 = 1 << 20;
/// Upper bounds on the arguments, so that a typo cannot run for hours.
const MAX_REQUESTS: u64 = 50_000_000;
const MAX_CONCURRENCY: usize = 4096;
/// Mismatches printed in full to stderr.
const MAX_REPORTED: u64 = 5;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Tool {
    Add,
    Echo,
}

struct Args {
    server: String,
    name: String,
    requests: u64,
    concurrency: usize,
    tool: Tool,
    warmup: u64,
    protocol: String,
    timeout: Duration,
    max_seconds: u64,
}

fn usage() -> String {
    "usage: loadgen --server \"CMD ARGS\" --requests N --concurrency C --tool add|echo \
     [--warmup W] [--name LABEL] [--protocol VERSION] [--timeout-ms MS] [--max-seconds S]"
        .to_owned()
}

fn parse_args() -> Result<Args, String> {
    let mut it = std::env::args().skip(1);
    let (mut server, mut name, mut requests, mut concurrency, mut tool) = (None, None, None, None, None);
    let mut warmup = 1000u64;
    let mut protocol = "2025-11-25".to_owned();
    let mut timeout_ms = 10_000u64;
    let mut max_seconds = 600u64;
    while let Some(flag) = it.next() {
        if flag == "-h" || flag == "--help" {
            return Err(usage());
        }
        let value = it.next().ok_or_else(|| format!("{flag} needs a value\n{}", usage()))?;
        let num = |v: &str| v.parse::<u64>().map_err(|e| format!("{flag} {v}: {e}"));
        match flag.as_str() {
            "--server" => server = Some(value),
            "--name" => name = Some(value),
            "--requests" => requests = Some(num(&value)?),
            "--concurrency" => concurrency = Some(num(&value)? as usize),
            "--warmup" => warmup = num(&value)?,
            "--protocol" => protocol = value,
            "--timeout-ms" => timeout_ms = num(&value)?,
            "--max-seconds" => max_seconds = num(&value)?,
            "--tool" => {
                tool = Some(match value.as_str() {
                    "add" => Tool::Add,
                    "echo" => Tool::Echo,
                    other => return Err(format!("unknown tool {other:?}: add or echo")),
                })
            }
            other => return Err(format!("unknown flag {other}\n{}", usage())),
        }
    }
    let server = server.ok_or_else(usage)?;
    if server.split_whitespace().next().is_none() {
        return Err("--server is empty".to_owned());
    }
    let requests = requests.ok_or_else(usage)?;
    let concurrency = concurrency.ok_or_else(usage)?;
    if !(1..=MAX_REQUESTS).contains(&requests) || warmup > MAX_REQUESTS {
        return Err(format!("--requests must be 1..={MAX_REQUESTS}, --warmup at most that"));
    }
    if !(1..=MAX_CONCURRENCY).contains(&concurrency) {
        return Err(format!("--concurrency must be 1..={MAX_CONCURRENCY}"));
    }
    if !(1..=600_000).contains(&timeout_ms) || !(1..=3600).contains(&max_seconds) {
        return Err("--timeout-ms must be 1..=600000 and --max-seconds 1..=3600".to_owned());
    }
    let name = name.unwrap_or_else(|| {
        let program = server.split_whitespace().next().unwrap_or_default();
        program.rsplit('/').next().unwrap_or(program).to_owned()
    });
    Ok(Args {
        server,
        name,
        requests,
        concurrency,
        tool: tool.ok_or_else(usage)?,
        warmup,
        protocol,
        timeout: Duration::from_millis(timeout_ms),
        max_seconds,
    })
}

/// The arguments of request `id` and the answer it must get.
fn add_operands(id: u64) -> (i64, i64) {
    let id = id as i64;
    (id * 3 - 1_000_000, id % 1000 + 7)
}

fn write_request(buf: &mut Vec<u8>, tool: Tool, id: u64) {
    use std::io::Write;
    // Writing into a Vec cannot fail.
    let _ = match tool {
        Tool::Add => {
            let (a, b) = add_operands(id);
            writeln!(
                buf,
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"add","arguments":{{"a":{a},"b":{b}}}}}}}"#
            )
        }
        Tool::Echo => writeln!(
            buf,
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"hello-{id}"}}}}}}"#
        ),
    };
}

#[derive(Deserialize)]
struct Reply<'a> {
    id: Option<u64>,
    method: Option<IgnoredAny>,
    error: Option<serde_json::Value>,
    #[serde(borrow)]
    result: Option<CallResult<'a>>,
}

#[derive(Deserialize)]
struct CallResult<'a> {
    #[serde(default, borrow)]
    content: Vec<Content<'a>>,
    #[serde(rename = "structuredContent")]
    structured: Option<SumOut>,
    #[serde(rename = "isError", default)]
    is_error: bool,
}

#[derive(Deserialize)]
struct Content<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(borrow)]
    text: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct SumOut {
    sum: i64,
}

/// Checks a `tools/call` result for request `id`; `Err` describes the mismatch.
fn validate(tool: Tool, id: u64, reply: &Reply<'_>) -> Result<(), String> {
    if let Some(error) = &reply.error {
        return Err(format!("JSON-RPC error {error}"));
    }
    let result = reply.result.as_ref().ok_or("no result")?;
    if result.is_error {
        return Err("isError: true".to_owned());
    }
    let first_text = match result.content.first() {
        Some(Content { kind, text: Some(text) }) if kind == "text" => text,
        _ => return Err("content[0] is not a text block".to_owned()),
    };
    match tool {
        Tool::Add => {
            let (a, b) = add_operands(id);
            let want = a + b;
            let got = result.structured.as_ref().ok_or("no structuredContent")?.sum;
            if got != want {
                return Err(format!("structuredContent.sum {got}, want {want}"));
            }
            let text: SumOut = serde_json::from_str(first_text)
                .map_err(|e| format!("text copy {first_text:?} is not {{\"sum\":N}}: {e}"))?;
            if text.sum != want {
                return Err(format!("text copy sum {}, want {want}", text.sum));
            }
        }
        Tool::Echo => {
            let want = format!("hello-{id}");
            if *first_text != want || result.content.len() != 1 {
                return Err(format!("echo content {first_text:?} ({} blocks), want {want:?}", result.content.len()));
            }
        }
    }
    Ok(())
}

struct Io {
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    line: Vec<u8>,
    timeout: Duration,
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
    let read = tokio::time::timeout(timeout, (&mut *stdout).take(MAX_LINE).read_until(b'\n', line))
        .await
        .map_err(|_| format!("timeout: no reply line within {timeout:?}"))?
        .map_err(|e| format!("reading server stdout: {e}"))?;
    if read == 0 {
        return Err("server closed its stdout".to_owned());
    }
    if line.last() != Some(&b'\n') {
        return Err(format!("reply line longer than {MAX_LINE} bytes or cut short"));
    }
    Ok(())
}

async fn handshake(io: &mut Io, protocol: &str) -> Result<serde_json::Value, String> {
    let init = format!(
        r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{protocol}","capabilities":{{}},"clientInfo":{{"name":"loadgen","version":"0.0.0"}}}}}}"#
    );
    io.stdin.write_all(format!("{init}\n").as_bytes()).await.map_err(|e| format!("writing initialize: {e}"))?;
    io.stdin.flush().await.map_err(|e| e.to_string())?;
    let reply: serde_json::Value = loop {
        let line = io.read_line().await?;
        let value: serde_json::Value = serde_json::from_slice(line)
            .map_err(|e| format!("initialize reply is not JSON ({e}): {}", String::from_utf8_lossy(line)))?;
        if value.get("id").is_some() {
            break value;
        }
        // A notification before the reply (e.g. a log message): skip it.
    };
    if reply["id"] != 0 {
        return Err(format!("initialize reply has the wrong id: {reply}"));
    }
    let negotiated = reply["result"]["protocolVersion"].as_str().unwrap_or_default();
    if negotiated != protocol {
        return Err(format!("server answered initialize with protocolVersion {negotiated:?}, want {protocol:?}: {reply}"));
    }
    io.stdin
        .write_all(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n")
        .await
        .map_err(|e| format!("writing notifications/initialized: {e}"))?;
    Ok(reply["result"]["serverInfo"].clone())
}

#[derive(Default)]
struct PhaseStats {
    elapsed: Duration,
    errors: u64,
    notifications: u64,
}

/// Sends `count` calls with ids `first_id..`, at most `concurrency` in flight,
/// and waits for every reply.
async fn phase(
    io: &mut Io,
    tool: Tool,
    first_id: u64,
    count: u64,
    concurrency: usize,
    mut hist: Option<&mut Histogram<u64>>,
) -> Result<PhaseStats, String> {
    let slots = Semaphore::new(concurrency);
    let sent: RefCell<HashMap<u64, Instant>> = RefCell::new(HashMap::with_capacity(concurrency * 2));
    let errors = Cell::new(0u64);
    let end = first_id + count;
    let (slots, sent, errors) = (&slots, &sent, &errors);
    let Io { stdin, stdout, line, timeout } = io;
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
                write_request(&mut buf, tool, id);
            }
            let now = Instant::now();
            {
                let mut sent = sent.borrow_mut();
                for id in next..next + batch {
                    sent.insert(id, now);
                }
            }
            next += batch;
            stdin.write_all(&buf).await.map_err(|e| format!("writing to server stdin: {e}"))?;
        }
        Ok::<(), String>(())
    };

    let reader = async move {
        let mut received = 0u64;
        let mut notifications = 0u64;
        while received < count {
            read_line(stdout, line, timeout).await.map_err(|e| {
                format!("{e} ({} of {count} replies received, {} in flight)", received, sent.borrow().len())
            })?;
            let now = Instant::now();
            let reply: Reply<'_> = serde_json::from_slice(line).map_err(|e| {
                format!("unparseable reply ({e}): {}", String::from_utf8_lossy(line))
            })?;
            let id = match (reply.id, &reply.method) {
                (None, Some(_)) => {
                    notifications += 1;
                    continue;
                }
                (Some(id), None) => id,
                _ => {
                    return Err(format!(
                        "unexpected message (a server request or a reply without id): {}",
                        String::from_utf8_lossy(line)
                    ));
                }
            };
            let sent_at = sent.borrow_mut().remove(&id).ok_or_else(|| {
                format!("reply for id {id}, which is not in flight: {}", String::from_utf8_lossy(line))
            })?;
            if let Some(hist) = hist.as_deref_mut() {
                let ns = now.duration_since(sent_at).as_nanos().max(1) as u64;
                hist.saturating_record(ns);
            }
            if let Err(why) = validate(tool, id, &reply) {
                errors.set(errors.get() + 1);
                if errors.get() <= MAX_REPORTED {
                    eprintln!("loadgen: MISMATCH id {id}: {why}: {}", String::from_utf8_lossy(line).trim_end());
                }
            }
            received += 1;
            slots.add_permits(1);
        }
        Ok::<u64, String>(notifications)
    };

    let ((), notifications) = tokio::try_join!(writer, reader)?;
    Ok(PhaseStats { elapsed: start.elapsed(), errors: errors.get(), notifications })
}

/// `VmHWM`, `VmRSS` (KiB) and `Threads` from `/proc/<pid>/status`.
fn proc_status(pid: u32) -> Result<(u64, u64, u64), String> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).map_err(|e| format!("/proc/{pid}/status: {e}"))?;
    let field = |name: &str| -> Result<u64, String> {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| format!("no {name} in /proc/{pid}/status"))
    };
    Ok((field("VmHWM:")?, field("VmRSS:")?, field("Threads:")?))
}

fn clock_ticks() -> u64 {
    // SAFETY: sysconf has no preconditions.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if ticks > 0 { ticks as u64 } else { 100 }
}

/// User + system CPU time of a process (all its threads), in milliseconds.
fn proc_cpu_ms(pid: u32) -> Result<u64, String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).map_err(|e| format!("/proc/{pid}/stat: {e}"))?;
    let after_comm = stat.rsplit_once(") ").map(|(_, rest)| rest).ok_or("bad /proc stat")?;
    let fields: Vec<&str> = after_comm.split_whitespace().collect();
    let ticks: u64 = fields.get(11).zip(fields.get(12)).and_then(|(u, s)| Some(u.parse::<u64>().ok()? + s.parse::<u64>().ok()?)).ok_or("bad /proc stat")?;
    Ok(ticks * 1000 / clock_ticks())
}

fn self_cpu_ms() -> u64 {
    proc_cpu_ms(std::process::id()).unwrap_or(0)
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

async fn run(args: &Args) -> Result<(serde_json::Value, u64), String> {
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
    };

    let server_info = handshake(&mut io, &args.protocol).await?;
    let (_, rss_idle_kib, _) = proc_status(pid)?;

    let warm = if args.warmup > 0 {
        phase(&mut io, args.tool, 1, args.warmup, args.concurrency, None).await?
    } else {
        PhaseStats::default()
    };

    let mut hist = Histogram::<u64>::new_with_bounds(1, 600_000_000_000, 3).map_err(|e| e.to_string())?;
    let (server_cpu0, self_cpu0) = (proc_cpu_ms(pid)?, self_cpu_ms());
    let measured = phase(&mut io, args.tool, 1 + args.warmup, args.requests, args.concurrency, Some(&mut hist)).await?;
    let (server_cpu1, self_cpu1) = (proc_cpu_ms(pid)?, self_cpu_ms());
    let (peak_rss_kib, rss_kib, threads) = proc_status(pid)?;
    let exit = shutdown(child, io).await;

    let secs = measured.elapsed.as_secs_f64();
    let us = |ns: u64| (ns as f64 / 100.0).round() / 10.0;
    let errors = warm.errors + measured.errors;
    let report = serde_json::json!({
        "server": args.name,
        "server_info": server_info,
        "tool": if args.tool == Tool::Add { "add" } else { "echo" },
        "requests": args.requests,
        "warmup": args.warmup,
        "concurrency": args.concurrency,
        "elapsed_s": (secs * 1000.0).round() / 1000.0,
        "rps": (args.requests as f64 / secs).round(),
        "p50_us": us(hist.value_at_quantile(0.50)),
        "p90_us": us(hist.value_at_quantile(0.90)),
        "p99_us": us(hist.value_at_quantile(0.99)),
        "max_us": us(hist.max()),
        "peak_rss_kib": peak_rss_kib,
        "rss_end_kib": rss_kib,
        "rss_idle_kib": rss_idle_kib,
        "server_threads": threads,
        "server_cpu_us_per_req": ((server_cpu1 - server_cpu0) as f64 * 1000.0 / args.requests as f64 * 10.0).round() / 10.0,
        "loadgen_cpu_us_per_req": ((self_cpu1 - self_cpu0) as f64 * 1000.0 / args.requests as f64 * 10.0).round() / 10.0,
        "notifications": warm.notifications + measured.notifications,
        "server_exit": exit,
        "errors": errors,
    });
    Ok((report, errors))
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(e) => {
            eprintln!("loadgen: {e}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("loadgen: tokio runtime: {e}");
            return ExitCode::from(2);
        }
    };
    let outcome = runtime.block_on(async {
        tokio::time::timeout(Duration::from_secs(args.max_seconds), run(&args))
            .await
            .unwrap_or_else(|_| Err(format!("whole run exceeded --max-seconds {}", args.max_seconds)))
    });
    match outcome {
        Ok((report, errors)) => {
            println!("{report}");
            if errors > 0 {
                eprintln!("loadgen: FAILED: {errors} wrong replies from {}", args.name);
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            eprintln!("loadgen: FATAL ({}): {e}", args.name);
            ExitCode::from(2)
        }
    }
}
