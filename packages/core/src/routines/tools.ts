import { Effect, Schema } from "effect"
import { creditsOf } from "../credits/costs.js"
import { ASK_MESSAGE_MAX } from "../custom-ai/chats.js"
import { excerpt } from "../shared/excerpt.js"
import { Cursor, decodeCursor, encodeCursor, Limit } from "../shared/paging.js"
import { Timestamp } from "../shared/time.js"
import { defineTool } from "../tools/tool.js"
import {
  ROUTINE_ANSWER_EXCERPT_MAX,
  ROUTINE_CRON_MAX,
  ROUTINE_INTERVAL_MAX_MINUTES,
  ROUTINE_INTERVAL_MIN_MINUTES,
  ROUTINE_NAME_MAX,
  ROUTINE_TIME_ZONE_MAX,
  type RoutineView
} from "./schema.js"
import { type RoutineFields, Routines } from "./service.js"

const Id = Schema.String.pipe(Schema.maxLength(100))
const Mode = Schema.Literal("standard", "max")
const DestinationKind = Schema.Literal("chat", "note", "board")

// The fields a create and an update share: the prompt, required to create, and the settings; an update's are all
// optional.
const prompt = {
  name: Schema.String.pipe(Schema.maxLength(ROUTINE_NAME_MAX)).annotations({
    description: `Name, 1-${ROUTINE_NAME_MAX} characters.`
  }),
  message: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(ASK_MESSAGE_MAX)).annotations({
    description: `Prompt, 1-${ASK_MESSAGE_MAX} characters.`
  })
}

const settings = {
  cron: Schema.String.pipe(Schema.maxLength(ROUTINE_CRON_MAX)).annotations({
    description: 'Cron, e.g. "0 9 * * 1-5" (5 fields).'
  }),
  everyMinutes: Schema.Int.pipe(Schema.between(ROUTINE_INTERVAL_MIN_MINUTES, ROUTINE_INTERVAL_MAX_MINUTES)).annotations(
    { description: `Or every N minutes, ${ROUTINE_INTERVAL_MIN_MINUTES}-${ROUTINE_INTERVAL_MAX_MINUTES}.` }
  ),
  timeZone: Schema.String.pipe(Schema.maxLength(ROUTINE_TIME_ZONE_MAX)).annotations({
    description: 'IANA zone, e.g. "Europe/Berlin"; default UTC.'
  }),
  destination: DestinationKind.annotations({
    description: "Where answers go besides the chat: chat (default), note or board."
  }),
  destinationId: Id.annotations({
    description: "Note to append to (omit: a new note per run), or the board."
  }),
  mode: Mode.annotations({ description: "max: 2 credits a run." }),
  enabled: Schema.Boolean.annotations({ description: "false: paused." })
}

/** The same fields, each optional. */
const optionalFields = <F extends Record<string, Schema.Schema.All>>(fields: F) =>
  Object.fromEntries(Object.entries(fields).map(([key, field]) => [key, Schema.optional(field)])) as {
    readonly [K in keyof F]: Schema.optional<F[K]>
  }

const LatestRun = Schema.Struct({
  id: Schema.String.annotations({ description: "Run id (rrun_…)." }),
  status: Schema.Literal("running", "answered", "failed").annotations({ description: "Where the run stands." }),
  dueAt: Timestamp,
  finishedAt: Schema.NullOr(Timestamp),
  answerExcerpt: Schema.NullOr(Schema.String).annotations({
    description: `Start of the answer (${ROUTINE_ANSWER_EXCERPT_MAX} characters); the whole one is in the chat.`
  }),
  error: Schema.NullOr(Schema.String).annotations({ description: "Why it failed (or why it is being retried)." }),
  credits: Schema.Number.annotations({ description: "Credits charged, e.g. 1." })
})

const RoutineRecord = Schema.Struct({
  id: Schema.String.annotations({ description: "Routine id (rtn_…)." }),
  name: Schema.String.annotations({ description: "Its name, as given." }),
  customAIId: Schema.NullOr(Schema.String).annotations({ description: "Custom AI asked; null: the default." }),
  message: Schema.String.annotations({ description: "The prompt it asks each run." }),
  cron: Schema.NullOr(Schema.String).annotations({ description: "Cron expression, or null." }),
  everyMinutes: Schema.NullOr(Schema.Int).annotations({ description: "Interval in minutes, or null." }),
  timeZone: Schema.String.annotations({ description: "IANA time zone of the schedule." }),
  destination: DestinationKind.annotations({ description: "chat, note or board." }),
  destinationId: Schema.NullOr(Schema.String).annotations({ description: "The note or board, or null." }),
  mode: Mode.annotations({ description: "standard or max." }),
  enabled: Schema.Boolean.annotations({ description: "false: paused." }),
  nextRunAt: Schema.NullOr(Timestamp).annotations({ description: "Next due time; null while paused." }),
  chatId: Schema.NullOr(Schema.String).annotations({ description: "The chat its runs continue, once it ran." }),
  latestRun: Schema.NullOr(LatestRun).annotations({ description: "Its latest run, or null." }),
  createdAt: Timestamp,
  updatedAt: Timestamp
})

