/**
 * What the Stripe checkout tests share: the app's card processor on a replay server of recorded Stripe answers,
 * Stripe's events (the adapter's recorded ones) signed as Stripe signs them, and a seller with Stripe connected.
 */
import { readFileSync } from "node:fs"
import { expect } from "@effect/vitest"
import { CardProcessor, StorePages } from "@svc/core/store"
import { Effect, Layer } from "effect"
import Stripe from "stripe"
import { makeStripeProcessor } from "../../src/payments/stripe.js"
import { formOf, loadRecording, type ReplayServer, startReplayServer } from "../support/replay-server.js"
import { Buyer, checkoutSeller } from "./checkout-support.js"

export const SECRET_KEY = "sk_test_51QxHbRLg7TdWvK2mReplayKeyNotARealKey0000000000000000000000000000000000000000000Qz7w"
export const WEBHOOK_SECRET = "whsec_Hq7Tz3kR9mW2xN5vB8cL4pY6sD0fG2hJ"

let replay: ReplayServer | undefined
export const replayed = () => {
  if (replay === undefined) throw new Error("the replay server is not running")
  return replay
}

// Stripe, as the app's card processor, is the replay server of the recorded answers.
export const stripeAtReplay = (publicBase = "http://svc.test") =>
  Layer.unwrapScoped(
    Effect.map(
      startReplayServer(loadRecording(new URL("./recordings/stripe-checkout.json", import.meta.url)).exchanges),
      (server) => {
        replay = server
        return Layer.mergeAll(
          Layer.succeed(CardProcessor, makeStripeProcessor({ apiBase: server.origin, maxNetworkRetries: 0 })),
          // The public address Stripe sends buyers back to and its events to, as a server's PUBLIC_URL gives it.
          Layer.succeed(StorePages, { settingsPage: `${publicBase}/settings`, publicBase })
        )
      }
    )
  )

const eventsDir = new URL("../payments/recordings/stripe/events/", import.meta.url)

/** One of the recorded events, with `change` applied to its object and a fresh id (Stripe's ids never repeat). */
export const eventOf = (file: string, change: (object: Record<string, unknown>) => void, id?: string) => {
  const event = JSON.parse(readFileSync(new URL(`${file}.json`, eventsDir), "utf8")) as {
    id: string
    data: { object: Record<string, unknown> }
  }
  event.id = id ?? `evt_${Math.random().toString(36).slice(2, 14)}`
  change(event.data.object)
  return JSON.stringify(event)
}

export type Seller = Effect.Effect.Success<typeof checkoutSeller>

/** Posts `payload` to `url` as Stripe sends its events, signed with `secret`. */
export const postSigned = (url: string, payload: string, secret: string) =>
  Effect.promise(async () => {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "stripe-signature": Stripe.webhooks.generateTestHeaderString({ payload, secret })
      },
      body: payload
    })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  })

/** Posts `payload` to the store's webhook as Stripe does, signed with `secret`. */
export const sendEvent = (s: Seller, payload: string, secret = WEBHOOK_SECRET) =>
  postSigned(`${s.app.url}/stripe/webhooks/${s.workspaceId}`, payload, secret)

/** The attempt the checkout sent Stripe in its last Checkout Session request. */
export const lastAttempt = () =>
  Effect.promise(async () => {
    const sent = replayed().received.filter((r) => r.path === "/v1/checkout/sessions")
    const last = sent[sent.length - 1]
    if (last === undefined) throw new Error("no Checkout Session was asked for")
    const form = await formOf(last.headers, last.body)
    return { form, attempt: String(form?.get("client_reference_id") ?? "") }
  })

/** Opens the product's checkout, sends the form with `typed`, and checks the buyer goes to Stripe's page `session`. */
export const payOnStripe = (s: Seller, productId: string, typed: Record<string, string>, session: string) =>
  Effect.gen(function* () {
    const buyer = new Buyer(s.app.url)
    const page = `${s.app.url}/c/${productId}`
    const opened = yield* Effect.promise(() => buyer.open(page))
    const sent = yield* Effect.promise(() => buyer.post(opened.text, page, typed))
    yield* Effect.promise(() => buyer.close())
    expect(sent.status, sent.text).toBe(303)
    expect(sent.headers.get("location")).toBe(`https://checkout.stripe.com/c/pay/${session}`)
    return yield* lastAttempt()
  })

export const connected = Effect.gen(function* () {
  const s = yield* checkoutSeller
  const put = yield* s.storeApi("PUT", "/settings/stripe", { secret_key: SECRET_KEY, webhook_secret: WEBHOOK_SECRET })
  expect(put.status, JSON.stringify(put.body)).toBe(200)
  return s
})

/**
 * Subscribes on Stripe: the checkout opens Stripe's page `session`, and the answer is Stripe's completion of it,
 * paid, with `subscription` (for the test to send).
 */
export const subscribeOnStripe = (
  s: Seller,
  productId: string,
  typed: Record<string, string>,
  paid: { readonly session: string; readonly subscription: string; readonly amountCents: number }
) =>
  Effect.map(payOnStripe(s, productId, typed, paid.session), ({ attempt }) =>
    eventOf("checkout.session.completed-trial", (o) => {
      o.id = paid.session
      o.client_reference_id = attempt
      o.subscription = paid.subscription
      o.payment_status = "paid"
      o.amount_total = paid.amountCents
    })
  )
