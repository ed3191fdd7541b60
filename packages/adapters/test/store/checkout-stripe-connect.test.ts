/**
 * Stripe Connect (issue 42), through the real app over HTTP: the server offers its Stripe platform, the owner
 * connects the store's Stripe account from the settings page (Stripe's authorization answered by the recorded
 * exchanges), the checkout opens Stripe's page on the connected account, the platform's Connect endpoint applies
 * the account's events to its store, and the seller's or Stripe's disconnection turns the card processor off.
 */
import { expect, layer } from "@effect/vitest"
import { ProcessorPlatform } from "@svc/core/store"
import { Effect, Layer } from "effect"
import { Browser, formFields, TEST_PASSWORD } from "../oauth/support.js"
import { TestApp } from "../support/app.js"
import { engineName } from "../support/database.js"
import { Buyer, checkoutSeller, fresh } from "./checkout-support.js"
import { eventOf, lastAttempt, postSigned, replayed, type Seller, stripeAtReplay } from "./checkout-stripe-support.js"

const PLATFORM = {
  clientId: "ca_QzPlatformClientId0000000001",
  secretKey: "sk_test_51QzPlatFormKeyNotARealKey0000000000000000000000000000000000000000000000000Pf4m",
  webhookSecret: "whsec_QzPlatformConnectEndpoint0001"
}
const ACCOUNT = "acct_1QzConnSellerLg7TdW"
const CS_CONNECT = "cs_test_c1Cn5Yb8sE1vG4xI7zK0lN3qS6uW9yA2dF5hJ8mP1rT4vX7zB0"

/** Posts a Connect event (about `account`) to the platform's endpoint, signed with `secret`. */
const sendConnectEvent = (s: Seller, payload: string, secret = PLATFORM.webhookSecret) =>
  postSigned(`${s.app.url}/stripe/connect/webhooks`, payload, secret)

/** `payload` (a recorded event) as the Connect endpoint gets it: about `account`. */
const about = (account: string, payload: string) => JSON.stringify({ ...JSON.parse(payload), account })

/** The seller's browser, signed in to the settings page. */
const signedIn = (s: Seller) =>
  Effect.promise(async () => {
    const browser = new Browser(s.app.url)
    const entry = await browser.get(`${s.app.url}/settings`)
    const signInPage = await browser.get(entry.response.headers.get("location") ?? "")
    await browser.post(`${s.app.url}/oauth/sign-in`, {
      ...formFields(signInPage.text, "/oauth/sign-in"),
      email: s.user.account.email,
      password: TEST_PASSWORD
    })
    const page = await browser.get(`${s.app.url}/settings`)
    expect(page.response.status).toBe(200)
    return { browser, page: page.text }
  })

/** Starts Stripe Connect from the settings page: the address of Stripe's authorization page it sends the owner to. */
const startConnect = (s: Seller, browser: Browser) =>
  Effect.promise(async () => {
    const page = await browser.get(`${s.app.url}/settings`)
    expect(page.text).toContain("Connect with Stripe")
    const started = await browser.post(
      `${s.app.url}/settings/store/stripe/connect`,
      formFields(page.text, "/settings/store/stripe/connect")
    )
    expect(started.response.status, started.text).toBe(303)
    return new URL(started.response.headers.get("location") ?? "")
  })

const platformLayer = Layer.mergeAll(stripeAtReplay(), Layer.succeed(ProcessorPlatform, { connect: PLATFORM }))

