import { Effect, Schema } from "effect"
import { Cursor, Limit } from "../shared/paging.js"
import { Timestamp } from "../shared/time.js"
import { defineTool } from "../tools/tool.js"
import { type FoundTrack, MUSIC_QUERY_MAX, TRACK_SECONDS_MAX } from "./schema.js"
import { MusicCatalog } from "./service.js"

const Seconds = Schema.Int.pipe(Schema.between(1, TRACK_SECONDS_MAX))

const Track = Schema.Struct({
  id: Schema.String.annotations({ description: "Track id (trk_…)." }),
  title: Schema.String,
  artist: Schema.String,
  durationSeconds: Schema.NullOr(Schema.Int).annotations({ description: "Length in seconds; null if unknown." }),
  isrc: Schema.NullOr(Schema.String).annotations({ description: "ISRC, 12 characters (USRC17607839)." }),
  usageNotes: Schema.NullOr(Schema.String).annotations({
    description: "What the licence allows or asks (where, how long, credit); follow it."
  }),
  match: Schema.Literal("exact", "prefix", "contains", "words").annotations({
    description: "How title or artist matched, best first; words: every word, any order."
  }),
  updatedAt: Timestamp
})

const trackRecord = (track: FoundTrack): typeof Track.Type => ({
  id: track.id,
  title: track.title,
  artist: track.artist,
  durationSeconds: track.durationSeconds,
  isrc: track.isrc,
  usageNotes: track.usageNotes,
  match: track.match,
  updatedAt: track.updatedAt
})

/** The music tools: the search of the server's licensed catalog. */
export const musicTools = Effect.gen(function* () {
  const catalog = yield* MusicCatalog
  return [
    defineTool({
      name: "svc_search_instagram_music",
      title: "Search Instagram music",
      group: "Scheduling",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "Search this server's licensed music catalog (tracks cleared for Reels and other posts) by title or artist, case and accents ignored: exact matches first, then prefix, contains, all words. Paged. Free. No tracks: hint says why.",
      input: {
        query: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(MUSIC_QUERY_MAX)).annotations({
          description: `Title or artist words, 1 to ${MUSIC_QUERY_MAX} characters.`
        }),
        minDurationSeconds: Schema.optional(
          Seconds.annotations({ description: "Only tracks at least this long (seconds, 1 to 10800)." })
        ),
        maxDurationSeconds: Schema.optional(
          Seconds.annotations({ description: "Only tracks at most this long, e.g. 90 for a Reel." })
        ),
        limit: Schema.optional(Limit),
        cursor: Schema.optional(Cursor)
      },
      output: {
        tracks: Schema.Array(Track).annotations({ description: "Matching tracks, best match first." }),
        nextCursor: Schema.optional(Schema.String.annotations({ description: "Cursor of the next page, if any." })),
        hint: Schema.optional(
          Schema.String.annotations({ description: "Why there are no tracks, and what to do: only with none." })
        )
      },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          // The catalog is the server's, but the call still acts in a workspace the caller may use.
          yield* workspace
          const page = yield* catalog.search(input)
          return {
            tracks: page.tracks.map(trackRecord),
            ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
            ...(page.hint === undefined ? {} : { hint: page.hint })
          }
        })
    })
  ]
})
