#!/usr/bin/env python3
"""Interop check: the official Python SDK client (mcp 2.3.0) drives `mcp-host serve --http`, a gateway.

Usage: py_gateway_client.py --url URL [--mode auto|legacy|2026-07-28] [--timeout S]

Connects twice to the gateway's Streamable HTTP endpoint URL:
- a client with an elicitation callback (it answers the gateway's consent questions: allow, except
  for a call whose arguments hold "refuse me") lists the tools and makes the calls in CALLS;
- a client without one calls py.add (no one to ask: the gateway refuses).
Each call's outcome is recorded: its result (isError, text content, structuredContent, progress
seen) or the JSON-RPC error it raised (code, message). Prints one JSON summary line and exits 0;
the Rust test (examples/tests/it/gateway.rs) judges it. Exits 1 with "py_gateway_client: FAIL: ..."
when the client could not run at all.
"""
import argparse
import sys

import anyio
from mcp import Client, MCPError
from mcp.types import ElicitResult, TextContent
from interop_report import report

# (tool, arguments, with a progress callback)
CALLS = [
    ("echo.add", {"a": 2, "b": 40}, False),
    ("py.add", {"a": 1, "b": 2}, False),
    ("ts.add", {"a": 20, "b": 22}, False),
    ("ts.echo", {"text": "through the gateway"}, False),
    ("py.slow_progress", {"steps": 3}, True),
    ("echo.echo", {"text": "refuse me"}, False),
    ("py.echo", {"text": "denied"}, False),
    ("echo.nope", {}, False),
]


async def outcome(client, name, arguments, with_progress):
    progress = []

    async def on_progress(value, _total, _message):
        progress.append(value)

    try:
        result = await client.call_tool(name, arguments, progress_callback=on_progress if with_progress else None)
    except MCPError as error:
        return {"error": {"code": error.code, "message": error.message}}
    return {"isError": bool(result.is_error), "text": [c.text for c in result.content if isinstance(c, TextContent)],
            "structuredContent": result.structured_content, "progress": progress}


async def run(args) -> dict:
    questions: list[str] = []

    async def on_elicit(_context, params):
        questions.append(params.message)
        if "refuse me" in params.message:
            return ElicitResult(action="decline")
        return ElicitResult(action="accept", content={"allow": True})

    summary = {"client": "python-mcp-2.3.0", "mode": args.mode, "calls": {}}
    with anyio.fail_after(args.timeout):
        async with Client(args.url, mode=args.mode, read_timeout_seconds=args.timeout,
                          elicitation_callback=on_elicit) as client:
            summary["protocolVersion"] = client.protocol_version
            tools = (await client.list_tools()).tools
            summary["tools"] = {t.name: t.model_dump(by_alias=True, exclude_none=True, mode="json") for t in tools}
            for name, arguments, with_progress in CALLS:
                summary["calls"][name] = await outcome(client, name, arguments, with_progress)
        summary["questions"] = questions

        async with Client(args.url, mode=args.mode, read_timeout_seconds=args.timeout) as client:
            await client.list_tools()
            summary["unasked"] = await outcome(client, "py.add", {"a": 1, "b": 2}, False)
    return summary


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--url", required=True, help="the gateway's Streamable HTTP endpoint")
    ap.add_argument("--mode", default="2026-07-28", help="auto, legacy, or 2026-07-28 (default)")
    ap.add_argument("--timeout", type=float, default=60.0, help="overall and per-request timeout, seconds")
    args = ap.parse_args()
    return report("py_gateway_client", run, args)


if __name__ == "__main__":
    sys.exit(main())
