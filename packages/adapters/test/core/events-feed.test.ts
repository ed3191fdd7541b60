/**
 * The event feed behind `Subscription.events`: it polls the real log (PGlite, or PostgreSQL with TEST_DATABASE_URL)
 * on `TestClock`, sends what is written after it starts, picks up an event that commits late, and resumes after an id.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Accounts } from "@svc/core/accounts"
import { type EventFeedOptions, EventLog, eventFeed } from "@svc/core/events"
import { resumePoint } from "@svc/core/webhooks"
import { Effect, Fiber, Stream, TestClock } from "effect"
import { testCoreLayer } from "../support/core.js"
import { engineName } from "../support/database.js"

const T0 = Date.parse("2026-03-01T12:00:00.000Z")
let accounts = 0

const newWorkspace = Effect.gen(function* () {
  accounts += 1
  const { workspace } = yield* (yield* Accounts).create({
    email: `feed${accounts}-${Date.now()}@example.com`,
    password: "long enough password"
  })
  return workspace.id
})

const write = (workspaceId: string, id: string, type: string, at: number) =>
  Effect.flatMap(EventLog, (log) => log.append({ id, workspaceId, type, createdAt: new Date(at), data: { n: id } }))

/** The ids of the first `n` events the feed sends, moving the test clock a poll at a time until they come. */
const firstSent = (
  options: EventFeedOptions,
  n: number,
  meanwhile: Effect.Effect<void, never, EventLog> = Effect.void
) =>
  Effect.gen(function* () {
    const fiber = yield* eventFeed(options).pipe(Stream.take(n), Stream.runCollect, Effect.fork)
    // The feed reads the log before its first wait: let it, then write what it should see.
    yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 100)))
    yield* meanwhile
    for (let round = 0; round < 200; round++) {
      const done = yield* Fiber.poll(fiber)
      if (done._tag === "Some") break
      yield* TestClock.adjust("1 second")
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 10)))
    }
    return Array.from(yield* Fiber.join(fiber), (event) => event.id)
  })

layer(testCoreLayer(), { timeout: "60 seconds" })(`event feed on ${engineName}`, (it) => {
  describe("following a workspace's log", () => {
    it.effect("sends the events written after it starts, oldest first, of the types asked for", () =>
      Effect.gen(function* () {
        const workspaceId = yield* newWorkspace
        yield* TestClock.setTime(T0)
        yield* write(workspaceId, "evt_before", "note.created", T0 - 500)
        const sent = yield* firstSent(
          { workspaceId, filter: { types: ["note.created", "purchase.created"] }, pollInterval: "1 second" },
          2,
          Effect.all([
            write(workspaceId, "evt_other_type", "board.created", T0 + 10),
            write(workspaceId, "evt_first", "note.created", T0 + 20),
            write(workspaceId, "evt_second", "purchase.created", T0 + 30)
          ]).pipe(Effect.asVoid)
        )
        expect(sent).toEqual(["evt_first", "evt_second"])
      })
    )

    it.effect("sends an event stamped before the last one sent that commits later, once", () =>
      Effect.gen(function* () {
        const workspaceId = yield* newWorkspace
        yield* TestClock.setTime(T0)
        const sent = yield* firstSent(
          { workspaceId, filter: { types: ["note.created"] }, pollInterval: "1 second" },
          3,
          Effect.gen(function* () {
            yield* write(workspaceId, "evt_b", "note.created", T0 + 200)
            // The feed sends evt_b before evt_a, stamped earlier, becomes visible.
            yield* TestClock.adjust("1 second")
            yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 200)))
            yield* write(workspaceId, "evt_a", "note.created", T0 + 100)
            yield* write(workspaceId, "evt_c", "note.created", T0 + 300)
          })
        )
        expect(sent).toEqual(["evt_b", "evt_a", "evt_c"])
      })
    )

    it.effect("resumes after an event id with what followed it, excluding types filtered out", () =>
      Effect.gen(function* () {
        const workspaceId = yield* newWorkspace
        yield* TestClock.setTime(T0)
        yield* write(workspaceId, "evt_r1", "note.created", T0 - 3_000)
        yield* write(workspaceId, "evt_r2", "note.created", T0 - 2_000)
        yield* write(workspaceId, "evt_r3", "purchase.created", T0 - 1_500)
        yield* write(workspaceId, "evt_r4", "note.created", T0 - 1_000)
        const after = yield* resumePoint(workspaceId, "evt_r2")
        const sent = yield* firstSent(
          {
            workspaceId,
            filter: { excludeTypes: ["purchase.created", "workspace.created"] },
            after,
            pollInterval: "1 second"
          },
          2,
          write(workspaceId, "evt_r5", "note.created", T0 + 50)
        )
        expect(sent).toEqual(["evt_r4", "evt_r5"])
        const unknown = yield* Effect.flip(resumePoint(workspaceId, "evt_nope"))
        expect(unknown._tag).toBe("InvalidInput")
      })
    )
  })
})
