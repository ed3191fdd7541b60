import { Context, type Effect } from "effect"
import type { EventRecord } from "../../events/schema.js"

/** Which events a feed reads. */
export interface FeedQuery {
  readonly types: ReadonlyArray<string>
  readonly since: Date
  /** Only events whose `data.product_id` is this product. */
  readonly productId?: string | undefined
  /** Only events whose `data.tag_id` is this tag id, or whose `data.tag_name` is this name in any case. */
  readonly tag?: string | undefined
  /** Only events whose `data.quiz_id` is this form. */
  readonly quizId?: string | undefined
  /** `purchase.created` events only when the sale was paid (and, with `memberships`, billed monthly or yearly). */
  readonly paidSales?: "all" | "memberships" | undefined
  /** Leave out events of the built-in test processor (`data.test` true). */
  readonly leaveOutTest?: boolean | undefined
  readonly limit: number
}

/** Reads the event log for the store's polling feeds. */
export class StoreFeedRepo extends Context.Tag("svc/store/StoreFeedRepo")<
  StoreFeedRepo,
  {
    /** Matching events, newest first. */
    readonly recent: (workspaceId: string, query: FeedQuery) => Effect.Effect<ReadonlyArray<EventRecord>>
  }
>() {}
