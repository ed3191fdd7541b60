import type * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import type { DomainFailure } from "@svc/core/shared"
import type { DiscountCodeContext, StoreCaller } from "@svc/core/store"
import { StoreApi } from "@svc/core/store-api"
import { FailureStatus, type ToolFailure } from "@svc/core/tools"
import { Clock, Effect, Either, Option, ParseResult, Schema } from "effect"
import { GraphQLError } from "graphql"
import { PublicUrl } from "../config.js"
import { problemsMessage, tidyProblems } from "../store-api/responses.js"
import type { GraphqlContext } from "./context.js"
import { graphqlFailure } from "./errors.js"

/** One endpoint of the store API's contract, whose schemas the GraphQL store fields take their types from. */
export const storeEndpoint = (group: string, name: string): HttpApiEndpoint.HttpApiEndpoint.AnyWithProps => {
  const groups = StoreApi.groups as unknown as Readonly<Record<string, HttpApiGroup.HttpApiGroup.AnyWithProps>>
  const found = groups[group]?.endpoints[name]
  if (found === undefined) throw new Error(`the store API has no endpoint ${group}.${name}`)
  return found
}

/** The body schema of a store API endpoint. */
export const payloadOf = (group: string, name: string): Schema.Schema.Any => {
  const payload = storeEndpoint(group, name).payloadSchema
  if (Option.isNone(payload)) throw new Error(`the store API endpoint ${group}.${name} takes no body`)
  return payload.value
}

/** The success schema of a store API endpoint (its answer with `ok: true`). */
export const successOf = (group: string, name: string): Schema.Schema.Any => storeEndpoint(group, name).successSchema

/** A failure a store use case declares. */
export type StoreFailure = DomainFailure

/**
 * Decodes a mutation's input with the store API's own body schema, so that it checks what the API checks (emails,
 * lengths, unknown fields); a refusal is an `invalid` ToolFailure listing the problems.
 */
export const decodeInput = <A>(schema: Schema.Schema.Any, input: unknown): Either.Either<A, ToolFailure> =>
  Either.match(Schema.decodeUnknownEither(schema as Schema.Schema<A, unknown>)(input ?? {}), {
    onRight: (value) => Either.right(value),
    onLeft: (error) => {
      const errors = tidyProblems(
        ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) => ({
          path: issue.path.map(String).join("."),
          message: issue.message
        }))
      )
      return Either.left({
        ok: false as const,
        status: "invalid" as const,
        message: problemsMessage(errors),
        errors: errors.map(({ path, message }) => ({ path, message }))
      })
    }
  })

const isFailureStatus = Schema.is(FailureStatus)

/**
 * What a discount code's answer needs besides the code, as the store API gives it: the server's public address for
 * `checkout_url`, and the time of the answer for `active` (read after the use case, never before the change).
 */
export const makeDiscountCodeContext = Effect.map(PublicUrl, (url) =>
  Effect.map(Clock.currentTimeMillis, (now): DiscountCodeContext => ({ publicBase: url.base, now: new Date(now) }))
)

/** The caller of a read, once per request however many store fields ask. */
export const readCaller = (context: GraphqlContext): Promise<StoreCaller> =>
  context.memo("store:read-caller", () => context.storeCaller(false))

/**
 * Runs one store change for the caller and answers its result: the payload, or a `ToolFailure` for a refusal of
 * the credential (read-only key, plan, automation connection) or of the change. An expired credential and the
 * sales rate limit stay GraphQL errors (401 and 429), as on every other field.
 */
export const runChange = async <A>(
  context: GraphqlContext,
  change: (caller: StoreCaller) => Effect.Effect<A, StoreFailure>
): Promise<A | ToolFailure> => {
  let caller: StoreCaller
  try {
    caller = await context.storeCaller(true)
  } catch (error) {
    const status = error instanceof GraphQLError ? error.extensions.status : undefined
    if (!isFailureStatus(status) || status === "auth-expired") throw error
    return { ok: false, status, message: (error as GraphQLError).message }
  }
  // The face's table says which failures are the mutation's `ToolFailure` result; the rest stay GraphQL errors.
  return context.run(
    Effect.catchAll(change(caller), (failure) => {
      const answer = graphqlFailure(failure)
      return answer._tag === "Failure" ? Effect.succeed(answer.failure) : Effect.fail(failure)
    })
  )
}
