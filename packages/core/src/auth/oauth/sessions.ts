import { Clock, Effect, Option } from "effect"
import { AccountsRepo } from "../../accounts/ports.js"
import type { Account } from "../../accounts/schema.js"
import { Accounts } from "../../accounts/service.js"
import { RateLimiter } from "../../limits/ports.js"
import { Secrets } from "../../shared/ports.js"
import { newSecret, SESSION_PREFIX } from "./crypto.js"
import { currentPolicy } from "./policy.js"
import { BrowserSessionsRepo } from "./ports.js"
import type { BrowserSession } from "./schema.js"
import { withSpan } from "../../shared/spans.js"

/** A session and the cookie value that names it (the cookie is never stored, only its hash). */
export interface SessionCookie {
  readonly cookie: string
  readonly session: BrowserSession
}

/** Why a sign-in did not go through. */
export type SignInRefusal = "wrong-credentials" | "too-many-attempts"

/** Browser sessions of the sign-in, consent and settings pages, and their single-use form tokens. */
export class BrowserSessions extends Effect.Service<BrowserSessions>()("svc/auth/oauth/BrowserSessions", {
  dependencies: [Accounts.Default],
  effect: Effect.gen(function* () {
    const repo = yield* BrowserSessionsRepo
    const accounts = yield* Accounts
    const accountsRepo = yield* AccountsRepo
    const secrets = yield* Secrets
    const limiter = yield* RateLimiter

    const create = (accountId: string | null) =>
      Effect.gen(function* () {
        const policy = yield* currentPolicy
        const now = yield* Clock.currentTimeMillis
        const cookie = yield* newSecret(secrets, SESSION_PREFIX)
        const session: BrowserSession = {
          hash: yield* secrets.sha256Hex(cookie),
          accountId,
          expiresAt: new Date(now + (accountId === null ? policy.anonymousSessionMs : policy.signedInSessionMs))
        }
        yield* repo.insert(session, new Date(now))
        return { cookie, session } satisfies SessionCookie
      })

    /** A new session nobody has signed in to yet (it carries pending requests and form tokens). */
    const start = create(null)

    /** The live session a cookie names. */
    const resume = (cookie: string | undefined) =>
      Effect.gen(function* () {
        if (cookie === undefined || !cookie.startsWith(SESSION_PREFIX) || cookie.length > 100) {
          return Option.none<BrowserSession>()
        }
        const now = yield* Clock.currentTimeMillis
        return yield* repo.find(yield* secrets.sha256Hex(cookie), new Date(now))
      })

    /**
     * Checks email and password and, when they match, replaces `current` with a new signed-in session
     * (a new id, so a session id planted before sign-in is worthless after it), keeping its pending requests.
     */
    const signIn = (current: BrowserSession | undefined, email: string, password: string) =>
      Effect.gen(function* () {
        const policy = yield* currentPolicy
        const decision = yield* limiter.take(
          `oauth:sign-in:${email.trim().toLowerCase()}`,
          policy.signInAttemptsPerWindow,
          policy.signInWindowMs
        )
        if (!decision.allowed) return { refused: "too-many-attempts" as SignInRefusal }
        const account = yield* accounts.verifyPassword(email, password)
        if (Option.isNone(account)) return { refused: "wrong-credentials" as SignInRefusal }
        const next = yield* create(account.value.id)
        if (current !== undefined) {
          yield* repo.rebindPending(current.hash, next.session.hash)
          yield* repo.remove(current.hash)
        }
        return { signedIn: next, account: account.value }
      }).pipe(withSpan("BrowserSessions.signIn"))

    /** Ends a session. */
    const signOut = (session: BrowserSession) => repo.remove(session.hash)

    /** A new single-use token for one form (`purpose`) of this session. */
    const formToken = (session: BrowserSession, purpose: string) =>
      Effect.gen(function* () {
        const policy = yield* currentPolicy
        const now = yield* Clock.currentTimeMillis
        const token = yield* newSecret(secrets, "")
        yield* repo.insertFormToken(
          yield* secrets.sha256Hex(token),
          session.hash,
          purpose,
          new Date(now + policy.formTokenMs)
        )
        return token
      })

    /** Uses up a form token; `true` only once, for its own session and purpose, before it expires. */
    const useFormToken = (session: BrowserSession, purpose: string, token: string) =>
      Effect.gen(function* () {
        if (token.length === 0 || token.length > 100) return false
        const now = yield* Clock.currentTimeMillis
        return yield* repo.consumeFormToken(yield* secrets.sha256Hex(token), session.hash, purpose, new Date(now))
      })

    /** The account signed in to the session, if any. */
    const accountOf = (session: BrowserSession) =>
      session.accountId === null ? Effect.succeed(Option.none<Account>()) : accountsRepo.findById(session.accountId)

    return { start, resume, signIn, signOut, formToken, useFormToken, accountOf } as const
  })
}) {}
