#!/usr/bin/env python3
"""An MCP "server" over stdio that misbehaves in one way, for the client's and the host's tests.

Usage: hostile_server.py MODE, where MODE is one of
  silent     reads its input and never writes anything
  noise      answers every line with text that is not JSON-RPC
  wrong-ids  answers every request, with an id nobody asked for
  huge       answers the first request with a 65 MiB line
  exit3      writes a reason on stderr and exits with status 3 at once
  deep       answers the first request with a result nested 100,000 levels deep
  deep-list  answers initialize as a server should, and tools/list with a result nested 100,000
             levels deep
  slow       a well-behaved server whose one tool, `slow`, sends progress every 0.3 s and never
             finishes; every line it receives is appended to the file named by $RECEIVED_LOG
  announcer  a well-behaved server that, after its first tools/list, announces
             notifications/tools/list_changed 5,000 times without pause; its one tool, `lists`,
             answers how many tools/list requests it received
No dependencies beyond the standard library.
"""

import json
import os
import sys
import threading
import time


def main() -> int:
    mode = sys.argv[1]
    out = sys.stdout
    if mode == "exit3":
        print("fatal: cannot open the notes database", file=sys.stderr, flush=True)
        return 3
    if mode == "slow":
        return slow()
    if mode == "announcer":
        return announcer()
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        request_id = message.get("id")
        if mode == "silent" or request_id is None:
            continue
        if mode == "noise":
            out.write("hello from a server that prints instead of speaking JSON-RPC\n")
        elif mode == "wrong-ids":
            out.write(json.dumps({"jsonrpc": "2.0", "id": 999999, "result": {}}) + "\n")
        elif mode == "huge":
            out.write('{"jsonrpc":"2.0","id":%s,"result":{"x":"' % json.dumps(request_id))
            out.write("x" * (65 * 1024 * 1024))
            out.write('"}}\n')
        elif mode == "deep-list" and message.get("method") == "initialize":
            out.write(json.dumps({"jsonrpc": "2.0", "id": request_id, "result": {
                "protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                "serverInfo": {"name": "deep-list", "version": "1"}}}) + "\n")
        elif mode in ("deep", "deep-list"):
            depth = 100_000
            out.write('{"jsonrpc":"2.0","id":%s,"result":{"x":' % json.dumps(request_id))
            out.write("[" * depth + "]" * depth + "}}\n")
        out.flush()
    return 0


def sender():
    """A function that writes one message per line, safely from several threads."""
    lock = threading.Lock()

    def send(message):
        with lock:
            sys.stdout.write(json.dumps(message) + "\n")
            sys.stdout.flush()

    return send


def serve_one_tool(send, name, tool, on_call, on_list=lambda: None, list_changed=False, log=None):
    """A legacy-era server over stdio with the one tool `tool` (read-only): `on_call(message)`
    answers its calls, `on_list()` runs after each tools/list; every line read is written to `log`."""
    for line in sys.stdin:
        if log is not None:
            log.write(line)
        message = json.loads(line)
        method, request_id = message.get("method"), message.get("id")
        if request_id is None:
            continue
        if method == "initialize":
            send({"jsonrpc": "2.0", "id": request_id, "result": {
                "protocolVersion": "2025-11-25", "capabilities": {"tools": {"listChanged": list_changed}},
                "serverInfo": {"name": name, "version": "1"}}})
        elif method == "tools/list":
            send({"jsonrpc": "2.0", "id": request_id, "result": {"tools": [
                {"name": tool, "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": True}}]}})
            on_list()
        elif method == "tools/call":
            on_call(message)
        else:
            send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32601, "message": "no such method"}})
    return 0


def slow() -> int:
    send = sender()

    def progress(token):
        step = 0
        while True:
            step += 1
            send({"jsonrpc": "2.0", "method": "notifications/progress",
                  "params": {"progressToken": token, "progress": step}})
            time.sleep(0.3)

    def call(message):
        token = message["params"].get("_meta", {}).get("progressToken")
        threading.Thread(target=progress, args=(token,), daemon=True).start()

    log = open(os.environ["RECEIVED_LOG"], "a", buffering=1)
    return serve_one_tool(send, "slow", "slow", call, log=log)


def announcer() -> int:
    send = sender()
    lists = 0

    def flood():
        for _ in range(5000):
            send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})

    def listed():
        nonlocal lists
        lists += 1
        if lists == 1:
            threading.Thread(target=flood, daemon=True).start()

    def call(message):
        send({"jsonrpc": "2.0", "id": message["id"], "result": {
            "content": [{"type": "text", "text": str(lists)}]}})

    return serve_one_tool(send, "announcer", "lists", call, on_list=listed, list_changed=True)


if __name__ == "__main__":
    sys.exit(main())
