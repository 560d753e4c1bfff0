//! Method tools sharing the server value, sync and async, with and without
//! `&self`.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use mcp_toolkit_runtime::server::{RequestContext, Server};
use mcp_toolkit_runtime::{mcp_server, mcp_tool};

struct Counter {
    value: AtomicI64,
}

#[mcp_server]
impl Counter {
    /// Add `by` to the counter.
    #[mcp_tool]
    fn bump(&self, by: i64) -> i64 {
        self.value.fetch_add(by, Ordering::SeqCst) + by
    }

    /// The current value.
    #[mcp_tool(read_only)]
    async fn get(&self, _ctx: RequestContext) -> i64 {
        self.value.load(Ordering::SeqCst)
    }

    /// No state needed.
    #[mcp_tool]
    fn version() -> &'static str {
        "1"
    }

    /// Not a tool: stays an ordinary method.
    fn reset(&self) {
        self.value.store(0, Ordering::SeqCst);
    }
}

fn main() {
    let counter = Arc::new(Counter { value: AtomicI64::new(0) });
    counter.reset();
    assert_eq!(counter.bump(2), 2);
    let server = Server::builder(mcp_toolkit_runtime::server_info!())
        .register(counter.mcp_definitions())
        .build();
    assert!(server.is_ok());
}
