#!/usr/bin/env python3
"""Codegen fixture: an MCP server (official Python SDK mcp 2.3.0, MCPServer) with rich signatures.

Usage: py_rich_server.py   serve stdio (exits on stdin EOF or SIGTERM)

mcp-codegen generates a typed Rust client from this server's tools/list (examples/tests/it/codegen_e2e.rs);
the signatures cover nested pydantic models, Literal, Optional, lists of objects and datetimes, both as
arguments and as structured outputs. Results are deterministic so the Rust test can check them exactly.
Run with the venv from setup.sh: target/interop/venv/bin/python tests/interop/py_rich_server.py
"""
from datetime import datetime, timedelta
from typing import Literal, Optional

from pydantic import BaseModel, Field

from mcp.server.mcpserver import MCPServer

mcp = MCPServer("mcp-codegen-rich-py-server", version="0.1.0", log_level="WARNING")


class Address(BaseModel):
    street: str
    city: str
    zip_code: Optional[str] = None


class Person(BaseModel):
    name: str
    age: int = Field(ge=0, le=150)
    address: Address
    tags: list[str] = []


class LineItem(BaseModel):
    sku: str
    quantity: int = Field(ge=1)
    unit_price: float


class Invoice(BaseModel):
    customer: Person
    items: list[LineItem]
    currency: Literal["EUR", "USD", "GBP"] = "EUR"
    note: Optional[str] = None


class InvoiceTotal(BaseModel):
    customer_name: str
    currency: Literal["EUR", "USD", "GBP"]
    item_count: int
    total: float
    city: str


class Shifted(BaseModel):
    original: datetime
    shifted: datetime
    weekday: str


class Greeting(BaseModel):
    text: str
    style: Literal["formal", "casual"]
    shout: bool


@mcp.tool(description="Total an invoice: nested models, a list of objects, a Literal with a default.")
def total_invoice(invoice: Invoice) -> InvoiceTotal:
    total = sum(i.quantity * i.unit_price for i in invoice.items)
    return InvoiceTotal(
        customer_name=invoice.customer.name,
        currency=invoice.currency,
        item_count=sum(i.quantity for i in invoice.items),
        total=round(total, 2),
        city=invoice.customer.address.city,
    )


@mcp.tool(description="Shift a timestamp by some hours (datetime in and out).")
def shift_time(at: datetime, hours: int = 0) -> Shifted:
    shifted = at + timedelta(hours=hours)
    return Shifted(original=at, shifted=shifted, weekday=shifted.strftime("%A"))


@mcp.tool(description="Greet someone: a Literal style and an Optional title.")
def greet(name: str, style: Literal["formal", "casual"] = "casual", title: Optional[str] = None,
          shout: bool = False) -> Greeting:
    if style == "formal":
        text = f"Good day, {title + ' ' if title else ''}{name}."
    else:
        text = f"Hi {name}!"
    if shout:
        text = text.upper()
    return Greeting(text=text, style=style, shout=shout)


@mcp.tool(description="Find the oldest people in a list (list of nested objects in and out).")
def oldest(people: list[Person], limit: Optional[int] = None) -> list[Person]:
    ranked = sorted(people, key=lambda p: (-p.age, p.name))
    return ranked if limit is None else ranked[:limit]


if __name__ == "__main__":
    mcp.run("stdio")
