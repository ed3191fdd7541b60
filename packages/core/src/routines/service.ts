import { Clock, Effect, Either, Option } from "effect"
import { Boards } from "../boards/boards.js"
import { Notes } from "../boards/notes.js"
import type { AskMode } from "../custom-ai/ask-jobs.js"
import { ASK_MESSAGE_MAX } from "../custom-ai/chats.js"
import { CustomAis } from "../custom-ai/service.js"
import { Conflict, type InvalidInput, invalid, NotFound } from "../shared/errors.js"
import type { PageRequest } from "../shared/paging.js"
import { Ids, Transactor } from "../shared/ports.js"
import { withSpan } from "../shared/spans.js"
import { RoutinesRepo } from "./ports.js"
import { checkSchedule, nextDueAfter, type ScheduleInput, sameSchedule } from "./schedule.js"
import { ROUTINE_NAME_MAX, ROUTINES_PER_WORKSPACE_MAX, type Routine, type RoutineDestination } from "./schema.js"

/** The fields a routine is made or changed with; each is checked here, whichever face it came through. */
export interface RoutineFields extends ScheduleInput {
  readonly name?: string | undefined
  readonly message?: string | undefined
  /** The Custom AI to ask; `""` (or left out when creating): the workspace's default assistant. */
  readonly customAiId?: string | undefined
  readonly mode?: AskMode | undefined
  /** Where answers go besides the routine's chat (a create leaves it out: `chat`). */
  readonly destination?: RoutineDestination["kind"] | undefined
  /** The note a `note` destination appends to (none: a new note per run), or the board of a `board` one. */
  readonly destinationId?: string | undefined
  readonly enabled?: boolean | undefined
}

const routineNotFound = (id: string) =>
  new NotFound({ message: `no routine ${id} in this workspace; list them with svc_list_routines` })

const checkedName = (name: string) => {
  const trimmed = name.trim()
  return trimmed.length === 0 || trimmed.length > ROUTINE_NAME_MAX
    ? Effect.fail(invalid("name", `name must be 1 to ${ROUTINE_NAME_MAX} characters`))
    : Effect.succeed(trimmed)
}

const checkedMessage = (message: string) =>
  message.trim().length === 0 || message.length > ASK_MESSAGE_MAX
    ? Effect.fail(invalid("message", `message must be 1 to ${ASK_MESSAGE_MAX} characters`))
    : Effect.succeed(message)

