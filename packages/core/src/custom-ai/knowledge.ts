import { Clock, Effect, Option } from "effect"
import { MediaLibrary } from "../media/service.js"
import { invalid, NotFound } from "../shared/errors.js"
import { Ids, Transactor } from "../shared/ports.js"
import { queryWords } from "./extractive.js"
import {
  checkedText,
  checkedTitle,
  checkedUrl,
  failed,
  makeContentReaders,
  ready,
  type SourceInput
} from "./knowledge-content.js"
import { KnowledgeRepo, type SourceRelabel } from "./knowledge-ports.js"
import {
  type IndexedContent,
  KNOWLEDGE_QUERY_MAX,
  type KnowledgePassage,
  type KnowledgeSource,
  type KnowledgeSourceKind,
  NOTE_DELETED,
  SOURCE_FOLDER_MAX,
  SOURCE_TITLE_MAX,
  SOURCES_PER_CUSTOM_AI_MAX
} from "./knowledge-schema.js"
import { makeKnowledgeVectors } from "./knowledge-vectors.js"
import { cleanText } from "./page-text.js"
import { CustomAis, customAiNotFound } from "./service.js"

export type { SourceInput } from "./knowledge-content.js"

/** What an update changes: the title, and new content of the source's own kind. */
export interface SourceUpdate {
  readonly title?: string | undefined
  readonly text?: string | undefined
  readonly url?: string | undefined
  readonly file?: { readonly name: string; readonly contentBase64: string; readonly mimeType?: string | undefined }
}

/** One source's new folder, position or title. */
export interface SourceArrangement {
  readonly sourceId: string
  readonly title?: string | undefined
  /** A folder name; "" takes the source out of its folder. */
  readonly folder?: string | undefined
  readonly position?: number | undefined
  /** A media asset of the workspace shown with the source when it is a course's lesson; "" takes it off. */
  readonly mediaId?: string | undefined
}

/** A slice of a source's text. */
export interface SourceText {
  readonly source: KnowledgeSource
  readonly text: string
  readonly offset: number
  /** Where the next slice starts; none at the end. */
  readonly nextOffset: number | undefined
}

/** The highest position a source can be given. */
export const SOURCE_POSITION_MAX = 10_000
/** The most passages one search answers. */
export const PASSAGES_MAX = 20

