/**
 * The embedded database after `kill -9`: the next `svc serve` on the same directory is the only process that can hold
 * a lease, so it takes back at start what its dead predecessor held, and the deliveries it was sending go out at
 * once instead of when their 60-second leases expire.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { type RunningServer, startServer } from "./support/server-process.js"
import {
  createWebhook,
  deliveryLog,
  publishProduct,
  type Receiver,
  sell,
  setUpSeller,
  startReceiver,
  storeApi,
  waitFor
} from "./support/webhooks.js"

const dataDir = mkdtempSync(join(tmpdir(), "svc-takeover-"))
const running: Array<RunningServer> = []
let receiver: Receiver | undefined

afterAll(async () => {
  for (const server of running) {
    if (server.process.exitCode === null && server.process.signalCode === null) await server.stop()
  }
  await receiver?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

describe("svc serve on the embedded database after kill -9", { timeout: 120_000 }, () => {
  it("takes back its dead predecessor's leases at start: held deliveries go out at once", async () => {
    // The default lease (60 s): without the takeover, the held deliveries would wait out most of it.
    const env = {
      DATA_DIR: dataDir,
      SVC_BOOTSTRAP: "false",
      SVC_WEBHOOKS_ALLOW_LOOPBACK: "true",
      SVC_WEBHOOK_POLL_MS: "200"
    }
    const seller = await setUpSeller(env)
    let holding = true
    receiver = await startReceiver(() => (holding ? "hold" : { status: 200 }))
    const doomed = await startServer(env)
    running.push(doomed)
    const call = storeApi(doomed.baseUrl, seller.token)
    const productId = await publishProduct(call, seller.customAiId)
    const hook = await createWebhook(call, receiver.url("/in"), ["purchase.created"])
    for (let i = 0; i < 3; i++) await sell(call, productId, i)

    await waitFor("three deliveries held open", () => receiver?.received.length === 3)
    doomed.process.kill("SIGKILL")
    await new Promise((done) => doomed.process.once("exit", done))
    holding = false

    const heir = await startServer(env)
    running.push(heir)
    const restartedAt = Date.now()
    const heirCall = storeApi(heir.baseUrl, seller.token)
    await waitFor(
      "the held deliveries, well before their leases end",
      async () => (await deliveryLog(heirCall, hook.id)).filter((row) => row.outcome === "delivered").length === 3,
      20_000
    )
    expect(Date.now() - restartedAt).toBeLessThan(20_000)
    expect(heir.output()).toContain("took back 3 leases held by the process that had this database before")
  })
})
