import { Effect, Option, Schema } from "effect"
import { invalid } from "../../shared/errors.js"
import { nextCursorOf, readToolPaging } from "../../shared/list-query.js"
import { Cursor, Limit } from "../../shared/paging.js"
import { defineTool } from "../../tools/tool.js"
import { describeActions, need, onlyFieldsOf } from "../action-tools.js"
import { inToolNames, makeStoreOfCall, StoreHandleField } from "../tool-support.js"
import { AffiliatePayoutAnswer, AffiliateProgramRow, AffiliateRow } from "./affiliate-api.js"
import { affiliateJson, affiliatePayoutJson, affiliateProgramJson } from "./affiliate-json.js"
import { StoreAffiliates } from "./affiliates.js"

const Action = Schema.Literal("program", "list", "add", "accept", "decline", "remove", "payouts")
type Action = typeof Action.Type

const programFields = ["commissionKind", "commissionValue", "cookieDays", "approval", "active"]

/** The fields each action reads besides `storeHandle` and `action`; any other field given is refused. */
const fieldsOf: Record<Action, ReadonlyArray<string>> = {
  program: ["productId", ...programFields],
  list: ["productId", "limit", "cursor"],
  add: ["productId", "email", "name", "code"],
  accept: ["affiliateId"],
  decline: ["affiliateId"],
  remove: ["affiliateId"],
  payouts: ["affiliateId", "month"]
}

// Lengths are the service's to check (with field errors): bounds here would only repeat them in every tools/list.
const text = (description: string) => Schema.optional(Schema.String.annotations({ description }))

// The service names fields as the store API does; this tool's failures name its own.
const toolFieldNames = inToolNames({
  product: "productId",
  commission_kind: "commissionKind",
  commission_value: "commissionValue",
  cookie_days: "cookieDays"
})

/** The Store group's svc_manage_affiliates: a product's program, its affiliates, and what they earned. */
export const affiliateTools = Effect.gen(function* () {
  const affiliates = yield* StoreAffiliates
  const storeOf = yield* makeStoreOfCall

  return [
    defineTool({
      name: "svc_manage_affiliates",
      title: "Manage affiliates",
      group: "Store",
      write: true,
      annotations: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
      description:
        "A product's affiliate program (read, or set by its fields), affiliates, and monthly payouts. Sales, renewals via their link earn; refunds undo it.",
      input: {
        storeHandle: StoreHandleField,
        action: Action.annotations({ description: describeActions(fieldsOf) }),
        productId: text("Product (prod_…)."),
        commissionKind: Schema.optional(
          Schema.Literal("percent", "fixed").annotations({ description: "Share or cents." })
        ),
        commissionValue: Schema.optional(Schema.Int.annotations({ description: "Percent 1-90, or cents." })),
        cookieDays: Schema.optional(Schema.Int.annotations({ description: "Cookie days." })),
        approval: Schema.optional(Schema.Boolean.annotations({ description: "Applicants wait." })),
        active: Schema.optional(Schema.Boolean.annotations({ description: "false: none earn." })),
        email: text("Their email."),
        name: text("Their name."),
        code: text("?via= code."),
        affiliateId: text("Affiliate id (aff_…)."),
        month: text("YYYY-MM (UTC)."),
        limit: Schema.optional(Limit),
        cursor: Schema.optional(Cursor)
      },
      output: {
        program: Schema.optional(AffiliateProgramRow.annotations({ description: "Absent: none set yet." })),
        affiliates: Schema.optional(Schema.Array(AffiliateRow).annotations({ description: "Newest first." })),
        affiliate: Schema.optional(AffiliateRow.annotations({ description: "As it is now." })),
        payouts: Schema.optional(
          AffiliatePayoutAnswer.pipe(Schema.omit("ok", "affiliate")).annotations({ description: "The month's." })
        ),
        nextCursor: Schema.optional(Schema.String.annotations({ description: "Next page; absent on the last." }))
      },
      handler: (input, context) =>
        Effect.gen(function* () {
          yield* onlyFieldsOf(fieldsOf, input.action, input)
          const caller = yield* storeOf(context, input.storeHandle)
          const affiliateId = () => need(input.affiliateId, "affiliateId", input.action)
          const productId = () => need(input.productId, "productId", input.action)
          const one = (found: Parameters<typeof affiliates.describe>[0]) =>
            Effect.map(affiliates.describe(found), (described) => ({ affiliate: affiliateJson(described) }))
          switch (input.action) {
            case "program": {
              const id = yield* productId()
              const changing = programFields.some((field) => input[field as keyof typeof input] !== undefined)
              const found = changing
                ? Option.some(
                    (yield* affiliates.setProgram(caller, id, {
                      commissionKind: input.commissionKind,
                      commissionValue: input.commissionValue,
                      cookieDays: input.cookieDays,
                      approval: input.approval,
                      active: input.active
                    })).program
                  )
                : (yield* affiliates.program(caller, id)).program
              return Option.isNone(found)
                ? {}
                : { program: affiliateProgramJson(yield* affiliates.describeProgram(found.value)) }
            }
            case "list": {
              const { page, created } = yield* readToolPaging(input)
              const found = yield* affiliates.list(caller, {
                productId: input.productId?.trim() || undefined,
                status: undefined,
                page,
                created
              })
              return { affiliates: found.rows.map(affiliateJson), ...nextCursorOf(found) }
            }
            case "add": {
              const added = yield* affiliates.add(caller, yield* productId(), {
                email: yield* need(input.email, "email", "add"),
                name: input.name,
                code: input.code
              })
              return yield* one(added.affiliate)
            }
            case "accept":
            case "decline":
            case "remove":
              return yield* one(yield* affiliates.decide(caller, yield* affiliateId(), input.action))
            case "payouts": {
              const month = yield* need(input.month, "month", "payouts")
              const start = /^\d{4}-(0[1-9]|1[0-2])$/.test(month.trim())
                ? new Date(`${month.trim()}-01T00:00:00Z`)
                : null
              if (start === null) return yield* invalid("month", "month must be YYYY-MM, like 2026-11")
              const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1))
              const report = yield* affiliates.payouts(caller, yield* affiliateId(), {
                from: start.toISOString(),
                to: end.toISOString()
              })
              const { ok: _ok, affiliate, ...payouts } = affiliatePayoutJson(report)
              return { affiliate, payouts }
            }
          }
        }).pipe(toolFieldNames)
    })
  ]
})
