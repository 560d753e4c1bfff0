#!/usr/bin/env python3
"""Interop check: the official Python SDK client (mcp 2.3.0) authorizes with its own OAuth support.

Usage: py_oauth_client.py [--mode auto|legacy] [--wait S] [--timeout S] --url URL

Connects to a protected Streamable HTTP endpoint with `OAuthClientProvider` (the SDK's OAuth 2.1
client: discovery, dynamic registration, PKCE, refresh). The user's part is answered here: the
redirect handler follows the authorization server's redirects (login, consent; cookies kept) to
the redirect URI and hands its code to the callback handler. Then it calls add {"a": 2, "b": 40},
waits --wait seconds (so that a short-lived token expires), calls add and whoami again, and checks
that the token was refreshed. Prints one JSON summary line and exits 0; prints
"py_oauth_client: FAIL: ..." and exits 1.
"""

import argparse
import sys
from urllib.parse import parse_qs, urljoin, urlparse

import anyio
import httpx2
from mcp import Client
from mcp.client.auth import OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthClientMetadata, OAuthToken
from interop_report import check, report

REDIRECT_URI = "http://127.0.0.1:1/callback"


class Memory:
    """Token storage that remembers every access token it was given."""

    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None
        self.issued: list[str] = []

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens
        self.issued.append(tokens.access_token)

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


class Consent:
    """Plays the user's browser: follows redirects until the redirect URI."""

    def __init__(self) -> None:
        self.result: AuthorizationCodeResult | None = None

    async def redirect(self, url: str) -> None:
        async with httpx2.AsyncClient(follow_redirects=False) as http:
            current = url
            for _ in range(10):
                response = await http.get(current)
                location = response.headers.get("location")
                if not location:
                    raise RuntimeError(f"HTTP {response.status_code} without redirect at {current}")
                location = urljoin(current, location)
                if location.startswith(REDIRECT_URI):
                    query = parse_qs(urlparse(location).query)
                    first = lambda key: query.get(key, [None])[0]  # noqa: E731
                    self.result = AuthorizationCodeResult(code=first("code"), state=first("state"), iss=first("iss"))
                    return
                current = location
            raise RuntimeError("too many redirects")

    async def callback(self) -> AuthorizationCodeResult:
        if self.result is None:
            raise RuntimeError("no authorization code")
        return self.result


async def run(args) -> dict:
    storage, consent = Memory(), Consent()
    metadata = OAuthClientMetadata(
        client_name="python-sdk-oauth-interop",
        redirect_uris=[REDIRECT_URI],
        grant_types=["authorization_code", "refresh_token"],
        response_types=["code"],
    )
    provider = OAuthClientProvider(
        server_url=args.url,
        client_metadata=metadata,
        storage=storage,
        redirect_handler=consent.redirect,
        callback_handler=consent.callback,
    )
    with anyio.fail_after(args.timeout):
        async with httpx2.AsyncClient(auth=provider) as http:
            transport = streamable_http_client(args.url, http_client=http)
            async with Client(transport, mode=args.mode, read_timeout_seconds=args.timeout) as client:
                first = await client.call_tool("add", {"a": 2, "b": 40})
                check(not first.is_error and first.structured_content == {"sum": 42}, f"add: {first}")
                await anyio.sleep(args.wait)
                again = await client.call_tool("add", {"a": 2, "b": 40})
                check(not again.is_error and again.structured_content == {"sum": 42}, f"add again: {again}")
                me = await client.call_tool("whoami", {})
                subject = (me.structured_content or {}).get("subject")
                check(subject == "alice", f"whoami: {me.structured_content}")
    refreshed = len(set(storage.issued)) >= 2
    check(refreshed, f"the token was not refreshed: {len(storage.issued)} issued")
    return {"client": "python-mcp-2.3.0-oauth", "ok": True, "mode": args.mode, "subject": subject,
            "tokens": len(storage.issued), "refreshed": refreshed}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--mode", default="auto", help="Client mode: auto (default) or legacy")
    ap.add_argument("--wait", type=float, default=2.0, help="seconds between the calls, for the token to expire")
    ap.add_argument("--timeout", type=float, default=60.0, help="overall timeout, seconds")
    ap.add_argument("--url", required=True, help="the protected Streamable HTTP endpoint")
    args = ap.parse_args()
    return report("py_oauth_client", run, args)


if __name__ == "__main__":
    sys.exit(main())
