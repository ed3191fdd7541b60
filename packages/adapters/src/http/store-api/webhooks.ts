import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import { pagedAnswer } from "@svc/core/store"
import { StoreApi, StoreBadRequest, StoreInvalid } from "@svc/core/store-api"
import {
  createdWebhookApiAnswer,
  deliveryPageJson,
  eventApiAnswer,
  eventPageJson,
  eventTypesApiAnswer,
  HttpSender,
  readDeliveriesQuery,
  readEventsQuery,
  removedWebhookApiAnswer,
  resentDeliveryApiAnswer,
  RollSecretBody,
  rolledSecretApiAnswer,
  TestWebhookBody,
  testSendApiAnswer,
  webhookApiAnswer,
  webhookListApiAnswer,
  Webhooks
} from "@svc/core/webhooks"
import { Effect, Either, ParseResult, Schema } from "effect"
import { OutboundSettings } from "../../http-sender/config.js"
import { withCaller } from "./caller.js"
import { answer } from "./errors.js"
import { problemsMessage, tidyProblems } from "./responses.js"
import { withSpan } from "@svc/core/shared"

/**
 * Reads a body that may be left out entirely (`curl -X POST` sends none): empty means `{}`, anything
 * else must be a JSON object the endpoint's schema accepts, answered like the platform's own checks.
 */
const optionalBody = <A, I>(request: HttpServerRequest.HttpServerRequest, schema: Schema.Schema<A, I>) =>
  Effect.gen(function* () {
    const text = yield* Effect.orElseSucceed(request.text, () => "")
    let parsed: unknown = {}
    if (text.trim() !== "") {
      try {
        parsed = JSON.parse(text)
      } catch {
        return yield* Effect.fail(
          new StoreBadRequest({ message: "the body must be a JSON object (Content-Type: application/json)" })
        )
      }
    }
    const decoded = Schema.decodeUnknownEither(schema)(parsed)
    if (Either.isRight(decoded)) return decoded.right
    const errors = tidyProblems(
      ParseResult.ArrayFormatter.formatErrorSync(decoded.left).map((issue) => ({
        path: issue.path.map(String).join("."),
        message: issue.message
      }))
    )
    return yield* Effect.fail(
      new StoreInvalid({
        message: problemsMessage(errors),
        errors
      })
    )
  })

/** Webhook management routes of the store API. */
export const WebhooksHandlersLive = HttpApiBuilder.group(StoreApi, "webhooks", (handlers) =>
  Effect.gen(function* () {
    const webhooks = yield* Webhooks
    const sender = yield* HttpSender
    // Test-only loopback receivers: the same switch the sender reads, never from a request.
    const policy = { allowLoopback: (yield* OutboundSettings).allowLoopback }
    return handlers
      .handle("eventTypes", () =>
        Effect.map(webhooks.eventTypes(), eventTypesApiAnswer).pipe(withSpan("StoreApi.webhooks.eventTypes"))
      )
      .handle("list", () =>
        withCaller("webhooks.list", (caller) => Effect.map(webhooks.list(caller), webhookListApiAnswer))
      )
      .handle("create", ({ payload }) =>
        withCaller("webhooks.create", (caller) =>
          answer(Effect.map(webhooks.create(caller, payload, policy), createdWebhookApiAnswer))
        )
      )
      .handle("get", ({ path }) =>
        withCaller("webhooks.get", (caller) => answer(Effect.map(webhooks.get(caller, path.id), webhookApiAnswer)))
      )
      .handle("update", ({ path, payload }) =>
        withCaller("webhooks.update", (caller) =>
          answer(Effect.map(webhooks.update(caller, path.id, payload, policy), webhookApiAnswer))
        )
      )
      .handle("remove", ({ path }) =>
        withCaller("webhooks.remove", (caller) =>
          answer(Effect.as(webhooks.remove(caller, path.id), removedWebhookApiAnswer(path.id)))
        )
      )
      .handleRaw("rollSecret", ({ path, request }) =>
        withCaller("webhooks.rollSecret", (caller) =>
          Effect.flatMap(optionalBody(request, RollSecretBody), (body) =>
            answer(Effect.map(webhooks.rollSecret(caller, path.id, body.grace_seconds), rolledSecretApiAnswer))
          )
        )
      )
      .handleRaw("test", ({ path, request }) =>
        withCaller("webhooks.test", (caller) =>
          Effect.flatMap(optionalBody(request, TestWebhookBody), (body) =>
            answer(Effect.map(webhooks.test(caller, path.id, body.type), testSendApiAnswer)).pipe(
              Effect.provideService(HttpSender, sender)
            )
          )
        )
      )
      .handle("deliveries", ({ path, urlParams }) =>
        withCaller("webhooks.deliveries", (caller) =>
          answer(
            pagedAnswer(
              readDeliveriesQuery(urlParams),
              (query) => webhooks.deliveries(caller, path.id, query),
              deliveryPageJson
            )
          )
        )
      )
      .handle("resend", ({ path }) =>
        withCaller("webhooks.resend", (caller) =>
          answer(Effect.map(webhooks.resend(caller, path.id), resentDeliveryApiAnswer))
        )
      )
      .handle("events", ({ urlParams }) =>
        withCaller("webhooks.events", (caller) =>
          answer(pagedAnswer(readEventsQuery(urlParams), (query) => webhooks.events(caller, query), eventPageJson))
        )
      )
      .handle("event", ({ path }) =>
        withCaller("webhooks.event", (caller) => answer(Effect.map(webhooks.event(caller, path.id), eventApiAnswer)))
      )
  })
)
