//! Four independent mistakes give exactly four errors, each at its own
//! token with its fix; the items are still emitted, so neither the calls
//! nor the registration below add errors.

use mcp_toolkit_runtime::{definitions, mcp_resource, mcp_tool};

struct Point {
    x: f64,
}

#[mcp_tool]
fn norm(point: Point) -> f64 {
    point.x.abs()
}

#[mcp_resource("notes://{folder}/{title}")]
fn note(title: String) -> String {
    title
}

#[mcp_tool(name = "look up")]
fn look_up(query: String) -> String {
    query
}

#[mcp_tool(readonly)]
fn look() -> String {
    String::new()
}

fn main() {
    let _ = note(String::new());
    let _ = look_up(String::new());
    let _ = look();
    let _ = definitions![norm, note, look_up, look];
}
