import { Cron, DateTime, Either, Option } from "effect"
import { type InvalidInput, invalid } from "../shared/errors.js"
import { excerpt } from "../shared/excerpt.js"
import {
  ROUTINE_CRON_MAX,
  ROUTINE_INTERVAL_MAX_MINUTES,
  ROUTINE_INTERVAL_MIN_MINUTES,
  ROUTINE_TIME_ZONE_MAX,
  type RoutineSchedule
} from "./schema.js"

/** The schedule fields a create or an update gives; an update keeps what it leaves out. */
export interface ScheduleInput {
  readonly cron?: string | undefined
  readonly everyMinutes?: number | undefined
  readonly timeZone?: string | undefined
}

const CRON_HELP = 'five fields: minute hour day-of-month month day-of-week, e.g. "0 9 * * 1-5"'

/** The IANA zone named (its canonical id: `utc` → `UTC`), or a field error. */
const checkedZone = (timeZone: string): Either.Either<string, InvalidInput> => {
  const zone = timeZone.length <= ROUTINE_TIME_ZONE_MAX ? DateTime.zoneMakeNamed(timeZone) : Option.none()
  return Option.match(zone, {
    onNone: () =>
      Either.left(
        invalid(
          "timeZone",
          `timeZone "${excerpt(timeZone)}" is not an IANA time zone; use a name such as "Europe/Berlin" or "UTC"`
        )
      ),
    onSome: (named) => Either.right(named.id)
  })
}

const parsedCron = (expression: string, timeZone: string): Either.Either<Cron.Cron, InvalidInput> => {
  const fields = expression.trim().split(/\s+/)
  if (expression.length > ROUTINE_CRON_MAX || fields.length !== 5) {
    return Either.left(invalid("cron", `cron must have ${CRON_HELP}`))
  }
  return Either.mapLeft(Cron.parse(fields.join(" "), timeZone), (error) =>
    invalid("cron", `cron "${excerpt(expression)}" is not valid (${error.message}); it takes ${CRON_HELP}`)
  )
}

/**
 * The due time after `now`: for a cron expression its next match in the schedule's zone; for an interval, `now`
 * plus the interval, or, after a run due at `previousDue`, the first step of the interval from it that is past
 * `now` (so an interval keeps its rhythm and missed steps are skipped, not made up). Left: a cron expression that
 * never matches again (such as 30 February).
 */
export const nextDueAfter = (schedule: RoutineSchedule, now: Date, previousDue?: Date): Either.Either<Date, string> => {
  if (schedule.kind === "interval") {
    const step = schedule.everyMinutes * 60_000
    if (previousDue === undefined) return Either.right(new Date(now.getTime() + step))
    const steps = Math.max(1, Math.floor((now.getTime() - previousDue.getTime()) / step) + 1)
    return Either.right(new Date(previousDue.getTime() + steps * step))
  }
  return Either.flatMap(
    Either.mapLeft(Cron.parse(schedule.cron, schedule.timeZone), (error) => error.message),
    (cron) =>
      Either.try({
        try: () => Cron.next(cron, now),
        catch: () => `cron "${schedule.cron}" never matches a date`
      })
  )
}

/**
 * Checks the schedule fields against `current` (none: a new routine, which needs one of `cron` and `everyMinutes`)
 * and answers the schedule they make, with its first due time after `now`; `invalid` names the field at fault.
 */
export const checkSchedule = (
  input: ScheduleInput,
  current: RoutineSchedule | undefined,
  now: Date
): Either.Either<{ readonly schedule: RoutineSchedule; readonly nextRunAt: Date }, InvalidInput> =>
  Either.gen(function* () {
    if (input.cron !== undefined && input.everyMinutes !== undefined) {
      return yield* Either.left(invalid("everyMinutes", "give either cron or everyMinutes, not both"))
    }
    const timeZone = yield* checkedZone(input.timeZone ?? current?.timeZone ?? "UTC")
    let schedule: RoutineSchedule
    if (input.everyMinutes !== undefined) {
      const minutes = input.everyMinutes
      if (
        !Number.isInteger(minutes) ||
        minutes < ROUTINE_INTERVAL_MIN_MINUTES ||
        minutes > ROUTINE_INTERVAL_MAX_MINUTES
      ) {
        return yield* Either.left(
          invalid(
            "everyMinutes",
            `everyMinutes must be a whole number from ${ROUTINE_INTERVAL_MIN_MINUTES} to ${ROUTINE_INTERVAL_MAX_MINUTES}; for every minute use cron "* * * * *"`
          )
        )
      }
      schedule = { kind: "interval", everyMinutes: minutes, timeZone }
    } else if (input.cron !== undefined || current?.kind === "cron") {
      const expression = input.cron ?? (current?.kind === "cron" ? current.cron : "")
      yield* parsedCron(expression, timeZone)
      schedule = { kind: "cron", cron: expression.trim().split(/\s+/).join(" "), timeZone }
    } else if (current !== undefined) {
      schedule = { ...current, timeZone }
    } else {
      return yield* Either.left(invalid("cron", 'give a schedule: cron (e.g. "0 9 * * 1-5") or everyMinutes (e.g. 60)'))
    }
    const never = schedule.kind === "cron" ? schedule.cron : ""
    const nextRunAt = yield* Either.mapLeft(nextDueAfter(schedule, now), () =>
      invalid("cron", `cron "${never}" never comes (a date such as 30 February); ${CRON_HELP}`)
    )
    return { schedule, nextRunAt }
  })

/** Whether two schedules are the same (an update that gives the same one keeps the next due time). */
export const sameSchedule = (a: RoutineSchedule, b: RoutineSchedule): boolean =>
  a.kind === b.kind &&
  a.timeZone === b.timeZone &&
  (a.kind === "cron"
    ? b.kind === "cron" && a.cron === b.cron
    : b.kind === "interval" && a.everyMinutes === b.everyMinutes)
