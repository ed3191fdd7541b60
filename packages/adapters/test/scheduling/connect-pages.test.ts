/**
 * The connect pages a person opens from `svc_connect_social_accounts`' link, over the real HTTP faces: the form,
 * credentials checked by the platform's publisher (a network the test scripts), addresses and origins refused, and
 * links that are forged.
 */
import { describe, expect, layer } from "@effect/vitest"
import { type PlatformPublisher, PublishFailure, SchedulingPortsLive } from "@svc/core/scheduling"
import { Effect, Layer } from "effect"
import { SqlPortsLive } from "../../src/sql/layers.js"
import { TestApp } from "../support/app.js"
import { TEST_PUBLIC_BASE } from "../support/core.js"
import { engineName } from "../support/database.js"

const checked: Array<{ serviceUrl: string; credentials: Readonly<Record<string, unknown>> }> = []

const scripted: PlatformPublisher = {
  platform: "bluesky",
  verify: (serviceUrl, credentials) =>
    Effect.suspend(() => {
      checked.push({ serviceUrl, credentials })
      return credentials.appPassword === "right-one"
        ? Effect.succeed({ handle: String(credentials.identifier), displayName: null, serviceUrl, credentials })
        : Effect.fail(new PublishFailure({ kind: "credentials", message: "Invalid identifier or password" }))
    }),
  publish: () => Effect.dieMessage("not published in this test"),
  findPublished: () => Effect.dieMessage("not published in this test")
}

const app = TestApp.layerWith(
  {},
  { ports: SchedulingPortsLive(TEST_PUBLIC_BASE, [scripted]).pipe(Layer.provide(SqlPortsLive)) }
)

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString()

layer(app, { timeout: "60 seconds" })(`connect pages (${engineName})`, (it) => {
  it.effect("a person connects Bluesky with an app password; wrong ones and foreign addresses are refused", () =>
    Effect.gen(function* () {
      const { url, handler, signUp } = yield* TestApp
      const user = yield* signUp()
      const call = (name: string, args: Record<string, unknown>) =>
        Effect.promise(async () => {
          const response = await handler(
            new Request(`${url}/v1/tools/${name}`, {
              method: "POST",
              headers: { authorization: `Bearer ${user.token}`, "content-type": "application/json" },
              body: JSON.stringify(args)
            })
          )
          return (await response.json()) as Record<string, unknown>
        })
      const link = yield* call("svc_connect_social_accounts", { platform: "bluesky" })
      expect(link).toMatchObject({ ok: true, accounts: [] })
      const connectUrl = String(link.connectUrl)
      expect(connectUrl.startsWith(`${TEST_PUBLIC_BASE}/connect/`)).toBe(true)
      const path = connectUrl.slice(TEST_PUBLIC_BASE.length)
      const send = (method: string, to: string, body?: string, origin = url) =>
        Effect.promise(async () => {
          const response = await handler(
            new Request(`${url}${to}`, {
              method,
              headers: body === undefined ? {} : { "content-type": "application/x-www-form-urlencoded", origin },
              ...(body === undefined ? {} : { body })
            })
          )
          return { status: response.status, text: await response.text() }
        })

      const shown = yield* send("GET", path)
      expect(shown.status).toBe(200)
      expect(shown.text).toContain("Connect a social account")
      expect(shown.text).toContain(`action="${url}${path}/bluesky"`)
      expect(shown.text).toContain("App password")

      const wrong = yield* send(
        "POST",
        `${path}/bluesky`,
        form({ serviceUrl: "https://pds.example", identifier: "@me.example", appPassword: "guess" })
      )
      expect(wrong.status).toBe(422)
      expect(wrong.text).toContain("refused these credentials")
      // The handle typed is kept; the password never comes back.
      expect(wrong.text).toContain('value="me.example"')
      expect(wrong.text).not.toContain("guess")

      const inside = yield* send(
        "POST",
        `${path}/bluesky`,
        form({ serviceUrl: "http://10.0.0.5", identifier: "me.example", appPassword: "right-one" })
      )
      expect(inside.status).toBe(422)
      expect(inside.text).toContain("https address")
      const crossSite = yield* send(
        "POST",
        `${path}/bluesky`,
        form({ serviceUrl: "https://pds.example", identifier: "me.example", appPassword: "right-one" }),
        "https://evil.example"
      )
      expect(crossSite.status).toBe(403)

      const connected = yield* send(
        "POST",
        `${path}/bluesky`,
        form({ serviceUrl: "https://pds.example/", identifier: "me.example", appPassword: "right-one" })
      )
      expect(connected.status).toBe(200)
      expect(connected.text).toContain("me.example on bluesky is connected")
      expect(checked.at(-1)).toEqual({
        serviceUrl: "https://pds.example",
        credentials: { identifier: "me.example", appPassword: "right-one" }
      })
      const schedules = yield* call("svc_list_schedules", {})
      expect(schedules.accounts).toMatchObject([{ platform: "bluesky", handle: "me.example", status: "connected" }])
      expect(schedules.publishableTo).toEqual(["feed", "bluesky"])
      expect((yield* send("GET", path)).text).toContain("<strong>me.example</strong> (bluesky)")

      // A forged or altered link opens nothing.
      expect((yield* send("GET", `${path}x`)).status).toBe(404)
      expect((yield* send("GET", "/connect/not-a-token")).status).toBe(404)
    })
  )

  describe("the tool", () => {
    it.effect("answers a link only to a write-scoped caller on the Starter plan", () =>
      Effect.gen(function* () {
        const { url, handler, signUp } = yield* TestApp
        const free = yield* signUp({ plan: "free" })
        const response = yield* Effect.promise(() =>
          handler(
            new Request(`${url}/v1/tools/svc_connect_social_accounts`, {
              method: "POST",
              headers: { authorization: `Bearer ${free.token}`, "content-type": "application/json" },
              body: "{}"
            })
          )
        )
        expect(response.status).toBe(403)
        const body = (yield* Effect.promise(() => response.json())) as { message: string }
        expect(body.message).toContain("Starter")
      })
    )
  })
})
