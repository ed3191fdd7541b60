/**
 * Clients that go away mid-call (agents time out and retry) must never fail anyone else's call. A storm of MCP and
 * REST reads and writes over the node:http lane, half of them aborted after 0–20 ms, on the test engine: every call
 * that was not aborted answers its success. On PostgreSQL this is the race between a statement's cancel and the
 * reuse of its pooled connection (docs/storage.md, "A client that goes away").
 */
import { describe, expect, layer } from "@effect/vitest"
import { ApiKeys } from "@svc/core/auth"
import { Effect } from "effect"
import { TestApp } from "../support/app.js"
import { engineName } from "../support/database.js"
import { mcpHeaders, restCall, rpc } from "./requests.js"

/**
 * On PostgreSQL the cancel race failed about 1 to 3 calls in 3,000 (`sql/interrupted-statement.test.ts` now forces
 * that race every time). Later, a few calls in 3,000 went unanswered in about one run of two: a call whose client
 * went away while it looked up a cached workspace or key ended that lookup for every call waiting on it
 * (`core/shared/cache-get.ts`). The storm is 3,000 calls; it passed 10 runs of 10 on PostgreSQL beside a
 * busy core.
 */
const CALLS = 3_000
/** A call not answered by then counts as failed ("never answered"), instead of holding the test to its timeout. */
const ANSWER_WITHIN_MS = 60_000
/** Clients calling at once; each sends its calls one after another. */
const CLIENTS = 48
/** Each key takes 120 calls a minute; this many keys keep the storm under every key's limit. */
const KEYS = 32
const MAX_ABORT_DELAY_MS = 20

type Kind = "mcp read" | "mcp write" | "rest read" | "rest write"
const KINDS: ReadonlyArray<Kind> = ["mcp read", "rest write", "rest read", "mcp write"]

/** What became of one call. */
type Outcome =
  | { readonly kind: "answered" }
  | { readonly kind: "aborted" }
  | { readonly kind: "failed"; readonly detail: string }

const request = (url: string, kind: Kind, token: string, noteId: string, call: number): Request => {
  const read = { name: "svc_get_note_markdown", arguments: { noteId } }
  const write = { name: "svc_create_note", arguments: { markdown: `# Storm ${call}\n\nWritten by call ${call}.` } }
  const tool = kind.endsWith("read") ? read : write
  if (kind.startsWith("rest")) return restCall(url, tool.name, tool.arguments, token)
  return new Request(`${url}/mcp`, {
    method: "POST",
    headers: { ...mcpHeaders(token), "mcp-protocol-version": "2025-06-18" },
    body: JSON.stringify(rpc("tools/call", tool, call))
  })
}

// A tool failure still answers 200 on MCP: the body must say it went well.
const succeeded = (status: number, body: string) =>
  status === 200 && body.includes('"ok":true') && !body.includes('"isError":true')

/** Sends call `call`; every other call is aborted after 0–20 ms (spread over the range), the rest run to their answer. */
const send = async (url: string, tokens: ReadonlyArray<string>, noteId: string, call: number): Promise<Outcome> => {
  const kind = KINDS[Math.floor(call / 2) % KINDS.length]!
  const aborts = call % 2 === 0
  const controller = new AbortController()
  const neverAnswered = new Error(`never answered within ${ANSWER_WITHIN_MS / 1000} s`)
  const deadline = setTimeout(() => controller.abort(neverAnswered), ANSWER_WITHIN_MS)
  // Aborting calls are the even ones: the k-th waits 8k mod 21 ms, every delay of 0–20 ms in turn.
  const timer = aborts ? setTimeout(() => controller.abort(), ((call / 2) * 8) % (MAX_ABORT_DELAY_MS + 1)) : undefined
  try {
    const response = await fetch(request(url, kind, tokens[call % tokens.length]!, noteId, call), {
      signal: controller.signal
    })
    const body = await response.text()
    if (aborts || succeeded(response.status, body)) return { kind: "answered" }
    return { kind: "failed", detail: `${kind}: ${response.status} ${body.slice(0, 300)}` }
  } catch (error) {
    if (aborts && controller.signal.aborted && controller.signal.reason !== neverAnswered) return { kind: "aborted" }
    return { kind: "failed", detail: `${kind}: ${String(error)}` }
  } finally {
    clearTimeout(deadline)
    clearTimeout(timer)
  }
}

/** Sends calls 0 … CALLS-1 from CLIENTS clients at once, and answers each call's outcome. */
const storm = async (url: string, tokens: ReadonlyArray<string>, noteId: string) => {
  const outcomes: Array<Outcome> = []
  let next = 0
  const client = async () => {
    for (let call = next++; call < CALLS; call = next++) {
      outcomes[call] = await send(url, tokens, noteId, call)
    }
  }
  await Promise.all(Array.from({ length: CLIENTS }, client))
  return outcomes
}

// Stopping the server waits for the storm's last aborted calls to end; on a busy CI machine that is slow too.
layer(TestApp.layer, { excludeTestServices: true, timeout: "120 seconds" })((it) => {
  describe(`clients that go away (${engineName})`, () => {
    it.effect(
      `${CALLS} MCP and REST reads and writes, half aborted after 0–${MAX_ABORT_DELAY_MS} ms: no other call fails`,
      () =>
        Effect.gen(function* () {
          const app = yield* TestApp
          const user = yield* app.signUp()
          const more = yield* app.setUp(
            Effect.flatMap(ApiKeys, (keys) =>
              Effect.forEach(Array.from({ length: KEYS - 1 }), () => keys.create(user.account.id, {}))
            )
          )
          const tokens = [user.token, ...more.map((created) => created.token)]
          const created = yield* Effect.promise(() =>
            fetch(restCall(app.url, "svc_create_note", { markdown: "# Read by the storm" }, user.token)).then(
              (response) => response.json() as Promise<{ note: { id: string } }>
            )
          )

          const outcomes = yield* Effect.promise(() => storm(app.url, tokens, created.note.id))

          const failures = outcomes.flatMap((outcome) => (outcome.kind === "failed" ? [outcome.detail] : []))
          expect(failures.slice(0, 5), `${failures.length} calls that were not aborted failed`).toEqual([])
          // The storm really cut calls off (those of 0 and 1 ms alone are ~45), or it checked nothing.
          expect(outcomes.filter((outcome) => outcome.kind === "aborted").length).toBeGreaterThan(CALLS / 50)
        }),
      // Seconds on an idle machine, 60 s beside a CI run; 120 s was once not enough beside three other test
      // files on 2 cores.
      { timeout: 300_000 }
    )
  })
})
