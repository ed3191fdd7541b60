import { Clock, Effect, Schema } from "effect"

/** The time now, read from Effect's `Clock` (so tests move it with `TestClock`). */
export const now: Effect.Effect<Date> = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

const description = "ISO 8601 timestamp in UTC, e.g. 2026-11-21T09:30:00.000Z."

/** A timestamp: a `Date` inside, an ISO 8601 UTC string on the wire. */
export const Timestamp = Schema.Date.annotations({
  description,
  jsonSchema: { type: "string", format: "date-time", description }
})

const DAY_PREFIX = /^(\d{4})-(\d{2})-(\d{2})/

/**
 * Whether text that starts with `YYYY-MM-DD` names a day the calendar has. `Date` takes any day up to 31 in any month
 * (2026-02-30 becomes 2 March), so a date input checks the day itself.
 */
export const namesRealDay = (text: string): boolean => {
  const match = DAY_PREFIX.exec(text)
  if (match === null) return false
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day)
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

/** Whether text starts with `YYYY-MM-DD` naming a day the calendar lacks (what every date input refuses). */
export const startsWithImpossibleDay = (text: string): boolean => DAY_PREFIX.test(text) && !namesRealDay(text)

/** Whether text is exactly a day, `YYYY-MM-DD`, that the calendar has. */
export const isCalendarDay = (text: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(text) && namesRealDay(text)

/** A date or time as tools take it (ISO 8601 text, a `Date` inside); a day the calendar lacks is refused. */
export const DateInput = Schema.String.pipe(
  Schema.filter((text) => !startsWithImpossibleDay(text), {
    message: () => "must name a day the calendar has"
  }),
  Schema.compose(Schema.Date)
)

/**
 * A date filter of a tool: `DateInput` described for the agent. Its JSON Schema claims no `format`, since a bare
 * date (`2026-11-21`) is taken as well as a date-time, and `date-time` would have a validating client refuse it.
 * The description sits in the JSON Schema annotation, which wins over a plain description.
 */
export const dateFilter = (description: string) =>
  DateInput.annotations({ description, jsonSchema: { type: "string", description } })
