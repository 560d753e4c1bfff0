#!/usr/bin/env python3
"""Interop check: the official Python SDK client (mcp 2.3.0) is told that a server's tools changed.

Usage: py_live_client.py [--mode legacy|2026-07-28] [--timeout S] -- COMMAND [ARGS...]
       py_live_client.py [--mode legacy|2026-07-28] [--timeout S] --url URL

Drives `live-server` (examples/src/bin/live-server.rs), whose `add_tool(name)` adds a tool at run
time, over stdio (spawning COMMAND) or Streamable HTTP (URL):
- legacy mode: the `initialize` session; the server sends notifications/tools/list_changed on its
  own (over stdio on the connection, over HTTP on the session's standalone GET stream, which the
  SDK opens after the handshake without saying when it is open: a change made before that is not
  seen, so a change that went unannounced is retried with a new name, a few times);
- 2026-07-28 mode: `subscriptions/listen` with toolsListChanged, acknowledged before the change.
After the notification the client lists the tools (the new one must be there) and calls it.
Prints one JSON summary line and exits 0; prints "py_live_client: FAIL: ..." and exits 1.
"""
import argparse
import os
import sys

import anyio
import mcp_types as types
from mcp import Client, StdioServerParameters
from mcp.types import TextContent
from interop_report import CheckFailed, check, report

# How many changes a legacy client may miss while its HTTP GET stream opens.
ATTEMPTS = 5
# How long one attempt waits for the notification, seconds.
WAIT = 2.0


async def add_tool(client, name):
    added = await client.call_tool("add_tool", {"name": name})
    check(not added.is_error, f"add_tool {name} returned isError: {added.content}")


async def told_in_legacy(client, told: anyio.Event) -> str:
    """Adds tools until one is announced; returns its name."""
    for attempt in range(1, ATTEMPTS + 1):
        name = f"added_{os.getpid()}_{attempt}"
        await add_tool(client, name)
        with anyio.move_on_after(WAIT):
            await told.wait()
            return name
    raise CheckFailed(f"no notifications/tools/list_changed after {ATTEMPTS} tools were added")


async def told_by_listen(client) -> str:
    async with client.listen(tools_list_changed=True) as subscription:
        check(subscription.honored.tools_list_changed, f"listen not honoured: {subscription.honored}")
        name = f"added_{os.getpid()}"
        await add_tool(client, name)
        with anyio.fail_after(WAIT * ATTEMPTS):
            async for event in subscription:
                check(type(event).__name__ == "ToolsListChanged", f"unexpected event {event!r}")
                return name
    raise CheckFailed("the subscription ended before any event")


async def run(args) -> dict:
    told = anyio.Event()
    notifications: list[str] = []

    async def on_message(message):
        if isinstance(message, Exception):
            return
        notifications.append(message.method)
        if isinstance(message, types.ToolListChangedNotification):
            told.set()

    params = args.url or StdioServerParameters(command=args.command[0], args=args.command[1:], env=dict(os.environ))
    with anyio.fail_after(args.timeout):
        async with Client(params, mode=args.mode, read_timeout_seconds=args.timeout,
                          message_handler=on_message) as client:
            version = client.protocol_version
            if args.mode == "legacy":  # a pinned 2026-07-28 client skips discover: the ack says it
                capabilities = client.server_capabilities
                check(capabilities.tools and capabilities.tools.list_changed,
                      f"tools.listChanged not declared: {capabilities}")
            before = [t.name for t in (await client.list_tools()).tools]
            if args.mode == "legacy":
                name = await told_in_legacy(client, told)
            else:
                name = await told_by_listen(client)
            # As any client would: the notification made a cached list stale.
            names = [t.name for t in (await client.list_tools()).tools]
            check(name in names, f"tools/list lacks the new tool {name}: {names}")
            greeting = await client.call_tool(name, {})
            texts = [c.text for c in greeting.content if isinstance(c, TextContent)]
            check(texts == [f"hello from {name}"], f"{name} answered {texts!r}")
            return {"client": "python-mcp-2.3.0", "ok": True, "mode": args.mode, "protocolVersion": version,
                    "transport": "http" if args.url else "stdio", "added": name, "before": sorted(before), "tools": sorted(names),
                    "notifications": notifications}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--mode", default="legacy", help="legacy (default) or 2026-07-28")
    ap.add_argument("--timeout", type=float, default=60.0, help="overall and per-request timeout, seconds")
    ap.add_argument("--url", help="Streamable HTTP endpoint to connect to, instead of spawning a command")
    ap.add_argument("command", nargs="*", help="server command (after --)")
    args = ap.parse_args()
    if bool(args.url) == bool(args.command):
        ap.error("give either --url URL or -- COMMAND [ARGS...]")
    return report("py_live_client", run, args)


if __name__ == "__main__":
    sys.exit(main())
