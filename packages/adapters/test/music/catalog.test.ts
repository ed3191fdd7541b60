/**
 * The licensed music catalog on the real test database: imports (checked rows, upserts by ISRC and by title and
 * artist, refused rows, dry runs, replacing), and search (ranking, accents and case, duration bounds, paging).
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import { MusicCatalog, type TrackRow } from "@svc/core/music"
import { Effect, Either, Layer, TestClock } from "effect"
import { MusicCatalogRepoSql } from "../../src/sql/repos/music-catalog.js"
import { migrations } from "../../src/sql/migrations/index.js"
import { TransactorSql } from "../../src/sql/transactor.js"
import { countingIds } from "../support/predictable.js"
import { engineName, testDatabaseLayer } from "../support/database.js"

const testLayer = MusicCatalog.Default.pipe(
  Layer.provide(Layer.mergeAll(MusicCatalogRepoSql, TransactorSql, countingIds())),
  Layer.provideMerge(testDatabaseLayer(migrations))
)

/** The catalog emptied: it is the server's, so every test here starts from none. */
const emptyCatalog = Effect.flatMap(SqlClient, (sql) => sql`DELETE FROM music_tracks`).pipe(Effect.orDie)

const importRows = (rows: ReadonlyArray<Omit<TrackRow, "row">>, options = {}) =>
  Effect.flatMap(MusicCatalog, (catalog) =>
    catalog.importTracks(
      rows.map((row, index) => ({ row: index + 2, ...row })),
      options
    )
  )

const search = (
  query: string,
  more: { limit?: number; cursor?: string | undefined; min?: number; max?: number } = {}
) =>
  Effect.flatMap(MusicCatalog, (catalog) =>
    catalog.search({
      query,
      limit: more.limit,
      cursor: more.cursor,
      minDurationSeconds: more.min,
      maxDurationSeconds: more.max
    })
  )

const titles = (page: { readonly tracks: ReadonlyArray<{ readonly title: string }> }) => page.tracks.map((t) => t.title)

