import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import { WorkspacesRepo } from "@svc/core/accounts"
import { Authenticator } from "@svc/core/auth"
import { NUL_MESSAGE, nulParameter, unstorableInput } from "@svc/core/shared"
import { resolveStoreCaller } from "@svc/core/store"
import {
  StoreAuth,
  StoreBadRequest,
  StoreForbidden,
  StoreInvalid,
  StorePlanRequired,
  StoreUnauthorized
} from "@svc/core/store-api"
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
          if (isChange) yield* refuseUnstorable(request)
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

// In JSON text a NUL or half a surrogate pair can only be an escape (`\u0000`, `\ud800`…`\udfff`): raw bytes that
// are not UTF-8 never decode to one. An escape preceded by an odd run of backslashes is one (an even run is an
// escaped backslash followed by plain text). Bodies without one are not parsed here.
const ESCAPE_OF_UNSTORABLE = /u(?:0000|[dD][89a-fA-F][0-9a-fA-F]{2})/g

const mayHoldUnstorable = (text: string): boolean => {
  for (const found of text.matchAll(ESCAPE_OF_UNSTORABLE)) {
    let backslashes = 0
    while (found.index - backslashes - 1 >= 0 && text.charCodeAt(found.index - backslashes - 1) === 92) backslashes++
    if (backslashes % 2 === 1) return true
  }
  return false
}

/**
 * Fails with `invalid_field` when a JSON body holds text PostgreSQL cannot store (a NUL, half a surrogate pair). It
 * reads the body as text, which the platform keeps for the route's own decoding; other content types are left to
 * the route.
 */
const refuseUnstorable = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<void, StoreInvalid> => {
  const type = request.headers["content-type"]
  if (type !== undefined && !type.toLowerCase().includes("json")) return Effect.void
  return Effect.flatMap(
    Effect.orElseSucceed(request.text, () => ""),
    (text) => {
      if (!mayHoldUnstorable(text)) return Effect.void
      let body: unknown
      try {
        body = JSON.parse(text)
      } catch {
        return Effect.void // not JSON: the route's own decoding answers it
      }
      const refused = unstorableInput(body)
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
