#!/usr/bin/env python3
"""Interop check: drive an MCP server with the official Python SDK client (mcp 2.3.0).

Usage: py_client.py [--mode auto|legacy|2026-07-28] [--expect-version V] [--timeout S] -- COMMAND [ARGS...]
       py_client.py [--mode ...] [--expect-version V] [--timeout S] [--bearer TOKEN] --url URL

Spawns COMMAND and talks to it over stdio, or connects to the Streamable HTTP endpoint URL; then lists tools (needs `echo` and `add`), calls echo {"text": "hello"}
(expects text "hello") and add {"a": 2, "b": 40} (expects structuredContent {"sum": 42}).
Prints one JSON summary line and exits 0 on success; prints "py_client: FAIL: ..." and exits 1.

--mode auto (SDK default) sends `server/discover` at 2026-07-28 and silently falls back to
`initialize` on any error, so we also assert the negotiated version (--expect-version, default
2026-07-28; 2025-11-25 for --mode legacy) to catch a server whose discover is broken.
--mode 2026-07-28 skips the probe entirely (no discover on the wire). See README.md here.
--bearer TOKEN sends `Authorization: Bearer TOKEN` on every HTTP request (the SDK's way for a
static token: an httpx client with default headers), for a server protected with OAuth.
Run with the venv from setup.sh: target/interop/venv/bin/python tests/interop/py_client.py -- ...
"""
import argparse
import os
import sys

import anyio
import httpx2
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.types import TextContent
from interop_report import check, report


async def run(args) -> dict:
    # env: the SDK passes only HOME/LOGNAME/PATH/SHELL/TERM/USER by default; give the server ours.
    if args.url and args.bearer:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {args.bearer}"})
        params = streamable_http_client(args.url, http_client=http)
    elif args.url:
        params = args.url
    else:
        params = StdioServerParameters(command=args.command[0], args=args.command[1:], env=dict(os.environ))
    with anyio.fail_after(args.timeout):
        async with Client(params, mode=args.mode, read_timeout_seconds=args.timeout) as client:
            version = client.protocol_version
            check(version == args.expect_version, f"negotiated protocol {version!r}, expected {args.expect_version!r}")

            names = [t.name for t in (await client.list_tools()).tools]
            check({"echo", "add"} <= set(names), f"tools/list lacks echo/add: {names}")

            echo = await client.call_tool("echo", {"text": "hello"})
            check(not echo.is_error, f"echo returned isError: {echo.content}")
            texts = [c.text for c in echo.content if isinstance(c, TextContent)]
            check(texts == ["hello"], f"echo text content {texts!r}, expected ['hello']")

            add = await client.call_tool("add", {"a": 2, "b": 40})
            check(not add.is_error, f"add returned isError: {add.content}")
            check(add.structured_content == {"sum": 42}, f"add structuredContent {add.structured_content!r}")

            info = client.server_info
            return {"client": "python-mcp-2.3.0", "ok": True, "mode": args.mode, "protocolVersion": version,
                    "transport": "http" if args.url else "stdio",
                    "server": info.model_dump(exclude_none=True) if info else None, "tools": names,
                    "echo": texts[0], "sum": add.structured_content["sum"]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--mode", default="auto", help="Client mode: auto (default), legacy, or 2026-07-28")
    ap.add_argument("--expect-version", help="negotiated version to require")
    ap.add_argument("--timeout", type=float, default=30.0, help="overall and per-request timeout, seconds")
    ap.add_argument("--url", help="Streamable HTTP endpoint to connect to, instead of spawning a command")
    ap.add_argument("--bearer", help="access token sent as Authorization: Bearer (HTTP only)")
    ap.add_argument("command", nargs="*", help="server command (after --)")
    args = ap.parse_args()
    if bool(args.url) == bool(args.command):
        ap.error("give either --url URL or -- COMMAND [ARGS...]")
    if args.expect_version is None:
        args.expect_version = "2025-11-25" if args.mode == "legacy" else "2026-07-28"
    return report("py_client", run, args)


if __name__ == "__main__":
    sys.exit(main())
