/** The server's licensed music catalog: imported by the operator, searched by agents (`svc_search_instagram_music`). */
export { MusicCatalogRepo, type TrackName } from "./ports.js"
export {
  checkTrackRow,
  type FoundTrack,
  foldForSearch,
  IMPORT_PROBLEMS_LISTED,
  IMPORT_ROWS_MAX,
  MUSIC_QUERY_MAX,
  type MusicTrack,
  normalizeIsrc,
  parseDuration,
  type RowProblem,
  TRACK_NAME_MAX,
  TRACK_SECONDS_MAX,
  type TrackFields,
  type TrackMatch,
  type TrackQuery,
  type TrackRow,
  type TrackRowField,
  USAGE_NOTES_MAX
} from "./schema.js"
export {
  EMPTY_CATALOG_HINT,
  type ImportOptions,
  type ImportReport,
  MusicCatalog,
  type MusicSearchInput,
  type MusicSearchPage,
  NO_MATCH_HINT
} from "./service.js"
export { musicTools } from "./tools.js"
