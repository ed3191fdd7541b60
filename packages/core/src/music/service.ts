import { Effect, Either, Encoding, Option } from "effect"
import { invalid } from "../shared/errors.js"
import { Ids, Transactor } from "../shared/ports.js"
import { withSpan } from "../shared/spans.js"
import { now } from "../shared/time.js"
import { MusicCatalogRepo, type TrackName } from "./ports.js"
import {
  checkTrackRow,
  type FoundTrack,
  foldForSearch,
  IMPORT_PROBLEMS_LISTED,
  IMPORT_ROWS_MAX,
  MUSIC_QUERY_MAX,
  type MusicTrack,
  type RowProblem,
  type TrackFields,
  type TrackRow
} from "./schema.js"

/** How an import runs. */
export interface ImportOptions {
  /** Check and count only; nothing is written. */
  readonly dryRun?: boolean | undefined
  /**
   * The rows are the whole catalog: tracks no row names are removed. Nothing is written when a row is refused, so a
   * refused row never removes the track it meant to keep.
   */
  readonly replace?: boolean | undefined
}

/** What an import did (or, dry, would do). */
export interface ImportReport {
  /** Rows read. */
  readonly rows: number
  readonly added: number
  readonly updated: number
  /** Rows that name a track as it already is. */
  readonly unchanged: number
  readonly refused: number
  /** Tracks removed because no row named them (`replace` only). */
  readonly removed: number
  /** The first problems, in row order (one per refused field, up to `IMPORT_PROBLEMS_LISTED`). */
  readonly problems: ReadonlyArray<RowProblem>
  /** Problems beyond those listed. */
  readonly problemsNotListed: number
  /** Whether anything was written: false on a dry run, and on a replace with refused rows. */
  readonly saved: boolean
  /** Tracks in the catalog after the import (as it would be, when nothing was saved). */
  readonly catalogTracks: number
}

/** A search of the catalog as the tool takes it. */
export interface MusicSearchInput {
  readonly query: string
  readonly minDurationSeconds?: number | undefined
  readonly maxDurationSeconds?: number | undefined
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
}

/** A page of found tracks; `hint` says why there are none (an empty catalog, or no match). */
export interface MusicSearchPage {
  readonly tracks: ReadonlyArray<FoundTrack>
  readonly nextCursor: string | undefined
  readonly hint: string | undefined
}

/** The hint of a search of a catalog with no tracks: who can fix it, and what to do meanwhile. */
export const EMPTY_CATALOG_HINT =
  "This server's operator has not loaded a licensed music catalog yet, so there are no tracks to find. Ask the operator of this server to load one; until then, pick music in the platform's own app."

/** The hint of a search that matched none of the catalog's tracks. */
export const NO_MATCH_HINT =
  "No licensed track matches. Try fewer or shorter words, the title or the artist alone, or no duration bounds."

const nameKey = (name: TrackName) => `${name.titleKey}\u0001${name.artistKey}`
const nameOf = (track: { readonly title: string; readonly artist: string }): TrackName => ({
  titleKey: foldForSearch(track.title),
  artistKey: foldForSearch(track.artist)
})

