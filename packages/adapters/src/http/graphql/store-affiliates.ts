import {
  AffiliateProgramRow,
  AffiliateRow,
  affiliateJson,
  affiliatePageJson,
  affiliateProgramJson,
  pagedAnswer,
  readAffiliateListQuery,
  StoreAffiliates
} from "@svc/core/store"
import { Effect, Option } from "effect"
import { type GraphQLFieldConfig, type GraphQLInputType, GraphQLNonNull, GraphQLString, getNullableType } from "graphql"
import type { GraphqlContext } from "./context.js"
import type { GraphqlKit } from "./parts.js"
import { readCaller } from "./store-contract.js"
import { argText, type StoreRowList } from "./store-row-list.js"

/**
 * Affiliates on the graph, as the store API has them (`GET /affiliates`, `GET /affiliates/<id>`,
 * `GET /products/<id>/affiliate-program`): the list of the store or of one product, filtered by status, one affiliate,
 * and a product's program. Rows are `Affiliate` and `AffiliateProgram`, the store API's rows.
 */
export const affiliateQueries = ({ types }: GraphqlKit) =>
  Effect.gen(function* () {
    const affiliates = yield* StoreAffiliates
    types.rename(AffiliateRow, "Affiliate")
    types.rename(AffiliateProgramRow, "AffiliateProgram")
    const node = types.output(AffiliateRow, "Affiliate")
    const programNode = types.output(AffiliateProgramRow, "AffiliateProgram")
    const status = getNullableType(types.input(AffiliateRow.fields.status, "AffiliateStatus")) as GraphQLInputType

    const list = (ofProduct: boolean): StoreRowList => ({
      node,
      description:
        "Affiliates, newest first, each with the link they share; status pending lists applicants waiting for a " +
        "decision (GET /affiliates).",
      filters: {
        ...(ofProduct ? {} : { product: { type: GraphQLString, description: "Only this product's affiliates." } }),
        status: { type: status }
      },
      page: (caller, query, args, productId) =>
        pagedAnswer(
          readAffiliateListQuery({ ...query, product: productId, status: argText(args.status) }),
          (typed) => affiliates.list(caller, typed),
          affiliatePageJson
        )
    })

    const one: GraphQLFieldConfig<unknown, GraphqlContext, { readonly id: string }> = {
      type: getNullableType(node),
      description: "One affiliate by id (aff_…) (GET /affiliates/<id>); another store's id is not found.",
      args: { id: { type: new GraphQLNonNull(GraphQLString) } },
      resolve: async (_source, args, context) => {
        const caller = await readCaller(context)
        return affiliateJson(await context.run(Effect.flatMap(affiliates.get(caller, args.id), affiliates.describe)))
      }
    }

    const program: GraphQLFieldConfig<{ readonly id: string }, GraphqlContext> = {
      type: getNullableType(programNode),
      description: "The product's affiliate program; null while none is set (GET /products/<id>/affiliate-program).",
      resolve: async (source, _args, context) => {
        const caller = await readCaller(context)
        const found = await context.run(affiliates.program(caller, source.id))
        return Option.isNone(found.program)
          ? null
          : affiliateProgramJson(await context.run(affiliates.describeProgram(found.program.value)))
      }
    }

    return { list, one, program }
  })
