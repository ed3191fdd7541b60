import { Effect, Schema } from "effect"
import { Plan, planAtLeast } from "../../accounts/schema.js"
import { Cursor, encodeCursor, Limit } from "../../shared/paging.js"
import { defineTool } from "../../tools/tool.js"
import { Workspaces } from "../../workspace/service.js"
import { StoreOverview } from "./overview.js"
import { overviewJson } from "./overview-json.js"
import { readOverviewRequest } from "./overview-request.js"
import { makeStoreOfCall, StoreHandleField } from "../tool-support.js"

const described = <S extends Schema.Schema.Any>(schema: S, description: string) => schema.annotations({ description })

const SetupItem = Schema.Struct({
  item: described(
    Schema.Literal("support_email", "payment", "product", "live_product"),
    "What is checked: support_email, payment (card processor or own checkout), product, live_product."
  ),
  done: described(Schema.Boolean, "True when this item is done."),
  message: described(Schema.String, "What is there, or what is missing and how to do it.")
})

const StoreRow = Schema.Struct({
  handle: described(Schema.String, "Store handle; pass it as storeHandle to the store tools."),
  name: described(Schema.String, "Store display name."),
  workspaceId: described(Schema.String, "The store's workspace (ws_…)."),
  isDefault: described(
    Schema.Boolean,
    "True for the store of the default workspace (used when storeHandle is left out)."
  ),
  plan: described(Plan, "The account's plan: free, starter or pro."),
  planAllowsStore: described(Schema.Boolean, "True when the plan includes the store tools (Starter or above)."),
  setup: described(Schema.Array(SetupItem), "The set-up checklist, every item with done and a message.")
})

const Figure = Schema.Struct({
  value: described(Schema.Number, "The figure in the period."),
  previous: described(Schema.Number, "The figure in the previous period of the same length."),
  change_pct: described(
    Schema.NullOr(Schema.Number),
    "Change against previous in percent, one decimal; null when previous is 0."
  )
})

const Span = (what: string) =>
  described(
    Schema.Struct({
      from: described(Schema.String, "Start, ISO time, inclusive."),
      to: described(Schema.String, "End, ISO time, exclusive.")
    }),
    what
  )

const figure = (description: string) => described(Figure, description)

/** The Store group's svc_list_stores and svc_get_seller_overview. */
export const overviewTools = Effect.gen(function* () {
  const workspaces = yield* Workspaces
  const overview = yield* StoreOverview
  const storeOf = yield* makeStoreOfCall
  return [
    defineTool({
      name: "svc_list_stores",
      title: "List stores",
      group: "Store",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "List the stores this credential reaches: handle, name, plan gate and set-up checklist. Pass a handle as storeHandle to the store tools.",
      input: { limit: Schema.optional(Limit), cursor: Schema.optional(Cursor) },
      output: {
        stores: described(Schema.Array(StoreRow), "The stores, newest workspace first."),
        nextCursor: Schema.optional(
          described(Schema.String, "Pass as cursor to read the next page; absent on the last page.")
        )
      },
      handler: (input, { principal }) =>
        Effect.gen(function* () {
          const page = yield* workspaces.listWorkspaces(principal, input)
          const stores = yield* Effect.forEach(
            page.rows.flatMap(({ workspace, store }) => (store === null ? [] : [{ workspace, store }])),
            ({ workspace, store }) =>
              Effect.map(overview.setup(workspace.id), (setup) => ({
                handle: store.handle,
                name: store.name,
                workspaceId: workspace.id,
                isDefault: workspace.id === principal.workspaceId,
                plan: principal.plan,
                planAllowsStore: planAtLeast(principal.plan, "starter"),
                setup
              }))
          )
          return { stores, ...(page.next ? { nextCursor: encodeCursor(page.next) } : {}) }
        })
    }),
    defineTool({
      name: "svc_get_seller_overview",
      title: "Get seller overview",
      group: "Store",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "A store's figures for a period (default 30d) against the one before: revenue, sales, refunds, customers, memberships; top products; latest events.",
      input: {
        storeHandle: StoreHandleField,
        period: Schema.optional(
          described(Schema.Literal("7d", "30d", "90d", "365d"), "Period ending now; default 30d.")
        ),
        from: Schema.optional(described(Schema.String.pipe(Schema.maxLength(40)), "Start, ISO date or time; with to.")),
        to: Schema.optional(described(Schema.String.pipe(Schema.maxLength(40)), "End (exclusive); at most 366 days."))
      },
      output: {
        period: Span("The period the figures cover."),
        previous: Span("The previous period they are compared with."),
        figures: described(
          Schema.Struct({
            revenue_cents: figure("Sum of amount_cents of paid sales created in the period."),
            sales: figure("Sales created in the period (paid, free or refunded rows)."),
            refunds: figure("purchase.refunded events in the period."),
            refunded_cents: figure("Sum of the refunded sales' amount_cents."),
            net_revenue_cents: figure("revenue_cents minus refunded_cents."),
            new_customers: figure("Store customers created in the period."),
            active_memberships: figure("Monthly or yearly access that was on at the period's end.")
          }),
          "Each figure with its previous value and change."
        ),
        top_products: described(
          Schema.Array(
            Schema.Struct({
              product_id: described(Schema.String, "Product id (prod_…)."),
              product_title: described(Schema.String, "Product title when sold."),
              sales: described(Schema.Number, "Sales of it in the period."),
              revenue_cents: described(Schema.Number, "Paid revenue of it in the period.")
            })
          ),
          "The 5 products with the most revenue in the period."
        ),
        latest_events: described(
          Schema.Array(
            Schema.Struct({
              id: described(Schema.String, "Event id (evt_…)."),
              type: described(Schema.String, "Event type, e.g. purchase.created."),
              created_at: described(Schema.String, "When it happened, ISO time."),
              summary: described(Schema.String, "One line saying what happened.")
            })
          ),
          "The 10 latest store events, newest first."
        )
      },
      handler: (input, context) =>
        Effect.gen(function* () {
          const caller = yield* storeOf(context, input.storeHandle)
          return overviewJson(yield* overview.overview(caller, yield* readOverviewRequest(input)))
        })
    })
  ]
})
