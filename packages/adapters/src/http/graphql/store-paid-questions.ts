import {
  pagedAnswer,
  paidQuestionJson,
  paidQuestionPageJson,
  PaidQuestionRow,
  readPaidQuestionListQuery,
  StorePaidQuestions
} from "@svc/core/store"
import { Effect } from "effect"
import { type GraphQLFieldConfig, type GraphQLInputType, GraphQLNonNull, GraphQLString, getNullableType } from "graphql"
import type { GraphqlContext } from "./context.js"
import type { GraphqlKit } from "./parts.js"
import { readCaller } from "./store-contract.js"
import { argText, type StoreRowList } from "./store-row-list.js"

/**
 * Paid questions on the graph, as the store API has them (`GET /paid-questions`, `GET /paid-questions/<id>`): the
 * list of the store or of one product, filtered by status, and one question by id. Rows are `PaidQuestion`, the
 * store API's `PaidQuestionRow`, wherever they are met (the tools' svc_manage_sales answers them too).
 */
export const paidQuestionQueries = ({ types }: GraphqlKit) =>
  Effect.gen(function* () {
    const questions = yield* StorePaidQuestions
    types.rename(PaidQuestionRow, "PaidQuestion")
    const node = types.output(PaidQuestionRow, "PaidQuestion")
    const status = getNullableType(types.input(PaidQuestionRow.fields.status, "PaidQuestionStatus")) as GraphQLInputType

    const list = (ofProduct: boolean): StoreRowList => ({
      node,
      description:
        "Questions buyers paid to ask, newest first, test purchases too (test says which); status open lists those " +
        "still to answer, each with answer_due_at (GET /paid-questions).",
      filters: {
        ...(ofProduct ? {} : { product: { type: GraphQLString, description: "Only this product's questions." } }),
        status: { type: status }
      },
      page: (caller, query, args, productId) =>
        pagedAnswer(
          readPaidQuestionListQuery({ ...query, product: productId, status: argText(args.status) }),
          (typed) => questions.listPage(caller, typed),
          paidQuestionPageJson(questions.answerUrl)
        )
    })

    const one: GraphQLFieldConfig<unknown, GraphqlContext, { readonly id: string }> = {
      type: getNullableType(node),
      description:
        "One paid question by id (pq_…) with its answer, if any (GET /paid-questions/<id>); another store's id is " +
        "not found.",
      args: { id: { type: new GraphQLNonNull(GraphQLString) } },
      resolve: async (_source, args, context) => {
        const caller = await readCaller(context)
        const question = await context.run(questions.get(caller, args.id))
        return paidQuestionJson(question, questions.answerUrl(question))
      }
    }

    return { list, one }
  })
