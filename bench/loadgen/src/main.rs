//! `tools/call` load driver for MCP servers, over stdio or Streamable HTTP.
//!
//! ```text
//! loadgen --server "CMD ARGS" --requests N --concurrency C --tool add|echo
//!         [--url http://IP:PORT/PATH] [--connections K]
//!         [--warmup W] [--name LABEL] [--protocol 2025-11-25]
//!         [--timeout-ms 10000] [--max-seconds 600]
//! ```
//!
//! Spawns the server (the command line is split on whitespace, no shell),
//! performs the handshake, runs `W` warm-up calls and then `N` measured
//! calls, keeping `C` requests in flight, checks every reply, and prints one
//! JSON line on stdout with throughput, latency percentiles and the server's
//! peak RSS (`VmHWM`) and CPU time, read from `/proc/<pid>` after the last
//! reply and before the server is stopped.
//!
//! Without `--url` the server is spoken to over its stdin/stdout (see
//! [`stdio`]); with it, over Streamable HTTP (see [`http`]). `{port}` in
//! `--server` and `--url` is replaced by a free port on 127.0.0.1.
//!
//! Exit status: 0 when every reply was correct, 1 when some reply was wrong
//! (the JSON line is still printed, with `errors` > 0, and the first few
//! mismatches go to stderr), 2 on a fatal error (timeout, server exit,
//! malformed reply, bad arguments).

mod calls;
mod http;
mod procfs;
mod stdio;

use std::process::ExitCode;
use std::time::Duration;

use hdrhistogram::Histogram;

use calls::Tool;

/// Upper bounds on the arguments, so that a typo cannot run for hours.
const MAX_REQUESTS: u64 = 50_000_000;
const MAX_CONCURRENCY: usize = 4096;
/// Mismatches printed in full to stderr.
const MAX_REPORTED: u64 = 5;
/// Replaced by a free port in `--server` and `--url`.
const PORT_PLACEHOLDER: &str = "{port}";

struct Args {
    server: String,
    name: String,
    requests: u64,
    concurrency: usize,
    /// `Some` in HTTP mode.
    url: Option<String>,
    connections: usize,
    tool: Tool,
    warmup: u64,
    protocol: String,
    timeout: Duration,
    max_seconds: u64,
}

fn usage() -> String {
    "usage: loadgen --server \"CMD ARGS\" --requests N --concurrency C --tool add|echo \
     [--url http://IP:PORT/PATH] [--connections K] [--warmup W] [--name LABEL] \
     [--protocol VERSION] [--timeout-ms MS] [--max-seconds S]"
        .to_owned()
}

