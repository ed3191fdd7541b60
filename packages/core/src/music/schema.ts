import { unstorableText } from "../shared/storable-text.js"

/** The longest title and artist of a track, in characters. */
export const TRACK_NAME_MAX = 300
/** The longest usage notes of a track, in characters. */
export const USAGE_NOTES_MAX = 2_000
/** The longest track, in seconds (3 hours). */
export const TRACK_SECONDS_MAX = 3 * 60 * 60
/** The most rows one import reads. */
export const IMPORT_ROWS_MAX = 100_000
/** The most row problems one import answers in full (the rest are counted). */
export const IMPORT_PROBLEMS_LISTED = 200
/** The longest search query, in characters. */
export const MUSIC_QUERY_MAX = 200

/** A licensed track of the server's music catalog (one catalog for the whole server, not per workspace). */
export interface MusicTrack {
  /** `trk_…` */
  readonly id: string
  readonly title: string
  readonly artist: string
  /** Length in whole seconds, when the catalog gives it. */
  readonly durationSeconds: number | null
  /** International Standard Recording Code, 12 characters upper-case without dashes (`USRC17607839`). */
  readonly isrc: string | null
  /** What the licence allows or asks (where, how long, credit lines), as the operator wrote it. */
  readonly usageNotes: string | null
  readonly createdAt: Date
  readonly updatedAt: Date
}

/**
 * A track's fields as one import row gives them, before checking (values as read from a CSV or JSON file): a field
 * left `undefined` is not in the file; `null` or blank text is in it, empty.
 */
export interface TrackRow {
  /** Where the row is in its file, for problems: a CSV file's line, or a JSON array's position (from 1). */
  readonly row: number
  readonly title?: unknown
  readonly artist?: unknown
  /** Whole seconds (a number or digits), or `m:ss` / `h:mm:ss`. */
  readonly duration?: unknown
  readonly isrc?: unknown
  readonly usageNotes?: unknown
}

/**
 * The fields of a track a checked row sets. `undefined`: the row does not give the field (its column is not in the
 * file), so a track it changes keeps its own; `null`: the row leaves it blank, which clears it. A blank ISRC never
 * clears one: the row then names its track by title and artist.
 */
export interface TrackFields {
  readonly title: string
  readonly artist: string
  readonly durationSeconds: number | null | undefined
  readonly isrc: string | null
  readonly usageNotes: string | null | undefined
}

/** The file fields of a row, as problems name them (the CSV header names). */
export type TrackRowField = "title" | "artist" | "duration" | "isrc" | "usage_notes" | "row"

/** What is wrong with one row of an import. */
export interface RowProblem {
  readonly row: number
  readonly field: TrackRowField
  readonly message: string
}

/**
 * The form of a title or artist that matching and search compare: lower-case, accents and other combining marks
 * removed (`Beyoncé` → `beyonce`), runs of white space as one space, trimmed. Computed here, so both engines compare
 * the same text without a database extension.
 */
export const foldForSearch = (text: string): string =>
  text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/\s+/gu, " ")
    .trim()

const ISRC = /^[A-Z]{2}[A-Z0-9]{3}[0-9]{7}$/

/** An ISRC as stored (upper-case, no dashes or spaces), or `undefined` when `text` is not one. */
export const normalizeIsrc = (text: string): string | undefined => {
  const compact = text.replace(/[\s-]+/g, "").toUpperCase()
  return ISRC.test(compact) ? compact : undefined
}

const DURATION = /^(?:(\d{1,2}):)?(\d{1,3}):(\d{2})$/

/** Seconds from `215`, `215.4`, `3:35` or `1:02:03`; `undefined` when it is none of them. */
export const parseDuration = (value: string | number): number | undefined => {
  if (typeof value === "number") return Number.isFinite(value) ? Math.round(value) : undefined
  const text = value.trim()
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text))
  const match = DURATION.exec(text)
  if (match === null) return undefined
  const [hours, minutes, seconds] = [Number(match[1] ?? 0), Number(match[2]), Number(match[3])]
  if (seconds >= 60 || (match[1] !== undefined && minutes >= 60)) return undefined
  return hours * 3600 + minutes * 60 + seconds
}

type Checked<A> = { readonly ok: true; readonly value: A } | { readonly ok: false; readonly message: string }

const ok = <A>(value: A): Checked<A> => ({ ok: true, value })
const bad = <A>(message: string): Checked<A> => ({ ok: false, message })

