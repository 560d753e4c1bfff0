#!/usr/bin/env python3
"""A deliberately faulty MCP server over HTTP (legacy era, no session), for the host's tests.

Usage: flaky_server.py --http 0

Prints "listening on http://127.0.0.1:PORT/mcp" on stderr. Its tools:
- flaky_read (readOnlyHint) and flaky_write (destructiveHint): the first call of each drops the
  connection without answering; later calls answer "ok after N calls".
- bad_output: declares an output schema ({"n": integer}) and answers structuredContent {"n": "x"}.
GET /calls returns how many tools/call requests each tool received, as JSON.
No dependencies beyond the standard library.
"""

import json
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CALLS = {}
LOCK = threading.Lock()

TOOLS = [
    {"name": "flaky_read", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": True}},
    {"name": "flaky_write", "inputSchema": {"type": "object"},
     "annotations": {"readOnlyHint": False, "destructiveHint": True}},
    {"name": "bad_output", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": True},
     "outputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}},
]


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, status, body=None):
        data = b"" if body is None else json.dumps(body).encode()
        self.send_response(status)
        if body is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/calls":
            with LOCK:
                self.reply(200, CALLS)
        else:
            self.reply(405)

    def do_DELETE(self):
        self.reply(405)

    def do_POST(self):
        message = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        method, mid = message.get("method"), message.get("id")
        if mid is None:
            return self.reply(202)
        if method == "initialize":
            return self.reply(200, {"jsonrpc": "2.0", "id": mid, "result": {
                "protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                "serverInfo": {"name": "flaky", "version": "1"}}})
        if method == "tools/list":
            return self.reply(200, {"jsonrpc": "2.0", "id": mid, "result": {"tools": TOOLS}})
        if method == "tools/call":
            name = message["params"]["name"]
            with LOCK:
                CALLS[name] = CALLS.get(name, 0) + 1
                count = CALLS[name]
            if name.startswith("flaky_") and count == 1:
                # Drop the connection without an answer.
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)
                return
            if name == "bad_output":
                result = {"content": [{"type": "text", "text": "{\"n\": \"x\"}"}], "structuredContent": {"n": "x"}}
            else:
                result = {"content": [{"type": "text", "text": f"ok after {count} calls"}]}
            return self.reply(200, {"jsonrpc": "2.0", "id": mid, "result": result})
        return self.reply(200, {"jsonrpc": "2.0", "id": mid, "error": {"code": -32601, "message": "no such method"}})


def main():
    port = int(sys.argv[sys.argv.index("--http") + 1]) if "--http" in sys.argv else 0
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    print(f"listening on http://127.0.0.1:{server.server_address[1]}/mcp", file=sys.stderr, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
