#!/usr/bin/env python3
"""Interop fixture: prompts, resources, a resource template, completion and subscriptions served by the official Python SDK (mcp 2.3.0, MCPServer).

Usage: py_features_server.py              serve stdio
       py_features_server.py --http PORT  serve Streamable HTTP on http://127.0.0.1:PORT/mcp; PORT 0 picks a
                                          free port, announced as "listening on http://127.0.0.1:PORT/mcp" on stderr.

Prompts:   greet(name, style?)  -> one user message "Hello, {name}!" ("HELLO, {NAME}!" when style is "loud")
Resources: docs://readme (text/markdown "# Readme"), notes://{title} (text "note {title}")
Completion: prompt argument `name` from Ada, Alan, Grace; template variable `title` from alpha, alphabet, beta
Tool:      touch(uri) announces that `uri` changed: to 2026-07-28 `subscriptions/listen` streams through the
           SDK's subscription bus, and to legacy sessions that sent `resources/subscribe` for it.

Both eras, as tests/interop/py_server.py. Logs go to stderr only.
"""
import argparse
import sys

import anyio
import mcp_types as types

from mcp.server.mcpserver import Context, MCPServer

mcp = MCPServer("mcp-interop-py-features", version="0.1.0", log_level="WARNING")

# URIs legacy sessions subscribed to, with the session to notify.
legacy_subscribers: dict[str, list] = {}


@mcp.prompt(description="Greet someone by name.")
def greet(name: str, style: str = "plain") -> str:
    text = f"Hello, {name}!"
    return text.upper() if style == "loud" else text


@mcp.resource("docs://readme", mime_type="text/markdown", description="The readme.")
def readme() -> str:
    return "# Readme"


@mcp.resource("notes://{title}", description="A note by title.")
def note(title: str) -> str:
    return f"note {title}"


@mcp.completion()
async def complete(ref, argument, context):
    choices = {"name": ["Ada", "Alan", "Grace"], "title": ["alpha", "alphabet", "beta"]}.get(argument.name)
    if choices is None:
        return None
    return types.Completion(values=[c for c in choices if c.startswith(argument.value)])


async def subscribe(ctx, params: types.SubscribeRequestParams) -> types.EmptyResult:
    legacy_subscribers.setdefault(str(params.uri), []).append(ctx.session)
    return types.EmptyResult()


async def unsubscribe(ctx, params: types.UnsubscribeRequestParams) -> types.EmptyResult:
    legacy_subscribers.pop(str(params.uri), None)
    return types.EmptyResult()


mcp._lowlevel_server.add_request_handler("resources/subscribe", types.SubscribeRequestParams, subscribe)
mcp._lowlevel_server.add_request_handler("resources/unsubscribe", types.UnsubscribeRequestParams, unsubscribe)


@mcp.tool(description="Announce that the resource at `uri` changed.", structured_output=False)
async def touch(uri: str, ctx: Context) -> str:
    await ctx.notify_resource_updated(uri)
    for session in legacy_subscribers.get(uri, []):
        await session.send_resource_updated(uri)
    return "touched"


async def serve_http(port: int) -> None:
    import uvicorn

    app = mcp.streamable_http_app(streamable_http_path="/mcp", host="127.0.0.1")
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
        await server.serve()
        tg.cancel_scope.cancel()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--http", metavar="PORT", type=int, help="serve Streamable HTTP on 127.0.0.1:PORT/mcp")
    args = parser.parse_args()
    if args.http is None:
        mcp.run("stdio")
    else:
        anyio.run(serve_http, args.http)


if __name__ == "__main__":
    main()
