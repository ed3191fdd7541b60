import { Clock, Effect } from "effect"
import type { EventRecord } from "../events/schema.js"
import type { StoreCaller } from "./caller.js"
import { StoreFeedRepo } from "./ports.js"

/** Events a feed shows: up to 50, from the last 30 days. */
export const FEED_SIZE = 50
const FEED_DAYS = 30

/** The polling feeds of the store, each a view of the event log. */
export class StoreFeeds extends Effect.Service<StoreFeeds>()("svc/store/StoreFeeds", {
  effect: Effect.gen(function* () {
    const repo = yield* StoreFeedRepo

    const read = (
      caller: StoreCaller,
      types: ReadonlyArray<string>,
      productId: string | undefined,
      paidSales?: "all" | "memberships"
    ) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        repo.recent(caller.workspaceId, {
          types,
          since: new Date(now - FEED_DAYS * 86_400_000),
          productId,
          paidSales,
          limit: FEED_SIZE
        })
      )

    // The event id is the row id: stable, and each renewal and refund has its own.
    const row = (event: EventRecord, extra: Record<string, unknown> = {}) => ({
      ...event.data,
      ...extra,
      id: event.id,
      created_at: event.createdAt.toISOString()
    })

    /** New paid sales (free claims, refunds and test sales left out); each row is the sale row. */
    const sales = (caller: StoreCaller, productId?: string) =>
      Effect.map(read(caller, ["purchase.created"], productId, "all"), (events) => ({
        ok: true as const,
        sales: events.map((e) => ({ ...e.data, event_id: e.id }))
      }))

    /** New customers however they came: bought, free, own checkout, added. */
    const customers = (caller: StoreCaller, productId?: string) =>
      Effect.map(read(caller, ["customer.created"], productId), (events) => ({
        ok: true as const,
        customers: events.map((e) => row(e))
      }))

    /** Membership payments: the first one and every renewal, each its own id. */
    const payments = (caller: StoreCaller, productId?: string) =>
      Effect.map(read(caller, ["purchase.created", "membership.renewed"], productId, "memberships"), (events) => ({
        ok: true as const,
        payments: events.map((e) =>
          e.type === "membership.renewed" ? row(e) : row(e, { sale_id: e.data.id, payment: "first" })
        )
      }))

    /** Memberships cancelled or ended: a cancel and the later end are two events. */
    const changes = (caller: StoreCaller, productId?: string) =>
      Effect.map(read(caller, ["membership.cancelled", "purchase.membership_ended"], productId), (events) => ({
        ok: true as const,
        changes: events.map((e) => row(e))
      }))

    /** Refunds, each its own id (an own checkout's refund leaves the sale row unchanged). */
    const refunds = (caller: StoreCaller, productId?: string) =>
      Effect.map(read(caller, ["purchase.refunded"], productId), (events) => ({
        ok: true as const,
        refunds: events.map((e) => row(e))
      }))

    return { sales, customers, payments, changes, refunds } as const
  })
}) {}
