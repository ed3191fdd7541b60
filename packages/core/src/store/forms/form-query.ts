import { Effect, Schema } from "effect"
import { BadListRequest } from "../errors.js"
import { readListQuery, type StoreListQuery } from "../../shared/list-query.js"
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
