import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type { HttpServerRequest } from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import type { NotFound } from "@svc/core/shared"
import {
  type EventResult,
  type ProcessorFailure,
  ProcessorEvents,
  type ProcessorSignatureRefused,
  STRIPE_CONNECT_WEBHOOK_PATH
} from "@svc/core/store"
import { Effect, type Layer } from "effect"
import { readBodyText } from "../body.js"

/** Stripe's events are a few kilobytes; its documented ceiling for a payload is far below this. */
const MAX_EVENT_BYTES = 512 * 1024

const json = (status: number, body: Record<string, unknown>) =>
  HttpServerResponse.unsafeJson(body, { status, headers: { "cache-control": "no-store" } })

/**
 * `POST /stripe/webhooks/<workspace id>`: the store's Stripe events; `POST /stripe/connect/webhooks`: the events of
 * every account connected through the server's platform (Stripe Connect), each naming its account. The signature is checked against the store's
 * webhook signing secret over the body exactly as sent, and each event is applied once. A 2xx tells Stripe it landed;
 * anything else makes Stripe send it again later (for up to three days), which is what a failure to apply wants.
 */
export const StripeWebhookRoutes: Layer.Layer<never, never, HttpLayerRouter.HttpRouter | ProcessorEvents> =
  HttpLayerRouter.use((router) =>
    Effect.gen(function* () {
      const events = yield* ProcessorEvents

      /** Reads the signed body and applies it with `apply`, answering Stripe as each outcome asks. */
      const answerEvent = (
        request: HttpServerRequest,
        apply: (
          payload: string,
          signature: string
        ) => Effect.Effect<EventResult, NotFound | ProcessorSignatureRefused | ProcessorFailure>
      ) =>
        Effect.gen(function* () {
          const signature = request.headers["stripe-signature"]
          if (signature === undefined || signature === "") {
            return json(400, {
              error: "missing_signature",
              message: "no Stripe-Signature header: only Stripe sends here"
            })
          }
          const read = yield* Effect.either(readBodyText(request, MAX_EVENT_BYTES))
          if (read._tag === "Left") {
            return json(400, { error: "unreadable_body", message: read.left.message })
          }
          return yield* apply(read.right, signature).pipe(
            Effect.map((result) => json(200, { received: true, result })),
            Effect.catchTags({
              NotFound: (error) => Effect.succeed(json(404, { error: "not_found", message: error.message })),
              ProcessorSignatureRefused: (error) =>
                Effect.succeed(json(400, { error: "bad_signature", message: error.message })),
              // Stripe could not be told what the event needs (a plan's end): it sends the event again.
              ProcessorFailure: (error) =>
                Effect.succeed(json(503, { error: "processor_unavailable", message: error.message }))
            })
          )
        }).pipe(
          Effect.catchAllDefect((defect) =>
            Effect.as(
              Effect.logError("a Stripe event failed", defect),
              json(500, { error: "server_error", message: "the event was not applied; Stripe will send it again" })
            )
          )
        )

      const receive = (request: HttpServerRequest) =>
        Effect.flatMap(HttpLayerRouter.params, (params) =>
          answerEvent(request, (payload, signature) => events.receive(params.workspace ?? "", payload, signature))
        )

      yield* router.add("POST", STRIPE_CONNECT_WEBHOOK_PATH, (request) => answerEvent(request, events.receiveConnect))
      yield* router.add("POST", "/stripe/webhooks/:workspace", receive)
    })
  )
