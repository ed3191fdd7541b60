import { Clock, Effect, Option } from "effect"
import { RateLimiter } from "../../limits/ports.js"
import { holdsUnstorableText, unstorableInput } from "../../shared/storable-text.js"
import { Ids, Secrets } from "../../shared/ports.js"
import { CLIENT_SECRET_PREFIX, constantTimeEqual, newSecret } from "./crypto.js"
import { currentPolicy } from "./policy.js"
import { OAuthClientsRepo } from "./ports.js"
import { redirectUriProblem } from "./redirect-uris.js"
import { formatScope, knownScopes } from "./scopes.js"
import { type GrantType, OAuthClient, OAuthError, type TokenEndpointAuthMethod } from "./schema.js"
import { withSpan } from "../../shared/spans.js"

const AUTH_METHODS: ReadonlyArray<TokenEndpointAuthMethod> = ["none", "client_secret_basic", "client_secret_post"]
const GRANT_TYPES: ReadonlyArray<GrantType> = ["authorization_code", "refresh_token"]
const MAX_REDIRECT_URIS = 20

const metadataError = (description: string) => new OAuthError({ error: "invalid_client_metadata", description })

const isStringArray = (value: unknown): value is ReadonlyArray<string> =>
  Array.isArray(value) && value.every((item) => typeof item === "string")

const optionalText = (body: Readonly<Record<string, unknown>>, field: string, max: number) => {
  const value = body[field]
  if (value === undefined || value === null) return Effect.succeed(null)
  if (typeof value !== "string" || value.trim().length === 0 || value.length > max) {
    return Effect.fail(metadataError(`${field} must be a non-empty string of at most ${max} characters`))
  }
  return Effect.succeed(value.trim())
}

/** Client metadata (RFC 7591 §2) checked and completed with the defaults; unknown fields are ignored. */
const decodeMetadata = (body: unknown) =>
  Effect.gen(function* () {
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      return yield* metadataError("the body must be a JSON object of client metadata")
    }
    // Text PostgreSQL cannot store (a NUL, half a surrogate pair) is refused here rather than failing in the database.
    const unstorable = unstorableInput(body)
    if (unstorable !== undefined) return yield* metadataError(unstorable.message)
    const fields = body as Readonly<Record<string, unknown>>
    const redirectUris = fields.redirect_uris
    if (!isStringArray(redirectUris) || redirectUris.length === 0 || redirectUris.length > MAX_REDIRECT_URIS) {
      return yield* new OAuthError({
        error: "invalid_redirect_uri",
        description: `redirect_uris must be an array of 1 to ${MAX_REDIRECT_URIS} URIs`
      })
    }
    for (const uri of redirectUris) {
      const problem = redirectUriProblem(uri)
      if (problem !== undefined) return yield* new OAuthError({ error: "invalid_redirect_uri", description: problem })
    }
    const method = fields.token_endpoint_auth_method ?? "client_secret_basic"
    if (typeof method !== "string" || !(AUTH_METHODS as ReadonlyArray<string>).includes(method)) {
      return yield* metadataError(`token_endpoint_auth_method must be one of ${AUTH_METHODS.join(", ")}`)
    }
    const grantTypes = fields.grant_types ?? ["authorization_code"]
    if (!isStringArray(grantTypes) || !grantTypes.every((g) => (GRANT_TYPES as ReadonlyArray<string>).includes(g))) {
      return yield* metadataError(`grant_types may only hold ${GRANT_TYPES.join(" and ")}`)
    }
    if (!grantTypes.includes("authorization_code")) {
      return yield* metadataError("grant_types must include authorization_code, the only way to obtain a grant here")
    }
    const responseTypes = fields.response_types ?? ["code"]
    if (!isStringArray(responseTypes) || responseTypes.length === 0 || responseTypes.some((r) => r !== "code")) {
      return yield* metadataError('response_types may only hold "code"')
    }
    const name = yield* optionalText(fields, "client_name", 200)
    const clientUri = yield* optionalText(fields, "client_uri", 2000)
    if (clientUri !== null && !/^https?:\/\//i.test(clientUri))
      return yield* metadataError("client_uri must be an http(s) URL")
    // Scope names this server does not know are dropped, not refused: clients send their own names too.
    const scopeText = yield* optionalText(fields, "scope", 500)
    const known = scopeText === null ? [] : knownScopes(scopeText)
    const scope = known.length > 0 ? formatScope(known) : null
    return {
      redirectUris: [...new Set(redirectUris)],
      tokenEndpointAuthMethod: method as TokenEndpointAuthMethod,
      grantTypes: GRANT_TYPES.filter((g) => grantTypes.includes(g)),
      responseTypes: ["code"],
      name,
      clientUri,
      scope
    }
  })

