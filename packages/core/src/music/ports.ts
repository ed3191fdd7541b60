import { Context, type Effect, type Option } from "effect"
import type { FoundTrack, MusicTrack, TrackQuery } from "./schema.js"

/** A track's name as matching compares it (both parts folded with `foldForSearch`). */
export interface TrackName {
  readonly titleKey: string
  readonly artistKey: string
}

/**
 * The server's licensed music catalog: one set of tracks for every workspace. Each track is unique by its ISRC, and
 * a track without one by its folded title and artist.
 */
export class MusicCatalogRepo extends Context.Tag("svc/music/MusicCatalogRepo")<
  MusicCatalogRepo,
  {
    /** Holds the catalog for one import until the transaction ends, so imports run one after another. */
    readonly lockForImport: Effect.Effect<void>
    /** The tracks with one of `isrcs`, or named one of `names`. */
    readonly findMatching: (
      isrcs: ReadonlyArray<string>,
      names: ReadonlyArray<TrackName>
    ) => Effect.Effect<ReadonlyArray<MusicTrack>>
    /** Writes tracks: new ones are added, known ids changed (their `createdAt` kept). */
    readonly save: (tracks: ReadonlyArray<MusicTrack>) => Effect.Effect<void>
    /** Removes every track but `keep` (by id); answers how many went. */
    readonly removeAllBut: (keep: ReadonlyArray<string>) => Effect.Effect<number>
    /** How many tracks the catalog holds. */
    readonly count: Effect.Effect<number>
    /**
     * Up to `limit` tracks matching `query`, best first: exact, prefix, contains, then every word in any order; within
     * one kind of match by folded title, artist and id. With `after`, the tracks that come after that track in this
     * order; `None` when `after` is not (any longer) in the catalog.
     */
    readonly search: (
      query: TrackQuery,
      page: { readonly limit: number; readonly after: string | undefined }
    ) => Effect.Effect<Option.Option<ReadonlyArray<FoundTrack>>>
  }
>() {}