layer(testLayer, { timeout: "60 seconds" })(`music catalog (${engineName})`, (it) => {
  describe("import", () => {
    it.effect("adds checked rows, refuses the bad ones with their row, field and reason, and saves the rest", () =>
      Effect.gen(function* () {
        yield* emptyCatalog
        const report = yield* importRows([
          { title: "Blinding Lights", artist: "The Weeknd", duration: "3:20", isrc: "us-ug1-19-00001" },
          { title: "Halo", artist: "Beyoncé", duration: 261, isrc: "USSM10804555", usageNotes: "Reels only" },
          { title: "", artist: "Nobody", duration: "1:00" },
          { title: "Too long", artist: "X", duration: "4:75", isrc: "12345" },
          { title: "Untimed", artist: "Quiet Band" },
          { title: "x".repeat(301), artist: "Long", usageNotes: "y".repeat(2_001) },
          { title: "Three hours and one", artist: "Drone", duration: "3:00:01" },
          { title: "Nul\u0000title", artist: "Bad" }
        ])
        expect(report).toMatchObject({ rows: 8, added: 3, updated: 0, unchanged: 0, refused: 5, saved: true })
        expect(report.catalogTracks).toBe(3)
        expect(report.problems.map((p) => [p.row, p.field])).toEqual([
          [4, "title"],
          [5, "duration"],
          [5, "isrc"],
          [7, "title"],
          [7, "usage_notes"],
          [8, "duration"],
          [9, "title"]
        ])
        expect(report.problems[0]?.message).toBe("title is required: the track's title")
        expect(report.problems[1]?.message).toContain('"4:75" is not a duration')
        expect(report.problems[2]?.message).toContain('"12345" is not an ISRC')
        expect(report.problems[5]?.message).toContain("10801 seconds is out of range")
        expect(report.problems[6]?.message).toContain("NUL")

        const halo = (yield* search("halo")).tracks[0]
        expect(halo).toMatchObject({
          title: "Halo",
          artist: "Beyoncé",
          durationSeconds: 261,
          isrc: "USSM10804555",
          usageNotes: "Reels only",
          match: "exact"
        })
        expect(halo?.id).toMatch(/^trk_[0-9a-z]{20}$/)
        // The ISRC is kept upper-case without dashes; a duration of m:ss is seconds.
        expect((yield* search("blinding")).tracks[0]).toMatchObject({ isrc: "USUG11900001", durationSeconds: 200 })
        expect((yield* search("untimed")).tracks[0]).toMatchObject({ durationSeconds: null, isrc: null })
      })
    )

    it.effect("updates a track by its ISRC, else by title and artist (case and accents aside)", () =>
      Effect.gen(function* () {
        yield* emptyCatalog
        yield* TestClock.setTime(Date.parse("2026-05-01T10:00:00Z"))
        yield* importRows([
          { title: "Halo", artist: "Beyoncé", duration: "4:21", isrc: "USSM10804555" },
          { title: "Café Song", artist: "Les Amis", duration: "2:00" }
        ])
        const before = (yield* search("halo")).tracks[0]
        yield* TestClock.setTime(Date.parse("2026-05-02T10:00:00Z"))

        const again = yield* importRows([
          // Same ISRC, written with dashes: the title is corrected.
          { title: "Halo (Radio Edit)", artist: "Beyoncé", duration: "4:21", isrc: "US-SM1-08-04555" },
          // No ISRC: the same track by its name, whatever the case and accents.
          { title: "CAFE SONG", artist: "les amis", duration: "2:05", usageNotes: "Credit Les Amis" }
        ])
        expect(again).toMatchObject({ added: 0, updated: 2, unchanged: 0, refused: 0, catalogTracks: 2 })
        const halo = (yield* search("halo")).tracks[0]
        expect(halo).toMatchObject({ id: before?.id, title: "Halo (Radio Edit)" })
        expect(halo?.updatedAt.toISOString()).toBe("2026-05-02T10:00:00.000Z")
        expect((yield* search("cafe")).tracks).toMatchObject([
          { title: "CAFE SONG", artist: "les amis", durationSeconds: 125, usageNotes: "Credit Les Amis" }
        ])

        // The same file again changes nothing.
        const same = yield* importRows([
          { title: "Halo (Radio Edit)", artist: "Beyoncé", duration: "4:21", isrc: "USSM10804555" },
          { title: "CAFE SONG", artist: "les amis", duration: 125, usageNotes: "Credit Les Amis" }
        ])
        expect(same).toMatchObject({ added: 0, updated: 0, unchanged: 2 })

        // A field the file does not have is kept; a blank one is cleared. An ISRC given to a track known by its name
        // is added to it.
        const partial = yield* importRows([
          { title: "Cafe Song", artist: "Les Amis", isrc: "FRZ031200001" },
          { title: "Halo (Radio Edit)", artist: "Beyoncé", isrc: "USSM10804555", usageNotes: "", duration: "" }
        ])
        expect(partial).toMatchObject({ added: 0, updated: 2 })
        expect((yield* search("cafe")).tracks).toMatchObject([
          { title: "Cafe Song", durationSeconds: 125, usageNotes: "Credit Les Amis", isrc: "FRZ031200001" }
        ])
        expect((yield* search("halo")).tracks).toMatchObject([{ durationSeconds: null, usageNotes: null }])
      })
    )

    it.effect("refuses a row that repeats a track of the file, or cannot say which of several tracks it is", () =>
      Effect.gen(function* () {
        yield* emptyCatalog
        yield* importRows([
          { title: "Intro", artist: "Band", isrc: "GBAAA2400001" },
          { title: "Intro", artist: "Band", isrc: "GBAAA2400002" }
        ])
        const report = yield* importRows([
          { title: "Intro", artist: "Band", usageNotes: "which one?" },
          { title: "Outro", artist: "Band", isrc: "GBAAA2400003" },
          { title: "Outro (again)", artist: "Band", isrc: "GBAAA2400003" },
          { title: "New", artist: "Band" },
          { title: "new", artist: "band" }
        ])
        expect(report).toMatchObject({ added: 2, refused: 3 })
        expect(report.problems).toEqual([
          {
            row: 2,
            field: "isrc",
            message: '2 tracks are titled "Intro" by Band; give the isrc to say which one this row is'
          },
          { row: 4, field: "row", message: "names the same track as row 3" },
          { row: 6, field: "row", message: "names the same track as row 5" }
        ])
      })
    )

    it.effect("on a dry run saves nothing and says what it would do", () =>
      Effect.gen(function* () {
        yield* emptyCatalog
        yield* importRows([{ title: "Kept", artist: "A" }])
        const dry = yield* importRows(
          [
            { title: "Kept", artist: "A", duration: 100 },
            { title: "Fresh", artist: "B" },
            { title: "", artist: "C" }
          ],
          { dryRun: true }
        )
        expect(dry).toMatchObject({ added: 1, updated: 1, refused: 1, saved: false, catalogTracks: 2 })
        expect((yield* search("kept")).tracks).toMatchObject([{ durationSeconds: null }])
        expect((yield* search("fresh")).tracks).toEqual([])
      })
    )

    it.effect("with replace, removes the tracks the file does not name, and saves nothing if a row is refused", () =>
      Effect.gen(function* () {
        yield* emptyCatalog
        yield* importRows([
          { title: "One", artist: "A", isrc: "USAAA2400001" },
          { title: "Two", artist: "A", isrc: "USAAA2400002" },
          { title: "Three", artist: "A" }
        ])
        const refused = yield* importRows(
          [
            { title: "One", artist: "A", isrc: "USAAA2400001" },
            { title: "Three", artist: "A", duration: "never" }
          ],
          { replace: true }
        )
        expect(refused).toMatchObject({ refused: 1, removed: 2, saved: false, catalogTracks: 1 })
        expect(yield* (yield* MusicCatalog).count).toBe(3)

        const replaced = yield* importRows(
          [
            { title: "One", artist: "A", isrc: "USAAA2400001" },
            { title: "Four", artist: "A" }
          ],
          { replace: true }
        )
        expect(replaced).toMatchObject({ added: 1, unchanged: 1, removed: 2, saved: true, catalogTracks: 2 })
        expect(yield* (yield* MusicCatalog).count).toBe(2)
        expect(titles(yield* search("a"))).toEqual(["Four", "One"])
      })
    )

    it.effect("runs imports one after another, so two at once add each track once", () =>
      Effect.gen(function* () {
        yield* emptyCatalog
        const rows = Array.from({ length: 200 }, (_, i) => ({ title: `Same ${i}`, artist: "Both" }))
        const [a, b] = yield* Effect.all([importRows(rows), importRows(rows)], { concurrency: 2 })
        expect(a.added + b.added).toBe(200)
        expect(a.unchanged + b.unchanged).toBe(200)
        expect(yield* (yield* MusicCatalog).count).toBe(200)
      })
    )

    it.effect("refuses a file of more rows than one import takes", () =>
      Effect.gen(function* () {
        const rows = Array.from({ length: 100_001 }, (_, i) => ({ row: i + 1, title: "t", artist: "a" }))
        const result = yield* Effect.either((yield* MusicCatalog).importTracks(rows))
        expect(Either.isLeft(result) && result.left.message).toContain("at most 100000")
      })
    )

    it.effect("imports a few thousand rows in one go", () =>
      Effect.gen(function* () {
        yield* emptyCatalog
        const rows = Array.from({ length: 3_000 }, (_, i) => ({
          title: `Track ${i}`,
          artist: `Artist ${i % 50}`,
          duration: 60 + (i % 240),
          isrc: `QZAAA24${String(i).padStart(5, "0")}`
        }))
        expect(yield* importRows(rows)).toMatchObject({ added: 3_000, refused: 0, catalogTracks: 3_000 })
        expect(yield* importRows(rows)).toMatchObject({ added: 0, unchanged: 3_000 })
      })
    )
  })

  describe("search", () => {
    const catalog = [
      { title: "Love", artist: "Lana Del Rey", duration: "4:32" },
      { title: "Lovely", artist: "Billie Eilish", duration: "3:20" },
      { title: "Crazy in Love", artist: "Beyoncé", duration: "3:56" },
      { title: "Halo", artist: "Beyoncé", duration: "4:21" },
      { title: "Love Story", artist: "Taylor Swift", duration: "3:55" },
      { title: "Glove Box", artist: "Trio", duration: "0:45" },
      { title: "Summer", artist: "Love Unlimited", duration: "5:10" },
      { title: "Story of Love", artist: "Ensemble" }
    ]

    it.effect("ranks exact matches, then prefixes, then contains, then every word in any order", () =>
      Effect.gen(function* () {
        yield* emptyCatalog
        yield* importRows(catalog)
        const love = yield* search("LOVE")
        expect(love.tracks.map((t) => [t.title, t.match])).toEqual([
          ["Love", "exact"],
          ["Love Story", "prefix"],
          ["Lovely", "prefix"],
          ["Summer", "prefix"],
          ["Crazy in Love", "contains"],
          ["Glove Box", "contains"],
          ["Story of Love", "contains"]
        ])
        expect(love.hint).toBeUndefined()
        expect(love.nextCursor).toBeUndefined()
        expect((yield* search("story love")).tracks.map((t) => [t.title, t.match])).toEqual([
          ["Love Story", "words"],
          ["Story of Love", "words"]
        ])
        // Accents and case aside, on the artist as on the title.
        expect(titles(yield* search("beyonce"))).toEqual(["Crazy in Love", "Halo"])
        expect(titles(yield* search("  Beyoncé  halo "))).toEqual(["Halo"])
      })
    )

    it.effect("keeps tracks within duration bounds, refusing bounds the wrong way round", () =>
      Effect.gen(function* () {
        expect(titles(yield* search("love", { max: 240 }))).toEqual([
          "Love Story",
          "Lovely",
          "Crazy in Love",
          "Glove Box"
        ])
        expect(titles(yield* search("love", { min: 240, max: 300 }))).toEqual(["Love"])
        const wrong = yield* Effect.either(search("love", { min: 300, max: 200 }))
        expect(Either.isLeft(wrong) && wrong.left._tag).toBe("InvalidInput")
        const blank = yield* Effect.either(search(" \u0301 "))
        expect(Either.isLeft(blank) && blank.left.message).toContain("needs a letter or a digit")
      })
    )

    it.effect("pages through the ranking with cursors that hold under new tracks and refuse another search", () =>
      Effect.gen(function* () {
        const seen: Array<string> = []
        let cursor: string | undefined
        let pages = 0
        do {
          const page = yield* search("love", { limit: 3, cursor })
          seen.push(...titles(page))
          pages += 1
          // A track added after the first page, ranked before the next page's start, is not repeated or skipped into.
          if (pages === 1) yield* importRows([{ title: "Love", artist: "Aardvark" }])
          cursor = page.nextCursor
        } while (cursor !== undefined)
        expect(pages).toBe(3)
        expect(seen).toEqual(["Love", "Love Story", "Lovely", "Summer", "Crazy in Love", "Glove Box", "Story of Love"])

        const first = yield* search("love", { limit: 2 })
        const other = yield* Effect.either(search("halo", { cursor: first.nextCursor as string }))
        expect(Either.isLeft(other) && other.left.message).toContain("cursor is not one this search issued")
        const bounded = yield* Effect.either(search("love", { cursor: first.nextCursor as string, max: 200 }))
        expect(Either.isLeft(bounded)).toBe(true)
      })
    )

    it.effect("hints at the operator on an empty catalog, and at other words when nothing matches", () =>
      Effect.gen(function* () {
        const none = yield* search("zzz")
        expect(none.tracks).toEqual([])
        expect(none.hint).toContain("No licensed track matches")
        yield* emptyCatalog
        const empty = yield* search("love")
        expect(empty.tracks).toEqual([])
        expect(empty.hint).toContain("operator has not loaded a licensed music catalog")
        expect(empty.hint).not.toMatch(/svc |import|--/)
      })
    )
  })
})
