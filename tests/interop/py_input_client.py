#!/usr/bin/env python3
"""Interop check: the official Python SDK client (mcp 2.3.0) calls the tools of `interop-server`
that report progress, ask for input and mirror arguments into headers.

Usage: py_input_client.py --url URL [--mode auto|legacy|2026-07-28] [--expect-version V] [--timeout S]

Lists tools (needs count, survey, forecast); calls count {"steps": 5} with a progress callback
(expects progress 1..5 and text "counted 5"); calls survey {} with an elicitation callback that
answers "Ada" and "teal" (expects text ending "Ada likes teal" and two questions; in 2026-07-28
they come back as input_required rounds, in legacy mode as elicitation/create requests on the
POST's event stream); calls forecast {"region": "Zürich", "days": 3} (the SDK mirrors both
arguments into Mcp-Param-Region, Base64-encoded, and Mcp-Param-Days; expects "sunny in Zürich
for 3 days"). Prints one JSON summary line and exits 0, or "py_input_client: FAIL: ..." and 1.
"""
import argparse
import sys

import anyio
from mcp import Client
from mcp.types import ElicitResult, TextContent
from interop_report import check, report


def texts(result):
    return [c.text for c in result.content if isinstance(c, TextContent)]


async def run(args) -> dict:
    questions: list[str] = []
    progress: list[float] = []

    async def on_elicit(_context, params):
        questions.append(params.message)
        field = "name" if params.message.endswith("What is your name?") else "colour"
        return ElicitResult(action="accept", content={field: "Ada" if field == "name" else "teal"})

    async def on_progress(value, _total, _message):
        progress.append(value)

    with anyio.fail_after(args.timeout):
        async with Client(args.url, mode=args.mode, read_timeout_seconds=args.timeout,
                          elicitation_callback=on_elicit) as client:
            version = client.protocol_version
            check(version == args.expect_version, f"negotiated {version!r}, expected {args.expect_version!r}")
            names = [t.name for t in (await client.list_tools()).tools]
            check({"count", "survey", "forecast"} <= set(names), f"tools/list: {names}")

            count = await client.call_tool("count", {"steps": 5}, progress_callback=on_progress)
            check(not count.is_error and texts(count) == ["counted 5"], f"count: {count.content}")
            check(progress == [1, 2, 3, 4, 5], f"progress {progress}")

            survey = await client.call_tool("survey", {})
            check(not survey.is_error, f"survey returned isError: {survey.content}")
            check(len(texts(survey)) == 1 and texts(survey)[0].endswith("Ada likes teal"), f"survey: {texts(survey)}")
            check(len(questions) == 2, f"questions asked: {questions}")

            forecast = await client.call_tool("forecast", {"region": "Zürich", "days": 3})
            check(not forecast.is_error and texts(forecast) == ["sunny in Zürich for 3 days"],
                  f"forecast: {forecast.content}")

            return {"client": "python-mcp-2.3.0", "ok": True, "transport": "http", "mode": args.mode,
                    "protocolVersion": version, "progress": progress, "questions": questions,
                    "survey": texts(survey)[0], "forecast": texts(forecast)[0]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--url", required=True, help="Streamable HTTP endpoint")
    ap.add_argument("--mode", default="2026-07-28", help="auto, legacy, or 2026-07-28 (default)")
    ap.add_argument("--expect-version", help="negotiated version to require")
    ap.add_argument("--timeout", type=float, default=30.0, help="overall and per-request timeout, seconds")
    args = ap.parse_args()
    if args.expect_version is None:
        args.expect_version = "2025-11-25" if args.mode == "legacy" else "2026-07-28"
    return report("py_input_client", run, args, ensure_ascii=False)


if __name__ == "__main__":
    sys.exit(main())
