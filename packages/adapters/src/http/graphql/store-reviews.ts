import {
  pagedAnswer,
  readReviewListQuery,
  ReviewRow,
  reviewJson,
  reviewPageJson,
  StoreCatalog,
  StoreReviews
} from "@svc/core/store"
import { Effect } from "effect"
import {
  type GraphQLFieldConfig,
  GraphQLFloat,
  type GraphQLInputType,
  GraphQLInt,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLString,
  getNullableType
} from "graphql"
import type { GraphqlContext } from "./context.js"
import type { GraphqlKit } from "./parts.js"
import { readCaller } from "./store-contract.js"
import { argText, type StoreRowList } from "./store-row-list.js"

/**
 * Product reviews on the graph, as the store API has them (`GET /reviews`, `GET /reviews/<id>`): the list of the
 * store or of one product, filtered by origin, one review by id, and a product's rating. Rows are `Review`, the store
 * API's `ReviewRow`, wherever they are met (the tools' svc_manage_sales answers them too).
 */
export const reviewQueries = ({ types }: GraphqlKit) =>
  Effect.gen(function* () {
    const reviews = yield* StoreReviews
    const catalog = yield* StoreCatalog
    types.rename(ReviewRow, "Review")
    const node = types.output(ReviewRow, "Review")
    const origin = getNullableType(types.input(ReviewRow.fields.origin, "ReviewOrigin")) as GraphQLInputType

    const list = (ofProduct: boolean): StoreRowList => ({
      node,
      description:
        "Reviews, newest recorded first: buyers' and imported testimonials (origin says which); shown says whether " +
        "their words are on the product's page (GET /reviews).",
      filters: {
        ...(ofProduct ? {} : { product: { type: GraphQLString, description: "Only this product's reviews." } }),
        origin: { type: origin }
      },
      page: (caller, query, args, productId) =>
        pagedAnswer(
          readReviewListQuery({ ...query, product: productId, origin: argText(args.origin) }),
          (typed) => reviews.listPage(caller, typed),
          reviewPageJson
        )
    })

    const one: GraphQLFieldConfig<unknown, GraphqlContext, { readonly id: string }> = {
      type: getNullableType(node),
      description: "One review by id (rev_…) (GET /reviews/<id>); another store's id is not found.",
      args: { id: { type: new GraphQLNonNull(GraphQLString) } },
      resolve: async (_source, args, context) => {
        const caller = await readCaller(context)
        return reviewJson(await context.run(reviews.get(caller, args.id)))
      }
    }

    const ratingNode = new GraphQLObjectType({
      name: types.reserve("ProductRating"),
      description: "A product's rating, as its page shows it.",
      fields: {
        count: {
          type: new GraphQLNonNull(GraphQLInt),
          description: "Ratings counted: every buyer's, and shown imported ones'."
        },
        average: { type: GraphQLFloat, description: "Their average, one decimal; null: none." }
      }
    })

    const rating: GraphQLFieldConfig<{ readonly id: string }, GraphqlContext> = {
      type: new GraphQLNonNull(ratingNode),
      description: "The product's rating from its reviews, as its checkout page shows it.",
      resolve: async (source, _args, context) => {
        const caller = await readCaller(context)
        const shown = await context.run(
          Effect.flatMap(catalog.get(caller, source.id), (view) => reviews.shownFor(view.product))
        )
        return shown.rating
      }
    }

    return { list, one, rating }
  })
