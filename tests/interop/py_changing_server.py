#!/usr/bin/env python3
"""Host fixture: an MCP server (official Python SDK mcp 2.3.0, MCPServer, both eras) whose tool list changes.

Usage: py_changing_server.py [--ttl-ms N] [--quiet]   serve stdio (exits on stdin EOF)

Tools:
- add_tool(name): registers a tool `name` that answers "I am NAME", then announces the change
  (notifications/tools/list_changed: on subscriptions/listen streams in the 2026-07-28 era, on the
  connection in the legacy era); with --quiet it announces nothing.
- remove_tool(name): removes the tool `name`, then announces the change as add_tool does.
--ttl-ms N sets ttlMs (cacheScope "private") on tools/list results (2026-07-28).
Run with the venv from setup.sh: target/interop/venv/bin/python tests/interop/py_changing_server.py
"""
import argparse

from mcp.server.caching import CacheHint
from mcp.server.mcpserver import Context, MCPServer

parser = argparse.ArgumentParser()
parser.add_argument("--ttl-ms", type=int)
parser.add_argument("--quiet", action="store_true")
options = parser.parse_args()

hints = {"tools/list": CacheHint(ttl_ms=options.ttl_ms, scope="private")} if options.ttl_ms is not None else None
mcp = MCPServer("mcp-host-changing-py-server", version="0.1.0", log_level="WARNING", cache_hints=hints)


@mcp.tool()
async def add_tool(name: str, ctx: Context) -> str:
    """Registers a tool called `name`."""

    def added() -> str:
        return f"I am {name}"

    mcp.add_tool(added, name=name, description=f"Added at run time as {name}.")
    await announce(ctx)
    return f"added {name}"


@mcp.tool()
async def remove_tool(name: str, ctx: Context) -> str:
    """Removes the tool called `name`."""
    mcp.remove_tool(name)
    await announce(ctx)
    return f"removed {name}"


async def announce(ctx: Context) -> None:
    """Says the tool list changed, in the era of the connection (unless --quiet)."""
    if options.quiet:
        return
    await ctx.notify_tools_changed()
    try:
        await ctx.session.send_tool_list_changed()
    except Exception:  # the 2026-07-28 era has no connection-wide notifications
        pass


if __name__ == "__main__":
    mcp.run("stdio")
