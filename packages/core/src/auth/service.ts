import { Cache, Clock, Duration, Effect, Exit, Option } from "effect"
import { AccountsRepo, WorkspacesRepo } from "../accounts/ports.js"
import { AuthExpired, invalid, NotFound } from "../shared/errors.js"
import { unstorableText } from "../shared/storable-text.js"
import { Ids, Secrets } from "../shared/ports.js"
import { type Access, fullAccess, type Part } from "./access.js"
import { ApiKeysRepo } from "./ports.js"
import { ApiKey, type Principal } from "./schema.js"
import { displayPrefix, isWellFormedToken, tokenFromRandom } from "./token.js"
import { getUninterrupted } from "../shared/cache-get.js"
import { withSpan } from "../shared/spans.js"

/** What a new key is for. */
export interface NewApiKey {
  readonly name?: string | undefined
  readonly access?: Access | undefined
  /** The store (by handle) whose workspace the key is bound to; default: the owner's main one. */
  readonly storeHandle?: string | undefined
  readonly expiresInDays?: number | undefined
  /** The toolsets the key is served when a request names none (checked names, see `parseDefaultToolsets`); default: every group. */
  readonly toolsets?: ReadonlyArray<Part> | null | undefined
}

// `last_used_at` is advisory: writing it on every call would turn each read into a write.
const TOUCH_EVERY = Duration.minutes(1)

// A busy agent sends many calls a second with one key; looking the key and its account up for each would
// be two queries per call. The principal is remembered for a few seconds per token hash instead. A
// revocation in this process forgets it at once; a revocation or plan change made by another process (the
// CLI, another instance) takes effect here within `REMEMBER_FOR`. Expiry is checked on every call.
const REMEMBER_FOR = Duration.seconds(5)
// `Cache` serves an entry through the last millisecond of its time to live: one less keeps "within 5 seconds".
const REMEMBER_TTL = Duration.subtract(REMEMBER_FOR, Duration.millis(1))
const REMEMBER_AT_MOST = 10_000

interface Remembered {
  readonly principal: Principal
  readonly expiresAt: number | null
  /** The count of revocations when the key was read: a read that overlapped one is not remembered. */
  readonly generation: number
}

