import { Clock, Effect, Option } from "effect"
import type { StoreCaller } from "../auth/store-caller.js"
import { Conflict, FieldProblem, InvalidInput, invalid, NotFound } from "../shared/errors.js"
import type { CreatedRange, Page, PageRequest } from "../shared/paging.js"
import { Ids, Transactor } from "../shared/ports.js"
import { checkReceiverUrl, isLoopbackHost, normalizedReceiverUrl, refusalMessage } from "./address.js"
import { attemptDelivery } from "./attempt.js"
import { envelopeBody, type WebhookEnvelope } from "./envelope.js"
import { ALL_EVENTS, isWebhookEventType, WEBHOOK_EVENT_TYPES, type WebhookEventType } from "./event-types.js"
import { MAX_WEBHOOKS_PER_WORKSPACE, RETENTION_MS } from "./policy.js"
import { WebhookSamples } from "./ports.js"
import { WebhooksRepo } from "./repo.js"
import {
  type AttemptView,
  eventTypeGroups,
  ROLL_GRACE_MAX_SECONDS,
  type StoredEvent,
  type Webhook,
  type WebhookChanges,
  WEBHOOK_URL_MAX
} from "./schema.js"
import { signingSecrets, WebhookSecrets } from "./secrets.js"
import type {
  EventTypeGroup,
  LoggedEvent,
  RequeuedDelivery,
  RolledSecret,
  TestSend,
  WebhookWithSecretValue
} from "./webhook-view.js"

/** Which receivers the server admits; loopback only with the test switch, read by the adapters, never from a request. */
export interface ReceiverPolicy {
  readonly allowLoopback: boolean
}

/** The event log to list: of one type or every published type, newest first. */
export interface EventsQuery {
  readonly type?: WebhookEventType | undefined
  readonly page: PageRequest
  readonly created: CreatedRange
}

/** `POST /webhooks` as decoded. */
export interface NewWebhook {
  readonly url: string
  readonly events: ReadonlyArray<string>
  readonly description?: string | null | undefined
}

/** `PATCH /webhooks/<id>` as decoded; a field left out is kept. */
export interface WebhookPatch {
  readonly url?: string | undefined
  readonly events?: ReadonlyArray<string> | undefined
  readonly description?: string | null | undefined
  readonly enabled?: boolean | undefined
}

/** Said after a refused loopback address while loopback receivers are off: the switch that admits them. */
export const LOOPBACK_SWITCH_HINT =
  "loopback receivers (localhost, 127.0.0.1) are for development and are off; the server's operator allows them with SVC_WEBHOOKS_ALLOW_LOOPBACK=true (allowLoopback in OutboundSettings when embedding)"

const namesLoopback = (text: string): boolean => {
  try {
    return isLoopbackHost(new URL(text).hostname)
  } catch {
    return false
  }
}

const checkUrl = (text: string, policy: ReceiverPolicy) => {
  if (text.length > WEBHOOK_URL_MAX)
    return Effect.fail(invalid("url", `url must be at most ${WEBHOOK_URL_MAX} characters`))
  const checked = checkReceiverUrl(text.trim(), policy)
  // Stored as the URL parser reads it (the address actually called), never as typed: `https://a.example\@10.0.0.1/`
  // is a request to a.example (path `/@10.0.0.1/`), and the webhook must say so.
  if (!checked.ok) {
    const hint = !policy.allowLoopback && namesLoopback(text.trim()) ? `; ${LOOPBACK_SWITCH_HINT}` : ""
    return Effect.fail(invalid("url", `url is not allowed: ${refusalMessage[checked.refusal]}${hint}`))
  }
  const normalized = normalizedReceiverUrl(checked.url.href)
  return normalized.length > WEBHOOK_URL_MAX
    ? Effect.fail(invalid("url", `url must be at most ${WEBHOOK_URL_MAX} characters once normalised`))
    : Effect.succeed(normalized)
}

/** The subscription as stored: `["*"]` when it names `*`, else the known types once each, in the order given. */
const checkEvents = (events: ReadonlyArray<string>) => {
  if (events.length === 0) {
    return Effect.fail(invalid("events", 'events must list at least one event type, or be ["*"] for every event'))
  }
  const unknown = events.flatMap((type, i) => (type === ALL_EVENTS || isWebhookEventType(type) ? [] : [{ type, i }]))
  if (unknown.length > 0) {
    const problems = unknown.map(
      ({ type, i }) =>
        new FieldProblem({
          path: `events.${i}`,
          message: `unknown event type "${type}"`,
          next: { _tag: "ListEventTypes" }
        })
    )
    return Effect.fail(
      new InvalidInput({
        message: problems.map((p) => p.message).join("; "),
        errors: problems,
        next: { _tag: "ListEventTypes" }
      })
    )
  }
  return Effect.succeed(events.includes(ALL_EVENTS) ? [ALL_EVENTS] : [...new Set(events)])
}

