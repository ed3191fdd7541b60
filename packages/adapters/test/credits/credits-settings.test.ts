/** The AI credits line of the settings page, over HTTP with a signed-in browser. */
import { expect, layer } from "@effect/vitest"
import { Credits, periodOf, refillsOn } from "@svc/core/credits"
import { Clock, Effect } from "effect"
import { TestApp } from "../support/app.js"
import { Browser, formFields, TEST_PASSWORD } from "../oauth/support.js"

layer(TestApp.layer, { excludeTestServices: true, timeout: "120 seconds" })((it) => {
  it.effect("the settings page shows the balance, the allowance left, extra credits and the refill day", () =>
    Effect.gen(function* () {
      const app = yield* TestApp
      const user = yield* app.signUp({ plan: "free" })
      yield* app.setUp(
        Effect.gen(function* () {
          const credits = yield* Credits
          yield* credits.grant({ accountId: user.account.id, key: "gift", tenths: 25, reason: "gift" })
          yield* credits.charge({ accountId: user.account.id, callId: "call-1", tenths: 400, reason: "ask" })
        })
      )
      const refill = refillsOn(periodOf(yield* Clock.currentTimeMillis))
      const page = yield* Effect.promise(async () => {
        const browser = new Browser(app.url)
        const entry = await browser.get(`${app.url}/settings`)
        const signInPage = await browser.get(entry.response.headers.get("location") ?? "")
        await browser.post(`${app.url}/oauth/sign-in`, {
          ...formFields(signInPage.text, "/oauth/sign-in"),
          email: user.account.email,
          password: TEST_PASSWORD
        })
        return (await browser.get(`${app.url}/settings`)).text
      })
      expect(page).toContain(`AI credits: 12.5 (10 of 50 monthly left, 2.5 extra; refills ${refill})`)
    })
  )
})