layer(TestApp.layerWith({}, { ports: platformLayer }), { excludeTestServices: true, timeout: "120 seconds" })(
  `Stripe Connect on ${engineName}`,
  (it) => {
    it.effect("the owner connects through Stripe, a buyer pays on the connected account, its events land", () =>
      Effect.gen(function* () {
        const s = yield* checkoutSeller
        // The test processor is on until Stripe is connected.
        expect((yield* s.storeApi("GET", "/settings")).body.settings).toMatchObject({ stripe: null })
        const { browser } = yield* signedIn(s)
        const authorize = yield* startConnect(s, browser)
        expect(authorize.origin + authorize.pathname).toBe("https://connect.stripe.com/oauth/authorize")
        expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
          response_type: "code",
          client_id: PLATFORM.clientId,
          scope: "read_write",
          redirect_uri: "http://svc.test/settings/store/stripe/connect/return"
        })
        const state = authorize.searchParams.get("state") ?? ""
        expect(state.length).toBeGreaterThan(20)

        // Stripe sends the owner back with a code; a state this session did not start is refused.
        const back = (query: string, who = browser) =>
          Effect.promise(() => who.get(`${s.app.url}/settings/store/stripe/connect/return?${query}`))
        const forged = yield* back(`code=ac_QzConnectFirst0000001&state=not-the-state`)
        expect(forged.response.status).not.toBe(303)
        const returned = yield* back(`code=ac_QzConnectFirst0000001&state=${state}`)
        expect(returned.response.status, returned.text).toBe(303)
        expect(returned.response.headers.get("location")).toBe(`${s.app.url}/settings?notice=stripe-connected`)
        // The state is spent: the same link again does nothing.
        expect((yield* back(`code=ac_QzConnectFirst0000001&state=${state}`)).response.status).not.toBe(303)
        const settings = (yield* s.storeApi("GET", "/settings")).body.settings
        expect(settings).toMatchObject({
          card_processor: "connected",
          stripe: {
            via: "connect",
            account_id: ACCOUNT,
            livemode: false,
            webhook_url: "http://svc.test/stripe/connect/webhooks"
          }
        })
        const shown = yield* Effect.promise(() => browser.get(`${s.app.url}/settings`))
        expect(shown.text).toContain("through Stripe Connect")

        // The buyer pays on the connected account: the platform's key, naming the account.
        const id = yield* s.product({ title: "Tide atlas", price_cents: 3300 })
        const buyer = new Buyer(s.app.url)
        const page = `${s.app.url}/c/${id}`
        const opened = yield* Effect.promise(() => buyer.open(page))
        const email = fresh("cora")
        const sent = yield* Effect.promise(() => buyer.post(opened.text, page, { email }))
        yield* Effect.promise(() => buyer.close())
        expect(sent.status, sent.text).toBe(303)
        expect(sent.headers.get("location")).toBe(`https://checkout.stripe.com/c/pay/${CS_CONNECT}`)
        const asked = replayed()
          .received.filter((r) => r.path === "/v1/checkout/sessions")
          .at(-1)
        expect(asked?.headers["stripe-account"]).toBe(ACCOUNT)
        expect(asked?.headers.authorization).toBe(`Bearer ${PLATFORM.secretKey}`)
        const { attempt } = yield* lastAttempt()

        // The account's events come to the platform's endpoint, and land in its store once.
        const completed = about(
          ACCOUNT,
          eventOf("checkout.session.completed-payment", (o) => {
            o.id = CS_CONNECT
            o.client_reference_id = attempt
            o.amount_total = 3300
          })
        )
        expect((yield* sendConnectEvent(s, completed, "whsec_NotThePlatformsSecret00")).status).toBe(400)
        expect(yield* sendConnectEvent(s, completed)).toEqual({
          status: 200,
          body: { received: true, result: "applied" }
        })
        expect((yield* sendConnectEvent(s, completed)).body).toMatchObject({ result: "duplicate" })
        expect(yield* s.sales).toMatchObject([{ buyer_email: email, amount_cents: 3300, test: false }])
        // An account no store has is ignored (Stripe stops sending it); the store's own endpoint has no keys.
        const stranger = about(
          "acct_1QzSomeoneElse000000",
          eventOf("checkout.session.expired", () => {})
        )
        expect((yield* sendConnectEvent(s, stranger)).body).toMatchObject({ result: "ignored" })

        // The seller removes the platform in Stripe's dashboard: the store is disconnected, the processor off.
        const deauthorized = about(
          ACCOUNT,
          eventOf("account.application.deauthorized", () => {})
        )
        expect((yield* sendConnectEvent(s, deauthorized)).body).toMatchObject({ result: "applied" })
        expect((yield* s.storeApi("GET", "/settings")).body.settings).toMatchObject({
          card_processor: "none",
          stripe: null
        })

        // Connected again, then disconnected from the settings page: the platform lets the account go at Stripe.
        const again = yield* startConnect(s, browser)
        const reconnected = yield* back(`code=ac_QzConnectAgain0000002&state=${again.searchParams.get("state")}`)
        expect(reconnected.response.status, reconnected.text).toBe(303)
        const before = yield* Effect.promise(() => browser.get(`${s.app.url}/settings`))
        const disconnected = yield* Effect.promise(() =>
          browser.post(
            `${s.app.url}/settings/store/stripe/disconnect`,
            formFields(before.text, "/settings/store/stripe/disconnect")
          )
        )
        expect(disconnected.response.headers.get("location")).toBe(`${s.app.url}/settings?notice=stripe-disconnected`)
        const letGo = replayed().received.filter((r) => r.path === "/oauth/deauthorize")
        expect(letGo).toHaveLength(1)
        expect((yield* s.storeApi("GET", "/settings")).body.settings).toMatchObject({ stripe: null })
      })
    )

    it.effect("an owner who refuses on Stripe is told so, and nothing is connected", () =>
      Effect.gen(function* () {
        const s = yield* checkoutSeller
        const { browser } = yield* signedIn(s)
        const authorize = yield* startConnect(s, browser)
        const refused = yield* Effect.promise(() =>
          browser.get(
            `${s.app.url}/settings/store/stripe/connect/return?error=access_denied&error_description=The+user+denied+your+request&state=${authorize.searchParams.get("state")}`
          )
        )
        expect(refused.response.status).toBe(400)
        expect(refused.text).toContain("Stripe was not connected: The user denied your request")
        expect((yield* s.storeApi("GET", "/settings")).body.settings).toMatchObject({ stripe: null })
      })
    )
  }
)