/** Routines: a prompt a Custom AI answers on a schedule. Create, read, list and change them; runs are the worker's. */
export class Routines extends Effect.Service<Routines>()("svc/routines/Routines", {
  dependencies: [CustomAis.Default, Notes.Default, Boards.Default],
  effect: Effect.gen(function* () {
    const repo = yield* RoutinesRepo
    const customAis = yield* CustomAis
    const notes = yield* Notes
    const boards = yield* Boards
    const ids = yield* Ids
    const transactor = yield* Transactor

    /** The Custom AI a routine asks (`""`: the default assistant), checked to exist and to answer. */
    const checkedAssistant = (workspaceId: string, customAiId: string) =>
      Effect.gen(function* () {
        const customAi = yield* customAis.resolve(workspaceId, customAiId === "" ? undefined : customAiId)
        if (customAi.kind === "course") {
          return yield* invalid(
            "customAIId",
            `${customAi.name} is a course, with its AI turned off; pick an assistant (svc_list_custom_ai)`
          )
        }
        return customAiId === "" ? null : customAi.id
      })

    const checkedDestination = (
      workspaceId: string,
      input: { readonly kind: RoutineDestination["kind"]; readonly id: string | undefined }
    ): Effect.Effect<RoutineDestination, NotFound | InvalidInput> =>
      Effect.gen(function* () {
        switch (input.kind) {
          case "chat":
            if (input.id !== undefined) {
              return yield* invalid(
                "destinationId",
                "a chat destination names no note or board; leave destinationId out"
              )
            }
            return { kind: "chat" } as const
          case "note":
            if (input.id === undefined) return { kind: "note", noteId: null } as const
            return { kind: "note", noteId: (yield* notes.get(workspaceId, input.id)).id } as const
          case "board": {
            if (input.id === undefined) {
              return yield* invalid(
                "destinationId",
                'a board destination needs destinationId, the board (svc_list_workspace_items with type "board" lists them)'
              )
            }
            const { board } = yield* boards.read(workspaceId, input.id, { limit: 1, after: undefined })
            return { kind: "board", boardId: board.id } as const
          }
        }
      })

    const view = (workspaceId: string, id: string) =>
      Effect.flatMap(
        repo.find(workspaceId, id),
        Option.match({ onNone: () => Effect.fail(routineNotFound(id)), onSome: Effect.succeed })
      )

    /** Creates a routine; its first run is at the schedule's first due time after now. */
    const create = (
      workspaceId: string,
      accountId: string,
      input: RoutineFields & { readonly name: string; readonly message: string }
    ) =>
      Effect.gen(function* () {
        const name = yield* checkedName(input.name)
        const message = yield* checkedMessage(input.message)
        const now = new Date(yield* Clock.currentTimeMillis)
        const { schedule, nextRunAt } = yield* checkSchedule(input, undefined, now)
        const customAiId = yield* checkedAssistant(workspaceId, input.customAiId ?? "")
        if (input.destination === undefined && input.destinationId !== undefined) {
          return yield* invalid("destination", "destinationId needs destination (note or board)")
        }
        const destination = yield* checkedDestination(workspaceId, {
          kind: input.destination ?? "chat",
          id: input.destinationId
        })
        if ((yield* repo.count(workspaceId)) >= ROUTINES_PER_WORKSPACE_MAX) {
          return yield* new Conflict({
            message: `a workspace holds at most ${ROUTINES_PER_WORKSPACE_MAX} routines; pause or change one instead (svc_update_routine)`
          })
        }
        const routine: Routine = {
          id: yield* ids.make("rtn_"),
          workspaceId,
          accountId,
          customAiId,
          name,
          message,
          mode: input.mode ?? "standard",
          schedule,
          destination,
          chatId: null,
          enabled: input.enabled ?? true,
          nextRunAt,
          createdAt: now,
          updatedAt: now
        }
        yield* repo.insert(routine)
        return yield* view(workspaceId, routine.id)
      }).pipe(withSpan("Routines.create"))

    /**
     * Changes the fields given; the others stay. A new schedule gets its next due time from now; resuming a paused
     * routine whose due time passed meanwhile moves it to the next one after now (missed times are not made up).
     */
    const update = (workspaceId: string, id: string, fields: RoutineFields) =>
      Effect.gen(function* () {
        const name = fields.name === undefined ? undefined : yield* checkedName(fields.name)
        const message = fields.message === undefined ? undefined : yield* checkedMessage(fields.message)
        const customAiId =
          fields.customAiId === undefined ? undefined : yield* checkedAssistant(workspaceId, fields.customAiId)
        if (fields.destination === undefined && fields.destinationId !== undefined) {
          return yield* invalid("destination", "destinationId needs destination (note or board)")
        }
        const destination =
          fields.destination === undefined
            ? undefined
            : yield* checkedDestination(workspaceId, { kind: fields.destination, id: fields.destinationId })
        yield* transactor.withTransaction(
          Effect.gen(function* () {
            const found = yield* repo.lock(workspaceId, id)
            if (Option.isNone(found)) return yield* routineNotFound(id)
            const current = found.value
            const now = new Date(yield* Clock.currentTimeMillis)
            const scheduleGiven =
              fields.cron !== undefined || fields.everyMinutes !== undefined || fields.timeZone !== undefined
            const checked = scheduleGiven ? yield* checkSchedule(fields, current.schedule, now) : undefined
            const schedule = checked?.schedule ?? current.schedule
            const enabled = fields.enabled ?? current.enabled
            let nextRunAt = current.nextRunAt
            if (checked !== undefined && !sameSchedule(checked.schedule, current.schedule)) {
              nextRunAt = checked.nextRunAt
            } else if (enabled && !current.enabled && nextRunAt.getTime() <= now.getTime()) {
              const previous = schedule.kind === "interval" ? current.nextRunAt : undefined
              nextRunAt = Either.getOrElse(nextDueAfter(schedule, now, previous), () => nextRunAt)
            }
            const assistantChanged = customAiId !== undefined && customAiId !== current.customAiId
            yield* repo.save({
              ...current,
              name: name ?? current.name,
              message: message ?? current.message,
              customAiId: customAiId === undefined ? current.customAiId : customAiId,
              mode: fields.mode ?? current.mode,
              schedule,
              destination: destination ?? current.destination,
              // Another assistant starts a chat of its own: a chat belongs to one Custom AI.
              chatId: assistantChanged ? null : current.chatId,
              enabled,
              nextRunAt,
              updatedAt: now
            })
          })
        )
        return yield* view(workspaceId, id)
      }).pipe(withSpan("Routines.update"))

    /** One routine of the workspace with its latest run, or `NotFound`. */
    const get = (workspaceId: string, id: string) => view(workspaceId, id)

    /** A page of the workspace's routines with their latest runs, newest first. */
    const listPage = (workspaceId: string, page: PageRequest) => repo.listPage(workspaceId, page)

    /** Each routine's latest run that finished since `since`, newest first (the routine-runs automation step). */
    const latestRuns = (workspaceId: string, since: Date) =>
      repo.latestFinished(workspaceId, since).pipe(withSpan("Routines.latestRuns"))

    return { create, update, get, listPage, latestRuns } as const
  })
}) {}