const cleanDescription = (description: string | null | undefined) =>
  description === undefined ? undefined : description === null || description.trim() === "" ? null : description.trim()

/** Managing a workspace's webhooks, their secrets and delivery log, and reading its recent events. */
export class Webhooks extends Effect.Service<Webhooks>()("svc/webhooks/Webhooks", {
  effect: Effect.gen(function* () {
    const repo = yield* WebhooksRepo
    const secrets = yield* WebhookSecrets
    const ids = yield* Ids
    const transactor = yield* Transactor
    const samples = yield* WebhookSamples

    const notFound = (id: string) => new NotFound({ message: `no webhook ${id} in this workspace` })

    const find = (caller: StoreCaller, id: string) =>
      Effect.flatMap(repo.find(caller.workspaceId, id), (found) =>
        Option.match(found, { onNone: () => Effect.fail(notFound(id)), onSome: Effect.succeed })
      )

    /** Every event type, grouped as the spec lists them. */
    const eventTypes = (): Effect.Effect<ReadonlyArray<EventTypeGroup>> => Effect.sync(eventTypeGroups)

    /** The workspace's webhooks, newest first. */
    const list = (caller: StoreCaller): Effect.Effect<ReadonlyArray<Webhook>> => repo.list(caller.workspaceId)

    /** A new webhook; its secret is in this answer and never again. */
    const create = (
      caller: StoreCaller,
      input: NewWebhook,
      policy: ReceiverPolicy
    ): Effect.Effect<WebhookWithSecretValue, InvalidInput> =>
      Effect.gen(function* () {
        const url = yield* checkUrl(input.url, policy)
        const events = yield* checkEvents(input.events)
        const secret = yield* secrets.generate
        const now = new Date(yield* Clock.currentTimeMillis)
        const webhook: Webhook = {
          id: yield* ids.make("wh_"),
          workspaceId: caller.workspaceId,
          url,
          events,
          description: cleanDescription(input.description) ?? null,
          enabled: true,
          disabledReason: null,
          secretSealed: yield* secrets.seal(secret),
          previousSecretSealed: null,
          previousSecretUntil: null,
          failingSince: null,
          createdAt: now,
          updatedAt: now
        }
        if (!(yield* repo.create(webhook, MAX_WEBHOOKS_PER_WORKSPACE))) {
          return yield* invalid(
            "",
            `a workspace can have at most ${MAX_WEBHOOKS_PER_WORKSPACE} webhooks; delete one before adding another`
          )
        }
        return { webhook, secret }
      })

    const get = (caller: StoreCaller, id: string): Effect.Effect<Webhook, NotFound> => find(caller, id)

    /** Changes the fields given; the webhook as it now is. */
    const update = (
      caller: StoreCaller,
      id: string,
      patch: WebhookPatch,
      policy: ReceiverPolicy
    ): Effect.Effect<Webhook, InvalidInput | NotFound> =>
      Effect.gen(function* () {
        const changes: {
          -readonly [K in keyof WebhookChanges]: WebhookChanges[K]
        } = {}
        if (patch.url !== undefined) changes.url = yield* checkUrl(patch.url, policy)
        if (patch.events !== undefined) changes.events = yield* checkEvents(patch.events)
        const description = cleanDescription(patch.description)
        if (description !== undefined) changes.description = description
        if (patch.enabled !== undefined) changes.enabled = patch.enabled
        const now = new Date(yield* Clock.currentTimeMillis)
        const updated = yield* repo.update(caller.workspaceId, id, changes, now)
        return yield* Option.match(updated, {
          onNone: () => Effect.fail(notFound(id)),
          onSome: Effect.succeed
        })
      })

    /** Deletes the webhook with its deliveries and attempts. */
    const remove = (caller: StoreCaller, id: string): Effect.Effect<void, NotFound> =>
      Effect.flatMap(repo.remove(caller.workspaceId, id), (removed) =>
        removed ? Effect.void : Effect.fail(notFound(id))
      )

    /** A new secret; the old one stops now, or keeps signing too for `graceSeconds`. */
    const rollSecret = (
      caller: StoreCaller,
      id: string,
      graceSeconds = 0
    ): Effect.Effect<RolledSecret, InvalidInput | NotFound> =>
      Effect.gen(function* () {
        if (!(Number.isInteger(graceSeconds) && graceSeconds >= 0 && graceSeconds <= ROLL_GRACE_MAX_SECONDS)) {
          return yield* invalid(
            "grace_seconds",
            `grace_seconds must be a whole number from 0 to ${ROLL_GRACE_MAX_SECONDS}`
          )
        }
        const secret = yield* secrets.generate
        const sealed = yield* secrets.seal(secret)
        const now = yield* Clock.currentTimeMillis
        const until = graceSeconds > 0 ? new Date(now + graceSeconds * 1000) : null
        const rolled = yield* repo.rollSecret(caller.workspaceId, id, sealed, until, new Date(now))
        if (Option.isNone(rolled)) return yield* notFound(id)
        return { webhook: rolled.value, secret, previousSecretExpiresAt: Option.fromNullable(until) }
      })

    /**
     * Sends a sample event of `type` now, signed like a delivery. Neither stored nor counted: a failure
     * (even a 410) changes nothing about the webhook.
     */
    const test = (caller: StoreCaller, id: string, type = "purchase.created") =>
      Effect.gen(function* () {
        if (!isWebhookEventType(type)) {
          return yield* invalid("type", `unknown event type "${type}"`, { _tag: "ListEventTypes" })
        }
        const webhook = yield* find(caller, id)
        const now = yield* Clock.currentTimeMillis
        const eventId = yield* ids.make("evt_test_")
        const body = envelopeBody(
          {
            id: eventId,
            workspaceId: caller.workspaceId,
            type,
            createdAt: new Date(now),
            data: samples.dataOf(type, new Date(now))
          },
          caller.store.handle
        )
        const result = yield* attemptDelivery({
          url: webhook.url,
          eventId,
          eventType: type,
          body,
          secrets: yield* signingSecrets(webhook, now)
        })
        return { eventId, result } satisfies TestSend
      }).pipe(Effect.provideService(WebhookSecrets, secrets))

    /** The attempts of the webhook's deliveries, newest first. */
    const deliveries = (
      caller: StoreCaller,
      id: string,
      query: { readonly page: PageRequest; readonly created: CreatedRange }
    ): Effect.Effect<Page<AttemptView>, NotFound> =>
      Effect.gen(function* () {
        yield* find(caller, id)
        // The delivery log is keyed by attempt time, as the repository pages it.
        return yield* repo.listAttempts(caller.workspaceId, id, query.created, query.page)
      })

    /**
     * Sends a delivery again: back in the queue now, with the retry schedule from the start. `deliveryId` is
     * the delivery's id or the id of any of its attempts, so every id the delivery log shows can be resent.
     */
    const resend = (caller: StoreCaller, deliveryId: string): Effect.Effect<RequeuedDelivery, NotFound | Conflict> =>
      transactor.withTransaction(
        Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis
          const found = yield* repo.lockDelivery(caller.workspaceId, deliveryId)
          if (Option.isNone(found)) {
            return yield* new NotFound({ message: `no delivery ${deliveryId} in this workspace` })
          }
          const delivery = found.value
          if (delivery.status === "sending" && (delivery.leaseUntil === null || delivery.leaseUntil.getTime() > now)) {
            return yield* new Conflict({
              message: "the delivery is being sent right now; resend it once it has finished"
            })
          }
          if (!delivery.webhookEnabled) {
            return yield* new Conflict({
              message: "the webhook is turned off; turn it on (PATCH enabled: true), then resend"
            })
          }
          yield* repo.requeue(delivery.id, new Date(now))
          return {
            id: delivery.id,
            webhookId: delivery.webhookId,
            eventId: delivery.eventId,
            nextAttemptAt: new Date(now)
          }
        })
      )

    const loggedOf = (event: StoredEvent, handle: string): LoggedEvent => ({
      id: event.id,
      createdAt: event.createdAt,
      envelope: JSON.parse(event.body ?? envelopeBody(event, handle)) as WebhookEnvelope
    })

    /** Events of the last 30 days, newest first, optionally of one type. */
    const events = (caller: StoreCaller, query: EventsQuery): Effect.Effect<Page<LoggedEvent>> =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const listed = yield* repo.listEvents(
          caller.workspaceId,
          {
            types: query.type === undefined ? WEBHOOK_EVENT_TYPES : [query.type],
            since: new Date(now - RETENTION_MS),
            ...query.created
          },
          query.page
        )
        return { rows: listed.rows.map((e) => loggedOf(e, caller.store.handle)), next: listed.next }
      })

    /** One event of the last 30 days. */
    const event = (caller: StoreCaller, id: string): Effect.Effect<LoggedEvent, NotFound> =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const found = yield* repo.findEvent(caller.workspaceId, id, new Date(now - RETENTION_MS))
        if (Option.isNone(found) || !isWebhookEventType(found.value.type)) {
          return yield* new NotFound({ message: `no event ${id} in this workspace in the last 30 days` })
        }
        return loggedOf(found.value, caller.store.handle)
      })

    return {
      eventTypes,
      list,
      create,
      get,
      update,
      remove,
      rollSecret,
      test,
      deliveries,
      resend,
      events,
      event
    } as const
  })
}) {}
