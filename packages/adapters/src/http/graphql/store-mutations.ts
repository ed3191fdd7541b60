import {
  addCustomerJson,
  accessEmailSentJson,
  cohortMoveJson,
  type CreatorPageBody,
  creatorPageChangesOf,
  creatorPageJson,
  discountCodeApiAnswer,
  discountCodeCreatedJson,
  type NewDiscountCodeBody,
  newDiscountCodeOf,
  paidQuestionJson,
  productApiAnswer,
  removeAccessJson,
  reviewJson,
  lessonQuestionJson,
  StoreCourses,
  affiliateJson,
  affiliateProgramJson,
  StoreAffiliates,
  type StoreCaller,
  StoreCatalog,
  StoreCohorts,
  StoreCreatorPage,
  StoreCustomers,
  StoreDiscountCodes,
  StorePages,
  StorePaidQuestions,
  StoreReviews,
  StoreSales,
  type StoreSettingsPatch,
  StoreSetup,
  saleAnswerJson,
  saleInputOf,
  settingsProblemOnWire,
  storeSettingsChangesOf,
  storeSettingsJson
} from "@svc/core/store"
import {
  createdWebhookApiAnswer,
  HttpSender,
  removedWebhookApiAnswer,
  resentDeliveryApiAnswer,
  rolledSecretApiAnswer,
  testSendApiAnswer,
  webhookApiAnswer,
  Webhooks
} from "@svc/core/webhooks"
import { storeApiNextSteps } from "@svc/core/store-api"
import { Effect, Either, SchemaAST as AST, type Schema } from "effect"
import {
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
  type GraphQLInputType,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLOutputType,
  GraphQLString
} from "graphql"
import { OutboundSettings } from "../../http-sender/config.js"
import { pascalCase } from "./derive.js"
import type { GraphqlKit, RootFields } from "./parts.js"
import {
  decodeInput,
  makeDiscountCodeContext,
  payloadOf,
  runChange,
  type StoreFailure,
  successOf
} from "./store-contract.js"

const hasRequiredField = (schema: Schema.Schema.Any): boolean => {
  const encoded = AST.encodedAST(schema.ast)
  return encoded._tag === "TypeLiteral" && encoded.propertySignatures.some((property) => !property.isOptional)
}

/** How one store change is offered as a mutation. */
interface StoreChange<I> {
  readonly description: string
  /** The answer type; the store API endpoint's success schema unless given. */
  readonly payload: GraphQLOutputType
  /** The store API endpoint's body schema, taken as the `input` argument and decoded with it. */
  readonly body?: Schema.Schema.Any
  /** Whether the change names its record by `id` (the endpoint's path). */
  readonly byId?: boolean
  readonly change: (caller: StoreCaller, input: I, id: string) => Effect.Effect<unknown, StoreFailure>
}

/**
 * The store's changes as mutations: settings, creator page, products, sales, customers, discount codes, paid
 * questions, reviews and webhooks, each calling the service the store API's handler calls, its input the endpoint's
 * body schema and its answer the endpoint's success or a ToolFailure.
 */
