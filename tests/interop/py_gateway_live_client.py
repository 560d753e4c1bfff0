#!/usr/bin/env python3
"""Interop check: the official Python SDK client (mcp 2.3.0) watches `mcp-host serve --http` follow a server whose tools change.

Usage: py_gateway_live_client.py --url URL --server NAME [--mode legacy|2026-07-28] [--timeout S]

The gateway fronts a server NAME running tests/interop/py_changing_server.py or ts_changing_server.mjs
(tools add_tool and remove_tool), under a policy that denies NAME.hidden. The client listens for
notifications/tools/list_changed (2026-07-28: a `subscriptions/listen` stream; legacy: the
notifications the gateway sends on its own, over the session's GET stream), then:
1. calls NAME.add_tool for "hidden", then for "newtool", and waits until it is told of a change after
   which the list has NAME.newtool; calls NAME.newtool and NAME.hidden;
2. calls NAME.remove_tool for "newtool", waits until it is told of a change after which the list
   lacks it, and calls NAME.newtool again.
Lists are read only after an announcement, never polled. Prints one JSON summary line (what it was
told, listed and got back; `listChanged`: what the
initialize result declares in legacy, what the listen stream honours in 2026-07-28) and exits 0; the Rust test (examples/tests/it/gateway_live.rs) judges it.
Exits 1 with "py_gateway_live_client: FAIL: ..." when the client could not run at all (including no
announcement within the timeout).
"""
import argparse
import sys

import anyio
from mcp import Client, MCPError
from mcp.types import TextContent
from interop_report import report

TOOLS_LIST_CHANGED = "notifications/tools/list_changed"


class Told:
    """Counts the announcements of a tool list change and wakes whoever waits for the next one."""

    def __init__(self) -> None:
        self.count = 0
        self._changed = anyio.Event()

    def tell(self) -> None:
        self.count += 1
        self._changed.set()

    async def next(self) -> None:
        await self._changed.wait()
        self._changed = anyio.Event()


async def outcome(client, name, arguments):
    try:
        result = await client.call_tool(name, arguments)
    except MCPError as error:
        return {"error": {"code": error.code, "message": error.message}}
    return {"isError": bool(result.is_error), "text": [c.text for c in result.content if isinstance(c, TextContent)]}


async def names(client) -> list[str]:
    return sorted(tool.name for tool in (await client.list_tools()).tools)


async def until(client, told: Told, done) -> tuple[int, list[str]]:
    """Waits for announcements until the list read after one satisfies `done`; returns how many
    announcements it took and the list."""
    waited = 0
    while True:
        await told.next()
        waited += 1
        listed = await names(client)
        if done(listed):
            return waited, listed


async def scenario(client, told: Told, server: str) -> dict:
    new, hidden = f"{server}.newtool", f"{server}.hidden"
    summary = {"before": await names(client)}
    summary["addHidden"] = await outcome(client, f"{server}.add_tool", {"name": "hidden"})
    summary["add"] = await outcome(client, f"{server}.add_tool", {"name": "newtool"})
    summary["announcementsUntilAdded"], summary["afterAdd"] = await until(client, told, lambda n: new in n)
    summary["callNew"] = await outcome(client, new, {})
    summary["callHidden"] = await outcome(client, hidden, {})
    summary["remove"] = await outcome(client, f"{server}.remove_tool", {"name": "newtool"})
    summary["announcementsUntilRemoved"], summary["afterRemove"] = await until(client, told, lambda n: new not in n)
    summary["callRemoved"] = await outcome(client, new, {})
    summary["told"] = told.count
    return summary


async def run(args) -> dict:
    told = Told()

    async def on_message(message) -> None:
        # Legacy: the gateway's notifications arrive here unasked.
        if getattr(message, "method", None) == TOOLS_LIST_CHANGED:
            told.tell()

    with anyio.fail_after(args.timeout):
        async with Client(args.url, mode=args.mode, read_timeout_seconds=args.timeout,
                          message_handler=on_message if args.mode == "legacy" else None) as client:
            summary = {"protocolVersion": client.protocol_version, "mode": args.mode}
            if args.mode == "legacy":
                # Declared at initialize (in 2026-07-28 mode the SDK skips discovery).
                tools = client.server_capabilities.tools
                summary["listChanged"] = tools.list_changed if tools is not None else None
                summary.update(await scenario(client, told, args.server))
                return summary
            async with client.listen(tools_list_changed=True) as subscription:
                summary["listChanged"] = subscription.honored.tools_list_changed
                async with anyio.create_task_group() as group:

                    async def read_events() -> None:
                        async for _event in subscription:
                            told.tell()

                    group.start_soon(read_events)
                    summary.update(await scenario(client, told, args.server))
                    group.cancel_scope.cancel()
            return summary


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--url", required=True, help="the gateway's Streamable HTTP endpoint")
    ap.add_argument("--server", required=True, help="the configured name of the changing server")
    ap.add_argument("--mode", default="2026-07-28", help="legacy or 2026-07-28 (default)")
    ap.add_argument("--timeout", type=float, default=60.0, help="overall and per-request timeout, seconds")
    args = ap.parse_args()
    return report("py_gateway_live_client", run, args, timed_out="timed out (no announcement brought the expected list)")


if __name__ == "__main__":
    sys.exit(main())
