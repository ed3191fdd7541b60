import { Effect, Schema } from "effect"
import { SaleRow } from "../api-rows.js"
import { CohortRow } from "../overview/feed-rows.js"
import { invalid } from "../../shared/errors.js"
import { Cursor, Limit } from "../../shared/paging.js"
import { defineTool } from "../../tools/tool.js"
import { StoreCohorts } from "../cohorts/cohorts.js"
import { cohortJson } from "../cohorts/cohort-json.js"
import { SaleEvent } from "./sale.js"
import { saleJson } from "./sale-json.js"
import { isTurnedAway } from "./sale-outcome.js"
import { saleListQueryOf } from "./sale-query.js"
import { StoreSales } from "./sales.js"
import { nextCursorOf } from "../../shared/list-query.js"
import { emailOf, inToolNames, makeStoreOfCall, rejectionFailure, StoreHandleField } from "../tool-support.js"

const text = (max: number, description: string) =>
  Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(max)).annotations({ description }))

// A length cap only (every byte is in tools/list); the address is checked and normalised as the API does.
const EmailField = Schema.String.pipe(Schema.maxLength(254)).annotations({ description: "Buyer's email." })

const optionalEmail = (text: string | undefined) => (text === undefined ? Effect.succeed(undefined) : emailOf(text))

/** Fails with `invalid` on `field` when the chosen action needs it and it is missing. */
const need = <A>(value: A | undefined, field: string, action: string) =>
  value === undefined ? Effect.fail(invalid(field, `${field} is needed for action ${action}`)) : Effect.succeed(value)

const SALE_ROW = "The sale as GET /sales/<id> answers it."
const COHORT_ROW = "The cohort as GET /products/<id>/cohorts lists it."

// The store services name fields as the store API does; these tools' failures name the tools' own fields.
const saleFieldNames = inToolNames({
  product: "productId",
  order_id: "orderId",
  subscription_id: "subscriptionId",
  paid_until: "paidUntil",
  ends_at: "endsAt"
})
const cohortFieldNames = inToolNames({
  product: "productId",
  cohort: "cohortId",
  starts_on: "startsOn",
  over_cap: "overCap"
})

