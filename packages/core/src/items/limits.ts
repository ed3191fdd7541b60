/**
 * Limits of the workspace library, enforced with `invalid` and a message that names them
 * (documented in the README). They keep one call's work and one board's size within what an
 * agent and a page can use.
 */
export const LIBRARY_LIMITS = {
  /** Items on one board. */
  boardItems: 2_000,
  /** URLs, posts, ads or items saved in one call. */
  urlsPerCall: 50,
  /** Rows added or updated in one call. */
  rowsPerCall: 500,
  /** Rows in one table. */
  tableRows: 10_000,
  /** Columns of one table. */
  tableColumns: 50,
  /** Characters in one table cell. */
  cellCharacters: 10_000,
  /** Tags added or removed in one call. */
  tagsPerCall: 50,
  /** Characters in a tag name. */
  tagCharacters: 50,
  /** Characters in an item note (svc_set_item_note). */
  itemNoteCharacters: 20_000,
  /** Days a trashed item can still be restored before it is purged. */
  trashDays: 30,
  /** Characters in a saved URL. */
  urlCharacters: 2_048,
  /** Characters of text saved with a link, post or ad (and so in its capture). */
  savedTextCharacters: 20_000,
  /** Highlights saved with one link in one call. */
  highlightsPerLink: 20,
  /** Characters in one highlight. */
  highlightCharacters: 5_000,
  /** Characters in a search query. */
  queryCharacters: 500,
  /** Find/replace edits in one svc_patch_note call. */
  patchEdits: 20,
  /** Characters in a table column name. */
  columnNameCharacters: 100,
  /** Characters in a connection label. */
  connectionLabelCharacters: 200
} as const
