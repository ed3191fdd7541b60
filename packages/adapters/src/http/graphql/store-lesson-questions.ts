import {
  LessonQuestionRow,
  lessonQuestionJson,
  lessonQuestionPageJson,
  pagedAnswer,
  readLessonQuestionListQuery,
  StoreCourses
} from "@svc/core/store"
import { Effect } from "effect"
import { type GraphQLFieldConfig, type GraphQLInputType, GraphQLNonNull, GraphQLString, getNullableType } from "graphql"
import type { GraphqlContext } from "./context.js"
import type { GraphqlKit } from "./parts.js"
import { readCaller } from "./store-contract.js"
import { argText, type StoreRowList } from "./store-row-list.js"

/**
 * Lesson questions on the graph, as the store API has them (`GET /lesson-questions`, `GET /lesson-questions/<id>`): the
 * list of the store or of one course product, filtered by lesson and status, and one question by id. Rows are
 * `LessonQuestion`, the store API's `LessonQuestionRow`, wherever they are met (svc_manage_lesson_questions too).
 */
export const lessonQuestionQueries = ({ types }: GraphqlKit) =>
  Effect.gen(function* () {
    const courses = yield* StoreCourses
    types.rename(LessonQuestionRow, "LessonQuestion")
    const node = types.output(LessonQuestionRow, "LessonQuestion")
    const status = getNullableType(
      types.input(LessonQuestionRow.fields.status, "LessonQuestionStatus")
    ) as GraphQLInputType

    const list = (ofProduct: boolean): StoreRowList => ({
      node,
      description:
        "Questions learners asked on a course's lessons, newest first; status open lists those still to answer, " +
        "hidden those kept off the lesson's page (GET /lesson-questions).",
      filters: {
        ...(ofProduct
          ? {}
          : { product: { type: GraphQLString, description: "Only this course product's questions." } }),
        lesson: { type: GraphQLString, description: "Only this lesson's questions (ks_…)." },
        status: { type: status }
      },
      page: (caller, query, args, productId) =>
        pagedAnswer(
          readLessonQuestionListQuery({
            ...query,
            product: productId,
            lesson: argText(args.lesson),
            status: argText(args.status)
          }),
          (typed) => courses.listQuestions(caller, typed),
          lessonQuestionPageJson
        )
    })

    const one: GraphQLFieldConfig<unknown, GraphqlContext, { readonly id: string }> = {
      type: getNullableType(node),
      description:
        "One lesson question by id (lq_…) with its answer, if any (GET /lesson-questions/<id>); another store's id " +
        "is not found.",
      args: { id: { type: new GraphQLNonNull(GraphQLString) } },
      resolve: async (_source, args, context) => {
        const caller = await readCaller(context)
        return lessonQuestionJson(await context.run(courses.getQuestion(caller, args.id)))
      }
    }

    return { list, one }
  })
