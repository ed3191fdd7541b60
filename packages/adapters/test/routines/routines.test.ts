/**
 * Routines through their tools, the worker's runs under the test clock (two workers on one database included), the
 * destinations, a run through a language model, and the routine-runs automation step, on the real test database.
 */
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import { SqlClient } from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import { CoreLive, everyToolset, toolServerLive } from "@svc/core"
import type { Principal } from "@svc/core/auth"
import { AuthSettings } from "@svc/core/auth"
import { Credits } from "@svc/core/credits"
import { AskSettings, ChatModel, ModelUnreachable } from "@svc/core/custom-ai"
import { ROUTINES_PER_WORKSPACE_MAX, RoutineWorkerLive, Routines, runDueRoutines } from "@svc/core/routines"
import { Deferred, Duration, Effect, Fiber, Layer, Option, TestClock } from "effect"
import { DocumentTextLive } from "../../src/ai/document-text.js"
import { PublicUrl } from "../../src/http/config.js"
import { ROUTINE_RUNS_PATH, RoutineRunsRoute } from "../../src/http/ai-steps/routine-runs.js"
import { SqlPortsLive } from "../../src/sql/layers.js"
import { migrations } from "../../src/sql/migrations/index.js"
import {
  assistantWithText,
  callTool,
  eventually,
  pastTheClock,
  scriptedModel,
  testAskSettings
} from "../custom-ai/ask-support.js"
import { signUp, testPageFetcherLayer, testSchedulingPorts, testSenderLayer } from "../support/core.js"
import { engineName, testDatabaseLayer } from "../support/database.js"

// A language model the test switches on and off: off, Custom AIs answer extractively (free, at once), as in every
// test without a model; on, the scripted model answers (charged).
const model = scriptedModel()
let modelOn = false
const switchableModel = Layer.effect(
  ChatModel,
  Effect.map(ChatModel, (scripted) => ({
    get description() {
      return modelOn ? scripted.description : Option.none()
    },
    generate: scripted.generate,
    embed: scripted.embed
  }))
).pipe(Layer.provide(model.layer))

const testLayer = toolServerLive(everyToolset).pipe(
  Layer.provideMerge(CoreLive),
  Layer.provideMerge(Layer.merge(SqlPortsLive, testSchedulingPorts)),
  Layer.provideMerge(testSenderLayer),
  Layer.provideMerge(switchableModel),
  Layer.provideMerge(testPageFetcherLayer),
  Layer.provideMerge(DocumentTextLive),
  Layer.provideMerge(AuthSettings.Default),
  Layer.provideMerge(Layer.succeed(AskSettings, testAskSettings)),
  Layer.provideMerge(testDatabaseLayer(migrations))
)

const worker = { leaseMs: 60_000, concurrency: 4 }

type RoutineRecord = {
  readonly id: string
  readonly name: string
  readonly enabled: boolean
  readonly nextRunAt: string | null
  readonly chatId: string | null
  readonly cron: string | null
  readonly everyMinutes: number | null
  readonly timeZone: string
  readonly latestRun: {
    readonly id: string
    readonly status: string
    readonly dueAt: string
    readonly answerExcerpt: string | null
    readonly error: string | null
    readonly credits: string
  } | null
}

const RETURNS = "Returns are accepted within 30 days of delivery. Refunds go back to the original card."

/** A free account with a Custom AI (its default assistant) that knows the returns policy. */
const setUp = Effect.gen(function* () {
  const user = yield* signUp({ plan: "free" })
  const customAi = yield* assistantWithText(user.workspace.id, {
    name: "Helpdesk",
    title: "Returns policy",
    text: RETURNS
  })
  return { user, principal: user.principal, customAi }
})

const create = (principal: Principal, args: Record<string, unknown>) =>
  Effect.map(callTool(principal, "svc_create_routine", args), (answer) => answer.routine as RoutineRecord)

const routineOf = (principal: Principal, id: string) =>
  Effect.map(
    callTool(principal, "svc_list_routines", { limit: 100 }),
    (answer) => (answer.routines as ReadonlyArray<RoutineRecord>).find((routine) => routine.id === id) as RoutineRecord
  )

