"""Drives svc with the official Python MCP SDK, as an agent written in Python would.

Usage: python_sdk_client.py <mcp url> <bearer token> <mode>   (mode: "auto" or "legacy")

Connects (auto: server/discover, legacy: the initialize handshake), lists the tools, creates a note, reads it
back, and asks for a note that does not exist. Prints one JSON object on standard output with what it saw; the
vitest file beside it checks it. Any exception the SDK raises (a result it refused to validate, say) ends the
run with a non-zero exit and the traceback on standard error.
"""

import asyncio
import json
import sys

try:  # the SDK's own HTTP client package; older releases used httpx
    import httpx2 as httpx
except ImportError:
    import httpx

from mcp import Client
from mcp.client.streamable_http import streamable_http_client


def structured(result):
    return getattr(result, "structured_content", None) or getattr(result, "structuredContent", None)


async def main(url: str, token: str, mode: str) -> None:
    async with httpx.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=30) as http:
        async with Client(streamable_http_client(url, http_client=http), mode=mode) as client:
            listed = await client.list_tools()
            created = await client.call_tool("svc_create_note", {"title": "From Python", "markdown": "# Hello"})
            note_id = structured(created)["note"]["id"]
            read = await client.call_tool("svc_get_note_markdown", {"noteId": note_id})
            missing = await client.call_tool("svc_get_note_markdown", {"noteId": "note_doesnotexist"})
            print(
                json.dumps(
                    {
                        "protocolVersion": client.protocol_version,
                        "serverName": client.server_info.name if client.server_info else None,
                        "tools": [tool.name for tool in listed.tools],
                        "created": {"isError": bool(created.is_error), "structured": structured(created)},
                        "read": {"isError": bool(read.is_error), "structured": structured(read)},
                        "missing": {"isError": bool(missing.is_error), "structured": structured(missing)},
                    }
                )
            )


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3]))
