/**
 * Token lifetimes and families on the real database, with the clock under test control: access tokens
 * last one hour, codes a few minutes, and a rotated refresh token reused after the grace window revokes
 * its whole family. Also what a token turns into (the `Principal`) and its audience binding.
 */
import { createHash, randomBytes } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import {
  Authenticator,
  BrowserSessions,
  fullAccess,
  defaultOAuthPolicy,
  OAuthAuthorization,
  OAuthClients,
  OAuthTokens,
  purgeExpiredOAuth,
  readOnlyAccess
} from "@svc/core/auth"
import { Effect, Option, TestClock } from "effect"
import { signUp, testCoreLayer } from "../support/core.js"
import { engineName } from "../support/database.js"

const BASE = "http://svc.test"
const resources = {
  audiences: new Map([
    [`${BASE}/mcp`, "tools" as const],
    [`${BASE}/store-app/v1`, "store" as const]
  ])
}
const REDIRECT = "http://127.0.0.1:9000/cb"

/** A user, a client, and the tokens of one approved authorization (through the real services). */
const approvedGrant = (options: { scope?: string; resource?: string } = {}) =>
  Effect.gen(function* () {
    const user = yield* signUp()
    const { client, echo } = yield* (yield* OAuthClients).register(
      {
        client_name: "Clock test",
        redirect_uris: [REDIRECT],
        grant_types: ["authorization_code", "refresh_token"],
        token_endpoint_auth_method: "none"
      },
      randomBytes(6).toString("hex")
    )
    const verifier = randomBytes(32).toString("base64url")
    const challenge = createHash("sha256").update(verifier).digest("base64url")
    const sessions = yield* BrowserSessions
    const { session } = yield* sessions.start
    const authorization = yield* OAuthAuthorization
    const checked = yield* authorization.check(
      [
        ["response_type", "code"],
        ["client_id", client.id],
        ["redirect_uri", REDIRECT],
        ["code_challenge", challenge],
        ["code_challenge_method", "S256"],
        ["state", "s"],
        ...(options.scope === undefined ? [] : [["scope", options.scope] as const]),
        ...(options.resource === undefined ? [] : [["resource", options.resource] as const])
      ],
      resources
    )
    const pending = yield* authorization.begin(checked, session.hash)
    const answer = yield* authorization.decide(pending.id, session.hash, user.account.id, true)
    const code = Option.getOrThrow(answer).params.code ?? ""
    const tokens = yield* OAuthTokens
    return { user, client, echo, code, verifier, tokens }
  })

const exchange = (grant: Effect.Effect.Success<ReturnType<typeof approvedGrant>>) =>
  grant.tokens.exchangeCode(grant.client, {
    code: grant.code,
    redirectUri: REDIRECT,
    codeVerifier: grant.verifier,
    resource: undefined
  })

