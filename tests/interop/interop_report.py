"""What the Python interop clients share: a check that fails with a message, and running the
client to one JSON summary line on stdout (exit 0) or one "NAME: FAIL: why" line on stderr
(exit 1), which the Rust tests judge.

The clients import it from their own folder (Python puts a script's folder first on sys.path).
"""
import json
import sys

import anyio


class CheckFailed(Exception):
    """An expectation of the client's own was not met; its message says which."""


def check(cond, msg):
    if not cond:
        raise CheckFailed(msg)


def describe(exc: BaseException, timed_out: str = "timed out") -> str:
    if isinstance(exc, BaseExceptionGroup):  # anyio task groups wrap errors
        return "; ".join(describe(e, timed_out) for e in exc.exceptions)
    if isinstance(exc, TimeoutError):
        return timed_out
    if isinstance(exc, CheckFailed):
        return str(exc)
    return f"{type(exc).__name__}: {exc}"


def report(name: str, run, args, *, timed_out: str = "timed out", ensure_ascii: bool = True) -> int:
    """Runs `run(args)` under anyio; prints its summary, or why it failed. Returns the exit status."""
    try:
        summary = anyio.run(run, args)
    except BaseException as exc:  # noqa: BLE001 - report anything, including groups and timeouts
        if isinstance(exc, KeyboardInterrupt):
            raise
        print(f"{name}: FAIL: {describe(exc, timed_out)}", file=sys.stderr)
        return 1
    print(json.dumps(summary, ensure_ascii=ensure_ascii))
    return 0
