import { Context, type Effect, type Option } from "effect"
import type { Page, PageRequest } from "../shared/paging.js"
import type { CreatedRange } from "../shared/paging.js"
import type { AttemptView, DeliveryState, StoredEvent, Webhook, WebhookChanges } from "./schema.js"

/** Webhooks, their delivery log and the event log, as the management routes see them. */
export class WebhooksRepo extends Context.Tag("svc/webhooks/WebhooksRepo")<
  WebhooksRepo,
  {
    /**
     * Inserts the webhook unless the workspace already has `max`; concurrent creates count one after
     * another, so the limit holds. Answers whether it was inserted.
     */
    readonly create: (webhook: Webhook, max: number) => Effect.Effect<boolean>
    readonly find: (workspaceId: string, id: string) => Effect.Effect<Option.Option<Webhook>>
    /** The workspace's webhooks, newest first. */
    readonly list: (workspaceId: string) => Effect.Effect<ReadonlyArray<Webhook>>
    /**
     * Changes only the columns named. Turning it on clears `disabled_reason` and `failing_since`, turning
     * it off sets reason `owner`; either only when the state actually changes.
     */
    readonly update: (
      workspaceId: string,
      id: string,
      changes: WebhookChanges,
      at: Date
    ) => Effect.Effect<Option.Option<Webhook>>
    /**
     * Makes `sealed` the current secret. With `previousUntil` the current one keeps signing until then;
     * without, it stops at once (and any earlier previous secret with it).
     */
    readonly rollSecret: (
      workspaceId: string,
      id: string,
      sealed: string,
      previousUntil: Date | null,
      at: Date
    ) => Effect.Effect<Option.Option<Webhook>>
    /** Deletes the webhook with its deliveries and attempts; answers whether it existed. */
    readonly remove: (workspaceId: string, id: string) => Effect.Effect<boolean>
    /** The attempts of a webhook's deliveries, newest first (page keys are attempt times). */
    readonly listAttempts: (
      workspaceId: string,
      webhookId: string,
      range: CreatedRange,
      page: PageRequest
    ) => Effect.Effect<Page<AttemptView>>
    /**
     * The delivery named by its own id (`dlv_…`) or by the id of one of its attempts (`att_…`, the `id` of a
     * delivery log row), locked until the transaction ends (a worker's claim waits, and so do we).
     */
    readonly lockDelivery: (workspaceId: string, id: string) => Effect.Effect<Option.Option<DeliveryState>>
    /** Puts a delivery back in the queue: pending now, trigger `resend`, attempt count from zero. */
    readonly requeue: (id: string, at: Date) => Effect.Effect<void>
    /** Events of the given types since `since`, newest first. */
    readonly listEvents: (
      workspaceId: string,
      filter: { readonly types: ReadonlyArray<string>; readonly since: Date } & CreatedRange,
      page: PageRequest
    ) => Effect.Effect<Page<StoredEvent>>
    readonly findEvent: (workspaceId: string, id: string, since: Date) => Effect.Effect<Option.Option<StoredEvent>>
  }
>() {}
