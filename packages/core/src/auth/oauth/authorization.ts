import { Clock, Effect, Option, Schema } from "effect"
import { NUL_MESSAGE, nulParameter } from "../../shared/storable-text.js"
import { Ids, Secrets } from "../../shared/ports.js"
import { base64Url, isS256Challenge } from "./crypto.js"
import { currentPolicy } from "./policy.js"
import { BrowserSessionsRepo, OAuthGrantsRepo } from "./ports.js"
import { redirectUriRegistered } from "./redirect-uris.js"
import { OAuthClients } from "./registration.js"
import {
  type OAuthAudience,
  type OAuthClient,
  type OAuthErrorCode,
  type OAuthFace,
  NO_RESOURCE,
  PendingAuthorization
} from "./schema.js"
import { defaultScopesOf, isSubset, knownScopes, scopesOfAudience } from "./scopes.js"
import { withSpan } from "../../shared/spans.js"

/** The resources this server protects, as the HTTP face knows their URLs. */
export interface ProtectedResources {
  /**
   * Each resource URL (without a trailing slash) and the audience of its tokens. A request without `resource` is
   * for audience `any`: its scopes alone decide which faces the token reaches.
   */
  readonly audiences: ReadonlyMap<string, OAuthFace>
}

/** The client or its redirect URI is wrong: show an error page, never redirect (RFC 6749 §4.1.2.1). */
export class AuthorizePageError extends Schema.TaggedError<AuthorizePageError>()("AuthorizePageError", {
  message: Schema.String
}) {}

/** Anything else is wrong: send the error back to the (checked) redirect URI. */
export class AuthorizeRedirectError extends Schema.TaggedError<AuthorizeRedirectError>()("AuthorizeRedirectError", {
  redirectUri: Schema.String,
  state: Schema.NullOr(Schema.String),
  error: Schema.String,
  description: Schema.String
}) {}

/** Where the browser goes once the user decided: the redirect URI and the parameters to add. */
export interface AuthorizationAnswer {
  readonly redirectUri: string
  readonly params: Readonly<Record<string, string>>
}

/** An authorization request that passed every check. */
export interface CheckedRequest {
  readonly client: OAuthClient
  readonly redirectUri: string
  readonly state: string | null
  readonly scopes: PendingAuthorization["scopes"]
  readonly codeChallenge: string
  readonly resource: string
  readonly audience: OAuthAudience
}

const SINGLE_VALUED = [
  "response_type",
  "client_id",
  "redirect_uri",
  "state",
  "scope",
  "code_challenge",
  "code_challenge_method"
]

