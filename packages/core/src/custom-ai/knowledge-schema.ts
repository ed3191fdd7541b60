/** Limits and records of a Custom AI's knowledge: its sources and the passages search finds in them. */

/** What a knowledge source holds: typed text, a workspace note or item, a web page, or an uploaded file. */
export type KnowledgeSourceKind = "text" | "note" | "url" | "file"

/** `ready`: indexed and searched. `failed`: kept with the reason (`failure`), holds no text until refreshed. */
export type KnowledgeSourceStatus = "ready" | "failed"

/** The most characters of text one source holds. */
export const SOURCE_TEXT_MAX = 200_000
/** The most sources one Custom AI holds. */
export const SOURCES_PER_CUSTOM_AI_MAX = 200
/** The longest source title. */
export const SOURCE_TITLE_MAX = 200
/** The longest source web address. */
export const SOURCE_URL_MAX = 2_000
/** The largest uploaded file, in bytes once decoded. */
export const SOURCE_FILE_BYTES_MAX = 5 * 1024 * 1024
/** The longest file name. */
export const SOURCE_FILE_NAME_MAX = 200
/** The longest folder name a source is filed under. */
export const SOURCE_FOLDER_MAX = 100
/** The longest search query, in characters. */
export const KNOWLEDGE_QUERY_MAX = 1_000

/** The reason a note source shows once its note is gone. */
export const NOTE_DELETED = "note deleted"

/** One source of a Custom AI's knowledge, as stored (its text aside). */
export interface KnowledgeSource {
  readonly id: string
  readonly workspaceId: string
  readonly customAiId: string
  readonly kind: KnowledgeSourceKind
  readonly title: string
  /** Whether the title was chosen by a person; a note source otherwise takes its note's title when re-indexed. */
  readonly titleFixed: boolean
  /** The note or item id, the web address, or the file name; none for text. */
  readonly reference: string | null
  readonly status: KnowledgeSourceStatus
  readonly failure: string | null
  /** Length of the indexed text. */
  readonly characters: number
  readonly folder: string | null
  readonly position: number
  /** The media asset a course shows with this source, its lesson (a video, an image, a sound); null: none. */
  readonly mediaId: string | null
  /** For a note source: the note's `updatedAt` when it was indexed, so a later edit is noticed. */
  readonly contentVersion: Date | null
  readonly indexedAt: Date | null
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** A chunk of a source that matched a search. */
export interface KnowledgePassage {
  readonly sourceId: string
  readonly sourceTitle: string
  readonly sourceKind: KnowledgeSourceKind
  /** The page a url source came from. */
  readonly url: string | null
  /** The chunk. */
  readonly text: string
  /** Higher is better. */
  readonly rank: number
}

/** The text of a source and what it was indexed from, ready to be stored with its chunks. */
export interface IndexedContent {
  readonly status: KnowledgeSourceStatus
  readonly failure: string | null
  readonly text: string
  readonly chunks: ReadonlyArray<string>
  readonly contentVersion: Date | null
  /** A title found in the content (a page's `<title>`, a note's title), used unless a person chose one. */
  readonly foundTitle: string | null
}
