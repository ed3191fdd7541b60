import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { WorkspacesRepo } from "@svc/core/accounts"
import { Authenticator, type Principal, TOOL_SCOPES } from "@svc/core/auth"
import { NUL_MESSAGE, nulParameter, unstorableInput } from "@svc/core/shared"
import { resolveStoreCaller } from "@svc/core/store"
import {
  StoreAuth,
  StoreBadRequest,
  StoreForbidden,
  StoreInvalid,
  type StorePlanRequired,
  StoreUnauthorized
} from "@svc/core/store-api"
import { Effect, Layer, Redacted } from "effect"
import { insufficientScopeChallenge } from "../auth.js"
import { PublicUrl, type PublicUrlShape } from "../config.js"
import { storeResource } from "../oauth/config.js"
import { toStoreError } from "./errors.js"
import { problemsMessage, tidyProblems } from "./responses.js"

/** Where the store API's protected-resource metadata (RFC 9728) lives. */
const storeMetadataUrl = (url: PublicUrlShape): string =>
  `${url.base}/.well-known/oauth-protected-resource${new URL(storeResource(url)).pathname}`

/**
 * Adds a `WWW-Authenticate` header to the answer of this request when it has `status`: the middleware only fails
 * with the error body, and the API builder encodes that without a way to name headers.
 */
const challengeOn = (status: number, challenge: string) =>
  HttpApp.appendPreResponseHandler((_, response) =>
    Effect.succeed(
      response.status === status ? HttpServerResponse.setHeader(response, "www-authenticate", challenge) : response
    )
  )

/** The OAuth form of a Store-on-Read refusal: a `read` token asked for a change (RFC 6750 `insufficient_scope`). */
const readScopeMessage = `this connection was authorized with scope "read", which only reads the store (GET); authorize again with scope "${TOOL_SCOPES}" (or "store" for the store API alone) to send changes`

const isOAuth = (principal: Principal) => principal.credential.kind === "oauth"

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
    const url = yield* PublicUrl
    const metadata = storeMetadataUrl(url)
    // RFC 6750 §3: a 401 names the scheme, and here where to find the authorization server (RFC 9728 §5.1).
    const unauthorized = (message: string, sentToken: boolean) =>
      Effect.as(
        challengeOn(
          401,
          sentToken
            ? `Bearer realm="store", error="invalid_token", resource_metadata="${metadata}"`
            : `Bearer realm="store", resource_metadata="${metadata}"`
        ),
        new StoreUnauthorized({ message })
      )
    const readScopeRefusal = Effect.as(
      challengeOn(
        403,
        insufficientScopeChallenge("store", TOOL_SCOPES, "the read scope cannot change the store", metadata)
      ),
      new StoreForbidden({ code: "api_key_access", message: readScopeMessage })
    )
    return StoreAuth.of({
      bearer: (token) =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const bearer = Redacted.value(token)
          const principal = yield* authenticator
            .authenticate(bearer, "store")
            .pipe(Effect.catchAll((error) => Effect.flip(unauthorized(error.message, bearer.length > 0))))
          const isChange = request.method !== "GET" && request.method !== "HEAD"
          const caller = yield* resolveStoreCaller(principal, isChange).pipe(
            Effect.provideService(WorkspacesRepo, workspaces),
            Effect.catchAll((error) => {
              // The failure table gives the body; a 401 and an OAuth token's read-scope refusal add a challenge.
              const refusal: Effect.Effect<StoreUnauthorized | StorePlanRequired | StoreForbidden> =
                error._tag === "AuthExpired"
                  ? unauthorized(error.message, true)
                  : isOAuth(principal) && error.code === "api_key_access"
                    ? readScopeRefusal
                    : Effect.succeed(toStoreError(error))
              return Effect.flip(refusal)
            })
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

/**
 * Fails with `invalid_field` when a JSON body holds text PostgreSQL cannot store (a NUL, half a surrogate pair) or
 * nests past the depth the tool faces allow, before the route's schema decodes it: a body of thousands of nested
 * arrays overflowed the stack of the decoder's error formatting (a 500). The body was read and bounded already
 * (`StoreBodyLimits`); `request.text` hands back that text. Other content types are left to the route.
 */
const refuseUnstorable = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<void, StoreInvalid> => {
  const type = request.headers["content-type"]
  if (type !== undefined && !type.toLowerCase().includes("json")) return Effect.void
  return Effect.flatMap(
    Effect.orElseSucceed(request.text, () => ""),
    (text) => {
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
              errors: tidyProblems(refused.errors)
            })
          )
    }
  )
}
