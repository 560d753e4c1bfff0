use mcp_toolkit_runtime::mcp_tool;

struct Point {
    x: f64,
}

#[mcp_tool]
fn norm(point: Point) -> f64 {
    point.x.abs()
}

fn main() {}
