/** Routines: the `Routines` service, its repository, the runner and worker of their runs, and the Routines tools. */
export {
  type ClaimedRoutineRun,
  type NewRoutineRun,
  type RoutineRunClaim,
  type RoutineRunRecord,
  RoutinesRepo
} from "./ports.js"
export { RoutineRunner, ROUTINE_POLL_MS, ROUTINE_RUN_MAX_ATTEMPTS, routineRetryDelayMs } from "./runner.js"
export { checkSchedule, nextDueAfter, type ScheduleInput, sameSchedule } from "./schedule.js"
export {
  type FinishedRoutineRun,
  ROUTINE_ANSWER_EXCERPT_MAX,
  ROUTINE_CRON_MAX,
  ROUTINE_INTERVAL_MAX_MINUTES,
  ROUTINE_INTERVAL_MIN_MINUTES,
  ROUTINE_NAME_MAX,
  ROUTINE_TIME_ZONE_MAX,
  ROUTINES_PER_WORKSPACE_MAX,
  type Routine,
  type RoutineDestination,
  type RoutineRun,
  type RoutineRunStatus,
  type RoutineSchedule,
  type RoutineView
} from "./schema.js"
export { type RoutineFields, Routines } from "./service.js"
export { RoutinesLive } from "./layer.js"
export { routineTools } from "./tools.js"
export {
  claimRoutineRuns,
  DEFAULT_ROUTINE_WORKER,
  RoutineWorkerLive,
  type RoutineWorkerOptions,
  routineWaitMs,
  runDueRoutines,
  runRoutineWorker
} from "./worker.js"
