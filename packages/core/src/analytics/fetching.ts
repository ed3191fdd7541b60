import { Effect, Option } from "effect"
import { makeAccountOpener } from "../scheduling/accounts.js"
import { SocialAccountsRepo } from "../scheduling/ports.js"
import type { PublishingAccount } from "../scheduling/publisher.js"
import type { SocialAccount } from "../scheduling/schema.js"
import { withSpan } from "../shared/spans.js"
import { now } from "../shared/time.js"
import type { Platform } from "../scheduling/platforms.js"
import { feedMetricsReader } from "./feed-reader.js"
import { AnalyticsRepo, MetricsFailure, type MetricsReader, MetricsReaders } from "./ports.js"
import { type ClaimedFetch, fetchBackoffMs, type FetchRecord, nextFetchAt } from "./schema.js"

/** The longest wait a network's `Retry-After` is honoured for. */
const RETRY_AFTER_MAX_MS = 6 * 3_600_000

/** The own feed's stand-in account: it needs no credentials. */
const FEED_ACCOUNT: PublishingAccount = { id: "feed", platform: "feed", handle: "", serviceUrl: "", credentials: {} }

/** How fetches are scheduled: the first day's interval (default 15 minutes; shorter on a test or demo server). */
export interface FetchOptions {
  readonly firstDayEveryMs?: number | undefined
}

/** Deliveries of one account, fetched together (in chunks of the reader's batch size). */
export const groupByAccount = (fetches: ReadonlyArray<ClaimedFetch>): ReadonlyArray<ReadonlyArray<ClaimedFetch>> => {
  const groups = new Map<string, Array<ClaimedFetch>>()
  for (const fetch of fetches) {
    const key = `${fetch.workspaceId}\n${fetch.platform}\n${fetch.socialAccountId ?? ""}`
    const group = groups.get(key)
    if (group === undefined) groups.set(key, [fetch])
    else group.push(fetch)
  }
  return [...groups.values()]
}

/**
 * Fetches claimed deliveries' metrics, one account's posts in batches, and records a sample for each post the
 * platform answered for. A post past 90 days gets its last fetch; one the network no longer shows stops being
 * fetched. A failure (the network down, a rate limit, credentials that stopped working) records no sample, loses
 * nothing, and backs the fetch off: 5 minutes doubling up to 6 hours, or the network's `Retry-After`.
 */
export class AnalyticsFetching extends Effect.Service<AnalyticsFetching>()("svc/analytics/AnalyticsFetching", {
  effect: Effect.gen(function* () {
    const repo = yield* AnalyticsRepo
    // The own feed's reader is always here; the networks' readers when the composition provides them.
    const feed = yield* feedMetricsReader
    const others = Option.getOrElse(
      yield* Effect.serviceOption(MetricsReaders),
      (): ReadonlyMap<Platform, MetricsReader> => new Map()
    )
    const readers: ReadonlyMap<Platform, MetricsReader> = new Map([...others, [feed.platform, feed]])
    const accounts = yield* SocialAccountsRepo
    const openAccount = yield* makeAccountOpener

    const fail = (kind: MetricsFailure["kind"], message: string) => new MetricsFailure({ kind, message })

    /** The connected account a delivery went out on, or the workspace's account on that platform now. */
    const accountOf = (fetch: ClaimedFetch) =>
      Effect.gen(function* () {
        if (fetch.platform === "feed") return FEED_ACCOUNT
        const byId = fetch.socialAccountId === null ? Option.none() : yield* accounts.find(fetch.socialAccountId)
        const account: Option.Option<SocialAccount> = Option.isSome(byId)
          ? byId
          : Option.fromNullable((yield* accounts.list(fetch.workspaceId)).find((a) => a.platform === fetch.platform))
        if (Option.isNone(account)) {
          return yield* fail("credentials", `no ${fetch.platform} account is connected to read the post's metrics`)
        }
        return yield* openAccount(account.value, (reason) => fail("credentials", reason))
      })

    const failedRecord = (
      fetch: ClaimedFetch,
      failure: MetricsFailure,
      at: Date,
      options: FetchOptions
    ): FetchRecord => {
      const failures = fetch.failures + 1
      const waitMs = Math.min(RETRY_AFTER_MAX_MS, Math.max(failure.retryAfterMs ?? 0, fetchBackoffMs(failures)))
      const next =
        nextFetchAt(fetch.postedAt, at, options.firstDayEveryMs) === null ? null : new Date(at.getTime() + waitMs)
      return { sample: null, nextFetchAt: next, failures, error: `${failure.kind}: ${failure.message}` }
    }

    /** Reads one chunk of one account's posts and records each. */
    const runChunk = (chunk: ReadonlyArray<ClaimedFetch>, options: FetchOptions) =>
      Effect.gen(function* () {
        const first = chunk[0]
        if (first === undefined) return
        const reader = readers.get(first.platform)
        const read =
          reader === undefined
            ? Effect.fail(fail("rejected", `this server reads no metrics from ${first.platform}`))
            : Effect.flatMap(accountOf(first), (account) =>
                reader.read({ workspaceId: first.workspaceId, account, remoteIds: chunk.map((f) => f.remoteId) })
              )
        // A defect in a reader fails this fetch for a while, never the worker.
        const answer = yield* Effect.either(
          Effect.catchAllDefect(read, (defect) => Effect.fail(fail("temporary", `the reader broke: ${String(defect)}`)))
        )
        const at = yield* now
        yield* Effect.forEach(
          chunk,
          (fetch) => {
            if (answer._tag === "Left")
              return repo.record(fetch.deliveryId, fetch.claimToken, failedRecord(fetch, answer.left, at, options))
            const metrics = answer.right.get(fetch.remoteId)
            const record: FetchRecord =
              metrics === undefined
                ? { sample: null, nextFetchAt: null, failures: 0, error: "the post is no longer on the network" }
                : {
                    sample: { takenAt: at, metrics },
                    nextFetchAt: nextFetchAt(fetch.postedAt, at, options.firstDayEveryMs),
                    failures: 0,
                    error: null
                  }
            return repo.record(fetch.deliveryId, fetch.claimToken, record)
          },
          { discard: true }
        )
      }).pipe(
        withSpan("AnalyticsFetching.chunk", {
          attributes: { "svc.platform": chunk[0]?.platform ?? "", "svc.fetches": chunk.length }
        })
      )

    /** Fetches one account's claimed posts, in chunks of its reader's batch size. */
    const run = (group: ReadonlyArray<ClaimedFetch>, options: FetchOptions = {}) =>
      Effect.gen(function* () {
        const first = group[0]
        if (first === undefined) return
        const size = Math.max(1, readers.get(first.platform)?.batchSize ?? group.length)
        const chunks: Array<ReadonlyArray<ClaimedFetch>> = []
        for (let i = 0; i < group.length; i += size) chunks.push(group.slice(i, i + size))
        yield* Effect.forEach(chunks, (chunk) => runChunk(chunk, options), { discard: true })
      })

    return { run }
  })
}) {}
