import { Context, type Effect } from "effect"
import type { RankedPage, RankKey } from "../shared/ranked-paging.js"
import type { Page, PageKey } from "../shared/paging.js"
import type { ItemType } from "../items/schema.js"

/** A highlight to store. */
export interface NewHighlight {
  readonly id: string
  readonly workspaceId: string
  readonly itemId: string
  readonly text: string
  readonly note: string
  readonly at: Date
}

/** A capture to store. */
export interface NewCapture {
  readonly id: string
  readonly workspaceId: string
  readonly itemId: string | null
  readonly sourceUrl: string | null
  readonly platform: string | null
  readonly title: string
  readonly text: string
  readonly at: Date
}

/** A stored highlight with the item it came from. */
export interface HighlightRow {
  readonly id: string
  readonly itemId: string
  readonly itemType: ItemType
  readonly itemTitle: string
  readonly text: string
  readonly note: string
  readonly createdAt: Date
  /** ts_rank against the query; 0 when listing. */
  readonly rank: number
  /** Matching words marked with ** (ts_headline); null when listing. */
  readonly snippet: string | null
}

/** A stored capture. */
export interface CaptureRow {
  readonly id: string
  readonly itemId: string | null
  readonly sourceUrl: string | null
  readonly platform: string | null
  readonly title: string
  readonly text: string
  readonly createdAt: Date
  readonly rank: number
  readonly snippet: string | null
}

/** What to search or list: an optional item and creation window. */
export interface ClipFilter {
  readonly itemId?: string | undefined
  readonly createdAfter?: Date | undefined
  readonly createdBefore?: Date | undefined
}

/** Highlights and captures, with full-text search over their `search` columns. */
export class HighlightsRepo extends Context.Tag("svc/highlights/HighlightsRepo")<
  HighlightsRepo,
  {
    /** Stores a highlight, or answers the item's existing one with the same text. */
    readonly insertHighlight: (
      highlight: NewHighlight
    ) => Effect.Effect<{ readonly id: string; readonly note: string; readonly created: boolean }>
    /** Stores a capture, or answers the item's existing one with the same text. */
    readonly insertCapture: (capture: NewCapture) => Effect.Effect<{ readonly id: string; readonly created: boolean }>
    /** Whether the workspace holds this item outside the trash. */
    readonly itemExists: (workspaceId: string, itemId: string) => Effect.Effect<boolean>
    /** Highlights matching a websearch-syntax query, best first (items in the trash left out). */
    readonly searchHighlights: (
      workspaceId: string,
      query: string,
      filter: ClipFilter,
      page: { readonly limit: number; readonly after: RankKey | undefined }
    ) => Effect.Effect<RankedPage<HighlightRow>>
    /** Highlights newest first (items in the trash left out). */
    readonly listHighlights: (
      workspaceId: string,
      filter: ClipFilter,
      page: { readonly limit: number; readonly after: PageKey | undefined }
    ) => Effect.Effect<Page<HighlightRow>>
    /** Captures matching a websearch-syntax query, best first (captures of trashed items left out). */
    readonly searchCaptures: (
      workspaceId: string,
      query: string,
      filter: ClipFilter,
      page: { readonly limit: number; readonly after: RankKey | undefined }
    ) => Effect.Effect<RankedPage<CaptureRow>>
    /** Captures newest first (captures of trashed items left out). */
    readonly listCaptures: (
      workspaceId: string,
      filter: ClipFilter,
      page: { readonly limit: number; readonly after: PageKey | undefined }
    ) => Effect.Effect<Page<CaptureRow>>
  }
>() {}