const runsOf = (routineId: string) =>
  Effect.flatMap(
    SqlClient,
    (sql) => sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM routine_runs WHERE routine_id = ${routineId}`
  ).pipe(
    Effect.map((rows) => rows[0]?.n ?? 0),
    Effect.orDie
  )

/**
 * The tests of this file share one database and one test clock, and a worker runs every workspace's routines: a test
 * that runs the worker starts by pausing the routines earlier tests left, then sets the clock to its own start.
 */
const startAt = (iso: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    yield* Effect.orDie(sql`UPDATE routines SET enabled = false`)
    yield* TestClock.setTime(Date.parse(iso))
  })

/** Two workers looking at once, as two server processes on one database would. */
const twoWorkers = Effect.map(
  Effect.all([runDueRoutines(worker), runDueRoutines(worker)], { concurrency: "unbounded" }),
  ([a, b]) => a + b
)

layer(testLayer, { timeout: "120 seconds" })(`routines (${engineName})`, (it) => {
  describe("the tools", () => {
    it.effect("create, list (paged, newest first) and update routines; the schedule sets nextRunAt", () =>
      Effect.gen(function* () {
        // 1970-01-01 was a Thursday; Berlin was on CET (UTC+1) all year.
        yield* TestClock.setTime(0)
        const { principal, customAi } = yield* setUp
        const weekdays = yield* create(principal, {
          name: "Morning brief",
          message: "Summarise the returns policy.",
          customAIId: customAi.id,
          cron: "0 9 * * 1-5",
          timeZone: "Europe/Berlin",
          destination: "chat"
        })
        expect(weekdays).toMatchObject({
          name: "Morning brief",
          cron: "0 9 * * 1-5",
          everyMinutes: null,
          timeZone: "Europe/Berlin",
          customAIId: customAi.id,
          destination: "chat",
          destinationId: null,
          mode: "standard",
          enabled: true,
          nextRunAt: "1970-01-01T08:00:00.000Z",
          chatId: null,
          latestRun: null
        })
        // A second later, so "newest first" has one answer.
        yield* TestClock.adjust(Duration.seconds(1))
        const hourly = yield* create(principal, { name: "Hourly", message: "Anything new?", everyMinutes: 60 })
        expect(hourly).toMatchObject({ customAIId: null, timeZone: "UTC", nextRunAt: "1970-01-01T01:00:01.000Z" })

        const first = yield* callTool(principal, "svc_list_routines", { limit: 1 })
        expect((first.routines as ReadonlyArray<RoutineRecord>).map((r) => r.id)).toEqual([hourly.id])
        const second = yield* callTool(principal, "svc_list_routines", { limit: 1, cursor: first.nextCursor })
        expect((second.routines as ReadonlyArray<RoutineRecord>).map((r) => r.id)).toEqual([weekdays.id])
        expect(second.nextCursor).toBeUndefined()

        const paused = yield* callTool(principal, "svc_update_routine", { routineId: weekdays.id, enabled: false })
        expect(paused.routine).toMatchObject({ enabled: false, nextRunAt: null, name: "Morning brief" })
        const changed = yield* callTool(principal, "svc_update_routine", {
          routineId: weekdays.id,
          cron: "30 7 * * *",
          enabled: true,
          name: "Early brief",
          mode: "max"
        })
        expect(changed.routine).toMatchObject({
          name: "Early brief",
          cron: "30 7 * * *",
          timeZone: "Europe/Berlin",
          mode: "max",
          enabled: true,
          nextRunAt: "1970-01-01T06:30:00.000Z",
          message: "Summarise the returns policy."
        })
        const interval = yield* callTool(principal, "svc_update_routine", {
          routineId: weekdays.id,
          everyMinutes: 30,
          customAIId: ""
        })
        expect(interval.routine).toMatchObject({ cron: null, everyMinutes: 30, customAIId: null })
      })
    )

    it.effect("refuse bad schedules, unknown Custom AIs, notes, boards and routines, naming the field or tool", () =>
      Effect.gen(function* () {
        const { principal } = yield* setUp
        const base = { name: "Check", message: "Anything new?" }
        const refused = (args: Record<string, unknown>) =>
          callTool(principal, "svc_create_routine", { ...base, ...args })
        const fieldOf = (answer: Record<string, unknown>) => (answer.errors as ReadonlyArray<{ path: string }>)[0]?.path

        for (const [args, path] of [
          [{ cron: "61 * * * *" }, "cron"],
          [{ cron: "@daily" }, "cron"],
          [{ cron: "0 0 9 * * *" }, "cron"],
          [{ cron: "0 0 30 2 *" }, "cron"],
          [{}, "cron"],
          [{ cron: "0 9 * * *", timeZone: "Mars/Olympus" }, "timeZone"],
          [{ cron: "0 9 * * *", everyMinutes: 60 }, "everyMinutes"],
          [{ everyMinutes: 1 }, "everyMinutes"],
          [{ cron: "* * * * *", destination: "board" }, "destinationId"],
          [{ cron: "* * * * *", destination: "chat", destinationId: "note_x" }, "destinationId"],
          [{ cron: "* * * * *", destinationId: "note_x" }, "destination"],
          [{ cron: "* * * * *", message: "   " }, "message"]
        ] as const) {
          const answer = yield* refused(args)
          expect(answer, JSON.stringify(args)).toMatchObject({ ok: false, status: "invalid" })
          expect(fieldOf(answer), JSON.stringify(args)).toBe(path)
        }
        expect(yield* refused({ cron: "61 * * * *" })).toMatchObject({
          message: expect.stringContaining("five fields")
        })

        const unknownAi = yield* refused({ cron: "* * * * *", customAIId: "cai_nope" })
        expect(unknownAi).toMatchObject({ status: "not-found", message: expect.stringContaining("svc_list_custom_ai") })
        const unknownNote = yield* refused({ cron: "* * * * *", destination: "note", destinationId: "note_nope" })
        expect(unknownNote).toMatchObject({
          status: "not-found",
          message: expect.stringContaining("svc_list_workspace_items")
        })
        const unknownBoard = yield* refused({ cron: "* * * * *", destination: "board", destinationId: "board_x" })
        expect(unknownBoard).toMatchObject({ status: "not-found" })
        const unknownRoutine = yield* callTool(principal, "svc_update_routine", { routineId: "rtn_nope", name: "X" })
        expect(unknownRoutine).toMatchObject({
          status: "not-found",
          message: expect.stringContaining("svc_list_routines")
        })

        // A workspace with no Custom AI has no default assistant to ask.
        const empty = yield* signUp({ plan: "free" })
        expect(yield* callTool(empty.principal, "svc_create_routine", { ...base, cron: "* * * * *" })).toMatchObject({
          status: "not-found",
          message: expect.stringContaining("svc_create_custom_ai")
        })

        // A workspace holds at most 50 routines.
        const routines = yield* Routines
        const existing = (yield* callTool(principal, "svc_list_routines", { limit: 100 })).routines as Array<unknown>
        for (let n = existing.length; n < ROUTINES_PER_WORKSPACE_MAX; n++) {
          yield* routines.create(principal.workspaceId ?? "", principal.accountId, { ...base, everyMinutes: 60 })
        }
        expect(yield* refused({ everyMinutes: 60 })).toMatchObject({ ok: false, status: "conflict" })
      })
    )
  })

  describe("the worker", () => {
    it.effect("runs a routine once per due time, with two workers on one database, and skips missed times", () =>
      Effect.gen(function* () {
        modelOn = false
        yield* startAt("1971-01-01T00:00:00Z")
        const { principal } = yield* setUp
        const routine = yield* create(principal, {
          name: "Returns digest",
          message: "How long do customers have to return an order?",
          cron: "* * * * *",
          destination: "note"
        })
        expect(routine.nextRunAt).toBe("1971-01-01T00:01:00.000Z")
        expect(yield* twoWorkers).toBe(0)

        yield* TestClock.adjust(Duration.minutes(1))
        expect(yield* twoWorkers).toBe(1)
        expect(yield* runsOf(routine.id)).toBe(1)
        expect(yield* twoWorkers).toBe(0)
        const ran = yield* routineOf(principal, routine.id)
        expect(ran.latestRun).toMatchObject({
          status: "answered",
          dueAt: "1971-01-01T00:01:00.000Z",
          error: null,
          credits: 0,
          answerExcerpt: expect.stringContaining("Returns are accepted within 30 days")
        })
        expect(ran.nextRunAt).toBe("1971-01-01T00:02:00.000Z")
        expect(ran.chatId).toMatch(/^chat_/)

        // The server was down for three due times: one run, then the next due time after now.
        yield* TestClock.adjust(Duration.minutes(3))
        expect(yield* twoWorkers).toBe(1)
        expect(yield* runsOf(routine.id)).toBe(2)
        const caughtUp = yield* routineOf(principal, routine.id)
        expect(caughtUp.latestRun?.dueAt).toBe("1971-01-01T00:02:00.000Z")
        expect(caughtUp.nextRunAt).toBe("1971-01-01T00:05:00.000Z")
        expect(caughtUp.chatId).toBe(ran.chatId)

        // Each run wrote a note of its own, titled with the routine and its due time.
        const notes = yield* callTool(principal, "svc_find_workspace_items", {
          title: "Returns digest — 1971-01-01 00:01 UTC"
        })
        expect(notes.items).toHaveLength(1)

        // Paused, it does not run.
        yield* callTool(principal, "svc_update_routine", { routineId: routine.id, enabled: false })
        yield* TestClock.adjust(Duration.minutes(5))
        expect(yield* twoWorkers).toBe(0)
        expect(yield* runsOf(routine.id)).toBe(2)
      })
    )

    it.effect("delivers answers to a note, onto a board, and keeps one chat per routine", () =>
      Effect.gen(function* () {
        modelOn = false
        yield* startAt("1972-01-01T00:00:00Z")
        const { principal } = yield* setUp
        const { note } = (yield* callTool(principal, "svc_create_note", { title: "Log", markdown: "# Log" })) as {
          note: { id: string }
        }
        const { board } = (yield* callTool(principal, "svc_create_board", { title: "Answers" })) as {
          board: { id: string }
        }
        const message = "What is the refund policy?"
        const toNote = yield* create(principal, {
          name: "To note",
          message,
          cron: "* * * * *",
          destination: "note",
          destinationId: note.id
        })
        const toBoard = yield* create(principal, {
          name: "To board",
          message,
          cron: "* * * * *",
          destination: "board",
          destinationId: board.id
        })
        const toChat = yield* create(principal, { name: "To chat", message, cron: "* * * * *" })

        yield* TestClock.adjust(Duration.minutes(1))
        expect(yield* runDueRoutines(worker)).toBe(3)
        yield* TestClock.adjust(Duration.minutes(1))
        expect(yield* runDueRoutines(worker)).toBe(3)

        const log = (yield* callTool(principal, "svc_get_note_markdown", { noteId: note.id })) as {
          note: { markdown: string }
        }
        expect(log.note.markdown).toContain("## To note — 1972-01-01 00:01 UTC")
        expect(log.note.markdown).toContain("## To note — 1972-01-01 00:02 UTC")
        expect(log.note.markdown).toContain("Refunds go back to the original card.")

        const read = (yield* callTool(principal, "svc_read_board", { boardId: board.id })) as {
          items: ReadonlyArray<{ title: string }>
        }
        expect(read.items.map((item) => item.title).sort()).toEqual([
          "To board — 1972-01-01 00:01 UTC",
          "To board — 1972-01-01 00:02 UTC"
        ])

        const chat = yield* routineOf(principal, toChat.id)
        expect(chat.latestRun?.status).toBe("answered")
        const answer = yield* callTool(principal, "svc_get_custom_ai_answer", { chatId: chat.chatId })
        expect(answer).toMatchObject({ status: "answered", answer: expect.stringContaining("original card") })
        for (const id of [toNote.id, toBoard.id])
          expect((yield* routineOf(principal, id)).latestRun?.status).toBe("answered")
      })
    )

    it.scoped("RoutineWorkerLive runs due routines in the background", () =>
      Effect.gen(function* () {
        modelOn = false
        yield* startAt("1972-06-01T00:00:00Z")
        const { principal } = yield* setUp
        const routine = yield* create(principal, { name: "Background", message: "Refunds?", cron: "* * * * *" })
        yield* Layer.build(RoutineWorkerLive({ ...worker, idleMs: 1_000 }))
        yield* TestClock.adjust(Duration.minutes(1))
        // The loop may not be asleep yet when the clock moves: each look moves it a second more, past its next wait.
        const ranOnce = Effect.map(runsOf(routine.id), (n) => n === 1)
        yield* eventually(Effect.zipRight(TestClock.adjust(Duration.seconds(1)), ranOnce))
        yield* eventually(
          Effect.map(routineOf(principal, routine.id), (current) => current.latestRun?.status === "answered")
        )
        yield* callTool(principal, "svc_update_routine", { routineId: routine.id, enabled: false })
      })
    )

    it.effect("charges a run through a language model once, follows an answer still being written, retries", () =>
      Effect.gen(function* () {
        modelOn = true
        yield* startAt("1973-01-01T00:00:00Z")
        const { user, principal } = yield* setUp
        const credits = yield* Credits
        const balance = Effect.map(credits.balance(user.account.id), (b) => b.balanceTenths)
        const before = yield* balance
        // Hourly: however far a step below moves the clock past a due time, the next one is an hour away.
        const routine = yield* create(principal, { name: "Model", message: "Any returns news?", cron: "0 * * * *" })
        const toNextDue = Effect.flatMap(routineOf(principal, routine.id), (current) =>
          TestClock.setTime(Date.parse(current.nextRunAt ?? ""))
        )
        // Once the model has written the answer, the run's next look (10 s on) records it, charged once.
        const answeredLater = (chatId: string | null, text: string) =>
          Effect.gen(function* () {
            yield* eventually(
              Effect.map(
                callTool(principal, "svc_get_custom_ai_answer", { chatId }),
                (answer) => answer.status === "answered"
              )
            )
            yield* TestClock.adjust(Duration.seconds(10))
            expect(yield* runDueRoutines(worker)).toBe(1)
            expect((yield* routineOf(principal, routine.id)).latestRun).toMatchObject({
              status: "answered",
              credits: 1,
              answerExcerpt: text
            })
          })

        // Answered at once: 1 credit, once.
        model.answerWith(() => Effect.succeed({ text: "Nothing new on returns.", model: "test-model" }))
        yield* toNextDue
        expect(yield* runDueRoutines(worker)).toBe(1)
        expect((yield* routineOf(principal, routine.id)).latestRun).toMatchObject({
          status: "answered",
          credits: 1,
          answerExcerpt: "Nothing new on returns."
        })
        expect(yield* balance).toBe(before - 10)
        expect(yield* runDueRoutines(worker)).toBe(0)
        expect(yield* balance).toBe(before - 10)

        // Slower than the run waits (30 s of a 60 s lease): recorded running, then read once written.
        const written = yield* Deferred.make<void>()
        model.answerWith(() => Deferred.await(written).pipe(Effect.as({ text: "Slow but sure.", model: "test-model" })))
        yield* toNextDue
        expect(yield* pastTheClock(runDueRoutines(worker), 2_000)).toBe(1)
        const running = yield* routineOf(principal, routine.id)
        expect(running.latestRun).toMatchObject({ status: "running", answerExcerpt: null })
        yield* Deferred.succeed(written, undefined)
        yield* answeredLater(running.chatId, "Slow but sure.")
        expect(yield* balance).toBe(before - 20)

        // Unreachable: tried again a minute later, and charged only for the answer.
        let calls = 0
        model.answerWith(() => {
          calls += 1
          return calls === 1
            ? Effect.fail(new ModelUnreachable({ message: "the provider answered 503" }))
            : Effect.succeed({ text: "Back again.", model: "test-model" })
        })
        yield* toNextDue
        expect(yield* runDueRoutines(worker)).toBe(1)
        expect((yield* routineOf(principal, routine.id)).latestRun).toMatchObject({
          status: "running",
          error: expect.stringContaining("503")
        })
        expect(yield* balance).toBe(before - 20)
        expect(yield* runDueRoutines(worker)).toBe(0)
        yield* TestClock.adjust(Duration.minutes(1))
        expect(yield* runDueRoutines(worker)).toBe(1)
        expect((yield* routineOf(principal, routine.id)).latestRun).toMatchObject({
          status: "answered",
          credits: 1,
          error: null,
          answerExcerpt: "Back again."
        })
        expect(yield* balance).toBe(before - 30)

        // A worker stopped while the model writes (a shutdown; a crash is the same after the lease): the run is
        // handed back, and the next look follows the question already asked instead of asking and charging again.
        const finish = yield* Deferred.make<void>()
        let asked = 0
        model.answerWith(() => {
          asked += 1
          return Deferred.await(finish).pipe(Effect.as({ text: "Asked once.", model: "test-model" }))
        })
        yield* toNextDue
        const stopped = yield* Effect.fork(runDueRoutines(worker))
        yield* eventually(Effect.sync(() => asked === 1))
        yield* Fiber.interrupt(stopped)
        expect(yield* runDueRoutines(worker)).toBe(1)
        expect((yield* routineOf(principal, routine.id)).latestRun).toMatchObject({ status: "running" })
        yield* Deferred.succeed(finish, undefined)
        yield* answeredLater((yield* routineOf(principal, routine.id)).chatId, "Asked once.")
        expect(asked).toBe(1)
        expect(yield* balance).toBe(before - 40)
        modelOn = false
      })
    )
  })

  describe("the routine-runs automation step", () => {
    it.scoped("lists each routine's latest run of the last day, newest first, for the caller's workspace", () =>
      Effect.gen(function* () {
        modelOn = false
        yield* startAt("1974-01-01T00:00:00Z")
        const { user, principal } = yield* setUp
        const context = yield* Effect.context<Layer.Layer.Success<typeof testLayer>>()
        const web = yield* Effect.acquireRelease(
          Effect.sync(() =>
            HttpLayerRouter.toWebHandler(
              RoutineRunsRoute.pipe(
                Layer.provide(Layer.merge(Layer.succeedContext(context), PublicUrl.layer("http://svc.test")))
              ),
              { disableLogger: true }
            )
          ),
          (handler) => Effect.promise(() => handler.dispose())
        )
        const get = (query: string, token: string | null = user.token) =>
          Effect.promise(async () => {
            const response = await web.handler(
              new Request(`http://svc.test${ROUTINE_RUNS_PATH}${query}`, {
                headers: token === null ? {} : { authorization: `Bearer ${token}` }
              })
            )
            return { status: response.status, body: (await response.json()) as unknown }
          })

        // The step reads the real clock: the runs happen two days ago and now on the test clock.
        const now = Date.now()
        yield* TestClock.setTime(now - 2 * 24 * 60 * 60 * 1000)
        const old = yield* create(principal, { name: "Old", message: "Refunds?", cron: "* * * * *" })
        yield* TestClock.adjust(Duration.minutes(1))
        expect(yield* runDueRoutines(worker)).toBe(1)
        yield* callTool(principal, "svc_update_routine", { routineId: old.id, enabled: false })

        yield* TestClock.setTime(now - 60_000)
        const fresh = yield* create(principal, { name: "Fresh", message: "Returns?", cron: "* * * * *" })
        yield* TestClock.adjust(Duration.minutes(1))
        expect(yield* runDueRoutines(worker)).toBe(1)

        const listed = yield* get(`?workspace_id=${user.workspace.id}`)
        expect(listed.status).toBe(200)
        expect(listed.body).toEqual([
          expect.objectContaining({
            id: expect.stringMatching(/^rrun_/),
            routine_id: fresh.id,
            routine_name: "Fresh",
            workspace_id: user.workspace.id,
            status: "answered",
            answer: expect.stringContaining("Returns are accepted within 30 days"),
            sources: [{ title: "Returns policy", url: null }],
            error: null,
            credits_charged: 0,
            chat_id: expect.stringMatching(/^chat_/),
            chat_url: expect.stringContaining("http://svc.test/ai/chats/chat_")
          })
        ])
        expect(yield* get("")).toEqual(listed)

        expect((yield* get("", null)).status).toBe(401)
        const stranger = yield* signUp({ plan: "free" })
        expect(yield* get(`?workspace_id=${stranger.workspace.id}`)).toMatchObject({
          status: 404,
          body: { ok: false, error: "not_found" }
        })
        const noRoutines = yield* signUp({ plan: "free", access: { kind: "custom", parts: { workspace: "read" } } })
        expect((yield* get("", noRoutines.token)).status).toBe(403)
      })
    )
  })
})
