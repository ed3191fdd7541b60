import type { AskMode } from "../custom-ai/ask-jobs.js"
import type { AnswerSource } from "../custom-ai/chats.js"

/** The most routines one workspace holds. */
export const ROUTINES_PER_WORKSPACE_MAX = 50
/** The longest routine name, in characters. */
export const ROUTINE_NAME_MAX = 120
/** The shortest interval schedule, in minutes: a cron expression may run every minute, an interval not that often. */
export const ROUTINE_INTERVAL_MIN_MINUTES = 5
/** The longest interval schedule, in minutes (one week); longer rhythms are cron expressions. */
export const ROUTINE_INTERVAL_MAX_MINUTES = 10_080
/** The longest cron expression, in characters. */
export const ROUTINE_CRON_MAX = 100
/** The longest IANA time zone name, in characters. */
export const ROUTINE_TIME_ZONE_MAX = 64
/** How much of a run's answer a routine record quotes (the whole answer is in the chat and the routine-runs step). */
export const ROUTINE_ANSWER_EXCERPT_MAX = 500

/** When a routine runs: a five-field cron expression or a fixed interval, read in an IANA time zone. */
export type RoutineSchedule =
  | { readonly kind: "cron"; readonly cron: string; readonly timeZone: string }
  | { readonly kind: "interval"; readonly everyMinutes: number; readonly timeZone: string }

/**
 * Where a run's answer goes besides the routine's chat: appended to a note (or a new note per run when `noteId` is
 * null), a new note placed on a board, or nowhere else (`chat`: the chat is the result).
 */
export type RoutineDestination =
  | { readonly kind: "note"; readonly noteId: string | null }
  | { readonly kind: "board"; readonly boardId: string }
  | { readonly kind: "chat" }

/** Where a run stands: `running` until it is answered (and delivered) or has failed for good. */
export type RoutineRunStatus = "running" | "answered" | "failed"

/** One run of a routine: the answer to its prompt for one due time. */
export interface RoutineRun {
  readonly id: string
  readonly routineId: string
  /** The due time it ran for; a routine has at most one run per due time. */
  readonly dueAt: Date
  readonly status: RoutineRunStatus
  /** Questions asked for it so far (a retry asks again). */
  readonly attempts: number
  /** The Custom AI asked (null until asked). */
  readonly customAiId: string | null
  /** The assistant message (`msg_…`) of the latest question, and its chat. */
  readonly messageId: string | null
  readonly chatId: string | null
  /** The answer text (a model's untrusted text: shown, never run); null until answered. */
  readonly answer: string | null
  readonly sources: ReadonlyArray<AnswerSource>
  /** Tenths of a credit the answer cost (0 for an extractive answer). */
  readonly chargedTenths: number
  /** Why it failed (or why the answer could not be delivered), written for the reader. */
  readonly error: string | null
  readonly startedAt: Date
  readonly finishedAt: Date | null
}

/** A routine: a prompt a Custom AI answers on a schedule, its answer going to a destination. */
export interface Routine {
  readonly id: string
  readonly workspaceId: string
  /** The account that made it: its runs ask as this account, which pays their credits. */
  readonly accountId: string
  /** The Custom AI asked; null: the workspace's default assistant at run time. */
  readonly customAiId: string | null
  readonly name: string
  readonly message: string
  readonly mode: AskMode
  readonly schedule: RoutineSchedule
  readonly destination: RoutineDestination
  /** The one chat its runs continue; null until the first run (or after its Custom AI changed). */
  readonly chatId: string | null
  /** false: paused, no run is started until it is enabled again. */
  readonly enabled: boolean
  /** The next due time (while paused: the one it would have had). */
  readonly nextRunAt: Date
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** A routine with its latest run, as lists and answers show it. */
export interface RoutineView extends Routine {
  readonly latestRun: RoutineRun | null
}

/** A finished run with the routine it belongs to, as the routine-runs automation step lists it. */
export interface FinishedRoutineRun extends RoutineRun {
  readonly routineName: string
}
