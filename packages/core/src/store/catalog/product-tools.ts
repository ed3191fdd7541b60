import { Effect, Option, Schema } from "effect"
import { invalid, NotFound } from "../../shared/errors.js"
import { defineTool, type Tool } from "../../tools/tool.js"
import { StoreCatalog } from "./catalog.js"
import { ChecklistItemRow, ProductRow } from "../api-rows.js"
import { makeAgentChecklist, makeStoreOfCall, StoreHandleField, underFields } from "../tool-support.js"
import { ProductFieldsInput } from "./product-input.js"
import { productAnswerJson } from "./product-json.js"

const CustomAiIdField = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)).annotations({
  description: "Custom AI id (cai_…) the product sells."
})

const ProductIdField = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)).annotations({
  description: "Instead of customAIId: a product's id (prod_…), e.g. a paid question's."
})

const KindField = Schema.Literal("question").annotations({
  description: "question (without customAIId or productId): create a paid-question product."
})

/** Which product a call means: a Custom AI's, or one named by its own id. */
type Target = { readonly customAIId?: string | undefined; readonly productId?: string | undefined }

const FieldsInput = ProductFieldsInput.annotations({
  description: "Product fields. Left out: kept; null: the default."
})

// The product answer of `GET /products/<id>`, typed by the store API's own row.
const productAnswerFields = {
  product: ProductRow.annotations({
    description: "The product as GET /store-app/v1/products/<id> answers it, snake_case."
  }),
  can_publish: Schema.Boolean.annotations({ description: "True when publish_checklist is empty." }),
  publish_checklist: Schema.Array(ChecklistItemRow).annotations({
    description: "What remains before the product can go live; empty when it can."
  }),
  quantity_left: Schema.optional(Schema.Int).annotations({
    description: "With a quantity_limit: places left (people with access hold one each)."
  }),
  waitlist_waiting: Schema.optional(Schema.Int).annotations({
    description: "With waitlist_mode or quantity_waitlist on: how many people wait."
  })
}

const noProductYet = (customAiId: string) =>
  new NotFound({
    message: `Custom AI ${customAiId} has no product yet; create it with svc_save_custom_ai_product`
  })

/** The Store group's svc_get_custom_ai_product, svc_save_custom_ai_product and svc_publish_custom_ai_product. */
export const customAiProductTools = Effect.gen(function* () {
  const catalog = yield* StoreCatalog
  const storeOf = yield* makeStoreOfCall
  const { agentPublishRefusal, withAgentChecklist } = yield* makeAgentChecklist

  const productIdOfCustomAi = (caller: Parameters<typeof catalog.get>[0], customAiId: string) =>
    Effect.flatMap(catalog.productIdOfCustomAi(caller, customAiId), (found) =>
      Option.match(found, { onNone: () => Effect.fail(noProductYet(customAiId)), onSome: Effect.succeed })
    )

  // A product named by its id is used as it is; a Custom AI names its one product.
  const productIdOf = (caller: Parameters<typeof catalog.get>[0], target: Target) =>
    target.productId !== undefined
      ? Effect.succeed(target.productId)
      : target.customAIId !== undefined
        ? productIdOfCustomAi(caller, target.customAIId)
        : Effect.fail(invalid("customAIId", "customAIId or productId is needed: which product"))

  const tools: ReadonlyArray<Tool> = [
    defineTool({
      name: "svc_get_custom_ai_product",
      title: "Get Custom AI product",
      group: "Store",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "Read a Custom AI's product (customAIId) or any product by productId, as GET /products/<id> answers it, with can_publish and publish_checklist. Change it: svc_save_custom_ai_product.",
      input: {
        storeHandle: StoreHandleField,
        customAIId: Schema.optional(CustomAiIdField),
        productId: Schema.optional(ProductIdField)
      },
      output: productAnswerFields,
      handler: (input, context) =>
        Effect.gen(function* () {
          const caller = yield* storeOf(context, input.storeHandle)
          const id = yield* productIdOf(caller, input)
          return withAgentChecklist(productAnswerJson(yield* catalog.get(caller, id)))
        })
    }),
    defineTool({
      name: "svc_save_custom_ai_product",
      title: "Save Custom AI product",
      group: "Store",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "Create a Custom AI's product (a draft) or change its fields, as the products API does; or a paid-question product (kind question: buyers pay and ask at checkout; answer with svc_manage_sales), changed by productId. Answers publish_checklist. Next: svc_publish_custom_ai_product.",
      input: {
        storeHandle: StoreHandleField,
        customAIId: Schema.optional(CustomAiIdField),
        productId: Schema.optional(ProductIdField),
        kind: Schema.optional(KindField),
        fields: Schema.optional(FieldsInput)
      },
      output: {
        ...productAnswerFields,
        created: Schema.Boolean.annotations({ description: "True when this call created the product." })
      },
      handler: (input, context) =>
        Effect.gen(function* () {
          const caller = yield* storeOf(context, input.storeHandle)
          const changes = input.fields ?? {}
          if (input.kind === "question" && input.customAIId !== undefined) {
            return yield* invalid(
              "customAIId",
              "a paid question sells your answer, not a Custom AI: leave customAIId out with kind question"
            )
          }
          if (input.kind === "question" && input.productId === undefined) {
            const made = yield* Effect.mapError(catalog.createQuestion(caller, changes), underFields)
            return { ...withAgentChecklist(productAnswerJson(made)), created: true }
          }
          if (input.customAIId === undefined) {
            const id = yield* productIdOf(caller, input)
            const saved = yield* Effect.mapError(catalog.patch(caller, id, changes), underFields)
            return { ...withAgentChecklist(productAnswerJson(saved)), created: false }
          }
          const customAIId = input.customAIId
          const existing = yield* catalog.productIdOfCustomAi(caller, customAIId)
          const saved = yield* Effect.gen(function* () {
            return Option.isNone(existing)
              ? yield* catalog.create(caller, customAIId, changes)
              : yield* catalog.patch(caller, existing.value, changes)
          }).pipe(Effect.mapError(underFields))
          return { ...withAgentChecklist(productAnswerJson(saved)), created: Option.isNone(existing) }
        })
    }),
    defineTool({
      name: "svc_publish_custom_ai_product",
      title: "Publish Custom AI product",
      group: "Store",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "Publish a Custom AI's product or one named by productId (live: true; a conflict lists what is missing) or unpublish it (false: sales stop, buyers keep access). Returns it.",
      input: {
        storeHandle: StoreHandleField,
        customAIId: Schema.optional(CustomAiIdField),
        productId: Schema.optional(ProductIdField),
        live: Schema.Boolean.annotations({ description: "true publishes, false unpublishes." })
      },
      output: productAnswerFields,
      handler: (input, context) =>
        Effect.gen(function* () {
          const caller = yield* storeOf(context, input.storeHandle)
          const id = yield* productIdOf(caller, input)
          const view = yield* (input.live ? catalog.publish(caller, id) : catalog.unpublish(caller, id)).pipe(
            Effect.mapError(agentPublishRefusal)
          )
          return withAgentChecklist(productAnswerJson(view))
        })
    })
  ]
  return tools
})
