import { Store } from "@svc/core/accounts"
import {
  CohortRow,
  CustomerRow,
  cohortJson,
  customerJson,
  customerPageJson,
  DiscountCodeRow,
  discountCodeJson,
  discountCodePageJson,
  ProductRow,
  ProductStatus,
  productJson,
  productPageJson,
  readCustomerListQuery,
  readDiscountCodeListQuery,
  readProductListQuery,
  readSaleListQuery,
  SaleRow,
  salePageJson,
  type StoreCaller,
  StoreCatalog,
  StoreCohorts,
  StoreCustomers,
  StoreDiscountCodes,
  type StoreListQuery,
  StoreSales,
  StoreSettingsRow,
  StoreSetup,
  pagedAnswer,
  storeSettingsJson
} from "@svc/core/store"
import {
  AttemptRow,
  deliveryPageJson,
  EventEnvelope,
  eventPageJson,
  readDeliveriesQuery,
  readEventsQuery,
  WebhookRow,
  Webhooks,
  webhookJson
} from "@svc/core/webhooks"
import { Effect } from "effect"
import {
  GraphQLBoolean,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
  type GraphQLInputType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLOutputType,
  GraphQLString,
  getNullableType
} from "graphql"
import { connectionOf, type Connections, type PageArgs, pageArgs } from "./connections.js"
import type { GraphqlContext } from "./context.js"
import { failureError } from "./errors.js"
import type { GraphqlKit } from "./parts.js"
import { makeDiscountCodeContext, readCaller, type StoreFailure } from "./store-contract.js"
import { creatorPageQuery } from "./store-creator-page.js"
import { paidQuestionQueries } from "./store-paid-questions.js"
import { reviewQueries } from "./store-reviews.js"
import { lessonQuestionQueries } from "./store-lesson-questions.js"
import { affiliateQueries } from "./store-affiliates.js"

/** What the store API's paged lists answer (`PageOf`). */
interface StorePage {
  readonly data: ReadonlyArray<unknown>
  readonly has_more: boolean
  readonly next_cursor: string
}

/** The arguments of every store connection: the page, and the creation range of the store API's lists. */
interface ListArgs extends PageArgs {
  readonly createdAfter?: string | null
  readonly createdBefore?: string | null
  readonly [filter: string]: unknown
}

const rangeArgs: GraphQLFieldConfigArgumentMap = {
  createdAfter: { type: GraphQLString, description: "Only rows created after this: ISO date or milliseconds." },
  createdBefore: { type: GraphQLString, description: "Only rows created before this: ISO date or milliseconds." }
}

/** `first`/`after` and the range as the store API's list query (`limit`, `starting_after`, …), which checks them. */
const listQuery = (args: ListArgs): StoreListQuery => ({
  ...(args.first == null ? {} : { limit: String(args.first) }),
  ...(args.after == null ? {} : { starting_after: args.after }),
  ...(args.createdAfter == null ? {} : { created_after: args.createdAfter }),
  ...(args.createdBefore == null ? {} : { created_before: args.createdBefore })
})

/** A filter argument as the list's text query takes it (absent when not given). */
const text = (value: unknown): string | undefined => (value == null ? undefined : String(value))

const nullable = (type: GraphQLInputType): GraphQLInputType => getNullableType(type) as GraphQLInputType

type Field<S> = GraphQLFieldConfig<S, GraphqlContext, ListArgs>

/**
 * `store(handle)`: the credential's store as the store API reads it (same tokens, store access part, plan gate),
 * with its settings, creator page, products, sales, customers, event log and webhooks. Lists are connections over the
 * API's keyset pages.
 */
