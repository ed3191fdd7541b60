import { Chunk, Clock, type Duration, Effect, Option, Stream } from "effect"
import type { PageKey } from "../shared/paging.js"
import { EventLog, type EventTypeFilter } from "./ports.js"
import type { EventRecord } from "./schema.js"

/**
 * How far behind the newest event sent a feed reads again. Events are stamped before their transaction commits, so
 * one stamped earlier may become visible after a later one was sent; reading this window again (and dropping ids
 * already sent) delivers it instead of skipping it. A transaction open longer than this can still be missed.
 */
export const FEED_LOOKBACK_MS = 2_000

/** Events read per query, and the most one poll sends before it polls again without waiting. */
const FEED_PAGE = 100

/** What a feed follows. */
export interface EventFeedOptions {
  readonly workspaceId: string
  readonly filter: EventTypeFilter
  /** Send only events after this one (a resumed feed); from now when absent. */
  readonly after?: PageKey
  /** The wait between two looks at the log once it is caught up. */
  readonly pollInterval: Duration.DurationInput
}

const keyOf = (event: EventRecord): PageKey => ({ createdAt: event.createdAt, id: event.id })

const isAfter = (a: PageKey, b: PageKey): boolean =>
  a.createdAt.getTime() > b.createdAt.getTime() || (a.createdAt.getTime() === b.createdAt.getTime() && a.id > b.id)

const windowBehind = (key: PageKey): PageKey => ({
  createdAt: new Date(key.createdAt.getTime() - FEED_LOOKBACK_MS),
  id: ""
})

/**
 * A workspace's events as they are written, oldest first, by polling the log: every server instance reads the same
 * table, so a feed sees the events any instance writes. The waits go through `Clock`, so `TestClock` drives them.
 */
export const eventFeed = (options: EventFeedOptions): Stream.Stream<EventRecord, never, EventLog> =>
  Stream.unwrap(
    Effect.gen(function* () {
      const log = yield* EventLog
      const read = (after: PageKey) => log.since(options.workspaceId, options.filter, after, FEED_PAGE)
      const start = options.after ?? { createdAt: new Date(yield* Clock.currentTimeMillis), id: "" }
      // Ids sent (or older than the start) within the window behind the cursor, with their times for pruning.
      const sent = new Map<string, number>()
      let cursor = start

      // What was written up to the start counts as sent: the subscriber saw it, or subscribed after it.
      let key = windowBehind(start)
      for (;;) {
        const page = yield* read(key)
        const upToStart = page.filter((event) => !isAfter(keyOf(event), start))
        for (const event of upToStart) sent.set(event.id, event.createdAt.getTime())
        if (page.length < FEED_PAGE || upToStart.length < page.length) break
        key = keyOf(page[page.length - 1]!)
      }

      /** The events not sent yet from the window behind the cursor on, and whether more may be waiting. */
      const poll = Effect.gen(function* () {
        const fresh: Array<EventRecord> = []
        let from = windowBehind(cursor)
        for (;;) {
          const page = yield* read(from)
          for (const event of page) {
            if (sent.has(event.id)) continue
            fresh.push(event)
            sent.set(event.id, event.createdAt.getTime())
            if (isAfter(keyOf(event), cursor)) cursor = keyOf(event)
          }
          if (page.length < FEED_PAGE) break
          // A long backlog (a feed resumed from an old event) goes out a page at a time.
          if (fresh.length >= FEED_PAGE) return { fresh, more: true }
          from = keyOf(page[page.length - 1]!)
        }
        const floor = cursor.createdAt.getTime() - FEED_LOOKBACK_MS
        for (const [id, at] of sent) if (at < floor) sent.delete(id)
        return { fresh, more: false }
      })

      return Stream.unfoldChunkEffect(false, (wait) =>
        Effect.gen(function* () {
          if (wait) yield* Effect.sleep(options.pollInterval)
          const { fresh, more } = yield* poll
          return Option.some([Chunk.fromIterable(fresh), !more] as const)
        })
      )
    })
  )
