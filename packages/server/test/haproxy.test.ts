/**
 * The shipped load balancer configuration (`deploy/haproxy.cfg`, Debian's HAProxy) in front of three `svc serve` on
 * one PostgreSQL: under a steady stream of writes (tool calls creating notes), one instance is stopped with SIGTERM.
 * It drains (`/ready` turns 503, HAProxy takes it out, its calls in flight are answered), the others take the
 * traffic, and afterwards every call was answered 200 and every acknowledged note is in the database exactly once.
 *
 * Several instances need one PostgreSQL whatever the pass's engine: the file runs once (engine-free) and finds it at
 * `SVC_TEST_POSTGRES_URL` (or 127.0.0.1:5432); without it or HAProxy it skips on a newcomer's machine, and fails in
 * CI, which installs both.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { haproxyTool, postgresTool, skipWithout } from "../../adapters/test/support/external-tool.js"
import { type Balancer, startBalancer } from "./support/haproxy.js"
import { createTestSchema, type TestSchema } from "./support/postgres-schema.js"
import { type RunningServer, startServer } from "./support/server-process.js"
import { setUpSeller, waitFor } from "./support/webhooks.js"

const haproxy = await haproxyTool()
const postgres = await postgresTool()
const skip = skipWithout("the HAProxy deployment test", haproxy) || skipWithout("the HAProxy deployment test", postgres)

const servers: Array<RunningServer> = []
let balancer: Balancer | undefined
let lbUrl = ""
let token = ""
let schema: TestSchema | undefined

beforeAll(async () => {
  if (skip) return
  schema = await createTestSchema("test_haproxy")
  // As deploy/README.md runs them: "not ready" for longer than HAProxy needs to notice (fall 2 × inter 500 ms).
  const env = {
    DATABASE_URL: schema.url,
    SVC_BOOTSTRAP: "false",
    SVC_DRAIN_DELAY_MS: "2000",
    SVC_DRAIN_TIMEOUT_MS: "10000"
  }
  token = (await setUpSeller(env)).token
  for (let i = 0; i < 3; i++) servers.push(await startServer(env))

  balancer = await startBalancer(haproxy.available ? haproxy.path : "haproxy", servers)
  lbUrl = balancer.url
}, 180_000)

afterAll(async () => {
  balancer?.process.kill("SIGTERM")
  for (const server of servers) {
    if (server.process.exitCode === null && server.process.signalCode === null) await server.stop()
  }
  await schema?.drop()
}, 120_000)

/** One tool call through HAProxy creating a note titled `title`: its status and the note's id when it was made. */
const createNote = async (title: string) => {
  const response = await fetch(`${lbUrl}/v1/tools/svc_create_note`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ markdown: `# ${title}\n\nWritten through the load balancer.` })
  })
  const body = (await response.json()) as { readonly note?: { readonly id: string } }
  return { status: response.status, id: body.note?.id }
}

describe.skipIf(skip)("deploy/haproxy.cfg in front of three instances on one PostgreSQL", { timeout: 180_000 }, () => {
  it("loses no call and no write while one instance drains on SIGTERM", async () => {
    const outcomes: Array<{ readonly title: string; readonly status: number; readonly id: string | undefined }> = []
    let writing = true
    // Four writers, paced to stay under the key's 120 tool calls a minute (shared by the instances).
    const writers = Array.from({ length: 4 }, async (_, writer) => {
      for (let n = 0; writing; n++) {
        const title = `drain-${writer}-${n}`
        outcomes.push({ title, ...(await createNote(title)) })
        await new Promise((done) => setTimeout(done, 350))
      }
    })

    await new Promise((done) => setTimeout(done, 1_500))
    const drained = servers[0]
    const exited = drained?.stop()
    // HAProxy sees it not ready and takes it out; the writes go on to the other two meanwhile.
    await waitFor(
      "HAProxy to take the draining instance out",
      () => /svc1 is DOWN/.test(balancer?.output() ?? ""),
      10_000
    )
    expect(await exited).toBe(0)
    await new Promise((done) => setTimeout(done, 1_500))
    writing = false
    await Promise.all(writers)

    expect(outcomes.length).toBeGreaterThan(20)
    expect(outcomes.filter((outcome) => outcome.status !== 200)).toEqual([])
    // Every acknowledged note is stored, once: nothing lost, nothing written twice by a retry.
    const stored = await schema?.admin.query<{ title: string; id: string }>(
      `SELECT title, id FROM ${schema?.name}.items WHERE title LIKE 'drain-%'`
    )
    expect(stored?.rows.map((row) => row.title).sort()).toEqual(outcomes.map((outcome) => outcome.title).sort())
    expect(new Set(stored?.rows.map((row) => row.id))).toEqual(new Set(outcomes.map((outcome) => outcome.id)))
    expect(drained?.output()).toMatch(/stopped taking connections; \d+ requests were in flight, all answered/)
  })
})
