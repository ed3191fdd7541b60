import { Effect } from "effect"
import { BadListRequest } from "../shared/errors.js"
import { readListQuery, type StoreListQuery } from "../shared/list-query.js"
import { isWebhookEventType } from "./event-types.js"

/** `GET /webhooks/<id>/deliveries`'s query text as the typed query of `Webhooks.deliveries`; 400 when wrong. */
export const readDeliveriesQuery = (query: StoreListQuery) =>
  Effect.map(readListQuery(query), ({ page, range }) => ({ page, created: range }))

/** `GET /events`'s query text as the typed query of `Webhooks.events`: the page and window first, then the type. */
export const readEventsQuery = (query: StoreListQuery & { readonly type?: string | undefined }) =>
  Effect.gen(function* () {
    const { page, range } = yield* readListQuery(query)
    const type = query.type
    if (type !== undefined && !isWebhookEventType(type)) {
      return yield* new BadListRequest({ message: "type must be an event type", next: { _tag: "ListEventTypes" } })
    }
    return { type, page, created: range }
  })