/** The authorization endpoint's rules (RFC 6749 §4.1.1, RFC 7636, RFC 8707) and the codes it issues. */
export class OAuthAuthorization extends Effect.Service<OAuthAuthorization>()("svc/auth/oauth/OAuthAuthorization", {
  dependencies: [OAuthClients.Default],
  effect: Effect.gen(function* () {
    const clients = yield* OAuthClients
    const sessions = yield* BrowserSessionsRepo
    const grants = yield* OAuthGrantsRepo
    const ids = yield* Ids
    const secrets = yield* Secrets

    /** Checks the query of `GET /oauth/authorize`. */
    const check = (query: ReadonlyArray<readonly [string, string]>, resources: ProtectedResources) =>
      Effect.gen(function* () {
        // Before any lookup: the client id reaches the database, and state and scope are stored with the request.
        const poisoned = nulParameter(query)
        if (poisoned !== undefined) {
          return yield* new AuthorizePageError({ message: `The request parameter ${poisoned} ${NUL_MESSAGE}.` })
        }
        const all = (name: string) => query.filter(([key]) => key === name).map(([, value]) => value)
        const one = (name: string) => all(name)[0]
        if (all("client_id").length !== 1) {
          return yield* new AuthorizePageError({ message: "The request must name exactly one client_id." })
        }
        const clientId = one("client_id") ?? ""
        const client = yield* clients.find(clientId)
        if (Option.isNone(client)) {
          return yield* new AuthorizePageError({
            message: `No application is registered with the client id ${clientId}.`
          })
        }
        const redirectUri = one("redirect_uri")
        if (all("redirect_uri").length !== 1 || redirectUri === undefined) {
          return yield* new AuthorizePageError({ message: "The request must name exactly one redirect_uri." })
        }
        if (!redirectUriRegistered(client.value.redirectUris, redirectUri)) {
          return yield* new AuthorizePageError({
            message: `${client.value.name ?? "The application"} did not register the redirect URI ${redirectUri}.`
          })
        }
        const rawState = all("state").length === 1 ? (one("state") ?? null) : null
        const refuse = (error: OAuthErrorCode, description: string) =>
          new AuthorizeRedirectError({ redirectUri, state: rawState, error, description })
        const repeated = SINGLE_VALUED.find((name) => all(name).length > 1)
        if (repeated !== undefined) return yield* refuse("invalid_request", `${repeated} appears more than once`)
        if (rawState !== null && rawState.length > 2000) {
          return yield* refuse("invalid_request", "state may be at most 2000 characters")
        }
        const responseType = one("response_type")
        if (responseType === undefined) return yield* refuse("invalid_request", "response_type is required")
        if (responseType !== "code")
          return yield* refuse("unsupported_response_type", "only response_type=code is supported")
        const challenge = one("code_challenge")
        if (challenge === undefined) {
          return yield* refuse(
            "invalid_request",
            "PKCE is required: send code_challenge and code_challenge_method=S256"
          )
        }
        if (one("code_challenge_method") !== "S256") {
          return yield* refuse("invalid_request", "code_challenge_method must be S256 (plain is not accepted)")
        }
        if (!isS256Challenge(challenge)) {
          return yield* refuse(
            "invalid_request",
            "code_challenge must be the base64url SHA-256 of the verifier (43 characters)"
          )
        }
        const resourceValues = all("resource")
        if (resourceValues.length > 1) return yield* refuse("invalid_target", "name one resource per request")
        const named = resourceValues[0]?.replace(/\/$/, "")
        const audience: OAuthAudience | undefined = named === undefined ? "any" : resources.audiences.get(named)
        if (audience === undefined) {
          return yield* refuse("invalid_target", `${named} is not a resource of this server`)
        }
        const resource = named ?? NO_RESOURCE
        const scopeText = one("scope")
        // Unknown scope names are ignored (RFC 6749 §3.3 lets the server narrow a request); known ones must fit.
        const asked = scopeText === undefined ? [] : knownScopes(scopeText)
        const clientScopes = client.value.scope === null ? undefined : knownScopes(client.value.scope)
        if (named !== undefined && !isSubset(asked, scopesOfAudience[audience])) {
          return yield* refuse("invalid_scope", `${named} takes the scopes ${scopesOfAudience[audience].join(" ")}`)
        }
        if (clientScopes !== undefined && !isSubset(asked, clientScopes)) {
          return yield* refuse("invalid_scope", `the application registered only the scopes ${client.value.scope}`)
        }
        // Without `scope`, a client that registered scopes gets those (as far as the resource takes them).
        const fallback =
          clientScopes === undefined
            ? defaultScopesOf[audience]
            : clientScopes.filter((scope) => scopesOfAudience[audience].includes(scope))
        const scopes = asked.length > 0 ? asked : fallback
        if (scopes.length === 0)
          return yield* refuse("invalid_scope", "no scope the application may use fits this resource")
        const checked: CheckedRequest = {
          client: client.value,
          redirectUri,
          state: rawState,
          scopes,
          codeChallenge: challenge,
          resource,
          audience
        }
        return checked
      }).pipe(withSpan("OAuthAuthorization.check"))

    /** Stores a checked request for the browser session that made it. */
    const begin = (request: CheckedRequest, sessionHash: string) =>
      Effect.gen(function* () {
        const policy = yield* currentPolicy
        const now = yield* Clock.currentTimeMillis
        const pending = new PendingAuthorization({
          id: yield* ids.make("authz_"),
          clientId: request.client.id,
          redirectUri: request.redirectUri,
          state: request.state,
          scopes: request.scopes,
          codeChallenge: request.codeChallenge,
          resource: request.resource,
          audience: request.audience,
          createdAt: new Date(now),
          expiresAt: new Date(now + policy.pendingMs)
        })
        yield* sessions.insertPending(pending, sessionHash)
        return pending
      })

    /** The open request `id` of the session, with its client. */
    const pending = (id: string, sessionHash: string) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const found = yield* sessions.findPending(id, sessionHash, new Date(now))
        if (Option.isNone(found)) return Option.none()
        const client = yield* clients.find(found.value.clientId)
        return Option.map(client, (c) => ({ pending: found.value, client: c }))
      })

    /**
     * Records the user's decision on an open request (once: a second decision finds nothing). Approval
     * issues a single-use code bound to the client, redirect URI, challenge, scopes and resource.
     */
    const decide = (id: string, sessionHash: string, accountId: string, approve: boolean) =>
      Effect.gen(function* () {
        const policy = yield* currentPolicy
        const now = yield* Clock.currentTimeMillis
        const found = yield* sessions.findPending(id, sessionHash, new Date(now))
        if (Option.isNone(found) || !(yield* sessions.completePending(id, sessionHash, new Date(now)))) {
          return Option.none<AuthorizationAnswer>()
        }
        const request = found.value
        const state = request.state === null ? {} : { state: request.state }
        if (!approve) {
          return Option.some<AuthorizationAnswer>({
            redirectUri: request.redirectUri,
            params: { error: "access_denied", error_description: "the user denied the request", ...state }
          })
        }
        const code = base64Url(yield* secrets.randomBytes(32))
        yield* grants.insertCode(
          yield* secrets.sha256Hex(code),
          {
            clientId: request.clientId,
            accountId,
            redirectUri: request.redirectUri,
            codeChallenge: request.codeChallenge,
            scopes: request.scopes,
            resource: request.resource,
            audience: request.audience,
            expiresAt: new Date(now + policy.codeMs),
            usedAt: null,
            grantId: null
          },
          new Date(now)
        )
        return Option.some<AuthorizationAnswer>({ redirectUri: request.redirectUri, params: { code, ...state } })
      }).pipe(withSpan("OAuthAuthorization.decide"))

    return { check, begin, pending, decide } as const
  })
}) {}