// Text of a file field: a string, or a number a spreadsheet may have written for a text column; blank is absent.
const textOf = (value: unknown): Checked<string | undefined> => {
  if (value === undefined || value === null) return ok(undefined)
  if (typeof value === "number" && Number.isFinite(value)) return ok(String(value))
  if (typeof value !== "string") return bad(`must be text, not ${Array.isArray(value) ? "a list" : typeof value}`)
  const unstorable = unstorableText(value)
  if (unstorable !== undefined) return bad(unstorable)
  const trimmed = value.trim()
  return ok(trimmed.length === 0 ? undefined : trimmed)
}

const nameOf = (value: unknown, what: string): Checked<string> => {
  const text = textOf(value)
  if (!text.ok) return text
  if (text.value === undefined) return bad(`is required: the ${what}`)
  const name = text.value.replace(/\s+/gu, " ")
  if (name.length > TRACK_NAME_MAX) return bad(`is ${name.length} characters; at most ${TRACK_NAME_MAX}`)
  return ok(name)
}

const durationOf = (value: unknown): Checked<number | null | undefined> => {
  if (value === undefined) return ok(undefined)
  if (typeof value === "number") {
    const seconds = parseDuration(value)
    return seconds === undefined ? bad("must be a number of seconds") : inRange(seconds)
  }
  const text = textOf(value)
  if (!text.ok) return text
  if (text.value === undefined) return ok(null)
  const seconds = parseDuration(text.value)
  return seconds === undefined
    ? bad(`"${text.value.slice(0, 40)}" is not a duration; give whole seconds (215) or minutes:seconds (3:35)`)
    : inRange(seconds)
}

const inRange = (seconds: number): Checked<number | null> =>
  seconds < 1 || seconds > TRACK_SECONDS_MAX
    ? bad(`${seconds} seconds is out of range; from 1 second to ${TRACK_SECONDS_MAX / 3600} hours`)
    : ok(seconds)

const isrcOf = (value: unknown): Checked<string | null> => {
  const text = textOf(value)
  if (!text.ok) return text
  if (text.value === undefined) return ok(null)
  const isrc = normalizeIsrc(text.value)
  return isrc === undefined
    ? bad(
        `"${text.value.slice(0, 40)}" is not an ISRC: 2 letters (country), 3 letters or digits (registrant), 2 digits (year), 5 digits; e.g. US-RC1-76-07839`
      )
    : ok(isrc)
}

const notesOf = (value: unknown): Checked<string | null | undefined> => {
  if (value === undefined) return ok(undefined)
  const text = textOf(value)
  if (!text.ok) return text
  if (text.value === undefined) return ok(null)
  return text.value.length > USAGE_NOTES_MAX
    ? bad(`is ${text.value.length} characters; at most ${USAGE_NOTES_MAX}`)
    : ok(text.value)
}

/** A row's track fields, or every problem the row has (one per field). */
export const checkTrackRow = (
  row: TrackRow
):
  | { readonly ok: true; readonly fields: TrackFields }
  | { readonly ok: false; readonly problems: Array<RowProblem> } => {
  const title = nameOf(row.title, "track's title")
  const artist = nameOf(row.artist, "performing artist")
  const duration = durationOf(row.duration)
  const isrc = isrcOf(row.isrc)
  const notes = notesOf(row.usageNotes)
  const problems: Array<RowProblem> = []
  const check = (field: TrackRowField, checked: Checked<unknown>) => {
    if (!checked.ok) problems.push({ row: row.row, field, message: `${field} ${checked.message}` })
  }
  check("title", title)
  check("artist", artist)
  check("duration", duration)
  check("isrc", isrc)
  check("usage_notes", notes)
  if (!title.ok || !artist.ok || !duration.ok || !isrc.ok || !notes.ok) return { ok: false, problems }
  return {
    ok: true,
    fields: {
      title: title.value,
      artist: artist.value,
      durationSeconds: duration.value,
      isrc: isrc.value,
      usageNotes: notes.value
    }
  }
}

/** How a search result matched the query, best first. */
export type TrackMatch = "exact" | "prefix" | "contains" | "words"

/** What a catalog search asks for (the query already folded with {@link foldForSearch}). */
export interface TrackQuery {
  readonly folded: string
  readonly minDurationSeconds?: number | undefined
  readonly maxDurationSeconds?: number | undefined
}

/** A track a search found, and how it matched. */
export interface FoundTrack extends MusicTrack {
  readonly match: TrackMatch
}
