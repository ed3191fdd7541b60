import { Context, type Effect, type Option } from "effect"
import type { Page, PageRequest } from "../shared/paging.js"
import type { FinishedRoutineRun, Routine, RoutineRun, RoutineView } from "./schema.js"

/** A claim to take: the token and the lease a run is held with. */
export interface RoutineRunClaim {
  readonly now: Date
  readonly claimToken: string
  readonly leaseUntil: Date
}

/** A run one worker holds until `leaseUntil`; only the holder of `claimToken` may record what became of it. */
export interface ClaimedRoutineRun extends RoutineRun {
  readonly workspaceId: string
  readonly claimToken: string
  readonly leaseUntil: Date
}

/** A run to start for a routine's due time. */
export interface NewRoutineRun {
  readonly id: string
  readonly routineId: string
  readonly workspaceId: string
  readonly dueAt: Date
  readonly startedAt: Date
}

/**
 * What a worker records of a run it holds, releasing its claim: the whole state of the run, and `runAfter`, when it
 * should be looked at again (null: it ended, `answered` or `failed`).
 */
export type RoutineRunRecord = Pick<
  RoutineRun,
  | "status"
  | "attempts"
  | "customAiId"
  | "messageId"
  | "chatId"
  | "answer"
  | "sources"
  | "chargedTenths"
  | "error"
  | "finishedAt"
> & { readonly runAfter: Date | null }

/**
 * Stored routines and their runs. Runs are the durable work: a run is keyed by (routine, due time), so a due time
 * can never get a second one, and is claimed with a token and a lease like the other queues.
 */
export class RoutinesRepo extends Context.Tag("svc/routines/RoutinesRepo")<
  RoutinesRepo,
  {
    readonly insert: (routine: Routine) => Effect.Effect<void>
    /** One routine of the workspace with its latest run. */
    readonly find: (workspaceId: string, id: string) => Effect.Effect<Option.Option<RoutineView>>
    /** A routine of the workspace under a row lock, for a change computed from it (inside a transaction). */
    readonly lock: (workspaceId: string, id: string) => Effect.Effect<Option.Option<Routine>>
    /** Writes every field a change may touch (all but the owner, the workspace and the creation time). */
    readonly save: (routine: Routine) => Effect.Effect<void>
    /** A page of the workspace's routines with their latest runs, newest first (keyset on created_at, id). */
    readonly listPage: (workspaceId: string, page: PageRequest) => Effect.Effect<Page<RoutineView>>
    readonly count: (workspaceId: string) => Effect.Effect<number>
    /** A routine by id alone, for the worker running it. */
    readonly findForRun: (id: string) => Effect.Effect<Option.Option<Routine>>
    /**
     * Up to `limit` enabled routines due at `now`, locked for the calling transaction; rows another transaction
     * holds are skipped, so two workers never take the same routine.
     */
    readonly lockDue: (now: Date, limit: number) => Effect.Effect<ReadonlyArray<Routine>>
    readonly setNextRun: (id: string, nextRunAt: Date) => Effect.Effect<void>
    /** Pauses a routine (a schedule that never comes again). */
    readonly pause: (id: string, at: Date) => Effect.Effect<void>
    /** Sets the chat the routine's runs continue. */
    readonly setChat: (id: string, chatId: string | null) => Effect.Effect<void>
    /** Starts the run of a due time, claimed by the caller; none when that due time already has its run. */
    readonly startRun: (run: NewRoutineRun, claim: RoutineRunClaim) => Effect.Effect<Option.Option<ClaimedRoutineRun>>
    /** Claims up to `limit` runs to look at (a retry or a poll that is due, or a lease that ended). */
    readonly claimDueRuns: (claim: RoutineRunClaim, limit: number) => Effect.Effect<ReadonlyArray<ClaimedRoutineRun>>
    /** Records a held run's state and releases it; false when `claimToken` no longer holds it. */
    readonly recordRun: (runId: string, claimToken: string, record: RoutineRunRecord) => Effect.Effect<boolean>
    /**
     * Notes the question a held run asked (its try, Custom AI, message and chat), keeping the claim; false when no
     * longer held. Written with the ask itself, so a run taken over after a crash follows that answer instead of
     * asking (and charging) again.
     */
    readonly markAsked: (
      runId: string,
      claimToken: string,
      asked: {
        readonly attempts: number
        readonly customAiId: string
        readonly messageId: string
        readonly chatId: string
      }
    ) => Effect.Effect<boolean>
    /** Gives a held run back to be looked at from `runAfter`, as it stands; false when no longer held. */
    readonly releaseRun: (runId: string, claimToken: string, runAfter: Date) => Effect.Effect<boolean>
    /** Each routine's latest run of the workspace that finished at or after `since`, newest first, in one query. */
    readonly latestFinished: (workspaceId: string, since: Date) => Effect.Effect<ReadonlyArray<FinishedRoutineRun>>
  }
>() {}
