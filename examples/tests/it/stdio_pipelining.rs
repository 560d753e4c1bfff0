//! 1,000 pipelined `tools/call` requests, some slow, all written before any
//! reply is read: every one gets exactly one reply, matched by id.

use crate::support;

use std::collections::HashMap;
use std::time::Duration;

use serde_json::{Value, json};
use support::{StdioServer, initialize};

#[test]
fn a_thousand_pipelined_calls_get_a_thousand_matched_replies() {
    let mut server = StdioServer::echo_server();
    let reply = server.request(initialize(0));
    assert_eq!(reply["result"]["protocolVersion"], "2025-11-25");
    server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));

    // What each id must come back with.
    let mut expected: HashMap<String, Value> = HashMap::new();
    let mut batch = Vec::new();
    for n in 1..=1000i64 {
        // Ids alternate between integers and strings.
        let id = if n % 2 == 0 {
            json!(n)
        } else {
            json!(format!("req-{n}"))
        };
        let (name, arguments, want) = match n % 10 {
            // Slow calls: they must not hold back the fast ones. A second
            // is long enough for the 900 fast ones to be answered first on
            // a machine busy with other tests (200 ms was not, in a cold
            // run of every test).
            0 => (
                "sleep",
                json!({"ms": 1000 + n % 7 * 10}),
                json!({"text": format!("slept {} ms", 1000 + n % 7 * 10)}),
            ),
            1 | 3 | 5 | 7 => ("add", json!({"a": n, "b": n * 3}), json!({"sum": n * 4})),
            _ => (
                "echo",
                json!({"text": format!("message {n}")}),
                json!({"text": format!("message {n}")}),
            ),
        };
        let request = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                             "params": {"name": name, "arguments": arguments}});
        batch.extend(serde_json::to_vec(&request).unwrap());
        batch.push(b'\n');
        expected.insert(id.to_string(), want);
    }
    server.send_raw(&batch);

    let mut first_slow_position = None;
    for position in 0..1000 {
        let reply = server.recv_within(Duration::from_secs(30));
        let key = reply["id"].to_string();
        let want = expected
            .remove(&key)
            .unwrap_or_else(|| panic!("unexpected or duplicate reply {reply}"));
        let result = &reply["result"];
        assert_ne!(result["isError"], true, "{reply}");
        if let Some(sum) = want.get("sum") {
            assert_eq!(result["structuredContent"]["sum"], *sum, "{reply}");
        } else {
            assert_eq!(result["content"][0]["text"], want["text"], "{reply}");
            if want["text"].as_str().unwrap().starts_with("slept") && first_slow_position.is_none()
            {
                first_slow_position = Some(position);
            }
        }
    }
    assert!(
        expected.is_empty(),
        "{} requests got no reply",
        expected.len()
    );
    // The 100 slow calls were interleaved every tenth request; fast replies
    // overtaking them shows requests run concurrently.
    assert!(
        first_slow_position.unwrap() >= 850,
        "slow calls held back fast ones"
    );
    assert!(server.close_and_wait(Duration::from_secs(10)));
}