layer(testCoreLayer(), { timeout: "60 seconds" })(`OAuth tokens on ${engineName}`, (it) => {
  describe("storage", () => {
    it.effect("keeps only SHA-256 hashes of codes, tokens and client secrets", () =>
      Effect.gen(function* () {
        const grant = yield* approvedGrant()
        const issued = yield* exchange(grant)
        const confidential = yield* (yield* OAuthClients).register({ redirect_uris: [REDIRECT] }, "hash-test")
        const secret = String(confidential.echo.client_secret)
        const sql = yield* SqlClient.SqlClient
        const everything = JSON.stringify([
          yield* sql`SELECT * FROM oauth_tokens`,
          yield* sql`SELECT * FROM oauth_codes`,
          yield* sql`SELECT * FROM oauth_clients`,
          yield* sql`SELECT * FROM oauth_sessions`
        ])
        for (const value of [issued.access_token, issued.refresh_token ?? "", grant.code, secret]) {
          expect(value.length).toBeGreaterThan(20)
          expect(everything).not.toContain(value)
        }
        expect(everything).toContain(createHash("sha256").update(issued.access_token).digest("hex"))
      })
    )
  })

  describe("lifetimes", () => {
    it.effect("an access token works for one hour, then answers auth-expired", () =>
      Effect.gen(function* () {
        const grant = yield* approvedGrant()
        const issued = yield* exchange(grant)
        expect(issued.expires_in).toBe(3600)
        const authenticator = yield* Authenticator
        yield* TestClock.adjust("59 minutes")
        yield* authenticator.authenticate(issued.access_token, "tools")
        yield* TestClock.adjust("61 seconds")
        const expired = yield* Effect.flip(authenticator.authenticate(issued.access_token, "tools"))
        expect(expired._tag).toBe("AuthExpired")
      })
    )

    it.effect("a code must be exchanged within five minutes", () =>
      Effect.gen(function* () {
        const grant = yield* approvedGrant()
        yield* TestClock.adjust(defaultOAuthPolicy.codeMs + 1000)
        const late = yield* Effect.flip(exchange(grant))
        expect(late.error).toBe("invalid_grant")
      })
    )
  })

  describe("refresh token families", () => {
    it.effect("a rotated refresh token works inside the grace window; reused later it revokes the whole family", () =>
      Effect.gen(function* () {
        const grant = yield* approvedGrant()
        const first = yield* exchange(grant)
        const refresh = (token: string) =>
          grant.tokens.refresh(grant.client, { refreshToken: token, scope: undefined, resource: undefined })
        const second = yield* refresh(first.refresh_token ?? "")
        yield* TestClock.adjust("10 seconds")
        // A lost answer: the client retries with the old token inside the window and gets a working pair.
        const retry = yield* refresh(first.refresh_token ?? "")
        const authenticator = yield* Authenticator
        yield* authenticator.authenticate(retry.access_token, "tools")
        yield* TestClock.adjust(defaultOAuthPolicy.refreshGraceMs)
        const reuse = yield* Effect.flip(refresh(first.refresh_token ?? ""))
        expect(reuse.error).toBe("invalid_grant")
        // Every member of the family is now dead, the newest included.
        expect((yield* Effect.flip(refresh(second.refresh_token ?? ""))).error).toBe("invalid_grant")
        expect((yield* Effect.flip(refresh(retry.refresh_token ?? ""))).error).toBe("invalid_grant")
        expect((yield* Effect.flip(authenticator.authenticate(second.access_token, "tools")))._tag).toBe("AuthExpired")
      })
    )
  })

  describe("what a token is", () => {
    it.effect("an OAuth token reaches the whole account, as the oauth credential of its grant", () =>
      Effect.gen(function* () {
        const grant = yield* approvedGrant({ scope: "read" })
        const issued = yield* exchange(grant)
        const principal = yield* (yield* Authenticator).authenticate(issued.access_token, "tools")
        expect(principal.accountId).toBe(grant.user.account.id)
        expect(principal.reach).toBe("account")
        expect(principal.credential.kind).toBe("oauth")
        expect(principal.credential.id).toMatch(/^grant_/)
        expect(principal.workspaceId).toBe(grant.user.workspace.id)
        expect(principal.access.kind).toBe("custom")
      })
    )

    it.effect("is bound to its audience: a tool-server token is refused by the store API and the other way round", () =>
      Effect.gen(function* () {
        const authenticator = yield* Authenticator
        const tools = yield* exchange(yield* approvedGrant({ resource: `${BASE}/mcp` }))
        expect((yield* Effect.flip(authenticator.authenticate(tools.access_token, "store")))._tag).toBe("AuthExpired")
        const store = yield* exchange(yield* approvedGrant({ resource: `${BASE}/store-app/v1`, scope: "store" }))
        expect(store.scope).toBe("store")
        expect((yield* Effect.flip(authenticator.authenticate(store.access_token, "tools")))._tag).toBe("AuthExpired")
        const principal = yield* authenticator.authenticate(store.access_token, "store")
        expect(principal.access).toEqual({ kind: "custom", parts: { store: "edit" } })
      })
    )

    it.effect.each([
      ["store", undefined, { kind: "custom", parts: { store: "edit" } }],
      ["read", readOnlyAccess, { kind: "custom", parts: { store: "read" } }],
      ["write", fullAccess, { kind: "custom", parts: { store: "edit" } }],
      ["read write", fullAccess, { kind: "custom", parts: { store: "edit" } }],
      ["read store", readOnlyAccess, { kind: "custom", parts: { store: "edit" } }]
    ] as const)("without a resource, scope %s decides what it does on each face", ([scope, tools, store]) =>
      Effect.gen(function* () {
        const authenticator = yield* Authenticator
        const issued = yield* exchange(yield* approvedGrant({ scope }))
        expect(issued.scope).toBe(scope)
        const atTools = yield* Effect.either(authenticator.authenticate(issued.access_token, "tools"))
        if (tools === undefined) {
          expect(atTools._tag === "Left" && atTools.left._tag).toBe("ScopeNotGranted")
          expect(atTools._tag === "Left" && atTools.left.message).toContain("reaches only the store API")
        } else {
          expect(atTools._tag === "Right" && atTools.right.access).toEqual(tools)
        }
        expect((yield* authenticator.authenticate(issued.access_token, "store")).access).toEqual(store)
      })
    )

    it.effect("without scope or resource, a grant is for read write on every face", () =>
      Effect.gen(function* () {
        const issued = yield* exchange(yield* approvedGrant())
        expect(issued.scope).toBe("read write")
        const authenticator = yield* Authenticator
        expect((yield* authenticator.authenticate(issued.access_token, "tools")).access).toEqual(fullAccess)
        expect((yield* authenticator.authenticate(issued.access_token, "store")).access.kind).toBe("custom")
      })
    )

    it.effect("a grant made without a resource cannot be narrowed to one at the token endpoint", () =>
      Effect.gen(function* () {
        const grant = yield* approvedGrant({ scope: "store" })
        const refused = yield* Effect.flip(
          grant.tokens.exchangeCode(grant.client, {
            code: grant.code,
            redirectUri: REDIRECT,
            codeVerifier: grant.verifier,
            resource: `${BASE}/store-app/v1`
          })
        )
        expect(refused.error).toBe("invalid_target")
        expect(refused.description).toContain("named no resource")
      })
    )

    it.effect("a refresh keeps the grant's audience and may narrow its scope, never widen it", () =>
      Effect.gen(function* () {
        const grant = yield* approvedGrant({ scope: "store read write" })
        const issued = yield* exchange(grant)
        const refresh = (scope: string | undefined, resource?: string) =>
          grant.tokens.refresh(grant.client, { refreshToken: issued.refresh_token ?? "", scope, resource })
        expect((yield* Effect.flip(refresh("store", `${BASE}/mcp`))).error).toBe("invalid_target")
        const narrowed = yield* refresh("store")
        expect(narrowed.scope).toBe("store")
        const authenticator = yield* Authenticator
        expect((yield* Effect.flip(authenticator.authenticate(narrowed.access_token, "tools")))._tag).toBe(
          "ScopeNotGranted"
        )
        const widened = yield* Effect.flip(
          grant.tokens.refresh(grant.client, {
            refreshToken: narrowed.refresh_token ?? "",
            scope: "read write",
            resource: undefined
          })
        )
        expect(widened.error).toBe("invalid_scope")
      })
    )

    it.effect("a named resource keeps its own scopes: store is refused for the tool server", () =>
      Effect.gen(function* () {
        const refused = yield* Effect.flip(approvedGrant({ scope: "store", resource: `${BASE}/mcp` }))
        expect(refused._tag).toBe("AuthorizeRedirectError")
        expect(refused._tag === "AuthorizeRedirectError" && refused.error).toBe("invalid_scope")
      })
    )

    it.effect("API keys keep working beside OAuth tokens", () =>
      Effect.gen(function* () {
        const { token, key } = yield* signUp()
        const principal = yield* (yield* Authenticator).authenticate(token, "tools")
        expect(principal.credential).toEqual({ kind: "api_key", id: key.id })
      })
    )
  })

  describe("housekeeping", () => {
    it.effect("expired sessions, requests and codes go a day after they expire, tokens a month after", () =>
      Effect.gen(function* () {
        const grant = yield* approvedGrant()
        const issued = yield* exchange(grant)
        const sql = yield* SqlClient.SqlClient
        const hash = (text: string) => createHash("sha256").update(text).digest("hex")
        const left = Effect.map(
          sql<{ code: number; access: number; refresh: number }>`
            SELECT (SELECT count(*)::int FROM oauth_codes WHERE code_hash = ${hash(grant.code)}) AS code,
                   (SELECT count(*)::int FROM oauth_tokens WHERE token_hash = ${hash(issued.access_token)}) AS access,
                   (SELECT count(*)::int FROM oauth_tokens WHERE token_hash = ${hash(issued.refresh_token ?? "")})
                     AS refresh`,
          (rows) => rows[0]
        )
        // Sessions, pending requests and form tokens that expired over a day before "now" (25 hours in).
        const staleShortLived = Effect.map(
          sql<{ n: number }>`
            SELECT ((SELECT count(*) FROM oauth_sessions WHERE expires_at < ${new Date(3_600_000)})
                  + (SELECT count(*) FROM oauth_pending WHERE expires_at < ${new Date(3_600_000)})
                  + (SELECT count(*) FROM oauth_form_tokens WHERE expires_at < ${new Date(3_600_000)}))::int AS n`,
          (rows) => rows[0]?.n
        )

        yield* purgeExpiredOAuth
        expect(yield* left).toEqual({ code: 1, access: 1, refresh: 1 })

        // A day after the code, session and request expired: they go; the expired access token stays a month.
        expect(yield* staleShortLived).toBeGreaterThan(0)
        yield* TestClock.adjust("25 hours")
        yield* purgeExpiredOAuth
        expect(yield* left).toEqual({ code: 0, access: 1, refresh: 1 })
        expect(yield* staleShortLived).toBe(0)

        yield* TestClock.adjust("30 days")
        yield* purgeExpiredOAuth
        expect(yield* left).toEqual({ code: 0, access: 0, refresh: 1 })

        // The refresh token (30 days) is kept a month past its expiry, for reuse detection, then goes too.
        yield* TestClock.adjust("29 days")
        yield* purgeExpiredOAuth
        expect(yield* left).toEqual({ code: 0, access: 0, refresh: 0 })
      })
    )
  })
})
