import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import {
  Authenticator,
  NUL_MESSAGE,
  nulInput,
  nulParameter,
  resolveStoreCaller,
  StoreAuth,
  StoreBadRequest,
  StoreForbidden,
  StoreInvalid,
  StorePlanRequired,
  StoreUnauthorized,
  WorkspacesRepo
} from "@svc/core"
import { Effect, Layer, Redacted } from "effect"
import { problemsMessage } from "./responses.js"

/**
 * The store API's bearer check. A request without `Authorization` still arrives here with an empty
 * token (the platform decodes a missing header as ""), so the authenticator's empty-token refusal
 * is what turns it away with 401.
 */
export const StoreAuthLive = Layer.effect(
  StoreAuth,
  Effect.gen(function* () {
    const authenticator = yield* Authenticator
    const workspaces = yield* WorkspacesRepo
    return StoreAuth.of({
      bearer: (token) =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const principal = yield* authenticator
            .authenticate(Redacted.value(token), "store")
            .pipe(Effect.mapError((error) => new StoreUnauthorized({ message: error.message })))
          const isChange = request.method !== "GET" && request.method !== "HEAD"
          const caller = yield* resolveStoreCaller(principal, isChange).pipe(
            Effect.provideService(WorkspacesRepo, workspaces),
            Effect.mapError((error) =>
              error._tag === "AuthExpired"
                ? new StoreUnauthorized({ message: error.message })
                : error.code === "plan"
                  ? new StorePlanRequired({ message: error.message })
                  : new StoreForbidden({ code: error.code, message: error.message })
            )
          )
          yield* refuseNulInUrl(request.url)
          if (isChange) yield* refuseNul(request)
          return caller
        })
    })
  })
)

/**
 * Fails with `bad_request` when the path or a query parameter holds the NUL character (`%00`): ids, emails and
 * cursors are looked up in the database, which stores no NUL and would fail as an internal error.
 */
const refuseNulInUrl = (url: string): Effect.Effect<void, StoreBadRequest> => {
  // Node refuses a raw NUL in the request line, so `%00` is the only way one arrives.
  if (!/%00/i.test(url)) return Effect.void
  const query = url.indexOf("?")
  const param = query === -1 ? undefined : nulParameter(new URLSearchParams(url.slice(query + 1)))
  const where = param === undefined ? "the URL path" : `the query parameter ${param}`
  return Effect.fail(new StoreBadRequest({ message: `${where} ${NUL_MESSAGE}` }))
}

// In JSON text a NUL can only be the escape `\u0000`; one preceded by an odd run of backslashes is that escape
// (an even run is an escaped backslash and the plain text "u0000"). Bodies without one are not parsed here.
const mayHoldNul = (text: string): boolean => {
  for (let at = text.indexOf("u0000"); at !== -1; at = text.indexOf("u0000", at + 5)) {
    let backslashes = 0
    while (at - backslashes - 1 >= 0 && text.charCodeAt(at - backslashes - 1) === 92) backslashes++
    if (backslashes % 2 === 1) return true
  }
  return false
}

/**
 * Fails with `invalid_field` when a JSON body holds the NUL character. It reads the body as text, which the platform
 * keeps for the route's own decoding; other content types are left to the route.
 */
const refuseNul = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<void, StoreInvalid> => {
  const type = request.headers["content-type"]
  if (type !== undefined && !type.toLowerCase().includes("json")) return Effect.void
  return Effect.flatMap(
    Effect.orElseSucceed(request.text, () => ""),
    (text) => {
      if (!mayHoldNul(text)) return Effect.void
      let body: unknown
      try {
        body = JSON.parse(text)
      } catch {
        return Effect.void // not JSON: the route's own decoding answers it
      }
      const refused = nulInput(body)
      return refused === undefined
        ? Effect.void
        : Effect.fail(
            new StoreInvalid({
              message: problemsMessage(refused.errors),
              errors: refused.errors
            })
          )
    }
  )
}