/** A Custom AI's knowledge: its sources (text, notes, web pages, files), kept indexed, searched and read. */
export class CustomAiKnowledge extends Effect.Service<CustomAiKnowledge>()("svc/custom-ai/CustomAiKnowledge", {
  dependencies: [CustomAis.Default, MediaLibrary.Default],
  effect: Effect.gen(function* () {
    const repo = yield* KnowledgeRepo
    const customAis = yield* CustomAis
    const media = yield* MediaLibrary
    const ids = yield* Ids
    const tx = yield* Transactor

    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    const sourceNotFound = (sourceId: string) =>
      new NotFound({ message: `no knowledge source ${sourceId} on this Custom AI; list them with action list` })

    const sourceOf = (workspaceId: string, customAiId: string, sourceId: string) =>
      Effect.flatMap(repo.find(workspaceId, customAiId, sourceId), (found) =>
        Option.isSome(found) ? Effect.succeed(found.value) : Effect.fail(sourceNotFound(sourceId))
      )

    const { noteContent, pageContent, fileContent, contentOf } = yield* makeContentReaders
    const vectors = yield* makeKnowledgeVectors

    const titleFor = (kind: KnowledgeSourceKind, reference: string | null, content: IndexedContent) =>
      content.foundTitle ?? (kind === "url" && reference !== null ? reference : "Untitled")

    /** Adds a source and indexes it. A url that cannot be fetched is kept as `failed` with the reason. */
    const add = (workspaceId: string, customAiId: string, input: SourceInput) =>
      Effect.gen(function* () {
        yield* customAis.get(workspaceId, customAiId)
        const title = yield* checkedTitle(input.title)
        const full = () =>
          invalid("", `a Custom AI holds at most ${SOURCES_PER_CUSTOM_AI_MAX} knowledge sources; remove one first`)
        // Checked before the fetch, so a full list costs no download, and again under the lock below.
        if ((yield* repo.count(workspaceId, customAiId)) >= SOURCES_PER_CUSTOM_AI_MAX) return yield* full()
        const { reference, content } = yield* contentOf(workspaceId, input)
        const at = yield* now
        const id = yield* ids.make("ks_")
        const added = yield* tx.withTransaction(
          Effect.gen(function* () {
            // Adds to one Custom AI wait on its row, so two at once cannot both take the last place.
            if (!(yield* repo.lockCustomAi(workspaceId, customAiId))) return yield* customAiNotFound(customAiId)
            if ((yield* repo.count(workspaceId, customAiId)) >= SOURCES_PER_CUSTOM_AI_MAX) return yield* full()
            const source: KnowledgeSource = {
              id,
              workspaceId,
              customAiId,
              kind: input.kind,
              title: title ?? titleFor(input.kind, reference, content),
              titleFixed: title !== undefined,
              reference,
              status: content.status,
              failure: content.failure,
              characters: content.text.length,
              folder: null,
              position: yield* repo.nextPosition(workspaceId, customAiId),
              mediaId: null,
              contentVersion: content.contentVersion,
              indexedAt: at,
              createdAt: at,
              updatedAt: at
            }
            yield* repo.insert(source, content)
            return source
          })
        )
        if (content.chunks.length > 0) yield* vectors.fillIn(workspaceId, customAiId, 1)
        return added
      })

    const replace = (
      source: KnowledgeSource,
      content: IndexedContent,
      change: { readonly title?: string | undefined; readonly reference?: string | null }
    ) =>
      Effect.gen(function* () {
        const updated = yield* repo.replaceContent(source.workspaceId, source.id, {
          content,
          ...(change.title === undefined ? {} : { title: change.title }),
          ...(change.reference === undefined ? {} : { reference: change.reference }),
          at: yield* now
        })
        if (Option.isNone(updated)) return yield* sourceNotFound(source.id)
        return updated.value
      })

    /** Indexes a source again from where it came from: a page is fetched again, a note read again. */
    const reindex = (source: KnowledgeSource) =>
      Effect.gen(function* () {
        if (source.kind === "note" && source.reference !== null) {
          const found = yield* noteContent(source.workspaceId, source.reference)
          return yield* replace(
            source,
            Option.getOrElse(found, () => failed(NOTE_DELETED)),
            {}
          )
        }
        if (source.kind === "url" && source.reference !== null) {
          return yield* replace(source, yield* pageContent(source.reference), {})
        }
        return source
      })

    /** Re-indexes the note sources whose notes changed since; a deleted note shows as failed "note deleted". */
    const syncNotes = (workspaceId: string, customAiId: string) =>
      Effect.flatMap(repo.staleNotes(workspaceId, customAiId), (stale) =>
        Effect.gen(function* () {
          yield* Effect.forEach(stale, (source) => Effect.ignore(reindex(source)), { discard: true })
          if (stale.length > 0) yield* vectors.fillIn(workspaceId, customAiId, stale.length)
        })
      )

    /** Changes a source's title or content (content of its own kind only); answers it as it now is. */
    const update = (workspaceId: string, customAiId: string, sourceId: string, change: SourceUpdate) =>
      Effect.gen(function* () {
        yield* customAis.get(workspaceId, customAiId)
        const source = yield* sourceOf(workspaceId, customAiId, sourceId)
        const title = yield* checkedTitle(change.title)
        const wrongKind = (field: string, kind: KnowledgeSourceKind) =>
          invalid(field, `${field} changes a ${kind} source; this one is a ${source.kind} source`)
        if (change.text !== undefined && source.kind !== "text") return yield* wrongKind("text", "text")
        if (change.url !== undefined && source.kind !== "url") return yield* wrongKind("url", "url")
        if (change.file !== undefined && source.kind !== "file") return yield* wrongKind("file", "file")
        if (change.text !== undefined) {
          const text = yield* checkedText(change.text)
          return yield* replace(source, ready(text, null), { title })
        }
        if (change.url !== undefined) {
          const url = yield* checkedUrl(change.url)
          return yield* replace(source, yield* pageContent(url), { title, reference: url })
        }
        if (change.file !== undefined) {
          const file = yield* fileContent(change.file)
          return yield* replace(source, file.content, { title, reference: file.name })
        }
        if (title === undefined) return yield* invalid("", "give title, or new content of the source's kind")
        return yield* Option.match(yield* repo.relabel(workspaceId, sourceId, { title }, yield* now), {
          onNone: () => Effect.fail(sourceNotFound(sourceId)),
          onSome: Effect.succeed
        })
      }).pipe(
        Effect.tap(() =>
          change.text !== undefined || change.url !== undefined || change.file !== undefined
            ? vectors.fillIn(workspaceId, customAiId, 1)
            : Effect.void
        )
      )

    /** Fetches or reads again one source, or every url and note source when none is named. */
    const refresh = (workspaceId: string, customAiId: string, sourceId: string | undefined) =>
      Effect.gen(function* () {
        yield* customAis.get(workspaceId, customAiId)
        const sources =
          sourceId !== undefined
            ? [yield* sourceOf(workspaceId, customAiId, sourceId)]
            : yield* repo.list(workspaceId, customAiId)
        const refreshed = yield* Effect.forEach(sources, reindex, { concurrency: 4 })
        // Embedded once all are written, rather than by each re-index over the same missing chunks at once.
        yield* vectors.fillIn(workspaceId, customAiId, sources.length)
        return refreshed
      })

    /** Removes a source with its chunks. */
    const remove = (workspaceId: string, customAiId: string, sourceId: string) =>
      Effect.gen(function* () {
        yield* customAis.get(workspaceId, customAiId)
        if (!(yield* repo.remove(workspaceId, customAiId, sourceId))) return yield* sourceNotFound(sourceId)
      })

    /** The Custom AI's sources in order, notes brought up to date first. */
    const list = (workspaceId: string, customAiId: string) =>
      Effect.gen(function* () {
        yield* customAis.get(workspaceId, customAiId)
        yield* syncNotes(workspaceId, customAiId)
        return yield* repo.list(workspaceId, customAiId)
      })

    /** Up to `length` characters of a source's text from `offset`. */
    const read = (
      workspaceId: string,
      customAiId: string,
      sourceId: string,
      window: { readonly offset: number; readonly length: number }
    ) =>
      Effect.gen(function* () {
        yield* customAis.get(workspaceId, customAiId)
        yield* syncNotes(workspaceId, customAiId)
        const source = yield* sourceOf(workspaceId, customAiId, sourceId)
        const text = yield* repo.readText(workspaceId, sourceId, window.offset, window.length)
        const end = window.offset + text.length
        const result: SourceText = {
          source,
          text,
          offset: window.offset,
          nextOffset: end < source.characters ? end : undefined
        }
        return result
      })

    /** Passages of the Custom AI's knowledge for `query`, best first; empty when nothing matches. */
    const search = (workspaceId: string, customAiId: string, query: string, options?: { readonly limit?: number }) =>
      Effect.gen(function* () {
        yield* customAis.get(workspaceId, customAiId)
        yield* syncNotes(workspaceId, customAiId)
        const strict = cleanText(query).slice(0, KNOWLEDGE_QUERY_MAX)
        const words = queryWords(strict).filter((w) => w !== "or")
        if (words.length === 0) return [] as ReadonlyArray<KnowledgePassage>
        const limit = Math.min(Math.max(Math.trunc(options?.limit ?? 5), 1), PASSAGES_MAX)
        const vector = Option.getOrUndefined(yield* vectors.queryVector(workspaceId, customAiId, strict))
        return yield* repo.search(workspaceId, customAiId, { strict, loose: words.join(" or "), vector }, limit)
      })

    /** Files sources in folders, orders and renames them at once; answers the sources in their new order. */
    const organize = (workspaceId: string, customAiId: string, arrangement: ReadonlyArray<SourceArrangement>) =>
      tx.withTransaction(
        Effect.gen(function* () {
          yield* customAis.get(workspaceId, customAiId)
          const at = yield* now
          // One entry per source, a later change of the same source adding to (and overriding) an earlier one.
          const changes = new Map<string, SourceRelabel>()
          for (const [index, change] of arrangement.entries()) {
            const path = `changes.${index}`
            const title = yield* checkedTitle(change.title).pipe(
              Effect.mapError(() => invalid(`${path}.title`, `title must be 1 to ${SOURCE_TITLE_MAX} characters`))
            )
            const folder = change.folder?.trim()
            if (folder !== undefined && folder.length > SOURCE_FOLDER_MAX) {
              return yield* invalid(`${path}.folder`, `folder must be at most ${SOURCE_FOLDER_MAX} characters`)
            }
            const position = change.position
            if (
              position !== undefined &&
              (!Number.isInteger(position) || position < 0 || position > SOURCE_POSITION_MAX)
            ) {
              return yield* invalid(
                `${path}.position`,
                `position must be a whole number from 0 to ${SOURCE_POSITION_MAX}`
              )
            }
            const mediaId = change.mediaId?.trim()
            if (mediaId !== undefined && mediaId.length > 0) {
              yield* media
                .findReady(workspaceId, [mediaId])
                .pipe(
                  Effect.mapError(() =>
                    invalid(`${path}.mediaId`, `no media file ${mediaId} in this workspace; upload it first`)
                  )
                )
            }
            changes.set(change.sourceId, {
              ...changes.get(change.sourceId),
              sourceId: change.sourceId,
              ...(title === undefined ? {} : { title }),
              ...(folder === undefined ? {} : { folder: folder.length === 0 ? null : folder }),
              ...(position === undefined ? {} : { position }),
              ...(mediaId === undefined ? {} : { mediaId: mediaId.length === 0 ? null : mediaId })
            })
          }
          // One statement for the whole arrangement; a source not found undoes it (the transaction fails).
          const found = new Set(yield* repo.arrange(workspaceId, customAiId, [...changes.values()], at))
          const missing = arrangement.find((change) => !found.has(change.sourceId))
          if (missing !== undefined) return yield* sourceNotFound(missing.sourceId)
          return yield* repo.list(workspaceId, customAiId)
        })
      )

    return { add, update, refresh, remove, list, read, search, organize } as const
  })
}) {}