/** The Store group's svc_manage_sales and svc_manage_cohorts. */
export const salesTools = Effect.gen(function* () {
  const sales = yield* StoreSales
  const cohorts = yield* StoreCohorts
  const storeOf = yield* makeStoreOfCall
  return [
    defineTool({
      name: "svc_manage_sales",
      title: "Manage sales",
      group: "Store",
      write: true,
      annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
      description:
        "List or get sales, record a sale event from your own checkout (as POST /sales; pass orderId so a resend counts once), or refund a sale (access ends).",
      input: {
        storeHandle: StoreHandleField,
        action: Schema.Literal("list", "get", "record", "refund").annotations({
          description: "record needs event, productId, email; get, refund saleId."
        }),
        saleId: text(200, "Sale id (purchase:…)."),
        event: Schema.optional(SaleEvent.annotations({ description: "Sale event to record." })),
        productId: text(100, "Product id (prod_…)."),
        email: Schema.optional(EmailField),
        name: text(200, "Buyer's name."),
        orderId: text(200, "Your order id; counts once."),
        subscriptionId: text(200, "Your subscription id."),
        paidUntil: text(40, "Paid until (ISO or ms)."),
        endsAt: text(40, "cancel: access ends (ISO or ms)."),
        status: Schema.optional(
          Schema.Literal("paid", "refunded", "free").annotations({ description: "list: only this status." })
        ),
        createdAfter: text(40, "list: created after (ISO)."),
        createdBefore: text(40, "list: created before (ISO)."),
        limit: Schema.optional(Limit),
        cursor: Schema.optional(Cursor)
      },
      output: {
        sales: Schema.optional(Schema.Array(SaleRow).annotations({ description: "list: the sales, newest first." })),
        nextCursor: Schema.optional(
          Schema.String.annotations({ description: "list: pass as cursor for the next page; absent on the last." })
        ),
        sale: Schema.optional(SaleRow.annotations({ description: `get, refund: ${SALE_ROW}` })),
        status: Schema.optional(
          Schema.Literal("granted", "restored", "renewed", "cancelled", "revoked", "duplicate").annotations({
            description: "record, refund: what the event did, as POST /sales answers (duplicate: already counted)."
          })
        )
      },
      handler: (input, context) =>
        Effect.gen(function* () {
          const caller = yield* storeOf(context, input.storeHandle)
          const email = yield* optionalEmail(input.email)
          switch (input.action) {
            case "list": {
              const query = yield* saleListQueryOf({ ...input, email })
              const page = yield* sales.listPage(caller, query)
              return {
                sales: page.rows.map(saleJson),
                ...nextCursorOf(page)
              }
            }
            case "get": {
              const saleId = yield* need(input.saleId, "saleId", "get")
              return { sale: saleJson(yield* sales.get(caller, saleId)) }
            }
            case "record": {
              const outcome = yield* sales.recordSale(caller, {
                event: yield* need(input.event, "event", "record"),
                productId: yield* need(input.productId, "productId", "record"),
                email: yield* need(email, "email", "record"),
                name: input.name,
                orderId: input.orderId,
                subscriptionId: input.subscriptionId,
                paidUntil: input.paidUntil,
                endsAt: input.endsAt
              })
              if (isTurnedAway(outcome)) return yield* rejectionFailure(outcome.reason, outcome.message, outcome.next)
              return { status: outcome.status }
            }
            case "refund": {
              const saleId = yield* need(input.saleId, "saleId", "refund")
              const refunded = yield* sales.refundSale(caller, saleId)
              return { status: refunded.status, sale: saleJson(yield* sales.get(caller, saleId)) }
            }
          }
        }).pipe(saleFieldNames)
    }),
    defineTool({
      name: "svc_manage_cohorts",
      title: "Manage cohorts",
      group: "Store",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
      description:
        "List a product's cohorts, create or update one (capacity null: no cap), or move a buyer with access into one (overCap: into a full one). Answers the cohort.",
      input: {
        storeHandle: StoreHandleField,
        action: Schema.Literal("list", "create", "update", "move").annotations({
          description: "list, create, update or move."
        }),
        productId: text(100, "Product id (prod_…)."),
        cohortId: text(100, "Cohort id (coh_…)."),
        name: text(200, "Cohort name."),
        capacity: Schema.optional(Schema.NullOr(Schema.Int).annotations({ description: "Most people; null: no cap." })),
        startsOn: Schema.optional(
          Schema.NullOr(Schema.String.pipe(Schema.maxLength(10))).annotations({
            description: "Start day, YYYY-MM-DD."
          })
        ),
        email: Schema.optional(EmailField),
        overCap: Schema.optional(Schema.Boolean.annotations({ description: "move: into a full cohort." }))
      },
      output: {
        cohorts: Schema.optional(Schema.Array(CohortRow).annotations({ description: "list: the cohorts." })),
        cohort: Schema.optional(CohortRow.annotations({ description: `create, update, move: ${COHORT_ROW}` })),
        status: Schema.optional(
          Schema.Literal("created", "updated", "moved", "already_in_cohort").annotations({
            description: "What the call did (already_in_cohort: nothing to do)."
          })
        )
      },
      handler: (input, context) =>
        Effect.gen(function* () {
          const caller = yield* storeOf(context, input.storeHandle)
          const email = yield* optionalEmail(input.email)
          switch (input.action) {
            case "list": {
              const productId = yield* need(input.productId, "productId", "list")
              return { cohorts: (yield* cohorts.list(caller, productId)).map(cohortJson) }
            }
            case "create": {
              const created = yield* cohorts.createFor(caller, {
                productId: yield* need(input.productId, "productId", "create"),
                name: yield* need(input.name, "name", "create"),
                capacity: input.capacity,
                startsOn: input.startsOn
              })
              return { status: "created" as const, cohort: cohortJson(created) }
            }
            case "update": {
              const updated = yield* cohorts.update(caller, yield* need(input.cohortId, "cohortId", "update"), {
                name: input.name,
                capacity: input.capacity,
                startsOn: input.startsOn
              })
              return { status: "updated" as const, cohort: cohortJson(updated) }
            }
            case "move": {
              const moved = yield* cohorts.move(caller, {
                productId: yield* need(input.productId, "productId", "move"),
                cohortId: yield* need(input.cohortId, "cohortId", "move"),
                email: yield* need(email, "email", "move"),
                overCap: input.overCap
              })
              return { status: moved.status, cohort: cohortJson(moved.cohort) }
            }
          }
        }).pipe(cohortFieldNames)
    })
  ]
})