/** Making, listing and revoking API keys, and turning a bearer token into a `Principal`. */
export class ApiKeys extends Effect.Service<ApiKeys>()("svc/auth/ApiKeys", {
  effect: Effect.gen(function* () {
    const keys = yield* ApiKeysRepo
    const accounts = yield* AccountsRepo
    const workspaces = yield* WorkspacesRepo
    const ids = yield* Ids
    const secrets = yield* Secrets
    // Bumped by every revocation, so a lookup that overlapped one does not remember what it read before it.
    let revocations = 0

    const rejected = new AuthExpired({ message: "the API key is missing, malformed, expired or revoked" })

    // The span covers the storage lookup only: a remembered key costs no span. No stack trace on this hot path.
    const lookUp = (hash: string): Effect.Effect<Remembered, AuthExpired> =>
      Effect.gen(function* () {
        const generation = revocations
        const now = yield* Clock.currentTimeMillis
        const found = yield* keys.findByHash(hash)
        if (Option.isNone(found)) return yield* rejected
        const key = found.value
        if (key.revokedAt !== null || (key.expiresAt !== null && key.expiresAt.getTime() <= now)) return yield* rejected
        const account = yield* accounts.findById(key.accountId)
        if (Option.isNone(account)) return yield* rejected
        if (key.lastUsedAt === null || now - key.lastUsedAt.getTime() >= Duration.toMillis(TOUCH_EVERY)) {
          yield* keys.touch(key.id, new Date(now))
        }
        const principal: Principal = {
          accountId: key.accountId,
          plan: account.value.plan,
          access: key.access,
          ...(key.toolsets === null ? {} : { toolsets: key.toolsets }),
          credential: { kind: "api_key", id: key.id },
          workspaceId: key.workspaceId,
          reach: "bound",
          rateLimitExempt: false
        }
        return { principal, expiresAt: key.expiresAt?.getTime() ?? null, generation }
      }).pipe(
        withSpan("ApiKeys.authenticate", { captureStackTrace: false }),
        // Calls that joined this lookup after a revocation must not get what it read before: read again.
        Effect.flatMap((read) => (read.generation === revocations ? Effect.succeed(read) : lookUp(hash)))
      )

    // Refusals are not remembered (a time to live of zero): a key created a moment later must work.
    const remembered = yield* Cache.makeWith({
      capacity: REMEMBER_AT_MOST,
      lookup: lookUp,
      timeToLive: (exit) =>
        Exit.isSuccess(exit) && exit.value.generation === revocations ? REMEMBER_TTL : Duration.zero
    })

    const newToken: Effect.Effect<string> = secrets.randomBytes(48).pipe(
      Effect.flatMap((bytes) => Option.fromNullable(tokenFromRandom(bytes))),
      Effect.orElse(() => newToken)
    )

    /** Creates a key for the account; the token is in the answer and nowhere else, ever. */
    const create = (accountId: string, input: NewApiKey) =>
      Effect.gen(function* () {
        if (
          input.expiresInDays !== undefined &&
          !(Number.isInteger(input.expiresInDays) && input.expiresInDays >= 1 && input.expiresInDays <= 3650)
        ) {
          return yield* invalid("expiresInDays", "expiresInDays must be a whole number of days from 1 to 3650")
        }
        const name = (input.name ?? "API key").trim()
        if (name.length === 0 || name.length > 100) return yield* invalid("name", "name must be 1 to 100 characters")
        // Text PostgreSQL cannot store is refused here rather than failing (or changing) in the database.
        const unstorable = unstorableText(name)
        if (unstorable !== undefined) return yield* invalid("name", `name ${unstorable}`)
        const workspaceId =
          input.storeHandle === undefined
            ? yield* workspaces.findDefault(accountId).pipe(Effect.map(Option.map((w) => w.id)))
            : yield* workspaces.findStoreByHandle(input.storeHandle).pipe(Effect.map(Option.map((s) => s.workspaceId)))
        const workspace = yield* Option.match(workspaceId, {
          onNone: () => Effect.succeedNone,
          onSome: (id) => workspaces.findById(id)
        })
        if (Option.isNone(workspace) || workspace.value.ownerId !== accountId) {
          return yield* new NotFound({
            message:
              input.storeHandle === undefined
                ? "the account has no default workspace to bind the key to; name a store"
                : `the account has no store with the handle ${input.storeHandle}`
          })
        }
        const now = yield* Clock.currentTimeMillis
        const token = yield* newToken
        const key = new ApiKey({
          id: yield* ids.make("key_"),
          accountId,
          workspaceId: workspace.value.id,
          name,
          prefix: displayPrefix(token),
          access: input.access ?? fullAccess,
          toolsets:
            input.toolsets === undefined || input.toolsets === null || input.toolsets.length === 0
              ? null
              : input.toolsets,
          createdAt: new Date(now),
          lastUsedAt: null,
          expiresAt: input.expiresInDays === undefined ? null : new Date(now + input.expiresInDays * 86_400_000),
          revokedAt: null
        })
        yield* keys.insert(key, yield* secrets.sha256Hex(token))
        return { key, token }
      }).pipe(withSpan("ApiKeys.create"))

    /** The account's keys, newest first, revoked ones included. */
    const list = (accountId: string) => keys.listByAccount(accountId)

    /** Revokes a key (one of `accountId`'s, when given); it stops working at once. */
    const revoke = (keyId: string, accountId?: string) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const revoked = yield* keys.revoke(keyId, accountId, new Date(now))
        if (!revoked) return yield* new NotFound({ message: `no API key ${keyId}` })
        revocations += 1
        for (const [hash, entry] of yield* remembered.entries) {
          if (entry.principal.credential.id === keyId) yield* remembered.invalidate(hash)
        }
      })

    /** Checks a personal access token and says who is calling. */
    const authenticate = (token: string): Effect.Effect<Principal, AuthExpired> => {
      if (!isWellFormedToken(token)) return Effect.fail(rejected)
      // Written without a generator: this runs on every tool call, and a remembered key is the common case.
      return Effect.flatMap(secrets.sha256Hex(token), (hash) =>
        Effect.flatMap(getUninterrupted(remembered, hash), (hit) =>
          // `clockWith` reads the clock within the same step (`Clock.currentTimeMillis` takes two more).
          Effect.clockWith((clock) =>
            hit.expiresAt === null || hit.expiresAt > clock.unsafeCurrentTimeMillis()
              ? Effect.succeed(hit.principal)
              : Effect.zipRight(remembered.invalidate(hash), Effect.fail(rejected))
          )
        )
      )
    }

    return { create, list, revoke, authenticate } as const
  })
}) {}
