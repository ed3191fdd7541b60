import { Effect, Schema } from "effect"
import { CustomerRow } from "../api-rows.js"
import { invalid } from "../../shared/errors.js"
import { Cursor, Limit } from "../../shared/paging.js"
import { dateFilter } from "../../shared/time.js"
import { defineTool } from "../../tools/tool.js"
import { IMPORT_ROWS_MAX } from "./customer-import.js"
import { StoreCustomers } from "./customers.js"
import { customerJson } from "./customer-json.js"
import { nextCursorOf, readToolPaging } from "../../shared/list-query.js"
import { TAG_NAME_MAX, TAGS_PER_CALL_MAX } from "../email-list/tags.js"
import { emailOf, makeStoreOfCall, rejectionFailure, StoreHandleField } from "../tool-support.js"

const NextCursor = Schema.optional(
  Schema.String.annotations({ description: "Pass as cursor to read the next page; absent on the last page." })
)

const CustomerRecord = CustomerRow.annotations({ description: "The customer as GET /customers/<email> answers it." })

// Ids and emails carry only a length cap: an empty one is simply not found, and every byte here is in tools/list.
const ProductIdField = Schema.String.pipe(Schema.maxLength(100)).annotations({
  description: "Product id (prod_…)."
})

const EmailField = Schema.String.pipe(Schema.maxLength(254)).annotations({ description: "Person's email." })

const NameField = Schema.String.pipe(Schema.maxLength(200)).annotations({ description: "Person's name." })

const ImportRowInput = Schema.Struct({
  email: EmailField,
  name: Schema.optional(NameField),
  productId: ProductIdField,
  tags: Schema.optional(
    Schema.Array(Schema.String.pipe(Schema.maxLength(TAG_NAME_MAX)))
      .pipe(Schema.maxItems(TAGS_PER_CALL_MAX))
      .annotations({ description: "Tag names to add." })
  )
})

const ImportLineOutput = Schema.Struct({
  row: Schema.Int.annotations({ description: "The row's index in the input, from 0." }),
  email: Schema.String.annotations({ description: "The row's email (normalised when valid)." }),
  status: Schema.Literal("added", "already_has_access", "access_off", "invalid").annotations({
    description: "added, already_has_access, access_off (the seller switched it off) or invalid."
  }),
  reason: Schema.optional(Schema.String).annotations({ description: "Why the row was not added, when it was not." })
})

