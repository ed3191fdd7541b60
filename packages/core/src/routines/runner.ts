import { Clock, Data, DateTime, Effect, Either, Option } from "effect"
import { Boards } from "../boards/boards.js"
import { Notes } from "../boards/notes.js"
import { type AskAnswer, CustomAiAsking } from "../custom-ai/asking.js"
import { type AnswerSource, CustomAiChats } from "../custom-ai/chats.js"
import { CustomAis } from "../custom-ai/service.js"
import { Conflict, type DomainError } from "../shared/errors.js"
import { Ids, Transactor } from "../shared/ports.js"
import { withSpan } from "../shared/spans.js"
import { type ClaimedRoutineRun, type RoutineRunClaim, type RoutineRunRecord, RoutinesRepo } from "./ports.js"
import { nextDueAfter } from "./schedule.js"
import type { Routine } from "./schema.js"

/** Questions one run asks at most: an unreachable model is asked again after a pause, then the run fails. */
export const ROUTINE_RUN_MAX_ATTEMPTS = 3

/** The pause before asking again after the `attempts`-th question went unanswered: 1 minute, then 5. */
export const routineRetryDelayMs = (attempts: number): number => (attempts <= 1 ? 60_000 : 300_000)

/** How often a run whose answer is still being written looks at it again. */
export const ROUTINE_POLL_MS = 10_000

/** The claim was taken over by another worker (after this one's lease ended): its record stands, not ours. */
class LostClaim extends Data.TaggedError("LostClaim")<{ readonly runId: string }> {}

const pad = (n: number) => String(n).padStart(2, "0")

/** A due time as a reader of the routine's zone writes it: `2026-03-30 09:00 Europe/Berlin`. */
const localTime = (at: Date, timeZone: string): string =>
  Option.match(DateTime.makeZoned(at, { timeZone }), {
    onNone: () => at.toISOString(),
    onSome: (zoned) => {
      const p = DateTime.toParts(zoned)
      return `${p.year}-${pad(p.month)}-${pad(p.day)} ${pad(p.hours)}:${pad(p.minutes)} ${timeZone}`
    }
  })

const withSources = (answer: string, sources: ReadonlyArray<AnswerSource>): string =>
  sources.length === 0
    ? answer
    : `${answer}\n\nSources: ${sources
        .map((source) => (source.url === null ? source.sourceTitle : `${source.sourceTitle} (${source.url})`))
        .join("; ")}`

/**
 * Starts and runs routines' runs. `start` turns due routines into runs (one per due time: the run's key) and moves
 * each routine to its next due time; `run` asks the Custom AI as the routine's owner (charged as any ask), follows
 * an answer still being written, retries an unreachable model, and delivers the answer to the routine's
 * destination in the same transaction that records it.
 */
