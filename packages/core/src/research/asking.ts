import { Clock, Duration, Effect, Option, Schema } from "effect"
import { Forbidden, NotFound, Unreachable } from "../shared/errors.js"
import { RateLimited } from "../limits/schema.js"
import { ResearchCache } from "./ports.js"
import { SourceReport } from "./schema.js"
import { SourceFailure, type SocialSource } from "./source.js"

/** How long each kind of source answer is kept: profiles change slowly, post counts quickly. */
export const CACHE_TTL_MS = {
  creator: 6 * 3_600_000,
  creatorSearch: 3_600_000,
  posts: 30 * 60_000,
  post: 30 * 60_000,
  follows: 6 * 3_600_000,
  postSearch: 15 * 60_000,
  ads: 3_600_000,
  brand: 24 * 3_600_000
} as const
export type AnswerKind = keyof typeof CACHE_TTL_MS

/** The longest a source is waited for, whatever its own deadline; the answer then comes from the others. */
const SOURCE_DEADLINE = Duration.seconds(20)
/** How long a source that said "slow down" without saying for how long is left alone. */
const DEFAULT_BACKOFF_MS = 60_000

/** One source's answer to one question: its report, and its value when it had one. */
export interface Asked<A> {
  readonly report: SourceReport
  readonly value: Option.Option<A>
}

const report = (
  source: string,
  fields: Partial<Omit<SourceReport, "source">> & Pick<SourceReport, "status">
): SourceReport =>
  new SourceReport({
    source,
    fetchedAt: null,
    cached: false,
    detail: null,
    setting: null,
    retryAfterSeconds: null,
    ...fields
  })

/** The report of the workspace's own library, which is read at `at` and never fails. */
export const libraryReport = (at: Date, detail: string | null = null): SourceReport =>
  report("library", { status: "ok", fetchedAt: at, detail })

/** A kind of source this server has none of: answers name the setting that adds one. */
export const missingReport = (source: string, setting: string): SourceReport =>
  report(source, {
    status: "not-set-up",
    setting,
    detail: `not set up on this server: the operator sets ${setting}`
  })

/** A source without the part a question needs: not set up (naming its setting), or unable to answer it. */
export const unsupported = <A>(source: SocialSource, what: string): Asked<A> => ({
  report:
    source.missingSetting !== null
      ? missingReport(source.name, source.missingSetting)
      : report(source.name, { status: "not-supported", detail: `${source.name} cannot answer ${what}` }),
  value: Option.none()
})

/**
 * Asks sources, with their answers kept in the shared cache for the kind's time and a source that asked us to wait
 * left alone until then. Never fails: each outcome is a report, and the value is there only when the source had one.
 */
export const makeAsker = Effect.gen(function* () {
  const cache = yield* ResearchCache

  const pauseKey = (source: SocialSource) => `${source.name}:paused`

  const ask = <A, I>(
    source: SocialSource,
    kind: AnswerKind,
    args: ReadonlyArray<unknown>,
    schema: Schema.Schema<A, I>,
    run: () => Effect.Effect<A, SourceFailure>
  ): Effect.Effect<Asked<A>> =>
    Effect.gen(function* () {
      if (source.missingSetting !== null) {
        return {
          report: report(source.name, {
            status: "not-set-up",
            setting: source.missingSetting,
            detail: `not set up on this server: the operator sets ${source.missingSetting}`
          }),
          value: Option.none()
        }
      }
      const now = new Date(yield* Clock.currentTimeMillis)
      const key = `${source.name}:${kind}:${JSON.stringify(args)}`
      const cached = yield* cache.get(key, now)
      if (Option.isSome(cached)) {
        const decoded = Schema.decodeUnknownOption(schema)(cached.value.value)
        if (Option.isSome(decoded)) {
          return {
            report: report(source.name, { status: "ok", cached: true, fetchedAt: cached.value.fetchedAt }),
            value: decoded
          }
        }
      }
      const paused = yield* cache.get(pauseKey(source), now)
      if (Option.isSome(paused)) {
        const until = Number(paused.value.value)
        return {
          report: report(source.name, {
            status: "rate-limited",
            retryAfterSeconds: Math.max(1, Math.ceil((until - now.getTime()) / 1000)),
            detail: `${source.name} asked to wait`
          }),
          value: Option.none()
        }
      }
      const outcome = yield* run().pipe(
        Effect.timeoutFail({
          duration: SOURCE_DEADLINE,
          onTimeout: () =>
            new SourceFailure({ kind: "unavailable", message: `no answer within ${Duration.format(SOURCE_DEADLINE)}` })
        }),
        Effect.either
      )
      const fetchedAt = new Date(yield* Clock.currentTimeMillis)
      if (outcome._tag === "Right") {
        const encoded = Schema.encodeEither(schema)(outcome.right)
        if (encoded._tag === "Right") {
          yield* cache.put(key, encoded.right, fetchedAt, new Date(fetchedAt.getTime() + CACHE_TTL_MS[kind]))
        }
        return { report: report(source.name, { status: "ok", fetchedAt }), value: Option.some(outcome.right) }
      }
      const failure = outcome.left
      if (failure.kind === "rate-limited") {
        const waitMs = failure.retryAfterMs ?? DEFAULT_BACKOFF_MS
        const until = fetchedAt.getTime() + waitMs
        yield* cache.put(pauseKey(source), until, fetchedAt, new Date(until))
        return {
          report: report(source.name, {
            status: "rate-limited",
            retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
            detail: failure.message
          }),
          value: Option.none()
        }
      }
      return {
        report: report(source.name, {
          status: "failed",
          detail:
            failure.kind === "refused"
              ? `${source.name} refused the request (${failure.message}); the server's operator checks its setting`
              : `${source.name} did not answer (${failure.message}); the answer is from the other sources`
        }),
        value: Option.none()
      }
    })

  return { ask } as const
})