fn parse_args() -> Result<Args, String> {
    let mut it = std::env::args().skip(1);
    let (mut server, mut name, mut requests, mut concurrency, mut tool) =
        (None, None, None, None, None);
    let (mut url, mut connections) = (None, None);
    let mut warmup = 1000u64;
    let mut protocol = "2025-11-25".to_owned();
    let mut timeout_ms = 10_000u64;
    let mut max_seconds = 600u64;
    while let Some(flag) = it.next() {
        if flag == "-h" || flag == "--help" {
            return Err(usage());
        }
        let value = it
            .next()
            .ok_or_else(|| format!("{flag} needs a value\n{}", usage()))?;
        let num = |v: &str| v.parse::<u64>().map_err(|e| format!("{flag} {v}: {e}"));
        match flag.as_str() {
            "--server" => server = Some(value),
            "--name" => name = Some(value),
            "--requests" => requests = Some(num(&value)?),
            "--concurrency" => concurrency = Some(num(&value)? as usize),
            "--url" => url = Some(value),
            "--connections" => connections = Some(num(&value)? as usize),
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
    let mut server = server.ok_or_else(usage)?;
    if server.split_whitespace().next().is_none() {
        return Err("--server is empty".to_owned());
    }
    let requests = requests.ok_or_else(usage)?;
    let concurrency = concurrency.ok_or_else(usage)?;
    if !(1..=MAX_REQUESTS).contains(&requests) || warmup > MAX_REQUESTS {
        return Err(format!(
            "--requests must be 1..={MAX_REQUESTS}, --warmup at most that"
        ));
    }
    if !(1..=MAX_CONCURRENCY).contains(&concurrency) {
        return Err(format!("--concurrency must be 1..={MAX_CONCURRENCY}"));
    }
    let connections = connections.unwrap_or(concurrency);
    if url.is_none() && connections != concurrency {
        return Err("--connections needs --url".to_owned());
    }
    if !(1..=concurrency).contains(&connections) {
        return Err(
            "--connections must be 1..=concurrency (one request per connection at a time)"
                .to_owned(),
        );
    }
    if url.is_none() && calls::is_modern(&protocol) {
        return Err(format!(
            "stdio mode speaks only the versions with `initialize` (before {})",
            calls::MODERN_PROTOCOL
        ));
    }
    if !(1..=600_000).contains(&timeout_ms) || !(1..=3600).contains(&max_seconds) {
        return Err("--timeout-ms must be 1..=600000 and --max-seconds 1..=3600".to_owned());
    }
    let name = name.unwrap_or_else(|| {
        let program = server.split_whitespace().next().unwrap_or_default();
        program.rsplit('/').next().unwrap_or(program).to_owned()
    });
    if server.contains(PORT_PLACEHOLDER)
        || url.as_deref().is_some_and(|u| u.contains(PORT_PLACEHOLDER))
    {
        let port = free_port()?.to_string();
        server = server.replace(PORT_PLACEHOLDER, &port);
        url = url.map(|u| u.replace(PORT_PLACEHOLDER, &port));
    }
    Ok(Args {
        server,
        name,
        requests,
        concurrency,
        url,
        connections,
        tool: tool.ok_or_else(usage)?,
        warmup,
        protocol,
        timeout: Duration::from_millis(timeout_ms),
        max_seconds,
    })
}

/// A port on 127.0.0.1 that was free a moment ago (the server binds it
/// right after, so another process could only take it in between).
fn free_port() -> Result<u16, String> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0")
        .map_err(|e| format!("finding a free port: {e}"))?;
    Ok(listener.local_addr().map_err(|e| e.to_string())?.port())
}

/// What one phase (warm-up or measured) saw.
#[derive(Default)]
struct PhaseStats {
    elapsed: Duration,
    errors: u64,
    notifications: u64,
}

/// Counts a wrong reply, printing the first few.
fn report_mismatch(errors: &mut u64, id: u64, why: &str, message: &[u8]) {
    *errors += 1;
    if *errors <= MAX_REPORTED {
        eprintln!(
            "loadgen: MISMATCH id {id}: {why}: {}",
            String::from_utf8_lossy(message).trim_end()
        );
    }
}

/// A connected server, in either transport.
trait Driver {
    /// Sends `count` calls with ids `first_id..`, at most `concurrency` in
    /// flight, and waits for every reply; latencies go to `hist`.
    async fn phase(
        &mut self,
        first_id: u64,
        count: u64,
        hist: Option<&mut Histogram<u64>>,
    ) -> Result<PhaseStats, String>;
}

/// What the handshake told.
struct Handshake {
    /// `serverInfo` from `initialize` (null without one).
    server_info: serde_json::Value,
    /// Over HTTP with `initialize`: whether the server opened a session.
    session: Option<bool>,
}

/// The warm-up and measured phases on a server that finished its handshake.
async fn measure(
    driver: &mut impl Driver,
    pid: u32,
    args: &Args,
    handshake: Handshake,
) -> Result<Measurement, String> {
    let (_, rss_idle_kib, _) = procfs::status(pid)?;
    let warm = if args.warmup > 0 {
        driver.phase(1, args.warmup, None).await?
    } else {
        PhaseStats::default()
    };
    let mut hist =
        Histogram::<u64>::new_with_bounds(1, 600_000_000_000, 3).map_err(|e| e.to_string())?;
    let (server_cpu0, self_cpu0) = (procfs::cpu_ms(pid)?, procfs::self_cpu_ms());
    let measured = driver
        .phase(1 + args.warmup, args.requests, Some(&mut hist))
        .await?;
    let (server_cpu1, self_cpu1) = (procfs::cpu_ms(pid)?, procfs::self_cpu_ms());
    let (peak_rss_kib, rss_end_kib, threads) = procfs::status(pid)?;
    Ok(Measurement {
        handshake,
        rss_idle_kib,
        warm,
        measured,
        hist,
        server_cpu_ms: server_cpu1 - server_cpu0,
        self_cpu_ms: self_cpu1 - self_cpu0,
        peak_rss_kib,
        rss_end_kib,
        threads,
    })
}

struct Measurement {
    handshake: Handshake,
    rss_idle_kib: u64,
    warm: PhaseStats,
    measured: PhaseStats,
    hist: Histogram<u64>,
    server_cpu_ms: u64,
    self_cpu_ms: u64,
    peak_rss_kib: u64,
    rss_end_kib: u64,
    threads: u64,
}

/// The JSON report and the number of wrong replies.
fn report(args: &Args, m: &Measurement, server_exit: &str) -> (serde_json::Value, u64) {
    let secs = m.measured.elapsed.as_secs_f64();
    let us = |ns: u64| (ns as f64 / 100.0).round() / 10.0;
    let per_req = |ms: u64| (ms as f64 * 1000.0 / args.requests as f64 * 10.0).round() / 10.0;
    let errors = m.warm.errors + m.measured.errors;
    let report = serde_json::json!({
        "server": args.name,
        "server_info": m.handshake.server_info,
        "session": m.handshake.session,
        "transport": if args.url.is_some() { "http" } else { "stdio" },
        "protocol": args.protocol,
        "tool": args.tool.name(),
        "requests": args.requests,
        "warmup": args.warmup,
        "concurrency": args.concurrency,
        "connections": args.url.as_ref().map(|_| args.connections),
        "elapsed_s": (secs * 1000.0).round() / 1000.0,
        "rps": (args.requests as f64 / secs).round(),
        "p50_us": us(m.hist.value_at_quantile(0.50)),
        "p90_us": us(m.hist.value_at_quantile(0.90)),
        "p99_us": us(m.hist.value_at_quantile(0.99)),
        "max_us": us(m.hist.max()),
        "peak_rss_kib": m.peak_rss_kib,
        "rss_end_kib": m.rss_end_kib,
        "rss_idle_kib": m.rss_idle_kib,
        "server_threads": m.threads,
        "server_cpu_us_per_req": per_req(m.server_cpu_ms),
        "loadgen_cpu_us_per_req": per_req(m.self_cpu_ms),
        "notifications": m.warm.notifications + m.measured.notifications,
        "server_exit": server_exit,
        "errors": errors,
    });
    (report, errors)
}

async fn run(args: &Args) -> Result<(serde_json::Value, u64), String> {
    let (measurement, exit) = match &args.url {
        Some(url) => http::run(args, url).await?,
        None => stdio::run(args).await?,
    };
    Ok(report(args, &measurement, &exit))
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(e) => {
            eprintln!("loadgen: {e}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("loadgen: tokio runtime: {e}");
            return ExitCode::from(2);
        }
    };
    // The HTTP mode runs one task per request slot on this thread.
    let local = tokio::task::LocalSet::new();
    let outcome = local.block_on(&runtime, async {
        tokio::time::timeout(Duration::from_secs(args.max_seconds), run(&args))
            .await
            .unwrap_or_else(|_| {
                Err(format!(
                    "whole run exceeded --max-seconds {}",
                    args.max_seconds
                ))
            })
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