export class RoutineRunner extends Effect.Service<RoutineRunner>()("svc/routines/RoutineRunner", {
  dependencies: [CustomAis.Default, CustomAiChats.Default, CustomAiAsking.Default, Notes.Default, Boards.Default],
  effect: Effect.gen(function* () {
    const repo = yield* RoutinesRepo
    const asking = yield* CustomAiAsking
    const customAis = yield* CustomAis
    const chats = yield* CustomAiChats
    const notes = yield* Notes
    const boards = yield* Boards
    const ids = yield* Ids
    const transactor = yield* Transactor

    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    /**
     * Up to `limit` due routines become runs held by `claim`. A routine due several times while no worker ran (the
     * server was down) runs once, for its stored due time, then moves to its next due time after now.
     */
    const start = (limit: number, claim: RoutineRunClaim) =>
      transactor
        .withTransaction(
          Effect.gen(function* () {
            const due = yield* repo.lockDue(claim.now, limit)
            const started: Array<ClaimedRoutineRun> = []
            for (const routine of due) {
              const previous = routine.schedule.kind === "interval" ? routine.nextRunAt : undefined
              const next = nextDueAfter(routine.schedule, claim.now, previous)
              if (Either.isLeft(next)) {
                yield* repo.pause(routine.id, claim.now)
                yield* Effect.logWarning(`routine ${routine.id} paused: ${next.left}`)
                continue
              }
              const run = yield* repo.startRun(
                {
                  id: yield* ids.make("rrun_"),
                  routineId: routine.id,
                  workspaceId: routine.workspaceId,
                  dueAt: routine.nextRunAt,
                  startedAt: claim.now
                },
                claim
              )
              yield* repo.setNextRun(routine.id, next.right)
              if (Option.isSome(run)) started.push(run.value)
            }
            return started
          })
        )
        .pipe(withSpan("Routines.startDueRuns", { attributes: { limit } }))

    /** Claims up to `limit` runs to look at again (retries and polls that are due, leases that ended). */
    const claim = (limit: number, lease: RoutineRunClaim) =>
      limit <= 0 ? Effect.succeed<ReadonlyArray<ClaimedRoutineRun>>([]) : repo.claimDueRuns(lease, limit)

    /** The Custom AI to ask now (the routine's, or today's default) and the routine's chat when it is with it. */
    const assistantAndChat = (routine: Routine) =>
      Effect.gen(function* () {
        const customAi = yield* customAis.resolve(routine.workspaceId, routine.customAiId ?? undefined)
        if (routine.chatId === null) return { customAi, chatId: undefined }
        const chat = yield* Effect.option(chats.find(routine.workspaceId, routine.chatId))
        const sameAssistant = Option.isSome(chat) && chat.value.customAiId === customAi.id
        return { customAi, chatId: sameAssistant ? routine.chatId : undefined }
      })

    const deliver = (routine: Routine, dueAt: Date, text: string) =>
      Effect.gen(function* () {
        const title = `${routine.name} — ${localTime(dueAt, routine.schedule.timeZone)}`
        const destination = routine.destination
        switch (destination.kind) {
          case "chat":
            return
          case "note":
            if (destination.noteId === null) {
              yield* notes.create(routine.workspaceId, { title, markdown: text })
              return
            }
            yield* notes.append(routine.workspaceId, {
              noteId: destination.noteId,
              markdown: `## ${title}\n\n${text}`
            })
            return
          case "board": {
            const note = yield* notes.create(routine.workspaceId, { title, markdown: text })
            yield* boards.saveItems(routine.workspaceId, {
              boardId: destination.boardId,
              items: [{ itemId: note.id }]
            })
          }
        }
      })

    const record = (held: ClaimedRoutineRun, state: RoutineRunRecord) =>
      Effect.flatMap(repo.recordRun(held.id, held.claimToken, state), (kept) =>
        kept ? Effect.void : Effect.fail(new LostClaim({ runId: held.id }))
      )

    /** Delivers the answer and records the run answered, together; an answer that cannot be delivered fails it. */
    const finishAnswered = (routine: Routine, held: ClaimedRoutineRun, state: RoutineRunRecord) =>
      transactor.withTransaction(
        Effect.gen(function* () {
          // Its own (nested) transaction: a delivery that fails half-way leaves nothing behind.
          const delivered = yield* Effect.either(
            transactor.withTransaction(deliver(routine, held.dueAt, withSources(state.answer ?? "", state.sources)))
          )
          yield* record(
            held,
            Either.isRight(delivered)
              ? state
              : {
                  ...state,
                  status: "failed",
                  error: `answered, but the answer could not be added to its ${routine.destination.kind}: ${delivered.left.message}`
                }
          )
        })
      )

    /** What became of a question: answered, still being written, or failed (retried while the model is down). */
    const settle = (
      routine: Routine,
      held: ClaimedRoutineRun,
      state: RoutineRunRecord,
      outcome: Either.Either<AskAnswer, DomainError>
    ) =>
      Effect.gen(function* () {
        const at = yield* now
        if (Either.isRight(outcome)) {
          const answer = outcome.right
          const asked = { ...state, messageId: answer.messageId, chatId: answer.chatId, error: null }
          if (answer.status === "running") {
            return yield* record(held, { ...asked, runAfter: new Date(at.getTime() + ROUTINE_POLL_MS) })
          }
          return yield* finishAnswered(routine, held, {
            ...asked,
            status: "answered",
            answer: answer.answer ?? "",
            sources: answer.sources ?? [],
            chargedTenths: answer.chargedTenths ?? 0,
            finishedAt: at,
            runAfter: null
          })
        }
        const error = outcome.left
        if (error._tag === "Unreachable" && state.attempts < ROUTINE_RUN_MAX_ATTEMPTS) {
          const runAfter = new Date(at.getTime() + routineRetryDelayMs(state.attempts))
          yield* Effect.logInfo(
            `routine run ${held.id}: no answer on try ${state.attempts}; next try ${runAfter.toISOString()}`
          )
          return yield* record(held, { ...state, messageId: null, error: error.message, runAfter })
        }
        const tried = error._tag === "Unreachable" && state.attempts > 1 ? ` (tried ${state.attempts} times)` : ""
        return yield* record(held, {
          ...state,
          status: "failed",
          error: `${error.message}${tried}`,
          finishedAt: at,
          runAfter: null
        })
      })

    /** Runs a held run to its end, or to its next look (a poll or a retry). */
    const run = (held: ClaimedRoutineRun, options: { readonly waitMs: number }) =>
      Effect.gen(function* () {
        const found = yield* repo.findForRun(held.routineId)
        // Deleting a routine (or its Custom AI) deletes its runs: nothing is left to record.
        if (Option.isNone(found)) return
        const routine = found.value
        const state: RoutineRunRecord = {
          status: "running",
          attempts: held.attempts,
          customAiId: held.customAiId,
          messageId: held.messageId,
          chatId: held.chatId,
          answer: null,
          sources: [],
          chargedTenths: 0,
          error: held.error,
          finishedAt: null,
          runAfter: null
        }
        if (held.messageId !== null && held.customAiId !== null) {
          const outcome = yield* Effect.either(
            asking.messageAnswer({
              accountId: routine.accountId,
              messageId: held.messageId,
              customAiId: held.customAiId
            })
          )
          return yield* settle(routine, held, state, outcome)
        }
        const asked = { ...state, attempts: held.attempts + 1 }
        const target = yield* Effect.either(assistantAndChat(routine))
        if (Either.isLeft(target)) {
          return yield* settle(routine, held, asked, Either.left(target.left))
        }
        const { customAi, chatId } = target.right
        const outcome = yield* Effect.either(
          asking.ask({
            accountId: routine.accountId,
            workspaceId: routine.workspaceId,
            customAiId: customAi.id,
            message: routine.message,
            mode: routine.mode,
            chatId,
            waitMs: options.waitMs,
            alongside: (ids) =>
              repo.markAsked(held.id, held.claimToken, { attempts: asked.attempts, ...ids }).pipe(
                Effect.filterOrFail(
                  (kept) => kept,
                  () => new Conflict({ message: `routine run ${held.id} was taken over by another worker` })
                ),
                Effect.asVoid
              )
          })
        )
        if (Either.isRight(outcome) && outcome.right.chatId !== routine.chatId) {
          yield* repo.setChat(routine.id, outcome.right.chatId)
        }
        return yield* settle(routine, held, { ...asked, customAiId: customAi.id }, outcome)
      }).pipe(
        Effect.catchTag("LostClaim", () =>
          Effect.logDebug(`routine run ${held.id}: claim lost to another worker; its record stands`)
        ),
        // A run cut off by a clean shutdown is handed back at once instead of waiting out its lease.
        Effect.onInterrupt(() =>
          Effect.flatMap(now, (at) => repo.releaseRun(held.id, held.claimToken, at)).pipe(
            Effect.catchAllCause(() => Effect.void)
          )
        ),
        withSpan("Routines.run", { attributes: { run: held.id, routine: held.routineId } })
      )

    return { start, claim, run } as const
  })
}) {}
