//! Benchmark (not a test): generates a client for N tools (default 2,000)
//! made by cycling through the tools of the snapshot corpus
//! (`tests/corpus/*.json`, skipping `invalid.json`, and `listing.json`, whose
//! point is its prompts and templates), each renamed `NAME_i`.
//!
//! `cargo run --release -p mcp-toolkit-codegen --example bench_generate [-- N [REPS [OUT]]]`
//!
//! Prints the best and median wall time of REPS (default 5) runs and the time
//! per tool; see the "Code generation" section of bench/README.md for the numbers.
//! With OUT, also writes the generated client there (what
//! `bench/codegen-check/run.sh` compiles).

use std::time::{Duration, Instant};

use mcp_toolkit_codegen::Options;
use mcp_toolkit_runtime::protocol::Tool;

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().map_or(2_000, |a| a.parse().expect("N"));
    let reps: usize = args.next().map_or(5, |a| a.parse().expect("REPS")).max(1);
    let out = args.next();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            !["invalid.json", "listing.json"].contains(&p.file_name().unwrap().to_str().unwrap())
        })
        .collect();
    files.sort();
    let options = Options::default();
    let mut base: Vec<Tool> = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let tools = mcp_toolkit_codegen::parse_tools(&text).unwrap();
        // Keep only tools that generate on their own (the corpus has some
        // deliberately rejected ones).
        base.extend(
            tools.into_iter().filter(|t| {
                mcp_toolkit_codegen::generate(std::slice::from_ref(t), &options).is_ok()
            }),
        );
    }
    let tools: Vec<Tool> = (0..n)
        .map(|i| {
            let mut tool = base[i % base.len()].clone();
            tool.name = format!("{}_{i}", tool.name);
            tool
        })
        .collect();
    let mut times: Vec<Duration> = Vec::new();
    let mut code = String::new();
    for _ in 0..reps {
        let start = Instant::now();
        let generated = mcp_toolkit_codegen::generate(&tools, &options).expect("generate");
        times.push(start.elapsed());
        code = generated.code;
    }
    let bytes = code.len();
    if let Some(out) = out {
        std::fs::write(&out, code).expect("write OUT");
    }
    times.sort();
    let best = times[0];
    let median = times[times.len() / 2];
    println!(
        "{n} tools ({} distinct schemas), {reps} runs: best {:.1} ms, median {:.1} ms, {:.1} µs/tool (median), {} KiB of code",
        base.len(),
        best.as_secs_f64() * 1e3,
        median.as_secs_f64() * 1e3,
        median.as_secs_f64() * 1e6 / n as f64,
        bytes / 1024
    );
}
