import { type FoundTrack, foldForSearch, MusicCatalogRepo, type MusicTrack, type TrackMatch } from "@svc/core/music"
import { withSpan } from "@svc/core/shared"
import { Effect, Layer, Option } from "effect"
import { LeanSql } from "../lean.js"

interface TrackRow {
  readonly id: string
  readonly title: string
  readonly artist: string
  readonly duration_seconds: number | null
  readonly isrc: string | null
  readonly usage_notes: string | null
  readonly created_at: Date
  readonly updated_at: Date
}

const toTrack = (row: TrackRow): MusicTrack => ({
  id: row.id,
  title: row.title,
  artist: row.artist,
  durationSeconds: row.duration_seconds,
  isrc: row.isrc,
  usageNotes: row.usage_notes,
  createdAt: row.created_at,
  updatedAt: row.updated_at
})

const MATCHES: Record<number, TrackMatch> = { 4: "exact", 3: "prefix", 2: "contains", 1: "words" }

// Lists go to the database as one JSON parameter each (no array binding, the same on both engines), in chunks so a
// large import never builds one huge statement.
const CHUNK = 1_000

const chunksOf = <A>(items: ReadonlyArray<A>): Array<ReadonlyArray<A>> => {
  const chunks: Array<ReadonlyArray<A>> = []
  for (let start = 0; start < items.length; start += CHUNK) chunks.push(items.slice(start, start + CHUNK))
  return chunks
}