const record = (routine: RoutineView): typeof RoutineRecord.Type => {
  const { schedule, destination, latestRun } = routine
  return {
    id: routine.id,
    name: routine.name,
    customAIId: routine.customAiId,
    message: routine.message,
    cron: schedule.kind === "cron" ? schedule.cron : null,
    everyMinutes: schedule.kind === "interval" ? schedule.everyMinutes : null,
    timeZone: schedule.timeZone,
    destination: destination.kind,
    destinationId:
      destination.kind === "board" ? destination.boardId : destination.kind === "note" ? destination.noteId : null,
    mode: routine.mode,
    enabled: routine.enabled,
    nextRunAt: routine.enabled ? routine.nextRunAt : null,
    chatId: routine.chatId,
    latestRun:
      latestRun === null
        ? null
        : {
            id: latestRun.id,
            status: latestRun.status,
            dueAt: latestRun.dueAt,
            finishedAt: latestRun.finishedAt,
            answerExcerpt: latestRun.answer === null ? null : excerpt(latestRun.answer, ROUTINE_ANSWER_EXCERPT_MAX),
            error: latestRun.error,
            credits: creditsOf(latestRun.chargedTenths)
          },
    createdAt: routine.createdAt,
    updatedAt: routine.updatedAt
  }
}

const RoutineField = RoutineRecord.annotations({ description: "The routine as it now is." })

const CustomAiIdField = Id.annotations({ description: "Custom AI (cai_…); omit for the default." })

/** The Routines group: list, create and update routines (their runs are the routine worker's). */
export const routineTools = Effect.gen(function* () {
  const routines = yield* Routines

  return [
    defineTool({
      name: "svc_list_routines",
      title: "List routines",
      group: "Routines",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "List routines, newest first, with schedule, nextRunAt and latest run (status, answer excerpt, error). Free. Paged.",
      input: { limit: Schema.optional(Limit), cursor: Schema.optional(Cursor) },
      output: {
        routines: Schema.Array(RoutineRecord).annotations({ description: "The routines, newest first." }),
        nextCursor: Schema.optional(Schema.String.annotations({ description: "Cursor of the next page, if any." }))
      },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const after = input.cursor === undefined ? undefined : yield* decodeCursor(input.cursor)
          const page = yield* routines.listPage(id, { limit: input.limit ?? 25, after })
          return {
            routines: page.rows.map(record),
            ...(page.next ? { nextCursor: encodeCursor(page.next) } : {})
          }
        })
    }),
    defineTool({
      name: "svc_create_routine",
      title: "Create routine",
      group: "Routines",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
      description:
        "Schedule a Custom AI prompt: each run's answer goes to the routine's chat, a note or a board. Returns the routine. A run costs 1 credit (2 with mode max) when a language model answers.",
      input: { ...prompt, customAIId: Schema.optional(CustomAiIdField), ...optionalFields(settings) },
      output: { routine: RoutineField },
      handler: ({ customAIId, ...input }, { principal, workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const created = yield* routines.create(id, principal.accountId, { ...input, customAiId: customAIId })
          return { routine: record(created) }
        })
    }),
    defineTool({
      name: "svc_update_routine",
      title: "Update routine",
      group: "Routines",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description: "Change a routine's fields (others stay), or pause or resume it with enabled; returns it. Free.",
      input: {
        routineId: Id.annotations({ description: "Routine id (rtn_…) from svc_list_routines." }),
        ...optionalFields(prompt),
        customAIId: Schema.optional(Id.annotations({ description: 'Custom AI (cai_…); "" for the default.' })),
        ...optionalFields(settings)
      },
      output: { routine: RoutineField },
      handler: ({ routineId, customAIId, ...input }, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const fields: RoutineFields = { ...input, customAiId: customAIId }
          return { routine: record(yield* routines.update(id, routineId, fields)) }
        })
    })
  ]
})
