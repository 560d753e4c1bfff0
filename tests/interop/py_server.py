#!/usr/bin/env python3
"""Interop fixture: a small MCP server written with the official Python SDK (mcp 2.3.0, MCPServer).

Usage: py_server.py              serve stdio (exits on stdin EOF or SIGTERM)
       py_server.py --http PORT  serve Streamable HTTP on http://127.0.0.1:PORT/mcp (exits on SIGTERM/SIGINT);
                                 PORT 0 picks a free port. When ready, prints
                                 "listening on http://127.0.0.1:PORT/mcp" (the real port) to stderr.
       add --json to answer POSTs with application/json instead of SSE (json_response=True; progress
       notifications are then dropped).

Tools:
  echo(text: str)           -> text content `text` only (structured_output=False: by default the SDK
                               would also publish an outputSchema and send structuredContent {"result": text})
  add(a: int, b: int)       -> structuredContent {"sum": a+b} with an outputSchema (TypedDict return),
                               plus the SDK's JSON text rendering of it as content
  slow_progress(steps: int) -> reports progress 1..steps (total=steps) via ctx, then text "done"

Both eras are served on both transports (the SDK decides per connection / per request):
legacy `initialize` (2024-11-05 .. 2025-11-25) and modern 2026-07-28 (`server/discover` and
requests carrying the `io.modelcontextprotocol/protocolVersion` _meta envelope). See README.md.
Logs go to stderr only. Run with the venv from setup.sh: target/interop/venv/bin/python tests/interop/py_server.py
"""
import argparse
import sys

import anyio
from typing_extensions import TypedDict

from mcp.server.mcpserver import Context, MCPServer

mcp = MCPServer("mcp-interop-py-server", version="0.1.0", log_level="WARNING")


class Sum(TypedDict):
    sum: int


@mcp.tool(description="Echo the text back as text content.", structured_output=False)
def echo(text: str) -> str:
    return text


@mcp.tool(description="Add two integers; structured output {sum}.")
def add(a: int, b: int) -> Sum:
    return {"sum": a + b}


@mcp.tool(description="Report progress steps times (1..steps of steps), then return 'done'.", structured_output=False)
async def slow_progress(steps: int, ctx: Context) -> str:
    for i in range(1, steps + 1):
        await ctx.report_progress(i, steps, f"step {i}/{steps}")
        await anyio.sleep(0.05)
    return "done"


async def serve_http(port: int, json_response: bool) -> None:
    import uvicorn

    # host="127.0.0.1" also turns on the SDK's DNS-rebinding guard: Host must be 127.0.0.1:*, localhost:* or [::1]:*.
    app = mcp.streamable_http_app(streamable_http_path="/mcp", host="127.0.0.1", json_response=json_response)
    # access_log=False: uvicorn's access logger writes to stdout; everything else it logs goes to stderr.
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", access_log=False)
    server = uvicorn.Server(config)

    async def announce() -> None:
        while not server.started:
            if server.should_exit:
                return
            await anyio.sleep(0.02)
        real_port = server.servers[0].sockets[0].getsockname()[1]
        print(f"listening on http://127.0.0.1:{real_port}/mcp", file=sys.stderr, flush=True)

    async with anyio.create_task_group() as tg:
        tg.start_soon(announce)
        await server.serve()  # uvicorn installs SIGTERM/SIGINT handlers and shuts down gracefully
        tg.cancel_scope.cancel()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--http", metavar="PORT", type=int, help="serve Streamable HTTP on 127.0.0.1:PORT/mcp")
    parser.add_argument("--json", action="store_true", help="with --http: JSON responses instead of SSE")
    args = parser.parse_args()
    if args.json and args.http is None:
        parser.error("--json needs --http")
    if args.http is None:
        mcp.run("stdio")  # SIGTERM keeps Python's default action (terminate)
    else:
        anyio.run(serve_http, args.http, args.json)


if __name__ == "__main__":
    main()