/** `MusicCatalogRepo` over SQL: the `music_tracks` table, searched on its folded `title_key` and `artist_key`. */
export const MusicCatalogRepoSql = Layer.effect(
  MusicCatalogRepo,
  Effect.gen(function* () {
    const lean = yield* LeanSql

    const findMatching = (
      isrcs: ReadonlyArray<string>,
      names: ReadonlyArray<{ titleKey: string; artistKey: string }>
    ) =>
      Effect.gen(function* () {
        const found = new Map<string, MusicTrack>()
        for (const chunk of chunksOf(isrcs)) {
          const rows = yield* lean<TrackRow>`
            SELECT * FROM music_tracks WHERE isrc IN (SELECT jsonb_array_elements_text(${JSON.stringify(chunk)}::jsonb))`
          for (const row of rows) found.set(row.id, toTrack(row))
        }
        const distinct = [...new Map(names.map((n) => [`${n.titleKey}\u0001${n.artistKey}`, n] as const)).values()].map(
          (n) => ({ title_key: n.titleKey, artist_key: n.artistKey })
        )
        for (const chunk of chunksOf(distinct)) {
          const rows = yield* lean<TrackRow>`
            SELECT t.* FROM music_tracks t
            JOIN jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb) AS k (title_key text, artist_key text)
              ON t.title_key = k.title_key AND t.artist_key = k.artist_key`
          for (const row of rows) found.set(row.id, toTrack(row))
        }
        return [...found.values()]
      }).pipe(Effect.orDie, withSpan("MusicCatalogRepo.findMatching"))

    const save = (tracks: ReadonlyArray<MusicTrack>) =>
      Effect.forEach(
        chunksOf(
          tracks.map((t) => ({
            id: t.id,
            title: t.title,
            artist: t.artist,
            title_key: foldForSearch(t.title),
            artist_key: foldForSearch(t.artist),
            duration_seconds: t.durationSeconds,
            isrc: t.isrc,
            usage_notes: t.usageNotes,
            created_at: t.createdAt.toISOString(),
            updated_at: t.updatedAt.toISOString()
          }))
        ),
        (chunk) =>
          lean`
            INSERT INTO music_tracks (id, title, artist, title_key, artist_key, duration_seconds, isrc, usage_notes,
                                      created_at, updated_at)
            SELECT id, title, artist, title_key, artist_key, duration_seconds, isrc, usage_notes, created_at, updated_at
            FROM jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb) AS r (
              id text, title text, artist text, title_key text, artist_key text, duration_seconds integer, isrc text,
              usage_notes text, created_at timestamptz, updated_at timestamptz)
            ON CONFLICT (id) DO UPDATE SET
              title = EXCLUDED.title, artist = EXCLUDED.artist, title_key = EXCLUDED.title_key,
              artist_key = EXCLUDED.artist_key, duration_seconds = EXCLUDED.duration_seconds, isrc = EXCLUDED.isrc,
              usage_notes = EXCLUDED.usage_notes, updated_at = EXCLUDED.updated_at`,
        { discard: true }
      ).pipe(Effect.orDie, withSpan("MusicCatalogRepo.save"))

    const count = lean<{ readonly tracks: number }>`SELECT count(*)::integer AS tracks FROM music_tracks`.pipe(
      Effect.map((rows) => rows[0]?.tracks ?? 0),
      Effect.orDie,
      withSpan("MusicCatalogRepo.count")
    )

    return {
      lockForImport: lean`SELECT pg_advisory_xact_lock(hashtext('svc/music/catalog/' || current_schema()))`.pipe(
        Effect.asVoid,
        Effect.orDie
      ),
      findMatching,
      save,
      removeAllBut: (keep) =>
        lean<{ readonly removed: number }>`
          WITH gone AS (
            DELETE FROM music_tracks WHERE id NOT IN (SELECT jsonb_array_elements_text(${JSON.stringify(keep)}::jsonb))
            RETURNING 1)
          SELECT count(*)::integer AS removed FROM gone`.pipe(
          Effect.map((rows) => rows[0]?.removed ?? 0),
          Effect.orDie,
          withSpan("MusicCatalogRepo.removeAllBut")
        ),
      count,
      search: (query, page) =>
        Effect.gen(function* () {
          const q = query.folded
          const min = query.minDurationSeconds ?? null
          const max = query.maxDurationSeconds ?? null
          // The kind of match as a number, best highest: exact 4, prefix 3, contains 2, every word in any order 1.
          // Within a kind, tracks go by folded title, artist and id in byte order (`COLLATE "C"`), the same order on
          // both engines whatever their default collation; a next page starts after its cursor's track in that order.
          if (page.after === undefined) {
            const rows = yield* lean<TrackRow & { readonly tier: number }>`
              SELECT * FROM (
                SELECT t.*, CASE
                  WHEN t.title_key = ${q}::text OR t.artist_key = ${q}::text THEN 4
                  WHEN starts_with(t.title_key, ${q}::text) OR starts_with(t.artist_key, ${q}::text) THEN 3
                  WHEN strpos(t.title_key, ${q}::text) > 0 OR strpos(t.artist_key, ${q}::text) > 0 THEN 2
                  WHEN NOT EXISTS (SELECT 1 FROM unnest(string_to_array(${q}::text, ' ')) AS w (word)
                                   WHERE strpos(t.title_key || ' ' || t.artist_key, w.word) = 0) THEN 1
                  ELSE 0 END AS tier
                FROM music_tracks t) r
              WHERE r.tier > 0
                AND (${min}::integer IS NULL OR r.duration_seconds >= ${min}::integer)
                AND (${max}::integer IS NULL OR r.duration_seconds <= ${max}::integer)
              ORDER BY r.tier DESC, r.title_key COLLATE "C", r.artist_key COLLATE "C", r.id COLLATE "C"
              LIMIT ${page.limit}`
            return Option.some(rows.map(toFound))
          }
          const anchor = yield* lean<{ readonly id: string }>`SELECT id FROM music_tracks WHERE id = ${page.after}`
          if (anchor.length === 0) return Option.none()
          const rows = yield* lean<TrackRow & { readonly tier: number }>`
            WITH ranked AS (
              SELECT t.*, CASE
                WHEN t.title_key = ${q}::text OR t.artist_key = ${q}::text THEN 4
                WHEN starts_with(t.title_key, ${q}::text) OR starts_with(t.artist_key, ${q}::text) THEN 3
                WHEN strpos(t.title_key, ${q}::text) > 0 OR strpos(t.artist_key, ${q}::text) > 0 THEN 2
                WHEN NOT EXISTS (SELECT 1 FROM unnest(string_to_array(${q}::text, ' ')) AS w (word)
                                 WHERE strpos(t.title_key || ' ' || t.artist_key, w.word) = 0) THEN 1
                ELSE 0 END AS tier
              FROM music_tracks t),
            anchor AS (SELECT tier, title_key, artist_key, id FROM ranked WHERE id = ${page.after})
            SELECT r.* FROM ranked r, anchor a
            WHERE r.tier > 0
              AND (${min}::integer IS NULL OR r.duration_seconds >= ${min}::integer)
              AND (${max}::integer IS NULL OR r.duration_seconds <= ${max}::integer)
              AND (r.tier < a.tier OR (r.tier = a.tier AND
                   (r.title_key COLLATE "C", r.artist_key COLLATE "C", r.id COLLATE "C") >
                   (a.title_key COLLATE "C", a.artist_key COLLATE "C", a.id COLLATE "C")))
            ORDER BY r.tier DESC, r.title_key COLLATE "C", r.artist_key COLLATE "C", r.id COLLATE "C"
            LIMIT ${page.limit}`
          return Option.some(rows.map(toFound))
        }).pipe(Effect.orDie, withSpan("MusicCatalogRepo.search"))
    }
  })
)

const toFound = (row: TrackRow & { readonly tier: number }): FoundTrack => ({
  ...toTrack(row),
  match: MATCHES[row.tier] ?? "words"
})
