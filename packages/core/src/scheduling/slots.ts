import { DateTime, Either, Option } from "effect"
import { type InvalidInput, invalid } from "../shared/errors.js"
import { excerpt } from "../shared/excerpt.js"
import { type PostingSlot, SLOTS_MAX } from "./schema.js"

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/
const DAY_MS = 86_400_000
/** How far ahead the next free slot is looked for. */
const LOOKAHEAD_DAYS = 8 * 7

/** The IANA zone named, as its canonical id (`utc` → `UTC`), or a field error on `timeZone`. */
export const checkTimeZone = (timeZone: string): Either.Either<string, InvalidInput> =>
  Option.match(timeZone.length <= 64 ? DateTime.zoneMakeNamed(timeZone) : Option.none(), {
    onNone: () =>
      Either.left(
        invalid(
          "timeZone",
          `timeZone "${excerpt(timeZone)}" is not an IANA time zone; use a name such as "Europe/Berlin" or "UTC"`
        )
      ),
    onSome: (zone) => Either.right(zone.id)
  })

/** Checks slots (weekday 1-7, time "HH:MM"), answering them sorted by weekday and time without repeats. */
export const checkSlots = (
  slots: ReadonlyArray<PostingSlot>
): Either.Either<ReadonlyArray<PostingSlot>, InvalidInput> => {
  if (slots.length > SLOTS_MAX) return Either.left(invalid("slots", `at most ${SLOTS_MAX} slots a week`))
  for (const [i, slot] of slots.entries()) {
    if (!Number.isInteger(slot.weekday) || slot.weekday < 1 || slot.weekday > 7) {
      return Either.left(invalid(`slots.${i}.weekday`, "weekday is 1 (Monday) to 7 (Sunday)"))
    }
    if (!TIME.test(slot.time)) {
      return Either.left(invalid(`slots.${i}.time`, `time "${excerpt(slot.time)}" must be "HH:MM", 00:00 to 23:59`))
    }
  }
  const unique = new Map(slots.map((slot) => [`${slot.weekday} ${slot.time}`, slot]))
  return Either.right([...unique.values()].sort((a, b) => a.weekday - b.weekday || a.time.localeCompare(b.time)))
}

/**
 * The slot times after `now`, earliest first, up to `count` of them, skipping `taken` instants. A slot is a local
 * weekday and time in `timeZone`, so across a daylight-saving change it keeps its local time (its UTC instant
 * moves); a local time the change skips goes out at the first instant after the gap.
 */
export const upcomingSlots = (
  slots: ReadonlyArray<PostingSlot>,
  timeZone: string,
  now: Date,
  count: number,
  taken: ReadonlySet<number> = new Set()
): ReadonlyArray<Date> => {
  const zone = Option.getOrThrow(DateTime.zoneMakeNamed(timeZone))
  const found: Array<Date> = []
  if (slots.length === 0) return found
  const today = DateTime.toParts(DateTime.unsafeMakeZoned(now, { timeZone: zone }))
  for (let day = 0; day <= LOOKAHEAD_DAYS && found.length < count; day++) {
    // Noon UTC of the local calendar day, walked in whole days: the date parts are all that is read from it.
    const date = new Date(Date.UTC(today.year, today.month - 1, today.day + day, 12))
    const weekday = date.getUTCDay() === 0 ? 7 : date.getUTCDay()
    for (const slot of slots) {
      if (slot.weekday !== weekday) continue
      const [hours, minutes] = slot.time.split(":").map(Number)
      const at = DateTime.unsafeMakeZoned(
        {
          year: date.getUTCFullYear(),
          month: date.getUTCMonth() + 1,
          day: date.getUTCDate(),
          hours: hours ?? 0,
          minutes: minutes ?? 0
        },
        { timeZone: zone, adjustForTimeZone: true, disambiguation: "later" }
      )
      const instant = DateTime.toEpochMillis(at)
      if (instant > now.getTime() && !taken.has(instant)) found.push(new Date(instant))
      if (found.length >= count) break
    }
  }
  return found
}

/** How far ahead `upcomingSlots` looks, for the message when every slot is taken. */
export const SLOT_LOOKAHEAD_DAYS = LOOKAHEAD_DAYS
export const slotLookaheadMs = LOOKAHEAD_DAYS * DAY_MS
