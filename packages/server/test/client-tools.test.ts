/**
 * The typed tools client of `@svc/client` against the real `svc serve`: the same calls over REST and MCP answer
 * the same, and fail with the same `ToolCallError`.
 */
import { describe, expect, it } from "@effect/vitest"
import { createToolClient, ToolCallError, type ToolClient, type ToolName } from "@svc/client"
import { useServer } from "./support/server-fixture.js"

const fixture = useServer()

const bootstrapKey = () => /svc_pat_[0-9A-Za-z]{36}/.exec(fixture.server.output())?.[0] ?? ""

const transports = ["rest", "mcp"] as const
type Transport = (typeof transports)[number]

const clientFor = (transport: Transport, token = bootstrapKey()): ToolClient =>
  createToolClient({ baseUrl: fixture.server.baseUrl, token, transport })

/** What a failed call rejected with, for comparing both transports' errors field by field. */
const failureOf = async (call: Promise<unknown>) => {
  const error = await call.then(
    () => undefined,
    (rejected: unknown) => rejected
  )
  if (!(error instanceof ToolCallError)) throw new Error(`expected a ToolCallError, got ${String(error)}`)
  return { tool: error.tool, status: error.status, message: error.message, errors: error.errors }
}

describe("the tools client against svc serve", { timeout: 120_000 }, () => {
  describe.each(transports)("over %s", (transport) => {
    it("creates a note and reads it back, typed by the tools' schemas", async () => {
      const client = clientFor(transport)
      const created = await client.svc_create_note({ markdown: `# From ${transport}\n\nthe typed client` })
      expect(created).toMatchObject({ ok: true, note: { title: `From ${transport}` } })
      const read = await client.call("svc_get_note_markdown", { noteId: created.note.id })
      expect(read.note.markdown).toBe(`# From ${transport}\n\nthe typed client`)
      const listed = await client.svc_list_workspaces()
      expect(listed.ok).toBe(true)
    })

    it("fails an invalid call with status invalid and its field errors", async () => {
      const client = clientFor(transport)
      // @ts-expect-error markdown is a string: the generated input types catch it before the server does
      const failure = await failureOf(client.svc_create_note({ markdown: 42 }))
      expect(failure).toMatchObject({ tool: "svc_create_note", status: "invalid" })
      expect(failure.errors.map((error) => error.path)).toContain("markdown")
    })

    it("fails a read of a note that does not exist with not-found", async () => {
      const failure = await failureOf(clientFor(transport).svc_get_note_markdown({ noteId: "note_00000000000000" }))
      expect(failure).toMatchObject({ tool: "svc_get_note_markdown", status: "not-found" })
    })

    it("answers a name the server does not serve with not-found", async () => {
      const unknown: string = "svc_no_such_tool"
      const failure = await failureOf(clientFor(transport).call(unknown as ToolName))
      expect(failure).toMatchObject({ tool: "svc_no_such_tool", status: "not-found" })
    })

    it("calls a deprecated alias as the tool it stands for", async () => {
      const client = clientFor(transport)
      const created = await client.svc_create_sticky_note({ markdown: "sticky" })
      const read = await client.svc_get_note_markdown({ noteId: created.note.id })
      expect(read.note.markdown).toBe("sticky")
    })

    it("fails a call with a token the server does not know with auth-expired", async () => {
      const failure = await failureOf(clientFor(transport, "svc_pat_not_a_real_key").svc_list_workspaces())
      expect(failure).toMatchObject({ status: "auth-expired" })
    })
  })

  it("fails the same call with the same error over both transports", async () => {
    const rest = clientFor("rest")
    const mcp = clientFor("mcp")
    // @ts-expect-error noteId is required
    const invalid = (client: ToolClient) => failureOf(client.svc_get_note_markdown({ title: "x" }))
    expect(await invalid(mcp)).toEqual(await invalid(rest))
    const missing = (client: ToolClient) => failureOf(client.svc_get_note_markdown({ noteId: "note_00000000000000" }))
    expect(await missing(mcp)).toEqual(await missing(rest))
  })

  it("types the answers: a field the answer does not have is a compile error", async () => {
    const created = await clientFor("rest").svc_create_note({ markdown: "typed answers" })
    // @ts-expect-error the answer of svc_create_note has no `noteId`; the note's id is `note.id`
    expect(created.noteId).toBeUndefined()
    expect(created.note.characters).toBe("typed answers".length)
    // @ts-expect-error `call` needs the input of a tool that has required fields, as the method does
    const withoutInput = () => clientFor("rest").call("svc_create_note")
    expect(typeof withoutInput).toBe("function")
  })

  // Last: it spends this credential's minute of tool calls, which REST and MCP share.
  it("fails with rate-limited once the minute's calls are spent and Retry-After exceeds the retry budget", async () => {
    const budget = { retry: { attempts: 2, maxDelayMs: 1_000 } }
    const rest = createToolClient({ baseUrl: fixture.server.baseUrl, token: bootstrapKey(), ...budget })
    const mcp = createToolClient({
      baseUrl: fixture.server.baseUrl,
      token: bootstrapKey(),
      transport: "mcp",
      ...budget
    })
    const outcomes = await Promise.allSettled(
      Array.from({ length: 130 }, (_, i) => (i % 2 === 0 ? rest : mcp).svc_list_workspaces())
    )
    const limited = outcomes.flatMap((outcome) =>
      outcome.status === "rejected" && outcome.reason instanceof ToolCallError ? [outcome.reason] : []
    )
    expect(limited.length).toBeGreaterThan(0)
    expect(limited.length + outcomes.filter((o) => o.status === "fulfilled").length).toBe(130)
    for (const error of limited) expect(error).toMatchObject({ status: "rate-limited", httpStatus: 429 })
    const afterLimit = await Promise.allSettled([rest.svc_list_workspaces(), mcp.svc_list_workspaces()])
    for (const outcome of afterLimit) {
      expect(outcome.status === "rejected" && outcome.reason).toMatchObject({ status: "rate-limited", httpStatus: 429 })
    }
  })
})
