/** When a creator posts: counts by weekday and hour in a time zone, and the posting rate. Pure. */
import { DateTime, Either, Option, Schema } from "effect"
import { type InvalidInput, invalid } from "../shared/errors.js"
import { excerpt } from "../shared/excerpt.js"
import type { SocialPost } from "./schema.js"

/** Days of the week, Monday first (ISO 8601). */
export const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const
export const Weekday = Schema.Literal(...WEEKDAYS).annotations({ description: "Day of the week, monday to sunday." })
export type Weekday = typeof Weekday.Type

const postCount = (what: string) => Schema.Int.annotations({ description: `Posts ${what}.` })

/** When a creator posts, in one time zone. */
export const PostingCadence = Schema.Struct({
  timeZone: Schema.String.annotations({ description: "IANA time zone the weekdays and hours are counted in." }),
  dated: postCount("with a publication time (the ones counted)"),
  undated: postCount("without a publication time, left out"),
  byWeekday: Schema.Struct({
    monday: postCount("on Mondays"),
    tuesday: postCount("on Tuesdays"),
    wednesday: postCount("on Wednesdays"),
    thursday: postCount("on Thursdays"),
    friday: postCount("on Fridays"),
    saturday: postCount("on Saturdays"),
    sunday: postCount("on Sundays")
  }).annotations({ description: "Posts per day of the week." }),
  byHour: Schema.Array(Schema.Int).annotations({
    description: "24 counts: posts per hour of the day, index 0 = 00:00–00:59 local time."
  }),
  postsPerWeek: Schema.NullOr(Schema.Number).annotations({
    description:
      "Posting rate: the gaps between consecutive posts (posts − 1) per week of the span from the oldest to the newest, rounded to 0.01; null with fewer than 2 dated posts or all at one instant."
  }),
  busiestWeekday: Schema.NullOr(Weekday).annotations({ description: "Day with most posts (ties: earliest)." }),
  busiestHour: Schema.NullOr(Schema.Int).annotations({ description: "Hour 0–23 with most posts (ties: earliest)." })
}).annotations({ description: "Posts by weekday and hour in the time zone, and the posting rate." })
export type PostingCadence = typeof PostingCadence.Type

const WEEK_MS = 7 * 86_400_000

const round2 = (value: number) => Math.round(value * 100) / 100

/** The canonical id of an IANA zone (`utc` → `UTC`), or `invalid` naming the field `timeZone`. */
export const checkedTimeZone = (timeZone: string): Either.Either<DateTime.TimeZone.Named, InvalidInput> =>
  Option.match(timeZone.length <= 64 ? DateTime.zoneMakeNamed(timeZone) : Option.none(), {
    onNone: () =>
      Either.left(
        invalid(
          "timeZone",
          `timeZone "${excerpt(timeZone)}" is not an IANA time zone; use a name such as "America/New_York" or "UTC"`
        )
      ),
    onSome: Either.right
  })

// Index of the first largest count (ties go to the earliest), or null when every count is 0.
const busiest = (counts: ReadonlyArray<number>): number | null => {
  let best: number | null = null
  for (const [index, count] of counts.entries()) if (count > 0 && (best === null || count > counts[best]!)) best = index
  return best
}

/** When a post was published, in epoch milliseconds; null when unknown. */
export const publishedMillis = (post: SocialPost): number | null => {
  const millis = post.createdAt?.getTime()
  return millis === undefined || Number.isNaN(millis) ? null : millis
}

/**
 * Posts by weekday and hour in `timeZone` (an IANA name, validated: a bad one is `invalid` on `timeZone`), the
 * posting rate and the busiest weekday and hour. Posts without `createdAt` are counted in `undated` only.
 */
export const postingCadence = (
  posts: ReadonlyArray<SocialPost>,
  timeZone: string
): Either.Either<PostingCadence, InvalidInput> =>
  Either.map(checkedTimeZone(timeZone), (zone) => {
    const byWeekday = WEEKDAYS.map(() => 0)
    const byHour = Array.from({ length: 24 }, () => 0)
    const times: Array<number> = []
    for (const post of posts) {
      const millis = publishedMillis(post)
      if (millis === null) continue
      times.push(millis)
      const parts = DateTime.toParts(DateTime.unsafeMakeZoned(millis, { timeZone: zone }))
      // `weekDay` is 0 on Sunday; Monday comes first here.
      byWeekday[(parts.weekDay + 6) % 7]! += 1
      byHour[parts.hours]! += 1
    }
    const span = times.length < 2 ? 0 : times.reduce((a, b) => Math.max(a, b)) - times.reduce((a, b) => Math.min(a, b))
    const busiestDay = busiest(byWeekday)
    return {
      timeZone: zone.id,
      dated: times.length,
      undated: posts.length - times.length,
      byWeekday: Object.fromEntries(WEEKDAYS.map((day, i) => [day, byWeekday[i]!])) as Record<Weekday, number>,
      byHour,
      postsPerWeek: span === 0 ? null : round2((times.length - 1) / (span / WEEK_MS)),
      busiestWeekday: busiestDay === null ? null : WEEKDAYS[busiestDay]!,
      busiestHour: busiest(byHour)
    }
  })