export const storeQueries = (kit: GraphqlKit, connections: Connections) =>
  Effect.gen(function* () {
    const { types } = kit
    const catalog = yield* StoreCatalog
    const setup = yield* StoreSetup
    const sales = yield* StoreSales
    const customers = yield* StoreCustomers
    const cohorts = yield* StoreCohorts
    const codes = yield* StoreDiscountCodes
    const codeContext = yield* makeDiscountCodeContext
    const webhooks = yield* Webhooks
    const questions = yield* paidQuestionQueries(kit)
    const reviews = yield* reviewQueries(kit)
    const lessonQuestions = yield* lessonQuestionQueries(kit)
    const affiliates = yield* affiliateQueries(kit)
    const creatorPage = yield* creatorPageQuery(kit)

    /** A connection over one of the store API's paged lists. */
    const pagedField = <S>(
      node: GraphQLOutputType,
      description: string,
      filters: GraphQLFieldConfigArgumentMap,
      page: (
        caller: StoreCaller,
        query: StoreListQuery,
        args: ListArgs,
        source: S
      ) => Effect.Effect<StorePage, StoreFailure>
    ): Field<S> => ({
      type: connections.of(node),
      description,
      args: { ...filters, ...rangeArgs, ...pageArgs },
      resolve: async (source, args, context) => {
        const caller = await readCaller(context)
        const answer = await context.run(page(caller, listQuery(args), args, source))
        return connectionOf(answer.data, answer.has_more ? answer.next_cursor : undefined, { after: args.after })
      }
    })

    const saleNode = types.output(SaleRow, "Sale")
    const settingsNode = types.output(StoreSettingsRow, "StoreSettings")
    const customerNode = types.output(CustomerRow, "Customer")
    const cohortNode = types.output(CohortRow, "Cohort")
    // Named as the graph names the store's other records (Sale, Customer), wherever the row is met: the tools'
    // svc_manage_sales answers it too.
    types.rename(DiscountCodeRow, "DiscountCode")
    const discountCodeNode = types.output(DiscountCodeRow, "DiscountCode")
    const eventNode = types.output(EventEnvelope, "StoreEvent")
    const deliveryNode = types.output(AttemptRow, "WebhookDelivery")
    const saleStatus = nullable(types.input(SaleRow.fields.status, "SaleStatus"))
    const productStatus = nullable(types.input(ProductStatus, "ProductStatus"))

    const salesField = (ofProduct: boolean): Field<{ readonly id: string }> =>
      pagedField(
        saleNode,
        "Sales, newest first (GET /sales).",
        {
          ...(ofProduct ? {} : { product: { type: GraphQLString, description: "Only sales of this product." } }),
          email: { type: GraphQLString, description: "Only sales to this buyer email." },
          status: { type: saleStatus }
        },
        (caller, query, args, source) =>
          pagedAnswer(
            readSaleListQuery({
              ...query,
              product: ofProduct ? source.id : text(args.product),
              email: text(args.email),
              status: text(args.status)
            }),
            (typed) => sales.listPage(caller, typed),
            salePageJson
          )
      )

    const customersField = (ofProduct: boolean): Field<{ readonly id: string }> =>
      pagedField(
        customerNode,
        "People with the store's products, newest first, each with every product they have (GET /customers).",
        {
          ...(ofProduct ? {} : { product: { type: GraphQLString, description: "Only people who had this product." } }),
          hasAccess: { type: GraphQLBoolean, description: "Only people with (true) or without (false) access now." },
          tag: { type: GraphQLString, description: "A tag's id (tag_…) or name (any case)." }
        },
        (caller, query, args, source) =>
          pagedAnswer(
            readCustomerListQuery({
              ...query,
              product: ofProduct ? source.id : text(args.product),
              has_access: text(args.hasAccess),
              tag: text(args.tag)
            }),
            (typed) => customers.listPage(caller, typed),
            customerPageJson
          )
      )

    const discountCodesField = (ofProduct: boolean): Field<{ readonly id: string }> =>
      pagedField(
        discountCodeNode,
        "Discount codes of the service's checkout, newest first, turned-off ones too: active says which work now " +
          "(GET /discount-codes).",
        ofProduct ? {} : { product: { type: GraphQLString, description: "Only this product's codes." } },
        (caller, query, args, source) =>
          Effect.flatMap(codeContext, (context) =>
            pagedAnswer(
              readDiscountCodeListQuery({ ...query, product: ofProduct ? source.id : text(args.product) }),
              (typed) => codes.listPage(caller, typed),
              discountCodePageJson(context)
            )
          )
      )

    const paidQuestionsField = (ofProduct: boolean): Field<{ readonly id: string }> => {
      const list = questions.list(ofProduct)
      return pagedField(list.node, list.description, list.filters, (caller, query, args, source) =>
        list.page(caller, query, args, ofProduct ? source.id : text(args.product))
      )
    }

    const reviewsField = (ofProduct: boolean): Field<{ readonly id: string }> => {
      const list = reviews.list(ofProduct)
      return pagedField(list.node, list.description, list.filters, (caller, query, args, source) =>
        list.page(caller, query, args, ofProduct ? source.id : text(args.product))
      )
    }

    const lessonQuestionsField = (ofProduct: boolean): Field<{ readonly id: string }> => {
      const list = lessonQuestions.list(ofProduct)
      return pagedField(list.node, list.description, list.filters, (caller, query, args, source) =>
        list.page(caller, query, args, ofProduct ? source.id : text(args.product))
      )
    }

    const affiliatesField = (ofProduct: boolean): Field<{ readonly id: string }> => {
      const list = affiliates.list(ofProduct)
      return pagedField(list.node, list.description, list.filters, (caller, query, args, source) =>
        list.page(caller, query, args, ofProduct ? source.id : text(args.product))
      )
    }

    const product: GraphQLObjectType = new GraphQLObjectType({
      name: types.reserve("Product"),
      description:
        "A product of the store with every field, its sales, customers, cohorts, reviews, rating, lesson questions and affiliates.",
      fields: () => ({
        ...(types.outputFields(ProductRow, "Product") as GraphQLFieldConfigMap<unknown, GraphqlContext>),
        sales: salesField(true) as GraphQLFieldConfig<unknown, GraphqlContext>,
        customers: customersField(true) as GraphQLFieldConfig<unknown, GraphqlContext>,
        discountCodes: discountCodesField(true) as GraphQLFieldConfig<unknown, GraphqlContext>,
        paidQuestions: paidQuestionsField(true) as GraphQLFieldConfig<unknown, GraphqlContext>,
        reviews: reviewsField(true) as GraphQLFieldConfig<unknown, GraphqlContext>,
        lessonQuestions: lessonQuestionsField(true) as GraphQLFieldConfig<unknown, GraphqlContext>,
        affiliates: affiliatesField(true) as GraphQLFieldConfig<unknown, GraphqlContext>,
        affiliateProgram: affiliates.program as GraphQLFieldConfig<unknown, GraphqlContext>,
        rating: reviews.rating as GraphQLFieldConfig<unknown, GraphqlContext>,
        cohorts: {
          type: new GraphQLNonNull(new GraphQLList(cohortNode)),
          description: "The product's cohorts (GET /products/<id>/cohorts).",
          resolve: async (source: { readonly id: string }, _args: unknown, context: GraphqlContext) => {
            const caller = await readCaller(context)
            return (await context.run(cohorts.list(caller, source.id))).map(cohortJson)
          }
        }
      })
    })

    const webhook = new GraphQLObjectType({
      name: types.reserve("Webhook"),
      description: "A webhook of the store (its secret is shown only when made or rolled) and its delivery log.",
      fields: () => ({
        ...(types.outputFields(WebhookRow, "Webhook") as GraphQLFieldConfigMap<unknown, GraphqlContext>),
        deliveries: pagedField<{ readonly id: string }>(
          deliveryNode,
          "Delivery attempts of this webhook, newest first (GET /webhooks/<id>/deliveries).",
          {},
          (caller, query, _args, source) =>
            pagedAnswer(
              readDeliveriesQuery(query),
              (typed) => webhooks.deliveries(caller, source.id, typed),
              deliveryPageJson
            )
        ) as GraphQLFieldConfig<unknown, GraphqlContext>
      })
    })

    const store = new GraphQLObjectType<StoreCaller["store"], GraphqlContext>({
      name: types.reserve("Store"),
      description: "The store of the credential, read as the store API reads it.",
      fields: () => ({
        ...(types.outputFields(Store, "Store") as GraphQLFieldConfigMap<StoreCaller["store"], GraphqlContext>),
        products: pagedField(
          new GraphQLNonNull(product),
          "Products, newest first (GET /products with paging).",
          { status: { type: productStatus } },
          (caller, query, args) =>
            pagedAnswer(
              readProductListQuery({ ...query, status: text(args.status) }),
              (typed) => catalog.listPage(caller, typed),
              productPageJson
            )
        ),
        settings: {
          type: settingsNode,
          description: "The store's name, support email, card processor and email-list options (GET /settings).",
          resolve: async (_source, _args, context) => {
            const caller = await readCaller(context)
            return storeSettingsJson(await context.run(setup.readFor(caller)))
          }
        },
        creatorPage: creatorPage as GraphQLFieldConfig<StoreCaller["store"], GraphqlContext>,
        product: {
          type: product,
          description: "One product by id (GET /products/<id>); another store's id is not found.",
          args: { id: { type: new GraphQLNonNull(GraphQLString) } },
          resolve: async (_source, args: { readonly id: string }, context) => {
            const caller = await readCaller(context)
            const view = await context.run(catalog.get(caller, args.id))
            return productJson(view.product, view.bundleProductIds)
          }
        },
        sales: salesField(false),
        customers: customersField(false),
        customer: {
          type: customerNode instanceof GraphQLNonNull ? customerNode.ofType : customerNode,
          description: "One person by email with every product they have (GET /customers/<email>).",
          args: { email: { type: new GraphQLNonNull(GraphQLString) } },
          resolve: async (_source, args: { readonly email: string }, context) => {
            const caller = await readCaller(context)
            return customerJson(await context.run(customers.get(caller, args.email)))
          }
        },
        discountCodes: discountCodesField(false),
        discountCode: {
          type: getNullableType(discountCodeNode),
          description:
            "One discount code by its id (dsc_…) or by the code itself in any case, with its uses and whether it " +
            "works now (GET /discount-codes/<id>).",
          args: { id: { type: new GraphQLNonNull(GraphQLString) } },
          resolve: async (_source, args: { readonly id: string }, context) => {
            const caller = await readCaller(context)
            return context.run(Effect.zipWith(codes.get(caller, args.id), codeContext, discountCodeJson))
          }
        },
        paidQuestions: paidQuestionsField(false),
        paidQuestion: questions.one as GraphQLFieldConfig<StoreCaller["store"], GraphqlContext>,
        reviews: reviewsField(false),
        review: reviews.one as GraphQLFieldConfig<StoreCaller["store"], GraphqlContext>,
        lessonQuestions: lessonQuestionsField(false),
        lessonQuestion: lessonQuestions.one as GraphQLFieldConfig<StoreCaller["store"], GraphqlContext>,
        affiliates: affiliatesField(false),
        affiliate: affiliates.one as GraphQLFieldConfig<StoreCaller["store"], GraphqlContext>,
        events: pagedField(
          eventNode,
          "The store's event log of the last 30 days, newest first, published event types only (GET /events).",
          { type: { type: GraphQLString, description: "Only events of this type (GET /webhook-events lists them)." } },
          (caller, query, args) =>
            pagedAnswer(
              readEventsQuery({ ...query, type: text(args.type) }),
              (typed) => webhooks.events(caller, typed),
              eventPageJson
            )
        ),
        webhooks: {
          type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(webhook))),
          description: "The store's webhooks (GET /webhooks).",
          resolve: async (_source, _args, context) => {
            const caller = await readCaller(context)
            return (await context.run(webhooks.list(caller))).map(webhookJson)
          }
        }
      })
    })

    return {
      product,
      query: {
        store: {
          type: new GraphQLNonNull(store),
          description:
            "The credential's store (the store API's rules: Starter plan or above, the key's Store access). " +
            "handle, when given, must be that store's.",
          args: {
            handle: { type: GraphQLString, description: "The store's handle; the credential's store when left out." }
          },
          resolve: async (_source: unknown, args: { readonly handle?: string | null }, context: GraphqlContext) => {
            const caller = await readCaller(context)
            if (args.handle != null && args.handle !== caller.store.handle) {
              throw failureError({
                status: "not-found",
                message: `no store ${args.handle} for this credential; its store is ${caller.store.handle} (leave handle out)`
              })
            }
            return caller.store
          }
        }
      }
    }
  })
