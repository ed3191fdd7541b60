import { Context, type Effect, type Option, Schema } from "effect"
import type { IndexedContent, KnowledgePassage, KnowledgeSource } from "./knowledge-schema.js"

/** The fields of a source that organising changes. */
export interface SourceLabels {
  readonly title?: string
  readonly folder?: string | null
  readonly position?: number
}

/** A note source whose note changed or went away since it was indexed. */
export interface StaleNoteSource {
  readonly id: string
  readonly noteId: string
}

/** Stored knowledge: sources with their text, and the chunks full-text search ranks. */
export class KnowledgeRepo extends Context.Tag("svc/custom-ai/KnowledgeRepo")<
  KnowledgeRepo,
  {
    /** Locks the Custom AI's row for the transaction; false when it is not one of the workspace's. */
    readonly lockCustomAi: (workspaceId: string, customAiId: string) => Effect.Effect<boolean>
    readonly count: (workspaceId: string, customAiId: string) => Effect.Effect<number>
    /** The next free position at the end of the Custom AI's list. */
    readonly nextPosition: (workspaceId: string, customAiId: string) => Effect.Effect<number>
    /** Adds a source with its text and chunks. */
    readonly insert: (source: KnowledgeSource, content: IndexedContent) => Effect.Effect<void>
    /** Replaces a source's text and chunks (and title, when given); answers it as it now is. */
    readonly replaceContent: (
      workspaceId: string,
      sourceId: string,
      change: {
        readonly content: IndexedContent
        readonly title?: string
        readonly titleFixed?: boolean
        readonly reference?: string | null
        readonly at: Date
      }
    ) => Effect.Effect<Option.Option<KnowledgeSource>>
    readonly relabel: (
      workspaceId: string,
      sourceId: string,
      labels: SourceLabels,
      at: Date
    ) => Effect.Effect<Option.Option<KnowledgeSource>>
    readonly find: (
      workspaceId: string,
      customAiId: string,
      sourceId: string
    ) => Effect.Effect<Option.Option<KnowledgeSource>>
    /** The Custom AI's sources in list order (position, then age). */
    readonly list: (workspaceId: string, customAiId: string) => Effect.Effect<ReadonlyArray<KnowledgeSource>>
    /** Up to `length` characters of a source's text from `offset` (0-based). */
    readonly readText: (workspaceId: string, sourceId: string, offset: number, length: number) => Effect.Effect<string>
    readonly remove: (workspaceId: string, customAiId: string, sourceId: string) => Effect.Effect<boolean>
    /** Note sources of the Custom AI whose note was edited, trashed or deleted since they were indexed. */
    readonly staleNotes: (workspaceId: string, customAiId: string) => Effect.Effect<ReadonlyArray<StaleNoteSource>>
    /**
     * Chunks matching `terms` (full-text, English), best first: those matching the whole `query` (web-search
     * syntax) before those matching only some of its terms, each by `ts_rank_cd`.
     */
    readonly search: (
      workspaceId: string,
      customAiId: string,
      query: { readonly strict: string; readonly loose: string },
      limit: number
    ) => Effect.Effect<ReadonlyArray<KnowledgePassage>>
  }
>() {}

/** Why a page could not be fetched: the reason is shown on the failed source. */
export class PageFetchFailed extends Schema.TaggedError<PageFetchFailed>()("PageFetchFailed", {
  reason: Schema.Literal("invalid-url", "blocked-address", "dns", "connect", "tls", "timeout", "too-large", "protocol"),
  message: Schema.String
}) {}

/** A fetched page: the last answer after redirects, its body decoded as text. */
export interface FetchedPage {
  readonly status: number
  /** The `content-type` media type, lower case, without parameters; "" when the server sent none. */
  readonly contentType: string
  readonly text: string
  /** The address that answered, after redirects. */
  readonly finalUrl: string
}

/**
 * Fetches web pages for url sources, with the SSRF rules of outgoing HTTP: GET only, public addresses only, each
 * redirect checked, size and time limits. An HTTP error status is an answer, not a failure.
 */
export class PageFetcher extends Context.Tag("svc/custom-ai/PageFetcher")<
  PageFetcher,
  { readonly fetch: (url: string) => Effect.Effect<FetchedPage, PageFetchFailed> }
>() {}

/** A document whose text could not be read (damaged, encrypted, not what its name says). */
export class DocumentUnreadable extends Schema.TaggedError<DocumentUnreadable>()("DocumentUnreadable", {
  message: Schema.String
}) {}

/** Reads the text of uploaded documents that are not plain text. */
export class DocumentText extends Context.Tag("svc/custom-ai/DocumentText")<
  DocumentText,
  { readonly pdfText: (bytes: Uint8Array) => Effect.Effect<string, DocumentUnreadable> }
>() {}
