import { Context, type Effect, type Option } from "effect"
import type {
  BrowserSession,
  OAuthConnection,
  OAuthAudience,
  OAuthClient,
  OAuthGrant,
  OAuthScope,
  PendingAuthorization,
  StoredCode,
  StoredToken
} from "./schema.js"

/** Registered OAuth clients. */
export class OAuthClientsRepo extends Context.Tag("svc/auth/oauth/OAuthClientsRepo")<
  OAuthClientsRepo,
  {
    /** Stores a client with the hash of its secret (`null` for public clients) and the metadata to echo. */
    readonly insert: (
      client: OAuthClient,
      secretHash: string | null,
      metadata: Readonly<Record<string, unknown>>
    ) => Effect.Effect<void>
    readonly find: (
      clientId: string
    ) => Effect.Effect<Option.Option<{ client: OAuthClient; secretHash: string | null }>>
  }
>() {}

/** Browser sessions, single-use form tokens and pending authorization requests. */
export class BrowserSessionsRepo extends Context.Tag("svc/auth/oauth/BrowserSessionsRepo")<
  BrowserSessionsRepo,
  {
    readonly insert: (session: BrowserSession, createdAt: Date) => Effect.Effect<void>
    /** The session, if it exists and has not expired at `now`. */
    readonly find: (hash: string, now: Date) => Effect.Effect<Option.Option<BrowserSession>>
    readonly remove: (hash: string) => Effect.Effect<void>
    /** Moves the session's pending requests to another session (the session id changes at sign-in). */
    readonly rebindPending: (fromHash: string, toHash: string) => Effect.Effect<void>
    readonly insertFormToken: (
      tokenHash: string,
      sessionHash: string,
      purpose: string,
      expiresAt: Date
    ) => Effect.Effect<void>
    /** Marks a form token used; `true` only the first time, and only for its session and purpose, before expiry. */
    readonly consumeFormToken: (
      tokenHash: string,
      sessionHash: string,
      purpose: string,
      now: Date
    ) => Effect.Effect<boolean>
    readonly insertPending: (pending: PendingAuthorization, sessionHash: string) => Effect.Effect<void>
    /** The pending request of that session, if open (not decided, not expired). */
    readonly findPending: (
      id: string,
      sessionHash: string,
      now: Date
    ) => Effect.Effect<Option.Option<PendingAuthorization>>
    /** Closes a pending request; `true` only for the one call that closed it. */
    readonly completePending: (id: string, sessionHash: string, now: Date) => Effect.Effect<boolean>
  }
>() {}

/** Authorization codes (by hash), grants and their tokens (by hash). */
export class OAuthGrantsRepo extends Context.Tag("svc/auth/oauth/OAuthGrantsRepo")<
  OAuthGrantsRepo,
  {
    readonly insertCode: (codeHash: string, code: StoredCode, createdAt: Date) => Effect.Effect<void>
    /**
     * Marks a code used by the exchange that creates `grantId` and answers it. A code already used
     * answers with `replayed: true` and the grant of the first exchange, so the caller can revoke it.
     */
    readonly consumeCode: (
      codeHash: string,
      now: Date,
      grantId: string
    ) => Effect.Effect<Option.Option<{ readonly code: StoredCode; readonly replayed: boolean }>>
    readonly insertGrant: (grant: OAuthGrant) => Effect.Effect<void>
    readonly revokeGrant: (grantId: string, at: Date) => Effect.Effect<void>
    readonly insertToken: (
      tokenHash: string,
      token: {
        readonly id: string
        readonly grantId: string
        readonly kind: "access" | "refresh"
        readonly scopes: ReadonlyArray<OAuthScope>
        readonly createdAt: Date
        readonly expiresAt: Date
      }
    ) => Effect.Effect<void>
    readonly findToken: (tokenHash: string) => Effect.Effect<Option.Option<StoredToken>>
    /** Marks a refresh token rotated; `true` only for the first rotation. */
    readonly rotateToken: (tokenHash: string, at: Date) => Effect.Effect<boolean>
    readonly revokeToken: (tokenHash: string, at: Date) => Effect.Effect<void>
    /** The account's live grants, one row per client, newest first. */
    readonly listConnections: (
      accountId: string,
      audience: OAuthAudience | undefined
    ) => Effect.Effect<ReadonlyArray<OAuthConnection>>
    /** Revokes every live grant of the account to the client; answers how many. */
    readonly revokeClientGrants: (accountId: string, clientId: string, at: Date) => Effect.Effect<number>
  }
>() {}