export const storeMutations = ({ types, results }: GraphqlKit, product: GraphQLObjectType) =>
  Effect.gen(function* () {
    const catalog = yield* StoreCatalog
    const setup = yield* StoreSetup
    const creatorPage = yield* StoreCreatorPage
    const { publicBase } = yield* StorePages
    const sales = yield* StoreSales
    const customers = yield* StoreCustomers
    const cohorts = yield* StoreCohorts
    const codes = yield* StoreDiscountCodes
    const codeContext = yield* makeDiscountCodeContext
    const questions = yield* StorePaidQuestions
    const reviews = yield* StoreReviews
    const courses = yield* StoreCourses
    const affiliates = yield* StoreAffiliates
    const webhooks = yield* Webhooks
    const sender = yield* HttpSender
    // Test-only loopback receivers: the switch the store API's webhook routes and the sender read.
    const policy = { allowLoopback: (yield* OutboundSettings).allowLoopback }

    const derived = (group: string, name: string, typeName: string) => types.output(successOf(group, name), typeName)

    // Every product answer: the endpoint's fields, its product the graph's Product (with sales, customers, cohorts).
    const productPayload = new GraphQLNonNull(
      new GraphQLObjectType({
        name: types.reserve("ProductPayload"),
        description: "A product as it now is, whether it can go live and what remains before it can.",
        fields: () => ({
          ...(types.outputFields(successOf("products", "get"), "ProductPayload") as GraphQLFieldConfigMap<
            unknown,
            unknown
          >),
          product: { type: new GraphQLNonNull(product) }
        })
      })
    )

    const mutation: RootFields = {}
    const offer = <I>(name: string, spec: StoreChange<I>) => {
      const pascal = pascalCase(name)
      const args: GraphQLFieldConfigArgumentMap = {}
      if (spec.byId === true) args.id = { type: new GraphQLNonNull(GraphQLString) }
      const body = spec.body
      if (body !== undefined) {
        const input = types.input(body, `${pascal}Input`)
        args.input = {
          type: hasRequiredField(body)
            ? input
            : ((input instanceof GraphQLNonNull ? input.ofType : input) as GraphQLInputType)
        }
      }
      mutation[name] = {
        type: results.union(`${pascal}Result`, spec.payload),
        description: `${spec.description}\n\nRefusals come back as ToolFailure; the store API's rules apply.`,
        args,
        resolve: async (_source, given: { readonly id?: string; readonly input?: unknown }, context) => {
          const decoded = body === undefined ? Either.right({} as I) : decodeInput<I>(body, given.input)
          if (Either.isLeft(decoded)) return decoded.left
          return runChange(context, (caller) => spec.change(caller, decoded.right, given.id ?? ""))
        }
      }
    }

    const bodies = {
      updateSettings: payloadOf("settings", "update"),
      updateCreatorPage: payloadOf("creatorPage", "update"),
      createProduct: payloadOf("products", "create"),
      updateProduct: payloadOf("products", "update"),
      recordSale: payloadOf("sales", "record"),
      addCustomer: payloadOf("customers", "add"),
      removeAccess: payloadOf("customers", "removeAccess"),
      accessEmail: payloadOf("customers", "accessEmail"),
      cohort: payloadOf("customers", "cohort"),
      createDiscountCode: payloadOf("discountCodes", "create"),
      answerPaidQuestion: payloadOf("paidQuestions", "answer"),
      setReviewShown: payloadOf("reviews", "update"),
      answerLessonQuestion: payloadOf("lessons", "answer"),
      setLessonQuestionHidden: payloadOf("lessons", "update"),
      setAffiliateProgram: payloadOf("affiliates", "setProgram"),
      addAffiliate: payloadOf("affiliates", "add"),
      decideAffiliate: payloadOf("affiliates", "decide"),
      createWebhook: payloadOf("webhooks", "create"),
      updateWebhook: payloadOf("webhooks", "update"),
      rollSecret: payloadOf("webhooks", "rollSecret"),
      testWebhook: payloadOf("webhooks", "test")
    }

    offer<typeof StoreSettingsPatch.Type>("updateStoreSettings", {
      description:
        "Changes the store's name, support email, card processor or email-list options; a field left out is kept " +
        "(PATCH /settings; an API key with Store set to Edit).",
      payload: derived("settings", "update", "UpdateStoreSettingsPayload"),
      body: bodies.updateSettings,
      change: (caller, input) =>
        setup.changeFor(caller, storeSettingsChangesOf(input)).pipe(
          Effect.mapError(settingsProblemOnWire),
          Effect.map((view) => ({ ok: true as const, settings: storeSettingsJson(view) }))
        )
    })
    // updateCreatorPage is the tool svc_update_creator_page's mutation (its own camelCase input): this is the store
    // API's, named as updateStoreSettings is.
    offer<typeof CreatorPageBody.Type>("updateStoreCreatorPage", {
      description:
        "Changes the store's public page /s/<handle>: headline, bio, avatar (an image of the media library), links, " +
        'featured products and the sign-up block. A field left out stays; null or "" clears one; links and ' +
        "featured_product_ids replace the whole list. All or none: each broken rule is one errors entry at its field " +
        "(links.1.url, featured_product_ids.0) (PATCH /creator-page; an API key with Store set to Edit).",
      payload: derived("creatorPage", "update", "UpdateStoreCreatorPagePayload"),
      body: bodies.updateCreatorPage,
      change: (caller, input) =>
        Effect.map(creatorPage.update(caller, creatorPageChangesOf(input)), (page) => ({
          ok: true as const,
          creator_page: creatorPageJson(page, { publicBase, handle: caller.store.handle })
        }))
    })
    offer<{ readonly custom_ai_id: string } & Parameters<typeof catalog.patch>[2]>("createProduct", {
      description: "Creates a product selling a Custom AI, as a draft (POST /products).",
      payload: productPayload,
      body: bodies.createProduct,
      change: (caller, { custom_ai_id, ...changes }) =>
        Effect.map(catalog.create(caller, custom_ai_id, changes), productApiAnswer)
    })
    offer<Parameters<typeof catalog.patch>[2]>("updateProduct", {
      description: "Changes fields of a product; null clears a field (PATCH /products/<id>).",
      payload: productPayload,
      body: bodies.updateProduct,
      byId: true,
      change: (caller, changes, id) => Effect.map(catalog.patch(caller, id, changes), productApiAnswer)
    })
    offer("publishProduct", {
      description: "Puts a product on sale (POST /products/<id>/publish).",
      payload: productPayload,
      byId: true,
      change: (caller, _input, id) => Effect.map(catalog.publish(caller, id), productApiAnswer)
    })
    offer("unpublishProduct", {
      description: "Takes a product off sale (POST /products/<id>/unpublish).",
      payload: productPayload,
      byId: true,
      change: (caller, _input, id) => Effect.map(catalog.unpublish(caller, id), productApiAnswer)
    })
    offer<Parameters<typeof saleInputOf>[0]>("recordSale", {
      description:
        "Records a sale, renewal, cancellation or refund from your own checkout (POST /sales); a turned-away " +
        "sale answers status rejected with a reason.",
      payload: derived("sales", "record", "RecordSalePayload"),
      body: bodies.recordSale,
      change: (caller, input) =>
        Effect.map(sales.recordSale(caller, saleInputOf(input)), (outcome) =>
          saleAnswerJson(outcome, storeApiNextSteps)
        )
    })
    // A person's access changes take the store API's bodies (`product`, `email`, …) as the services' typed inputs.
    type CustomerAction = { readonly product: string; readonly email: string }
    offer<CustomerAction & { readonly name?: string; readonly send_email?: boolean }>("addCustomer", {
      description: "Gives a person access to a product for free (POST /customers).",
      payload: derived("customers", "add", "AddCustomerPayload"),
      body: bodies.addCustomer,
      change: (caller, input) =>
        Effect.map(
          customers.add(caller, {
            productId: input.product,
            email: input.email,
            name: input.name,
            sendEmail: input.send_email
          }),
          addCustomerJson
        )
    })
    offer<CustomerAction>("removeCustomerAccess", {
      description: "Switches a person's access to a product off (POST /customers/remove-access).",
      payload: derived("customers", "removeAccess", "RemoveCustomerAccessPayload"),
      body: bodies.removeAccess,
      change: (caller, input) =>
        Effect.map(customers.removeAccess(caller, { productId: input.product, email: input.email }), removeAccessJson)
    })
    offer<CustomerAction>("resendAccessEmail", {
      description: "Sends a person's access email again, once a minute at most (POST /customers/access-email).",
      payload: derived("customers", "accessEmail", "ResendAccessEmailPayload"),
      body: bodies.accessEmail,
      change: (caller, input) =>
        Effect.as(
          customers.resendAccessEmail(caller, { productId: input.product, email: input.email }),
          accessEmailSentJson
        )
    })
    offer<CustomerAction & { readonly cohort: string; readonly over_cap?: boolean }>("moveCustomerToCohort", {
      description: "Moves a buyer into a cohort of the product (POST /customers/cohort).",
      payload: derived("customers", "cohort", "MoveCustomerToCohortPayload"),
      body: bodies.cohort,
      change: (caller, input) =>
        Effect.map(
          cohorts.move(caller, {
            productId: input.product,
            email: input.email,
            cohortId: input.cohort,
            overCap: input.over_cap
          }),
          cohortMoveJson
        )
    })
    offer<typeof NewDiscountCodeBody.Type>("createDiscountCode", {
      description:
        "Makes a discount code taking a percent or an amount off one product at the service's checkout (the code " +
        "given, or a random one) and answers it with checkout_url, the checkout page with the code filled in " +
        "(POST /discount-codes; an API key with Store set to Edit).",
      payload: derived("discountCodes", "create", "CreateDiscountCodePayload"),
      body: bodies.createDiscountCode,
      change: (caller, input) =>
        Effect.zipWith(codes.create(caller, newDiscountCodeOf(input)), codeContext, discountCodeCreatedJson)
    })
    offer("disableDiscountCode", {
      description:
        "Turns a discount code off for good, by its id (dsc_…) or the code itself; it is kept, since sales name it " +
        "(POST /discount-codes/<id>/disable; an API key with Store set to Edit).",
      payload: derived("discountCodes", "disable", "DisableDiscountCodePayload"),
      byId: true,
      change: (caller, _input, id) => Effect.zipWith(codes.disable(caller, id), codeContext, discountCodeApiAnswer)
    })
    offer<{ readonly answer: string }>("answerPaidQuestion", {
      description:
        "Answers a paid question, or replaces its answer, by its id (pq_…): the buyer is emailed the answer and reads " +
        "it at answer_url; an answer after answer_due_at is still taken (POST /paid-questions/<id>/answer).",
      payload: derived("paidQuestions", "answer", "AnswerPaidQuestionPayload"),
      body: bodies.answerPaidQuestion,
      byId: true,
      change: (caller, input, id) =>
        Effect.map(questions.answer(caller, id, input.answer), (question) => ({
          ok: true as const,
          question: paidQuestionJson(question, questions.answerUrl(question))
        }))
    })
    offer<{ readonly shown: boolean }>("setReviewShown", {
      description:
        "Hides a review's words from its product's page (shown false) or shows them again, by its id (rev_…); a " +
        "buyer's review shows only if they let the seller quote it, else conflict. A hidden buyer's rating still " +
        "counts (POST /reviews/<id>).",
      payload: derived("reviews", "update", "SetReviewShownPayload"),
      body: bodies.setReviewShown,
      byId: true,
      change: (caller, input, id) =>
        Effect.map(reviews.setShown(caller, id, input.shown), (review) => ({
          ok: true as const,
          review: reviewJson(review)
        }))
    })
    offer<{ readonly answer: string }>("answerLessonQuestion", {
      description:
        "Answers a learner's question on a lesson, or replaces its answer, by its id (lq_…): the learner is emailed it " +
        "with their lesson's link (POST /lesson-questions/<id>/answer).",
      payload: derived("lessons", "answer", "AnswerLessonQuestionPayload"),
      body: bodies.answerLessonQuestion,
      byId: true,
      change: (caller, input, id) =>
        Effect.map(courses.answerQuestion(caller, id, input.answer), (question) => ({
          ok: true as const,
          question: lessonQuestionJson(question)
        }))
    })
    offer<{ readonly hidden: boolean }>("setLessonQuestionHidden", {
      description:
        "Keeps a lesson question and its answer off the lesson's page (hidden true) or shows it again, by its id " +
        "(lq_…); the learner who asked still sees their own (POST /lesson-questions/<id>).",
      payload: derived("lessons", "update", "AnswerLessonQuestionPayload"),
      body: bodies.setLessonQuestionHidden,
      byId: true,
      change: (caller, input, id) =>
        Effect.map(courses.setHidden(caller, id, input.hidden), (question) => ({
          ok: true as const,
          question: lessonQuestionJson(question)
        }))
    })
    offer<{
      readonly commission_kind?: "percent" | "fixed"
      readonly commission_value?: number
      readonly cookie_days?: number
      readonly approval?: boolean
      readonly active?: boolean
    }>("setAffiliateProgram", {
      description:
        "Creates or changes a product's affiliate program, by the product's id: commission (percent 1-90, or fixed " +
        "cents), cookie days, approval, on or off; a field left out keeps its value " +
        "(PUT /products/<id>/affiliate-program).",
      payload: derived("affiliates", "setProgram", "SetAffiliateProgramPayload"),
      body: bodies.setAffiliateProgram,
      byId: true,
      change: (caller, input, id) =>
        Effect.flatMap(
          affiliates.setProgram(caller, id, {
            commissionKind: input.commission_kind,
            commissionValue: input.commission_value,
            cookieDays: input.cookie_days,
            approval: input.approval,
            active: input.active
          }),
          ({ program }) =>
            Effect.map(affiliates.describeProgram(program), (described) => ({
              ok: true as const,
              program: affiliateProgramJson(described)
            }))
        )
    })
    offer<{ readonly product: string; readonly email: string; readonly name?: string; readonly code?: string }>(
      "addAffiliate",
      {
        description:
          "Adds an active affiliate to a product with a program; they are emailed their link (POST /affiliates).",
        payload: derived("affiliates", "add", "AffiliatePayload"),
        body: bodies.addAffiliate,
        change: (caller, input) =>
          Effect.flatMap(
            affiliates.add(caller, input.product, { email: input.email, name: input.name, code: input.code }),
            ({ affiliate }) =>
              Effect.map(affiliates.describe(affiliate), (described) => ({
                ok: true as const,
                affiliate: affiliateJson(described)
              }))
          )
      }
    )
    offer<{ readonly decision: "accept" | "decline" | "remove" }>("decideAffiliate", {
      description:
        "Accepts a pending or declined applicant, declines a pending one, or removes an affiliate, by its id (aff_…) " +
        "(POST /affiliates/<id>).",
      payload: derived("affiliates", "decide", "AffiliatePayload"),
      body: bodies.decideAffiliate,
      byId: true,
      change: (caller, input, id) =>
        Effect.flatMap(affiliates.decide(caller, id, input.decision), (affiliate) =>
          Effect.map(affiliates.describe(affiliate), (described) => ({
            ok: true as const,
            affiliate: affiliateJson(described)
          }))
        )
    })
    offer<Parameters<typeof webhooks.create>[1]>("createWebhook", {
      description: "Adds a webhook; its signing secret is in this answer only (POST /webhooks).",
      payload: derived("webhooks", "create", "CreateWebhookPayload"),
      body: bodies.createWebhook,
      change: (caller, input) => Effect.map(webhooks.create(caller, input, policy), createdWebhookApiAnswer)
    })
    offer<Parameters<typeof webhooks.update>[2]>("updateWebhook", {
      description: "Changes a webhook's address, events, description or whether it is on (PATCH /webhooks/<id>).",
      payload: derived("webhooks", "update", "UpdateWebhookPayload"),
      body: bodies.updateWebhook,
      byId: true,
      change: (caller, patch, id) => Effect.map(webhooks.update(caller, id, patch, policy), webhookApiAnswer)
    })
    offer("deleteWebhook", {
      description: "Deletes a webhook (DELETE /webhooks/<id>).",
      payload: derived("webhooks", "remove", "DeleteWebhookPayload"),
      byId: true,
      change: (caller, _input, id) => Effect.as(webhooks.remove(caller, id), removedWebhookApiAnswer(id))
    })
    offer<{ readonly grace_seconds?: number }>("rollWebhookSecret", {
      description:
        "Makes a new signing secret; the old one may sign on for a grace period (POST /webhooks/<id>/roll-secret).",
      payload: derived("webhooks", "rollSecret", "RollWebhookSecretPayload"),
      body: bodies.rollSecret,
      byId: true,
      change: (caller, input, id) =>
        Effect.map(webhooks.rollSecret(caller, id, input.grace_seconds), rolledSecretApiAnswer)
    })
    offer<{ readonly type?: string }>("testWebhook", {
      description: "Sends a signed sample event to the webhook now and answers how it went (POST /webhooks/<id>/test).",
      payload: derived("webhooks", "test", "TestWebhookPayload"),
      body: bodies.testWebhook,
      byId: true,
      change: (caller, input, id) =>
        Effect.map(webhooks.test(caller, id, input.type), testSendApiAnswer).pipe(
          Effect.provideService(HttpSender, sender)
        )
    })
    offer("resendWebhookDelivery", {
      description: "Queues a delivery of an event to its webhook again (POST /deliveries/<id>/resend).",
      payload: derived("webhooks", "resend", "ResendWebhookDeliveryPayload"),
      byId: true,
      change: (caller, _input, id) => Effect.map(webhooks.resend(caller, id), resentDeliveryApiAnswer)
    })
    return mutation
  })