/** How a client authenticated at the token or revocation endpoint. */
export interface ClientCredentials {
  readonly clientId: string
  readonly secret: string | undefined
  readonly method: "basic" | "post" | "none"
}

/** Dynamic client registration (RFC 7591) and client authentication. */
export class OAuthClients extends Effect.Service<OAuthClients>()("svc/auth/oauth/OAuthClients", {
  effect: Effect.gen(function* () {
    const repo = yield* OAuthClientsRepo
    const ids = yield* Ids
    const secrets = yield* Secrets
    const limiter = yield* RateLimiter

    /**
     * Registers a client. `requester` names who asks (the caller's address) for the rate limit.
     * Answers the client, its secret (confidential clients only; shown once) and the metadata to echo.
     */
    const register = (body: unknown, requester: string) =>
      Effect.gen(function* () {
        const policy = yield* currentPolicy
        const decision = yield* limiter.take(
          `oauth:register:${requester}`,
          policy.registrationsPerWindow,
          policy.registrationWindowMs
        )
        if (!decision.allowed) {
          const retryAfterSeconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000))
          return yield* new OAuthError({
            error: "temporarily_unavailable",
            description: `too many registrations; retry after ${retryAfterSeconds} seconds`,
            retryAfterSeconds
          })
        }
        const metadata = yield* decodeMetadata(body)
        const now = yield* Clock.currentTimeMillis
        const client = new OAuthClient({
          id: yield* ids.make("client_"),
          name: metadata.name,
          redirectUris: metadata.redirectUris,
          grantTypes: metadata.grantTypes,
          tokenEndpointAuthMethod: metadata.tokenEndpointAuthMethod,
          scope: metadata.scope,
          clientUri: metadata.clientUri,
          createdAt: new Date(now)
        })
        const secret =
          metadata.tokenEndpointAuthMethod === "none" ? null : yield* newSecret(secrets, CLIENT_SECRET_PREFIX)
        const echo: Record<string, unknown> = {
          redirect_uris: client.redirectUris,
          token_endpoint_auth_method: client.tokenEndpointAuthMethod,
          grant_types: client.grantTypes,
          response_types: metadata.responseTypes,
          ...(client.name === null ? {} : { client_name: client.name }),
          ...(client.clientUri === null ? {} : { client_uri: client.clientUri }),
          ...(client.scope === null ? {} : { scope: client.scope })
        }
        yield* repo.insert(client, secret === null ? null : yield* secrets.sha256Hex(secret), echo)
        return {
          client,
          echo: {
            client_id: client.id,
            client_id_issued_at: Math.floor(now / 1000),
            ...(secret === null ? {} : { client_secret: secret, client_secret_expires_at: 0 }),
            ...echo
          }
        }
      }).pipe(withSpan("OAuthClients.register"))

    /** The registered client with that id. */
    // Ids are ours and never hold text the database refuses; such an id is unknown without a lookup (which would fail).
    const lookup = (clientId: string) => (holdsUnstorableText(clientId) ? Effect.succeedNone : repo.find(clientId))

    const find = (clientId: string) => lookup(clientId).pipe(Effect.map(Option.map((found) => found.client)))

    const unknownClient = new OAuthError({ error: "invalid_client", description: "client authentication failed" })

    /** Checks a client's credentials at the token or revocation endpoint. */
    const authenticate = (credentials: ClientCredentials) =>
      Effect.gen(function* () {
        const found = yield* lookup(credentials.clientId)
        if (Option.isNone(found)) return yield* unknownClient
        const { client, secretHash } = found.value
        if (secretHash === null) {
          // A public client has nothing to prove; one that sends a secret anyway is confused, not trusted.
          return credentials.secret === undefined ? client : yield* unknownClient
        }
        if (credentials.secret === undefined || credentials.method === "none") return yield* unknownClient
        const presented = yield* secrets.sha256Hex(credentials.secret)
        return constantTimeEqual(presented, secretHash) ? client : yield* unknownClient
      }).pipe(withSpan("OAuthClients.authenticate"))

    return { register, find, authenticate } as const
  })
}) {}
