/**
 * `svc serve` stopping behind a load balancer: on SIGTERM `/ready` turns 503 while `/health` stays 200 and calls are
 * still served (`SVC_DRAIN_DELAY_MS`), then the listener closes, the call in flight is answered, one that outlives
 * `SVC_DRAIN_TIMEOUT_MS` is cut off, and the process exits 0.
 */
import { request as httpRequest } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { freshDatabase } from "./support/environment.js"
import { type RunningServer, startServer } from "./support/server-process.js"
import { setUpSeller, waitFor } from "./support/webhooks.js"

let server: RunningServer | undefined
let dispose = async () => {}
let token = ""

beforeAll(async () => {
  const database = await freshDatabase()
  dispose = database.dispose
  const env = { ...database.env, SVC_BOOTSTRAP: "false", SVC_DRAIN_DELAY_MS: "1500", SVC_DRAIN_TIMEOUT_MS: "3000" }
  token = (await setUpSeller(env)).token
  server = await startServer(env)
}, 120_000)

afterAll(async () => {
  if (server && server.process.exitCode === null) await server.stop()
  await dispose()
})

/** A tool call whose body is sent in two halves: the call is in flight until `finish` sends the second. */
const slowCall = (baseUrl: string, markdown: string) => {
  const body = JSON.stringify({ markdown })
  const half = Math.floor(body.length / 2)
  let answered: (value: { status: number; connection: string | undefined; body: string }) => void = () => {}
  let failed: (error: Error) => void = () => {}
  const answer = new Promise<{ status: number; connection: string | undefined; body: string }>((done, fail) => {
    answered = done
    failed = fail
  })
  const call = httpRequest(`${baseUrl}/v1/tools/svc_create_note`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(body))
    },
    agent: false
  })
  call.on("response", (response) => {
    let text = ""
    response.on("data", (chunk: Buffer) => {
      text += chunk.toString()
    })
    response.on("end", () =>
      answered({ status: response.statusCode ?? 0, connection: response.headers.connection, body: text })
    )
  })
  call.on("error", failed)
  call.write(body.slice(0, half))
  return { answer, finish: () => call.end(body.slice(half)) }
}

const statusOf = async (url: string) => (await fetch(url)).status

describe("svc serve drains on SIGTERM", { timeout: 120_000 }, () => {
  it("says not ready, keeps serving through the delay, answers the call in flight, cuts off a stuck one, exits 0", async () => {
    const baseUrl = server?.baseUrl ?? ""
    expect(await statusOf(`${baseUrl}/ready`)).toBe(200)

    const inFlight = slowCall(baseUrl, "# Answered while draining")
    const stuck = slowCall(baseUrl, "# Never finished")
    const stuckOutcome = stuck.answer.then(
      () => "answered",
      () => "cut off"
    )
    // Both calls have reached the server (their headers are read) before the signal.
    await new Promise((done) => setTimeout(done, 300))
    const exited = server?.stop()

    // The delay: the load balancer's health check sees 503, everything else is still served.
    await waitFor("/ready to answer 503", async () => (await statusOf(`${baseUrl}/ready`)) === 503, 5_000)
    const ready = await fetch(`${baseUrl}/ready`)
    expect(ready.status).toBe(503)
    expect(await ready.json()).toMatchObject({ ok: false, ready: false })
    expect(await statusOf(`${baseUrl}/health`)).toBe(200)

    // Then the listener closes: a new connection is refused.
    await waitFor(
      "the listener to close",
      () =>
        fetch(`${baseUrl}/health`).then(
          () => false,
          () => true
        ),
      10_000
    )
    inFlight.finish()
    const answered = await inFlight.answer
    expect(answered.status, answered.body).toBe(200)
    expect(answered.connection).toBe("close")
    expect(JSON.parse(answered.body)).toMatchObject({ ok: true })

    expect(await stuckOutcome).toBe("cut off")
    expect(await exited).toBe(0)
    expect(server?.output()).toMatch(/2 requests were in flight, 1 cut off after 3000 ms/)
  })
})