// A cursor names its search (a hash of the folded query and bounds), so one from another search is refused.
// FNV-1a guards mistakes, not attacks.
const fingerprint = (search: string): string => {
  let hash = 0x811c9dc5
  for (let i = 0; i < search.length; i++) {
    hash ^= search.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash.toString(36)
}

const badCursor = () =>
  invalid(
    "cursor",
    "cursor is not one this search issued; pass nextCursor from the previous page with the same query and bounds"
  )

/** The catalog's tracks as an import plans its changes: by ISRC and by folded name, as rows change them. */
const makeIndex = (tracks: ReadonlyArray<MusicTrack>) => {
  const byIsrc = new Map<string, MusicTrack>()
  const byName = new Map<string, Array<MusicTrack>>()
  const put = (track: MusicTrack) => {
    if (track.isrc !== null) byIsrc.set(track.isrc, track)
    const key = nameKey(nameOf(track))
    byName.set(key, [...(byName.get(key) ?? []), track])
  }
  const drop = (track: MusicTrack) => {
    if (track.isrc !== null) byIsrc.delete(track.isrc)
    const key = nameKey(nameOf(track))
    byName.set(
      key,
      (byName.get(key) ?? []).filter((t) => t.id !== track.id)
    )
  }
  for (const track of tracks) put(track)
  return {
    byIsrc: (isrc: string) => byIsrc.get(isrc),
    named: (name: TrackName) => byName.get(nameKey(name)) ?? [],
    replace: (before: MusicTrack | undefined, after: MusicTrack) => {
      if (before !== undefined) drop(before)
      put(after)
    }
  }
}

/** The track a row names, or why the row cannot say which. */
const targetOf = (
  index: ReturnType<typeof makeIndex>,
  fields: TrackFields
): Either.Either<MusicTrack | undefined, string> => {
  const named = index.named(nameOf(fields))
  const unnumbered = named.find((track) => track.isrc === null)
  if (fields.isrc !== null) return Either.right(index.byIsrc(fields.isrc) ?? unnumbered)
  if (unnumbered !== undefined) return Either.right(unnumbered)
  if (named.length <= 1) return Either.right(named[0])
  return Either.left(
    `${named.length} tracks are titled "${fields.title}" by ${fields.artist}; give the isrc to say which one this row is`
  )
}

const sameTrack = (a: MusicTrack, b: MusicTrack) =>
  a.title === b.title &&
  a.artist === b.artist &&
  a.durationSeconds === b.durationSeconds &&
  a.isrc === b.isrc &&
  a.usageNotes === b.usageNotes

/**
 * The server's licensed music catalog: imported by the operator from CSV or JSON rows (upserted by ISRC, else by
 * title and artist), searched by any workspace's agents by title and artist.
 */
export class MusicCatalog extends Effect.Service<MusicCatalog>()("svc/music/MusicCatalog", {
  effect: Effect.gen(function* () {
    const repo = yield* MusicCatalogRepo
    const ids = yield* Ids
    const tx = yield* Transactor

    /** Checks `rows`, then adds, changes or (dry) counts their tracks; rows with problems are refused alone. */
    const importTracks = (rows: ReadonlyArray<TrackRow>, options: ImportOptions = {}) =>
      Effect.gen(function* () {
        if (rows.length > IMPORT_ROWS_MAX) {
          return yield* invalid(
            "rows",
            `the file holds ${rows.length} rows; one import takes at most ${IMPORT_ROWS_MAX}: split the file`
          )
        }
        const problems: Array<RowProblem> = []
        const checked: Array<{ readonly row: number; readonly fields: TrackFields }> = []
        let refused = 0
        for (const row of rows) {
          const result = checkTrackRow(row)
          if (result.ok) checked.push({ row: row.row, fields: result.fields })
          else {
            refused += 1
            problems.push(...result.problems)
          }
        }

        const plan = Effect.gen(function* () {
          const at = yield* now
          const found = yield* repo.findMatching(
            [...new Set(checked.flatMap(({ fields }) => (fields.isrc === null ? [] : [fields.isrc])))],
            checked.map(({ fields }) => nameOf(fields))
          )
          const index = makeIndex(found)
          const existing = new Set(found.map((track) => track.id))
          // The row that set each track, so a later row naming it again is refused instead of silently winning.
          const setBy = new Map<string, number>()
          const writes = new Map<string, MusicTrack>()
          let added = 0
          let updated = 0
          let unchanged = 0
          for (const { row, fields } of checked) {
            const target = targetOf(index, fields)
            if (Either.isLeft(target)) {
              refused += 1
              problems.push({ row, field: "isrc", message: target.left })
              continue
            }
            const before = target.right
            const earlier = before === undefined ? undefined : setBy.get(before.id)
            if (earlier !== undefined) {
              refused += 1
              problems.push({ row, field: "row", message: `names the same track as row ${earlier}` })
              continue
            }
            const after: MusicTrack = {
              id: before?.id ?? (yield* ids.make("trk_")),
              title: fields.title,
              artist: fields.artist,
              durationSeconds:
                fields.durationSeconds === undefined ? (before?.durationSeconds ?? null) : fields.durationSeconds,
              isrc: fields.isrc ?? before?.isrc ?? null,
              usageNotes: fields.usageNotes === undefined ? (before?.usageNotes ?? null) : fields.usageNotes,
              createdAt: before?.createdAt ?? at,
              updatedAt: at
            }
            setBy.set(after.id, row)
            if (before === undefined) added += 1
            else if (sameTrack(before, after)) {
              unchanged += 1
              continue
            } else updated += 1
            index.replace(before, after)
            writes.set(after.id, after)
          }
          const total = yield* repo.count
          const keptExisting = [...setBy.keys()].filter((id) => existing.has(id))
          const removed = options.replace ? total - keptExisting.length : 0
          const saved = !options.dryRun && !(options.replace && refused > 0)
          if (saved) {
            yield* repo.save([...writes.values()])
            if (options.replace) yield* repo.removeAllBut([...setBy.keys()])
          }
          problems.sort((a, b) => a.row - b.row)
          const report: ImportReport = {
            rows: rows.length,
            added,
            updated,
            unchanged,
            refused,
            removed,
            problems: problems.slice(0, IMPORT_PROBLEMS_LISTED),
            problemsNotListed: Math.max(0, problems.length - IMPORT_PROBLEMS_LISTED),
            saved,
            catalogTracks: total + added - removed
          }
          return report
        })
        // Under the catalog's lock: a concurrent import waits, so both plan against what the other wrote.
        return yield* tx.withTransaction(Effect.zipRight(repo.lockForImport, plan))
      }).pipe(withSpan("MusicCatalog.importTracks"))

    /** Tracks whose title or artist match `query` (exact, prefix, contains, every word), paged; hints when none. */
    const search = (input: MusicSearchInput) =>
      Effect.gen(function* () {
        const folded = foldForSearch(input.query).slice(0, MUSIC_QUERY_MAX)
        if (folded.length === 0) return yield* invalid("query", "query needs a letter or a digit to search for")
        const { minDurationSeconds: min, maxDurationSeconds: max } = input
        if (min !== undefined && max !== undefined && min > max) {
          return yield* invalid("minDurationSeconds", "minDurationSeconds must not be above maxDurationSeconds")
        }
        const search = fingerprint(JSON.stringify([folded, min ?? null, max ?? null]))
        let after: string | undefined
        if (input.cursor !== undefined) {
          const text = Either.getOrElse(Encoding.decodeBase64UrlString(input.cursor), () => "")
          const dot = text.indexOf(".")
          if (dot <= 0 || text.slice(0, dot) !== search || !/^trk_[A-Za-z0-9_]+$/.test(text.slice(dot + 1))) {
            return yield* badCursor()
          }
          after = text.slice(dot + 1)
        }
        const limit = input.limit ?? 25
        const found = yield* repo.search(
          { folded, minDurationSeconds: min, maxDurationSeconds: max },
          { limit: limit + 1, after }
        )
        if (Option.isNone(found)) {
          return yield* invalid(
            "cursor",
            "the track this cursor continues from left the catalog; search again without cursor"
          )
        }
        const tracks = found.value.slice(0, limit)
        const last = tracks[tracks.length - 1]
        const nextCursor =
          found.value.length > limit && last !== undefined
            ? Encoding.encodeBase64Url(`${search}.${last.id}`)
            : undefined
        const hint =
          tracks.length > 0 || after !== undefined
            ? undefined
            : (yield* repo.count) === 0
              ? EMPTY_CATALOG_HINT
              : NO_MATCH_HINT
        return { tracks, nextCursor, hint } satisfies MusicSearchPage
      }).pipe(withSpan("MusicCatalog.search"))

    /** How many tracks the catalog holds. */
    const count = repo.count

    return { importTracks, search, count } as const
  })
}) {}
