import { Clock, Effect, Option } from "effect"
import { AccountsRepo, WorkspacesRepo } from "../../accounts/ports.js"
import { AuthExpired, NotFound } from "../../shared/errors.js"
import { Ids, Secrets, Transactor } from "../../shared/ports.js"
import type { Principal } from "../schema.js"
import { ACCESS_TOKEN_PREFIX, newSecret, pkceMatches, REFRESH_TOKEN_PREFIX } from "./crypto.js"
import { currentPolicy } from "./policy.js"
import { OAuthGrantsRepo } from "./ports.js"
import { ScopeNotGranted } from "./refusals.js"
import { NO_RESOURCE, type OAuthClient, OAuthError, type OAuthFace, type OAuthScope } from "./schema.js"
import { accessAt, audienceReaches, formatScope, isSubset, parseScope, TOOL_SCOPES } from "./scopes.js"
import { withSpan } from "../../shared/spans.js"

/** The token endpoint's answer (RFC 6749 §5.1). */
export interface TokenAnswer {
  readonly access_token: string
  readonly token_type: "Bearer"
  readonly expires_in: number
  readonly refresh_token?: string
  readonly scope: string
}

/** What `grant_type=authorization_code` sends besides client authentication. */
export interface CodeExchange {
  readonly code: string
  readonly redirectUri: string | undefined
  readonly codeVerifier: string | undefined
  readonly resource: string | undefined
}

/** What `grant_type=refresh_token` sends besides client authentication. */
export interface RefreshRequest {
  readonly refreshToken: string
  readonly scope: string | undefined
  readonly resource: string | undefined
}

const invalidGrant = (description: string) => new OAuthError({ error: "invalid_grant", description })

/**
 * A `resource` sent to the token endpoint must be the one the grant was made for (RFC 8707 §2.2). A grant made
 * without one is not narrowed afterwards: tokens carry no audience of their own, so the client authorizes again.
 */
const resourceMismatch = (sent: string | undefined, granted: string): OAuthError | undefined => {
  if (sent === undefined || sent.replace(/\/$/, "") === granted) return undefined
  return new OAuthError({
    error: "invalid_target",
    description:
      granted === NO_RESOURCE
        ? "the authorization named no resource, so its tokens reach every face their scopes allow; leave resource out, or authorize again with it"
        : `the grant is for ${granted}`
  })
}

type Outcome =
  | { readonly kind: "issued"; readonly answer: TokenAnswer }
  | { readonly kind: "refused"; readonly error: OAuthError }
  | { readonly kind: "replayed"; readonly grantId: string | null }

