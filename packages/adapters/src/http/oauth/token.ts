import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type { HttpServerRequest } from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { type ClientCredentials, OAuthClients, OAuthError, OAuthTokens } from "@svc/core/auth"
import { NUL_MESSAGE, nulParameter } from "@svc/core/shared"
import { Effect, type Layer } from "effect"
import { readBodyText } from "../body.js"
import { answerDefects } from "../defects.js"
import { noStore } from "../browser/index.js"
import { jsonNoStore } from "./http-util.js"
import { corsHeaders, preflight } from "./metadata.js"

const MAX_FORM_BYTES = 16 * 1024

/** An RFC 6749 §5.2 error answer: 401 for `invalid_client` (with a Basic challenge when Basic was tried), else 400. */
export const oauthErrorResponse = (error: OAuthError, usedBasic = false) => {
  const status = error.error === "invalid_client" ? 401 : error.error === "temporarily_unavailable" ? 429 : 400
  return jsonNoStore(
    status,
    { error: error.error, error_description: error.description },
    {
      ...corsHeaders,
      ...(usedBasic && status === 401 ? { "www-authenticate": 'Basic realm="svc", charset="UTF-8"' } : {}),
      ...(error.retryAfterSeconds === undefined ? {} : { "retry-after": String(error.retryAfterSeconds) })
    }
  )
}

const invalidRequest = (description: string) => new OAuthError({ error: "invalid_request", description })

/** The parameters of a form-encoded POST; a parameter sent twice is refused (RFC 6749 §3.2). */
const readForm = (request: HttpServerRequest) =>
  Effect.gen(function* () {
    const type = (request.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase()
    if (type !== "application/x-www-form-urlencoded") {
      return yield* invalidRequest("the body must be application/x-www-form-urlencoded")
    }
    const text = yield* readBodyText(request, MAX_FORM_BYTES).pipe(
      Effect.mapError((error) =>
        invalidRequest(
          error._tag === "BodyUnreadable"
            ? error.reason
            : `the body must be form-encoded text of at most ${MAX_FORM_BYTES} bytes`
        )
      )
    )
    const params = new URLSearchParams(text)
    // Before any lookup: a code, token or client id holding a NUL would fail in the database as a 500.
    const poisoned = nulParameter(params)
    if (poisoned !== undefined) return yield* invalidRequest(`${poisoned} ${NUL_MESSAGE}`)
    const seen = new Set<string>()
    for (const key of params.keys()) {
      if (seen.has(key)) return yield* invalidRequest(`${key} appears more than once`)
      seen.add(key)
    }
    return params
  })

const decodeBasicPart = (text: string): string | undefined => {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "))
  } catch {
    return undefined
  }
}

/** The client's credentials: HTTP Basic (RFC 6749 §2.3.1, form-encoded parts), the body, or just `client_id`. */
const clientCredentials = (request: HttpServerRequest, form: URLSearchParams) =>
  Effect.gen(function* () {
    const header = request.headers.authorization
    const basic = header === undefined ? undefined : /^\s*basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header)?.[1]
    if (basic !== undefined) {
      if (form.has("client_secret")) return yield* invalidRequest("use one way of client authentication, not two")
      const decoded = atob(basic)
      const colon = decoded.indexOf(":")
      const clientId = colon < 0 ? undefined : decodeBasicPart(decoded.slice(0, colon))
      const secret = colon < 0 ? undefined : decodeBasicPart(decoded.slice(colon + 1))
      if (clientId === undefined || secret === undefined) {
        return yield* new OAuthError({ error: "invalid_client", description: "the Basic credentials are malformed" })
      }
      if (form.has("client_id") && form.get("client_id") !== clientId) {
        return yield* invalidRequest("client_id in the body differs from the Basic credentials")
      }
      return { clientId, secret, method: "basic" } satisfies ClientCredentials
    }
    const clientId = form.get("client_id")
    if (clientId === null || clientId.length === 0) {
      return yield* new OAuthError({ error: "invalid_client", description: "client authentication is required" })
    }
    const secret = form.get("client_secret") ?? undefined
    return { clientId, secret, method: secret === undefined ? "none" : "post" } satisfies ClientCredentials
  })

const optional = (form: URLSearchParams, name: string) => form.get(name) ?? undefined

const withDefectsAnswered = answerDefects(() =>
  jsonNoStore(500, { error: "server_error", error_description: "the server failed; try again" }, corsHeaders)
)

/** `POST /oauth/token` (authorization_code and refresh_token) and `POST /oauth/revoke` (RFC 7009). */
export const OAuthTokenRoutes: Layer.Layer<never, never, HttpLayerRouter.HttpRouter | OAuthClients | OAuthTokens> =
  HttpLayerRouter.use((router) =>
    Effect.gen(function* () {
      const clients = yield* OAuthClients
      const tokens = yield* OAuthTokens

      const token = (request: HttpServerRequest) => {
        const usedBasic = /^\s*basic\s/i.test(request.headers.authorization ?? "")
        return Effect.gen(function* () {
          const form = yield* readForm(request)
          const credentials = yield* clientCredentials(request, form)
          const grantType = form.get("grant_type")
          if (grantType === null) return yield* invalidRequest("grant_type is required")
          if (grantType !== "authorization_code" && grantType !== "refresh_token") {
            return yield* new OAuthError({
              error: "unsupported_grant_type",
              description: "grant_type must be authorization_code or refresh_token"
            })
          }
          const client = yield* clients.authenticate(credentials)
          if (grantType === "authorization_code") {
            const code = form.get("code")
            if (code === null || code.length === 0) return yield* invalidRequest("code is required")
            const answer = yield* tokens.exchangeCode(client, {
              code,
              redirectUri: optional(form, "redirect_uri"),
              codeVerifier: optional(form, "code_verifier"),
              resource: optional(form, "resource")
            })
            return jsonNoStore(200, answer, corsHeaders)
          }
          const refreshToken = form.get("refresh_token")
          if (refreshToken === null || refreshToken.length === 0)
            return yield* invalidRequest("refresh_token is required")
          const answer = yield* tokens.refresh(client, {
            refreshToken,
            scope: optional(form, "scope"),
            resource: optional(form, "resource")
          })
          return jsonNoStore(200, answer, corsHeaders)
        }).pipe(Effect.catchTag("OAuthError", (error) => Effect.succeed(oauthErrorResponse(error, usedBasic))))
      }

      const revoke = (request: HttpServerRequest) => {
        const usedBasic = /^\s*basic\s/i.test(request.headers.authorization ?? "")
        return Effect.gen(function* () {
          const form = yield* readForm(request)
          const client = yield* clients.authenticate(yield* clientCredentials(request, form))
          const value = form.get("token")
          if (value === null || value.length === 0) return yield* invalidRequest("token is required")
          yield* tokens.revoke(client, value)
          return HttpServerResponse.empty({ status: 200, headers: { ...noStore, ...corsHeaders } })
        }).pipe(Effect.catchTag("OAuthError", (error) => Effect.succeed(oauthErrorResponse(error, usedBasic))))
      }

      yield* router.addAll([
        HttpLayerRouter.route("POST", "/oauth/token", (request) => withDefectsAnswered(token(request))),
        HttpLayerRouter.route("OPTIONS", "/oauth/token", Effect.succeed(preflight("POST, OPTIONS"))),
        HttpLayerRouter.route("POST", "/oauth/revoke", (request) => withDefectsAnswered(revoke(request))),
        HttpLayerRouter.route("OPTIONS", "/oauth/revoke", Effect.succeed(preflight("POST, OPTIONS")))
      ])
    })
  )