/** The asker's service shape. */
export type Asker = Effect.Effect.Success<typeof makeAsker>

/**
 * The failure for a question no source answered: not set up (naming the setting), rate-limited (with the shortest
 * wait), unreachable (naming who failed), or not found (naming where it looked). `what` says what was asked for.
 */
export const noAnswer = (
  what: string,
  reports: ReadonlyArray<SourceReport>,
  searched: ReadonlyArray<string>
): NotFound | Forbidden | RateLimited | Unreachable => {
  const asked = reports.filter((r) => r.status !== "not-supported")
  const notSetUp = asked.filter((r) => r.status === "not-set-up")
  const limited = asked.filter((r) => r.status === "rate-limited")
  const failed = asked.filter((r) => r.status === "failed")
  // The library always answers; whether any outside source did decides between "not found" and "could not ask".
  const answered = asked.filter((r) => r.status === "ok" && r.source !== "library")
  const where = searched.length > 0 ? searched.join(", ") : "the workspace's library"
  if (answered.length === 0) {
    if (limited.length > 0 && failed.length === 0) {
      const wait = Math.min(...limited.map((r) => r.retryAfterSeconds ?? 60))
      return new RateLimited({
        message: `${limited.map((r) => r.source).join(", ")} asked to slow down, so ${what} could not be looked up`,
        retryAfterSeconds: wait
      })
    }
    if (failed.length > 0) {
      return new Unreachable({
        message: `${what} could not be looked up: ${failed.map((r) => r.detail ?? r.source).join("; ")}. Try again later.`
      })
    }
    if (notSetUp.length > 0 && answered.length === 0) {
      return new Forbidden({
        message: `${what}: research on ${where} is not set up on this server. Ask the server's operator to set ${notSetUp.map((r) => r.setting).join(" or ")}.`
      })
    }
  }
  const missing = notSetUp.length > 0 ? ` (not set up here: ${notSetUp.map((r) => r.source).join(", ")})` : ""
  return new NotFound({
    message: `${what}: nothing found on ${where}${missing}. Check the spelling, or name the platform.`
  })
}

const STATUS_WEIGHT: Record<SourceReport["status"], number> = {
  failed: 4,
  "rate-limited": 3,
  "not-set-up": 2,
  ok: 1,
  "not-supported": 0
}

/**
 * One report per source for an answer made of several questions: the worst status (with its detail), the oldest
 * fetch time (the answer is as old as its oldest part), cached only when every part was.
 */
export const mergeReports = (reports: ReadonlyArray<SourceReport>): Array<SourceReport> => {
  const bySource = new Map<string, SourceReport>()
  for (const next of reports) {
    const kept = bySource.get(next.source)
    if (kept === undefined) {
      bySource.set(next.source, next)
      continue
    }
    const worse = STATUS_WEIGHT[next.status] > STATUS_WEIGHT[kept.status] ? next : kept
    const times = [kept.fetchedAt, next.fetchedAt].filter((t): t is Date => t !== null)
    bySource.set(
      next.source,
      new SourceReport({
        ...worse,
        fetchedAt: times.length === 0 ? null : new Date(Math.min(...times.map((t) => t.getTime()))),
        cached: kept.cached && next.cached
      })
    )
  }
  return [...bySource.values()]
}
