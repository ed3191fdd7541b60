import { Context, type Effect, type Option, Schema } from "effect"
import type { IndexedContent, KnowledgePassage, KnowledgeSource } from "./knowledge-schema.js"

/** The fields of a source that organising changes. */
export interface SourceLabels {
  readonly title?: string
  readonly folder?: string | null
  readonly position?: number
  /** The media asset shown with the source when it is a course's lesson; null: none. */
  readonly mediaId?: string | null
}

/** One source's new labels in an arrangement. */
export interface SourceRelabel extends SourceLabels {
  readonly sourceId: string
}

/** A chunk to embed: where it is, and its text (stored only while the chunk still holds that text). */
export interface ChunkText {
  readonly sourceId: string
  readonly position: number
  readonly text: string
}

/** A chunk's embedding by one model. */
export interface ChunkEmbedding extends ChunkText {
  readonly embedding: ReadonlyArray<number>
}

/** A query's embedding, to rank chunks by meaning with the embeddings of the same model. */
export interface QueryVector {
  readonly model: string
  readonly embedding: ReadonlyArray<number>
}

/** Stored knowledge: sources with their text, the chunks full-text search ranks, and the chunks' embeddings. */
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
    readonly staleNotes: (workspaceId: string, customAiId: string) => Effect.Effect<ReadonlyArray<KnowledgeSource>>
    /** Relabels several sources of the Custom AI at once; answers the ids of those found. */
    readonly arrange: (
      workspaceId: string,
      customAiId: string,
      changes: ReadonlyArray<SourceRelabel>,
      at: Date
    ) => Effect.Effect<ReadonlyArray<string>>
    /**
     * Chunks matching `terms` (full-text, English), best first: those matching the whole `query` (web-search
     * syntax) before those matching only some of its terms, each by `ts_rank_cd`. With a `vector`, the full-text
     * ranking and the ranking by meaning (cosine distance to the chunks' embeddings of its model) are fused.
     */
    readonly search: (
      workspaceId: string,
      customAiId: string,
      query: { readonly strict: string; readonly loose: string; readonly vector?: QueryVector | undefined },
      limit: number
    ) => Effect.Effect<ReadonlyArray<KnowledgePassage>>
    /**
     * Whether this database stores embeddings (the `vector` extension, pgvector): sets up their table on first
     * use, creating the extension where the server offers it. False on a PostgreSQL without pgvector.
     */
    readonly vectorsReady: Effect.Effect<boolean>
    /** Chunks of the Custom AI with no embedding by `model` yet, at most `limit`. */
    readonly unembedded: (
      workspaceId: string,
      customAiId: string,
      model: string,
      limit: number
    ) => Effect.Effect<ReadonlyArray<ChunkText>>
    /**
     * Stores embeddings by `model` of chunks that still hold the text embedded, skipping others; answers how many
     * were stored (0 when the write failed: embeddings are filled in again later).
     */
    readonly saveEmbeddings: (model: string, embeddings: ReadonlyArray<ChunkEmbedding>) => Effect.Effect<number>
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

/** A web page as a reader sees it: its title (none when it has no usable one) and its text. */
export interface ReadablePage {
  readonly title: string | null
  readonly text: string
}

/** Reads the text of documents that are not plain text: uploaded PDFs and fetched HTML pages. */
export class DocumentText extends Context.Tag("svc/custom-ai/DocumentText")<
  DocumentText,
  {
    readonly pdfText: (bytes: Uint8Array) => Effect.Effect<string, DocumentUnreadable>
    /**
     * An HTML page's title and readable text: what is never read (scripts, styles, navigation) left out, links
     * kept with their addresses resolved against `pageUrl`.
     */
    readonly pageText: (html: string, pageUrl: string) => Effect.Effect<ReadablePage, DocumentUnreadable>
  }
>() {}
