//! Scale-out: three `interop-server` instances sharing one request state
//! key behind nginx (Debian's package, installed here if missing) with
//! round robin and no stickiness. The runtime's client, in 2026-07-28,
//! completes a multi-round-trip call whose rounds land on different
//! instances, then makes 1,000 ordinary calls that spread over all three.

use crate::support;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use mcp_toolkit_runtime::client::{Client, EraChoice};
use mcp_toolkit_runtime::server::Era;
use serde_json::json;
use support::interop::HttpFixture;
use support::nginx::{LoadBalancer, ensure_installed};
use support::survey::{EXPECTED, SurveyAnswers};

const INSTANCES: [&str; 3] = ["alpha", "beta", "gamma"];
const CALLS: usize = 1_000;
const CONCURRENCY: usize = 20;

/// The instance name in a `[NAME] ...` message.
fn served_by(message: &str) -> &str {
    message
        .strip_prefix('[')
        .and_then(|rest| rest.split_once(']'))
        .map_or("?", |(name, _)| name)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn three_instances_behind_nginx_share_request_state() {
    let nginx = ensure_installed();
    let keys = tempfile::tempdir().unwrap();
    let key_file = keys.path().join("state.key");
    std::fs::write(&key_file, format!("{}\n", "5eed".repeat(16))).unwrap();
    let key_flag = Path::new("--state-key-file");
    let instances: Vec<HttpFixture> = INSTANCES
        .iter()
        .map(|name| {
            HttpFixture::start_with_env(
                Path::new(env!("CARGO_BIN_EXE_interop-server")),
                &[key_flag, &key_file],
                &[("MCP_INSTANCE_NAME", name)],
            )
        })
        .collect();
    let upstreams: Vec<SocketAddr> = instances
        .iter()
        .map(|i| {
            let authority = i.url.trim_start_matches("http://").trim_end_matches("/mcp");
            authority.parse().unwrap()
        })
        .collect();
    let balancer = LoadBalancer::start(&nginx, &upstreams);

    let run = async {
        let answers = SurveyAnswers::default();
        let client = Client::connect_http_with(&balancer.url, answers.options(EraChoice::Modern))
            .await
            .unwrap();
        assert_eq!(client.server().era, Era::Modern);

        // Three requests: the name question, the colour question, the answer.
        let content = client
            .call_tool_content("survey", &json!({}))
            .await
            .unwrap();
        let result = content[0].as_text().unwrap().to_owned();
        assert!(result.ends_with(EXPECTED), "{result}");
        let asked = answers.asked();
        assert_eq!(asked.len(), 2, "{asked:?}");
        let rounds = [
            served_by(&asked[0]),
            served_by(&asked[1]),
            served_by(&result),
        ];
        assert!(
            rounds[0] != rounds[1] && rounds[1] != rounds[2],
            "each round should land on another instance: {rounds:?}; upstreams {:?}",
            balancer.upstreams_used()
        );
        println!("survey rounds served by {rounds:?}");

        let mut tasks = tokio::task::JoinSet::new();
        for _ in 0..CONCURRENCY {
            let client = client.clone();
            tasks.spawn(async move {
                let mut served = Vec::new();
                for _ in 0..CALLS / CONCURRENCY {
                    let content = client
                        .call_tool_content("whoami", &json!({}))
                        .await
                        .unwrap();
                    served.push(content[0].as_text().unwrap().to_owned());
                }
                served
            });
        }
        let mut counts = BTreeMap::<String, usize>::new();
        while let Some(served) = tasks.join_next().await {
            for name in served.unwrap() {
                *counts.entry(name).or_default() += 1;
            }
        }
        assert_eq!(counts.values().sum::<usize>(), CALLS);
        for name in INSTANCES {
            let served = counts.get(name).copied().unwrap_or(0);
            assert!(
                served >= CALLS / 10,
                "{name} served {served} of {CALLS}: {counts:?}"
            );
        }
        println!("{CALLS} calls served: {counts:?}");
    };
    tokio::time::timeout(Duration::from_secs(120), run)
        .await
        .expect("the scale-out run took longer than 120 s");
    drop(balancer);
    drop(instances);
}