/** Issues, rotates, revokes and checks OAuth tokens (RFC 6749, RFC 7009, OAuth 2.1 refresh rotation). */
export class OAuthTokens extends Effect.Service<OAuthTokens>()("svc/auth/oauth/OAuthTokens", {
  effect: Effect.gen(function* () {
    const grants = yield* OAuthGrantsRepo
    const accounts = yield* AccountsRepo
    const workspaces = yield* WorkspacesRepo
    const ids = yield* Ids
    const secrets = yield* Secrets
    const tx = yield* Transactor

    /** A new access token (and a refresh token when the client may refresh) for a grant. */
    const issue = (client: OAuthClient, grantId: string, scopes: ReadonlyArray<OAuthScope>, now: number) =>
      Effect.gen(function* () {
        const policy = yield* currentPolicy
        const access = yield* newSecret(secrets, ACCESS_TOKEN_PREFIX)
        yield* grants.insertToken(yield* secrets.sha256Hex(access), {
          id: yield* ids.make("oat_"),
          grantId,
          kind: "access",
          scopes,
          createdAt: new Date(now),
          expiresAt: new Date(now + policy.accessTokenMs)
        })
        const answer: TokenAnswer = {
          access_token: access,
          token_type: "Bearer",
          expires_in: Math.floor(policy.accessTokenMs / 1000),
          scope: formatScope(scopes)
        }
        if (!client.grantTypes.includes("refresh_token")) return answer
        const refresh = yield* newSecret(secrets, REFRESH_TOKEN_PREFIX)
        yield* grants.insertToken(yield* secrets.sha256Hex(refresh), {
          id: yield* ids.make("ort_"),
          grantId,
          kind: "refresh",
          scopes,
          createdAt: new Date(now),
          expiresAt: new Date(now + policy.refreshTokenMs)
        })
        return { ...answer, refresh_token: refresh }
      })

    /** `grant_type=authorization_code`: one exchange per code; a replay revokes what the first one issued. */
    const exchangeCode = (client: OAuthClient, input: CodeExchange) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const codeHash = yield* secrets.sha256Hex(input.code)
        const grantId = yield* ids.make("grant_")
        // The code is burned by the first attempt whatever its outcome, so a wrong verifier cannot be retried.
        const outcome = yield* tx.withTransaction(
          Effect.gen(function* (): Effect.fn.Return<Outcome> {
            const consumed = yield* grants.consumeCode(codeHash, new Date(now), grantId)
            if (Option.isNone(consumed)) return { kind: "refused", error: invalidGrant("the code is not valid") }
            const { code, replayed } = consumed.value
            if (replayed) return { kind: "replayed", grantId: code.grantId }
            const refuse = (description: string): Outcome => ({ kind: "refused", error: invalidGrant(description) })
            if (code.expiresAt.getTime() <= now) return refuse("the code has expired; start the authorization again")
            if (code.clientId !== client.id) return refuse("the code was issued to another client")
            if (input.redirectUri !== code.redirectUri) {
              return refuse("redirect_uri must be the one sent to the authorization endpoint")
            }
            if (
              input.codeVerifier === undefined ||
              !(yield* pkceMatches(secrets, input.codeVerifier, code.codeChallenge))
            ) {
              return refuse("code_verifier does not match the code_challenge")
            }
            const mismatch = resourceMismatch(input.resource, code.resource)
            if (mismatch !== undefined) return { kind: "refused", error: mismatch }
            yield* grants.insertGrant({
              id: grantId,
              clientId: client.id,
              accountId: code.accountId,
              scopes: code.scopes,
              resource: code.resource,
              audience: code.audience,
              createdAt: new Date(now),
              revokedAt: null
            })
            return { kind: "issued", answer: yield* issue(client, grantId, code.scopes, now) }
          })
        )
        switch (outcome.kind) {
          case "issued":
            return outcome.answer
          case "refused":
            return yield* outcome.error
          case "replayed":
            if (outcome.grantId !== null) yield* grants.revokeGrant(outcome.grantId, new Date(now))
            return yield* invalidGrant("the code was already used; the tokens issued from it are revoked")
        }
      }).pipe(withSpan("OAuthTokens.exchangeCode"))

    /**
     * `grant_type=refresh_token`: every use rotates the token. A rotated token still works within the
     * grace window (a lost answer, two refreshes racing); used later, it revokes the whole grant.
     */
    const refresh = (client: OAuthClient, input: RefreshRequest) =>
      Effect.gen(function* () {
        const policy = yield* currentPolicy
        const now = yield* Clock.currentTimeMillis
        if (!client.grantTypes.includes("refresh_token")) {
          return yield* new OAuthError({
            error: "unauthorized_client",
            description: "the client did not register the refresh_token grant type"
          })
        }
        const tokenHash = yield* secrets.sha256Hex(input.refreshToken)
        const found = yield* grants.findToken(tokenHash)
        if (Option.isNone(found) || found.value.kind !== "refresh" || found.value.grant.clientId !== client.id) {
          return yield* invalidGrant("the refresh token is not valid")
        }
        const token = found.value
        if (token.grant.revokedAt !== null || token.revokedAt !== null)
          return yield* invalidGrant("the grant was revoked")
        if (token.expiresAt.getTime() <= now) return yield* invalidGrant("the refresh token has expired")
        const mismatch = resourceMismatch(input.resource, token.grant.resource)
        if (mismatch !== undefined) return yield* mismatch
        let scopes = token.scopes
        if (input.scope !== undefined) {
          const parsed = parseScope(input.scope)
          if ("unknown" in parsed || parsed.scopes.length === 0 || !isSubset(parsed.scopes, token.scopes)) {
            return yield* new OAuthError({
              error: "invalid_scope",
              description: `a refresh may only narrow the scopes; this token has ${formatScope(token.scopes)}`
            })
          }
          scopes = parsed.scopes
        }
        if (!(yield* grants.rotateToken(tokenHash, new Date(now)))) {
          const again = yield* grants.findToken(tokenHash)
          const rotatedAt = Option.match(again, { onNone: () => 0, onSome: (t) => t.rotatedAt?.getTime() ?? 0 })
          if (now - rotatedAt > policy.refreshGraceMs) {
            yield* grants.revokeGrant(token.grant.id, new Date(now))
            return yield* invalidGrant("the refresh token was already used; every token of this grant is now revoked")
          }
        }
        return yield* issue(client, token.grant.id, scopes, now)
      }).pipe(withSpan("OAuthTokens.refresh"))

    /** RFC 7009: revoking a refresh token ends its grant; an access token ends alone; unknown tokens are fine. */
    const revoke = (client: OAuthClient, token: string) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const tokenHash = yield* secrets.sha256Hex(token)
        const found = yield* grants.findToken(tokenHash)
        if (Option.isNone(found) || found.value.grant.clientId !== client.id) return
        if (found.value.kind === "refresh") yield* grants.revokeGrant(found.value.grant.id, new Date(now))
        else yield* grants.revokeToken(tokenHash, new Date(now))
      }).pipe(withSpan("OAuthTokens.revoke"))

    const rejected = new AuthExpired({
      message: "the access token is missing, expired or revoked; refresh it or sign in again"
    })

    /**
     * Checks an access token presented to `face` and says who is calling, with what its scopes allow there. A token
     * named for the other face is refused as not for this resource (401); one whose scopes reach nothing here, with
     * `ScopeNotGranted` (403).
     */
    const authenticate = (token: string, face: OAuthFace) =>
      Effect.gen(function* () {
        if (!token.startsWith(ACCESS_TOKEN_PREFIX) || token.length > 100) return yield* rejected
        const found = yield* grants.findToken(yield* secrets.sha256Hex(token))
        if (Option.isNone(found) || found.value.kind !== "access") return yield* rejected
        const stored = found.value
        const now = yield* Clock.currentTimeMillis
        if (stored.revokedAt !== null || stored.grant.revokedAt !== null || stored.expiresAt.getTime() <= now) {
          return yield* rejected
        }
        if (!audienceReaches(stored.grant.audience, face)) {
          return yield* new AuthExpired({
            message:
              face === "tools"
                ? "this access token was issued for the store API (resource /store-app/v1), not the tool server"
                : "this access token was issued for the tool server (resource /mcp), not the store API"
          })
        }
        const access = accessAt(face, stored.scopes)
        if (access === undefined) {
          return yield* new ScopeNotGranted({ granted: formatScope(stored.scopes), needed: TOOL_SCOPES })
        }
        const account = yield* accounts.findById(stored.grant.accountId)
        if (Option.isNone(account)) return yield* rejected
        const workspace = yield* workspaces.findDefault(account.value.id)
        const principal: Principal = {
          accountId: account.value.id,
          plan: account.value.plan,
          access,
          credential: { kind: "oauth", id: stored.grant.id },
          workspaceId: Option.match(workspace, { onNone: () => null, onSome: (w) => w.id }),
          reach: "account",
          rateLimitExempt: false
        }
        return principal
      }).pipe(withSpan("OAuthTokens.authenticate"))

    /** The clients the account has connected (live grants), newest first. */
    const connections = (accountId: string) => grants.listConnections(accountId, undefined)

    /** Revokes every grant of the account to a client; its tokens stop working at once. */
    const disconnect = (accountId: string, clientId: string) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        if ((yield* grants.revokeClientGrants(accountId, clientId, new Date(now))) === 0) {
          return yield* new NotFound({ message: `no connected application ${clientId}` })
        }
      })

    return { exchangeCode, refresh, revoke, authenticate, connections, disconnect } as const
  })
}) {}
