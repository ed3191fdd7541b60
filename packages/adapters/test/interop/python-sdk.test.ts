/**
 * The official Python MCP SDK against the server, in both of its connection modes: `auto` discovers the
 * 2026-07-28 revision through `server/discover`, `legacy` runs the 2025-11-25 `initialize` handshake. Each
 * lists the tools, makes a note, reads it back and meets a `not-found` failure; the SDK validates every
 * result (required fields such as `cacheScope`/`ttlMs`, `structuredContent` against `outputSchema`) and
 * raises on one it refuses. Skipped, with a line saying what to install, where Python or the SDK is missing.
 */
import { execFile } from "node:child_process"
import { resolve } from "node:path"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestApp } from "../support/app.js"
import { pythonMcpTool, skipWithout } from "../support/external-tool.js"

const python = await pythonMcpTool()
const script = resolve(import.meta.dirname, "python_sdk_client.py")

interface Seen {
  readonly protocolVersion: string
  readonly serverName: string | null
  readonly tools: ReadonlyArray<string>
  readonly created: { readonly isError: boolean; readonly structured: { readonly note: { readonly id: string } } }
  readonly read: { readonly isError: boolean; readonly structured: Record<string, unknown> }
  readonly missing: { readonly isError: boolean; readonly structured: Record<string, unknown> }
}

const drive = (pythonPath: string, url: string, token: string, mode: "auto" | "legacy") =>
  Effect.async<Seen, Error>((resume) => {
    execFile(pythonPath, [script, `${url}/mcp`, token, mode], { timeout: 60_000 }, (error, stdout, stderr) => {
      if (error !== null) {
        // The end of the traceback holds the reason (a validation error names the field).
        resume(Effect.fail(new Error(`the Python SDK (${mode}) failed:\n${stderr.split("\n").slice(-30).join("\n")}`)))
      } else resume(Effect.succeed(JSON.parse(stdout) as Seen))
    })
  })

describe.skipIf(skipWithout("the Python MCP SDK interop test", python))("the official Python MCP SDK", () => {
  layer(TestApp.layer, { timeout: "120 seconds", excludeTestServices: true })((it) => {
    for (const [mode, version] of [
      ["auto", "2026-07-28"],
      ["legacy", "2025-11-25"]
    ] as const) {
      it.effect(`in ${mode} mode speaks ${version}: lists, calls, and takes a failure`, () =>
        Effect.gen(function* () {
          if (!python.available) return yield* Effect.die("unreachable: the suite is skipped without Python")
          const app = yield* TestApp
          const user = yield* app.signUp()
          const seen = yield* drive(python.path, app.url, user.token, mode)
          expect(seen.protocolVersion).toBe(version)
          expect(seen.serverName).toBe("svc")
          expect(seen.tools).toEqual(expect.arrayContaining(["svc_create_note", "svc_get_note_markdown"]))
          expect(seen.created.isError).toBe(false)
          expect(seen.created.structured.note.id).toMatch(/^note_/)
          expect(seen.read).toMatchObject({ isError: false, structured: { ok: true, note: { title: "From Python" } } })
          expect(seen.missing).toMatchObject({ isError: true, structured: { ok: false, status: "not-found" } })
        })
      )
    }
  })
})