/** The Store group's svc_list_customers, svc_get_customer, svc_manage_customer_access and svc_import_customers. */
export const customerTools = Effect.gen(function* () {
  const customers = yield* StoreCustomers
  const storeOf = yield* makeStoreOfCall

  const recordOf = (caller: Parameters<typeof customers.get>[0], email: string) =>
    Effect.map(customers.get(caller, email), customerJson)

  return [
    defineTool({
      name: "svc_list_customers",
      title: "List customers",
      group: "Store",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "List the store's customers, newest first, with each product's access and tags (as GET /customers). Change access: svc_manage_customer_access.",
      input: {
        storeHandle: StoreHandleField,
        productId: Schema.optional(ProductIdField),
        hasAccess: Schema.optional(Schema.Boolean.annotations({ description: "Has access now (true) or not." })),
        tag: Schema.optional(Schema.String.pipe(Schema.maxLength(100)).annotations({ description: "Tag name or id." })),
        createdAfter: Schema.optional(dateFilter("ISO time; created after it.")),
        createdBefore: Schema.optional(dateFilter("ISO time; created before it.")),
        limit: Schema.optional(Limit),
        cursor: Schema.optional(Cursor)
      },
      output: {
        customers: Schema.Array(CustomerRecord).annotations({ description: "The customers, newest first." }),
        nextCursor: NextCursor
      },
      handler: (input, context) =>
        Effect.gen(function* () {
          const caller = yield* storeOf(context, input.storeHandle)
          const { page: request } = yield* readToolPaging({ limit: input.limit, cursor: input.cursor })
          const page = yield* customers.listPage(caller, {
            page: request,
            created: { after: input.createdAfter, before: input.createdBefore },
            productId: input.productId,
            hasAccess: input.hasAccess,
            tag: input.tag
          })
          return { customers: page.rows.map(customerJson), ...nextCursorOf(page) }
        })
    }),
    defineTool({
      name: "svc_get_customer",
      title: "Get customer",
      group: "Store",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "Read one customer by email (as GET /customers/<email>): each product's access with its content links, and tags.",
      input: { storeHandle: StoreHandleField, email: EmailField },
      output: { customer: CustomerRecord },
      handler: (input, context) =>
        Effect.gen(function* () {
          const caller = yield* storeOf(context, input.storeHandle)
          return { customer: yield* recordOf(caller, yield* emailOf(input.email)) }
        })
    }),
    defineTool({
      name: "svc_manage_customer_access",
      title: "Manage customer access",
      group: "Store",
      write: true,
      annotations: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
      description:
        "Grant free access to a live product, remove it (a later grant cannot undo that), or resend the access email (once a minute). Answers the customer now.",
      input: {
        storeHandle: StoreHandleField,
        action: Schema.Literal("grant", "remove", "resend_email").annotations({ description: "What to do." }),
        productId: ProductIdField,
        email: EmailField,
        name: Schema.optional(NameField),
        sendEmail: Schema.optional(
          Schema.Boolean.annotations({ description: "grant: send the access email (default true)." })
        )
      },
      output: {
        status: Schema.Literal("added", "already_has_access", "removed", "already_off", "sent").annotations({
          description: "grant: added or already_has_access; remove: removed or already_off; resend_email: sent."
        }),
        customer: CustomerRecord
      },
      handler: (input, context) =>
        Effect.gen(function* () {
          const caller = yield* storeOf(context, input.storeHandle)
          const email = yield* emailOf(input.email)
          if (input.action !== "grant" && input.name !== undefined) {
            return yield* invalid("name", "name is for action grant only")
          }
          if (input.action !== "grant" && input.sendEmail !== undefined) {
            return yield* invalid("sendEmail", "sendEmail is for action grant only")
          }
          const target = { productId: input.productId, email }
          const status =
            input.action === "grant"
              ? yield* Effect.flatMap(
                  customers.add(caller, { ...target, name: input.name, sendEmail: input.sendEmail }),
                  (outcome) =>
                    outcome.status === "rejected"
                      ? Effect.fail(rejectionFailure(outcome.reason, outcome.message))
                      : Effect.succeed(outcome.status)
                )
              : input.action === "remove"
                ? (yield* customers.removeAccess(caller, target)).status
                : yield* Effect.as(customers.resendAccessEmail(caller, target), "sent" as const)
          return { status, customer: yield* recordOf(caller, email) }
        })
    }),
    defineTool({
      name: "svc_import_customers",
      title: "Import customers",
      group: "Store",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description: `Import up to ${IMPORT_ROWS_MAX} people with free access to live products, with tags; no access email unless sendEmail. A status per row; repeats change nothing.`,
      input: {
        storeHandle: StoreHandleField,
        rows: Schema.Array(ImportRowInput)
          .pipe(Schema.minItems(1), Schema.maxItems(IMPORT_ROWS_MAX))
          .annotations({ description: "People to import." }),
        sendEmail: Schema.optional(Schema.Boolean.annotations({ description: "Email new people (default false)." }))
      },
      output: {
        results: Schema.Array(ImportLineOutput).annotations({ description: "One line per input row, in order." })
      },
      handler: (input, context) =>
        Effect.gen(function* () {
          const caller = yield* storeOf(context, input.storeHandle)
          return yield* customers.importRows(caller, { rows: input.rows, sendEmail: input.sendEmail })
        })
    })
  ]
})
