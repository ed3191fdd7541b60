import { execFile, spawn } from "node:child_process"
import { createHmac } from "node:crypto"
import { resolve } from "node:path"
import { describe, expect, it } from "@effect/vitest"

const root = resolve(import.meta.dirname, "../../..")
const tsx = resolve(root, "node_modules/.bin/tsx")

describe("the examples", { timeout: 120_000 }, () => {
  it("embed-core.ts serves a tool call through the embedded web handler", async () => {
    const output = await new Promise<string>((done, fail) =>
      execFile(tsx, ["examples/embed-core.ts"], { cwd: root, timeout: 100_000 }, (error, stdout, stderr) =>
        error ? fail(new Error(`${error.message}\n${stderr}`)) : done(stdout)
      )
    )
    expect(output).toMatch(/^200 /)
    expect(output).toContain("Embedded")
  })

  it("webhook-receiver.ts accepts a signed delivery once, skips its repeat, and refuses a forged one", async () => {
    const secret = "whsec_example"
    const receiver = spawn(tsx, ["examples/webhook-receiver.ts"], {
      cwd: root,
      env: { ...process.env, SVC_WEBHOOK_SECRET: secret, PORT: "0" }
    })
    try {
      let output = ""
      receiver.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString()
      })
      const base = await new Promise<string>((done, fail) => {
        const timer = setTimeout(() => fail(new Error(`receiver did not start: ${output}`)), 60_000)
        receiver.stdout.on("data", () => {
          const match = /listening on (http:\/\/\S+)/.exec(output)
          if (match?.[1]) {
            clearTimeout(timer)
            done(match[1])
          }
        })
      })
      const body = JSON.stringify({
        id: "evt_example",
        type: "customer.created",
        created_at: new Date().toISOString(),
        store: { handle: "demo" },
        data: { email: "ada@example.com" }
      })
      const deliver = (key: string) => {
        const timestamp = Date.now()
        const signature = createHmac("sha256", key).update(`${timestamp}.${body}`).digest("hex")
        return fetch(base, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-svc-signature": `sha256=${signature}`,
            "x-svc-timestamp": String(timestamp),
            "x-svc-event": "customer.created",
            "x-svc-event-id": "evt_example"
          },
          body
        })
      }
      expect((await deliver(secret)).status).toBe(204)
      expect((await deliver(secret)).status).toBe(204)
      expect((await deliver("whsec_forged")).status).toBe(400)
      await new Promise((done) => setTimeout(done, 200))
      expect(output).toContain("received evt_example customer.created")
      expect(output).toContain("duplicate evt_example customer.created")
      expect(output).toContain("refused bad_signature")
    } finally {
      receiver.kill("SIGTERM")
    }
  })
})
