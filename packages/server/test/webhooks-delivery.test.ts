/**
 * Black-box webhook delivery: a real `svc serve`, real receivers on 127.0.0.1 (SVC_WEBHOOKS_ALLOW_LOOPBACK),
 * webhooks made through the store API, events from sales.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { engineName, freshDatabase } from "./support/environment.js"
import { type RunningServer, startServer } from "./support/server-process.js"
import {
  createWebhook,
  deliveryLog,
  publishProduct,
  type Receiver,
  type Received,
  sell,
  setUpSeller,
  signatureValid,
  startReceiver,
  storeApi,
  waitFor
} from "./support/webhooks.js"

let env: Record<string, string> = {}
let dispose = async () => {}
let server: RunningServer | undefined
let receiver: Receiver | undefined

beforeAll(async () => {
  const database = await freshDatabase()
  env = {
    ...database.env,
    SVC_BOOTSTRAP: "false",
    SVC_WEBHOOKS_ALLOW_LOOPBACK: "true",
    SVC_WEBHOOK_POLL_MS: "100"
  }
  dispose = database.dispose
}, 60_000)

afterAll(async () => {
  if (server && server.process.exitCode === null) await server.stop()
  await receiver?.close()
  await dispose()
})

const answers: Record<string, (r: Received) => ReturnType<Parameters<typeof startReceiver>[0]>> = {
  "/ok": () => ({ status: 200, body: "thanks" }),
  "/error": () => ({ status: 500, body: "receiver broke" }),
  "/hang": () => ({ status: 200, afterMs: 11_000 }),
  "/redirect": () => ({ status: 302, headers: { location: "/elsewhere" } }),
  "/elsewhere": () => ({ status: 200 }),
  "/gone": () => ({ status: 410, body: "unsubscribed" })
}

describe(`webhook delivery from svc serve on ${engineName}`, { timeout: 120_000 }, () => {
  it("signs on the raw bytes, sends the headers, and logs 500s, 11 s hangs (timeout), redirects (not followed) and 410s (retried)", async () => {
    const seller = await setUpSeller(env)
    receiver = await startReceiver((request) => (answers[request.path] ?? (() => ({ status: 404 })))(request))
    const rx = receiver
    server = await startServer(env)
    const call = storeApi(server.baseUrl, seller.token)
    const productId = await publishProduct(call, seller.customAiId)
    const hooks = {
      ok: await createWebhook(call, rx.url("/ok"), ["purchase.created"]),
      error: await createWebhook(call, rx.url("/error"), ["purchase.created"]),
      hang: await createWebhook(call, rx.url("/hang"), ["purchase.created"]),
      redirect: await createWebhook(call, rx.url("/redirect"), ["purchase.created"]),
      gone: await createWebhook(call, rx.url("/gone"), ["purchase.created"])
    }
    const before = Date.now()
    await sell(call, productId, 1)

    await waitFor("the healthy receiver", () => rx.on("/ok").length === 1)
    const [delivered] = rx.on("/ok") as [Received]
    expect(signatureValid(hooks.ok.secret, delivered)).toBe(true)
    expect(signatureValid(hooks.error.secret, delivered)).toBe(false)
    const timestamp = Number(delivered.headers["x-svc-timestamp"])
    expect(timestamp).toBeGreaterThanOrEqual(before)
    expect(timestamp).toBeLessThanOrEqual(delivered.at)
    const envelope = JSON.parse(delivered.body.toString("utf8")) as Record<string, unknown>
    expect(envelope).toMatchObject({ type: "purchase.created", store: { handle: expect.any(String) } })
    expect(envelope.id).toMatch(/^evt_/)
    expect(envelope.data).toMatchObject({ product_id: productId, buyer_email: "buyer1@example.com" })
    expect(delivered.headers).toMatchObject({
      "content-type": "application/json",
      "x-svc-event": "purchase.created",
      "x-svc-event-id": envelope.id,
      "user-agent": expect.stringMatching(/^svc-webhooks\//)
    })

    // A resend goes out again with the same bytes, signed anew with its own timestamp. The try is logged once its
    // answer is back, with the worker's next batch: a moment after the receiver saw it.
    await waitFor("the delivery's log", async () => (await deliveryLog(call, hooks.ok.id)).length === 1)
    const [logged] = await deliveryLog(call, hooks.ok.id)
    expect(logged).toMatchObject({ outcome: "delivered", response_code: 200, response: "thanks", status: "done" })
    // Resent by the id the log row shows (the attempt's), which names its delivery.
    const resend = await call<{ delivery: { id: string } }>("POST", `/deliveries/${String(logged?.id)}/resend`)
    expect(resend.status).toBe(200)
    expect(resend.body.delivery.id).toBe(logged?.delivery_id)
    await waitFor("the resend", () => rx.on("/ok").length === 2)
    const resent = rx.on("/ok")[1] as Received
    expect(resent.body.equals(delivered.body)).toBe(true)
    expect(Number(resent.headers["x-svc-timestamp"])).toBeGreaterThan(timestamp)
    expect(resent.headers["x-svc-signature"]).not.toBe(delivered.headers["x-svc-signature"])
    expect(signatureValid(hooks.ok.secret, resent)).toBe(true)
    await waitFor("the resend's log", async () => (await deliveryLog(call, hooks.ok.id)).length === 2)
    expect((await deliveryLog(call, hooks.ok.id))[0]).toMatchObject({ trigger: "resend", outcome: "delivered" })

    await waitFor("the 500 in the log", async () => (await deliveryLog(call, hooks.error.id)).length === 1)
    const [failed] = await deliveryLog(call, hooks.error.id)
    expect(failed).toMatchObject({ outcome: "http_error", response_code: 500, response: "receiver broke" })
    expect(failed).toMatchObject({ status: "pending", attempt: 1 })
    const retryIn = Date.parse(String(failed?.next_attempt_at)) - Date.parse(String(failed?.attempted_at))
    expect(retryIn).toBeGreaterThanOrEqual(60_000)
    expect(retryIn).toBeLessThan(66_000)

    await waitFor("the redirect in the log", async () => (await deliveryLog(call, hooks.redirect.id)).length === 1)
    const [redirected] = await deliveryLog(call, hooks.redirect.id)
    expect(redirected).toMatchObject({ outcome: "redirect", response_code: 302, location: "/elsewhere" })
    expect(rx.on("/elsewhere")).toEqual([])

    // A 410 is a failed attempt like a 500: retried on the schedule; the webhook stays on (only three days of
    // failures turn it off).
    await waitFor("the 410 in the log", async () => (await deliveryLog(call, hooks.gone.id)).length === 1)
    expect((await deliveryLog(call, hooks.gone.id))[0]).toMatchObject({
      outcome: "gone",
      response_code: 410,
      status: "pending"
    })
    const gone = await call<{ webhook: Record<string, unknown> }>("GET", `/webhooks/${hooks.gone.id}`)
    expect(gone.body.webhook).toMatchObject({ enabled: true, disabled_reason: null, failing_since: expect.any(String) })

    // The hanging receiver answers after 11 s, past the 10 s deadline.
    expect(rx.on("/hang")).toHaveLength(1)
    await waitFor("the timeout in the log", async () => (await deliveryLog(call, hooks.hang.id)).length === 1, 20_000)
    const [timedOut] = await deliveryLog(call, hooks.hang.id)
    expect(timedOut).toMatchObject({ outcome: "timeout", response_code: null, status: "pending" })
    expect(Number(timedOut?.latency_ms)).toBeGreaterThanOrEqual(9_900)
    expect(rx.on("/hang")).toHaveLength(1)
  })
})
