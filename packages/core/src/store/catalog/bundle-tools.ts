import { Effect, Schema } from "effect"
import { defineTool, type Tool } from "../../tools/tool.js"
import { BUNDLE_MAX_PRODUCTS, BUNDLE_MIN_PRODUCTS } from "./bundle.js"
import { StoreBundles } from "./bundles.js"
import { ProductStatus } from "./product.js"
import { ChecklistItemRow, ProductRow } from "../api-rows.js"
import { makeAgentChecklist, makeStoreOfCall, StoreHandleField } from "../tool-support.js"
import { ProductFieldsInput } from "./product-input.js"
import { bundleAnswerJson } from "./product-json.js"

const ProductIdText = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))

const BundleIdField = ProductIdText.annotations({
  description: "Bundle id (prod_…)."
})

const ProductIdsField = Schema.Array(ProductIdText.annotations({ description: "Product id (prod_…)." })).pipe(
  Schema.minItems(BUNDLE_MIN_PRODUCTS),
  Schema.maxItems(BUNDLE_MAX_PRODUCTS)
)

// A bundle answers no questions itself: answer_within_days (paid questions only) is refused by name, not listed.
const FieldsInput = ProductFieldsInput.pipe(Schema.omit("answer_within_days")).annotations({
  description: "Product fields. Left out: kept; null: the default.",
  parseOptions: { onExcessProperty: "error" }
})

const bundleAnswer = {
  bundle: ProductRow.annotations({
    description: "The bundle as GET /store-app/v1/products/<id> answers it (kind bundle, with bundle_product_ids)."
  }),
  products: Schema.Array(
    Schema.Struct({
      id: Schema.String.annotations({ description: "Product id (prod_…) in the bundle." }),
      title: Schema.String.annotations({ description: "The product's title." }),
      status: ProductStatus
    })
  ).annotations({ description: "The products the bundle sells, in order." }),
  can_publish: Schema.Boolean.annotations({ description: "True when publish_checklist is empty." }),
  publish_checklist: Schema.Array(ChecklistItemRow).annotations({
    description: "What remains before the bundle can go live; empty when it can."
  }),
  quantity_left: Schema.optional(Schema.Int).annotations({
    description: "With a quantity_limit: places left (people with access hold one each)."
  }),
  waitlist_waiting: Schema.optional(Schema.Int).annotations({
    description: "With waitlist_mode or quantity_waitlist on: how many people wait."
  })
}

/** The Store group's svc_get_bundle and svc_save_bundle, over `StoreBundles`. */
export const bundleTools = Effect.gen(function* () {
  const bundles = yield* StoreBundles
  const storeOf = yield* makeStoreOfCall
  const { agentPublishRefusal, withAgentChecklist } = yield* makeAgentChecklist
  const tools: ReadonlyArray<Tool> = [
    defineTool({
      name: "svc_get_bundle",
      title: "Get a bundle",
      group: "Store",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "Get a bundle (a product selling several products together): fields, products, publish checklist. Change it with svc_save_bundle.",
      input: { storeHandle: StoreHandleField, bundleId: BundleIdField },
      output: bundleAnswer,
      handler: (input, context) =>
        Effect.gen(function* () {
          const caller = yield* storeOf(context, input.storeHandle)
          return withAgentChecklist(bundleAnswerJson(yield* bundles.get(caller, input.bundleId)))
        })
    }),
    defineTool({
      name: "svc_save_bundle",
      title: "Save a bundle",
      group: "Store",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
      description:
        "Create a bundle (productIds, no bundleId) or change one; status live/off publishes or unpublishes it. A sale gives each product in it.",
      input: {
        storeHandle: StoreHandleField,
        bundleId: Schema.optional(BundleIdField),
        productIds: Schema.optional(ProductIdsField).annotations({
          description: `${BUNDLE_MIN_PRODUCTS} to ${BUNDLE_MAX_PRODUCTS} products (not bundles), in order.`
        }),
        fields: Schema.optional(FieldsInput),
        status: Schema.optional(
          Schema.Literal("live", "off").annotations({
            description: "live publishes, off unpublishes."
          })
        )
      },
      output: bundleAnswer,
      handler: (input, context) =>
        Effect.gen(function* () {
          const changes = input.fields ?? {}
          const caller = yield* storeOf(context, input.storeHandle)
          const saved = yield* bundles
            .save(caller, { bundleId: input.bundleId, productIds: input.productIds, changes, status: input.status })
            .pipe(Effect.mapError(agentPublishRefusal))
          return withAgentChecklist(bundleAnswerJson(saved))
        })
    })
  ]
  return tools
})
