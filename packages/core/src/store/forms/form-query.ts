import { Effect, Either, Schema } from "effect"
import { decodeCursor, type PageRequest } from "../../shared/paging.js"
import { BadListRequest } from "../errors.js"
import { readListQuery, type StoreListQuery } from "../paging.js"
import { ApplicationStatus } from "./schema.js"

const isApplicationStatus = Schema.is(ApplicationStatus)
const isApplicationsFilter = (text: string): text is ApplicationStatus | "all" =>
  text === "all" || isApplicationStatus(text)

/** `GET /quizzes`'s query text as the typed query of `StoreForms.listPage`; 400 on any wrong parameter. */
export const readFormListQuery = (query: StoreListQuery) =>
  Effect.map(readListQuery(query), ({ page, range }) => ({ page, created: range }))

/**
 * `GET /forms/<id>/applications`'s query text as the typed query of `StoreForms.applications`: the status first
 * (pending when left out), then the page and window.
 */
export const readApplicationsQuery = (query: StoreListQuery & { readonly status?: string | undefined }) =>
  Effect.gen(function* () {
    const status = query.status ?? "pending"
    if (!isApplicationsFilter(status)) {
      return yield* new BadListRequest({ message: "status must be pending, accepted, declined or all" })
    }
    const { page, range } = yield* readListQuery(query)
    return { status, page, created: range }
  })

/**
 * A tool's page: `limit` rows after its `cursor`. A cursor this service did not issue is refused as the store
 * API refuses its `starting_after`, which is what the tool answered when it paged through the API's query.
 */
export const toolPage = (limit: number, cursor: string | undefined): Effect.Effect<PageRequest, BadListRequest> =>
  cursor === undefined
    ? Effect.succeed({ limit, after: undefined })
    : Either.match(decodeCursor(cursor), {
        onLeft: () =>
          Effect.fail(
            new BadListRequest({ message: "starting_after must be the next_cursor of the previous page, unchanged" })
          ),
        onRight: (after) => Effect.succeed({ limit, after })
      })
