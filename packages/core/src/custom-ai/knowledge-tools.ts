import { Effect, Either, Encoding, Schema } from "effect"
import { invalid } from "../shared/errors.js"
import { Cursor, Limit } from "../shared/paging.js"
import { defineTool } from "../tools/tool.js"
import { CustomAiKnowledge, PASSAGES_MAX, SOURCE_POSITION_MAX, type SourceInput } from "./knowledge.js"
import {
  KNOWLEDGE_QUERY_MAX,
  type KnowledgeSource,
  SOURCE_FILE_BYTES_MAX,
  SOURCE_FILE_NAME_MAX,
  SOURCE_FOLDER_MAX,
  SOURCE_TEXT_MAX,
  SOURCE_TITLE_MAX,
  SOURCE_URL_MAX,
  SOURCES_PER_CUSTOM_AI_MAX
} from "./knowledge-schema.js"

const Id = Schema.String.pipe(Schema.maxLength(100))
const CustomAiIdField = Id.annotations({ description: "Custom AI id (cai_…)." })
// Base64 of the largest file, with room for line breaks.
const BASE64_MAX = Math.ceil(SOURCE_FILE_BYTES_MAX / 3) * 4 + 200_000
const READ_MAX = 20_000

const SourceOutput = Schema.Struct({
  id: Schema.String.annotations({ description: "Id (ks_…)." }),
  kind: Schema.Literal("text", "note", "url", "file").annotations({ description: "Source kind." }),
  title: Schema.String.annotations({ description: "Source title." }),
  status: Schema.Literal("ready", "failed").annotations({ description: "See failure." }),
  failure: Schema.optional(Schema.String.annotations({ description: "Why it failed." })),
  ref: Schema.optional(Schema.String.annotations({ description: "Note id/url/file." })),
  characters: Schema.Int.annotations({ description: "Characters." }),
  folder: Schema.optional(Schema.String.annotations({ description: "Its folder." })),
  position: Schema.Int.annotations({ description: "Sort order." }),
  mediaId: Schema.optional(Schema.String.annotations({ description: "Media shown with it as a lesson." }))
})

/** A source as the tools show it: flat, with only the fields that apply. */
const sourceJson = (s: KnowledgeSource): typeof SourceOutput.Type => ({
  id: s.id,
  kind: s.kind,
  title: s.title,
  status: s.status,
  ...(s.failure === null ? {} : { failure: s.failure }),
  ...(s.reference === null ? {} : { ref: s.reference }),
  characters: s.characters,
  ...(s.folder === null ? {} : { folder: s.folder }),
  position: s.position,
  ...(s.mediaId === null ? {} : { mediaId: s.mediaId })
})

const sourcesField = Schema.optional(Schema.Array(SourceOutput).annotations({ description: "Sources, in order." }))
const nextCursorField = Schema.optional(Schema.String.annotations({ description: "Cursor of the next page." }))

// The source list is bounded (at most SOURCES_PER_CUSTOM_AI_MAX), so it is paged in memory, by its order's key.
const keyOf = (s: KnowledgeSource) => `${s.position}.${s.createdAt.getTime()}.${s.id}`
const pageOfSources = (
  sources: ReadonlyArray<KnowledgeSource>,
  limit: number | undefined,
  cursor: string | undefined
) =>
  Effect.gen(function* () {
    let start = 0
    if (cursor !== undefined) {
      const key = Encoding.decodeBase64UrlString(cursor)
      const at = Either.isRight(key) ? sources.findIndex((s) => keyOf(s) === key.right) : -1
      if (at === -1) return yield* invalid("cursor", "cursor is not one this service issued, or its source is gone")
      start = at + 1
    }
    const size = limit ?? 25
    const rows = sources.slice(start, start + size)
    const last = rows[rows.length - 1]
    return {
      sources: rows.map(sourceJson),
      ...(start + size < sources.length && last !== undefined
        ? { nextCursor: Encoding.encodeBase64Url(keyOf(last)) }
        : {})
    }
  })

/** The Custom AI group's knowledge tools, and the Store group's svc_organize_custom_ai_knowledge. */
export const knowledgeTools = Effect.gen(function* () {
  const knowledge = yield* CustomAiKnowledge

  return [
    defineTool({
      name: "svc_manage_custom_ai_sources",
      title: "Manage Custom AI sources",
      group: "Custom AI",
      write: true,
      annotations: { destructiveHint: true, idempotentHint: false, openWorldHint: true },
      description: `List, add, update, remove or refresh (refetch; without sourceId all url and note sources) a Custom AI's knowledge (a course's lessons): text, a note (kept in sync), a url (a failed fetch kept with its reason) or a .md/.txt/.pdf file. At most ${SOURCES_PER_CUSTOM_AI_MAX}. Free.`,
      input: {
        customAIId: CustomAiIdField,
        action: Schema.Literal("list", "add", "update", "remove", "refresh").annotations({
          description: "What to do."
        }),
        sourceId: Schema.optional(Id.annotations({ description: "Source id (ks_…)." })),
        kind: Schema.optional(
          Schema.Literal("text", "note", "url", "file").annotations({ description: "add: the source kind." })
        ),
        title: Schema.optional(
          Schema.String.pipe(Schema.maxLength(SOURCE_TITLE_MAX)).annotations({ description: "add/update: title." })
        ),
        text: Schema.optional(
          Schema.String.pipe(Schema.maxLength(SOURCE_TEXT_MAX)).annotations({ description: "text: the text." })
        ),
        noteId: Schema.optional(Id.annotations({ description: "note: note or item id." })),
        url: Schema.optional(
          Schema.String.pipe(Schema.maxLength(SOURCE_URL_MAX)).annotations({ description: "url: http(s) page." })
        ),
        fileName: Schema.optional(
          Schema.String.pipe(Schema.maxLength(SOURCE_FILE_NAME_MAX)).annotations({
            description: "file: name (.md, .txt, .pdf)."
          })
        ),
        contentBase64: Schema.optional(
          Schema.String.pipe(Schema.maxLength(BASE64_MAX)).annotations({ description: "file: base64, ≤ 5 MB." })
        ),
        limit: Schema.optional(Limit),
        cursor: Schema.optional(Cursor)
      },
      output: {
        sources: sourcesField,
        nextCursor: nextCursorField,
        removedSourceId: Schema.optional(Schema.String.annotations({ description: "remove: the id removed." }))
      },
      handler: (input, context) =>
        Effect.gen(function* () {
          const workspace = yield* context.workspace
          const ws = workspace.id
          const customAiId = input.customAIId
          const needsSource = () =>
            input.sourceId === undefined
              ? Effect.fail(invalid("sourceId", `action ${input.action} needs sourceId`))
              : Effect.succeed(input.sourceId)
          switch (input.action) {
            case "list":
              return yield* pageOfSources(yield* knowledge.list(ws, customAiId), input.limit, input.cursor)
            case "add": {
              const source = yield* sourceInputOf(input)
              return { sources: [sourceJson(yield* knowledge.add(ws, customAiId, source))] }
            }
            case "update": {
              const sourceId = yield* needsSource()
              const file =
                input.fileName !== undefined || input.contentBase64 !== undefined
                  ? { file: { name: input.fileName ?? "", contentBase64: input.contentBase64 ?? "" } }
                  : {}
              const updated = yield* knowledge.update(ws, customAiId, sourceId, {
                title: input.title,
                text: input.text,
                url: input.url,
                ...file
              })
              return { sources: [sourceJson(updated)] }
            }
            case "remove": {
              const sourceId = yield* needsSource()
              yield* knowledge.remove(ws, customAiId, sourceId)
              return { removedSourceId: sourceId }
            }
            case "refresh": {
              const refreshed = yield* knowledge.refresh(ws, customAiId, input.sourceId)
              return yield* pageOfSources(refreshed, input.limit, input.cursor)
            }
          }
        })
    }),
    defineTool({
      name: "svc_read_custom_ai_knowledge",
      title: "Read Custom AI knowledge",
      group: "Custom AI",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description: `Read a knowledge source's text by character offset (≤ ${READ_MAX} a call), or without sourceId list the sources with their status. Free. To find passages use svc_search_custom_ai_knowledge.`,
      input: {
        customAIId: CustomAiIdField,
        sourceId: Schema.optional(Id.annotations({ description: "Source id (ks_…); omit to list." })),
        offset: Schema.optional(
          Schema.Int.pipe(Schema.between(0, SOURCE_TEXT_MAX)).annotations({ description: "From character, 0-based." })
        ),
        length: Schema.optional(
          Schema.Int.pipe(Schema.between(1, READ_MAX)).annotations({ description: `Characters, ≤ ${READ_MAX}.` })
        ),
        limit: Schema.optional(Limit),
        cursor: Schema.optional(Cursor)
      },
      output: {
        sources: sourcesField,
        nextCursor: nextCursorField,
        title: Schema.optional(Schema.String.annotations({ description: "The source's title." })),
        text: Schema.optional(Schema.String.annotations({ description: "The slice of its text." })),
        characters: Schema.optional(Schema.Int.annotations({ description: "Its whole length." })),
        nextOffset: Schema.optional(Schema.Int.annotations({ description: "Offset of the next slice." }))
      },
      handler: (input, context) =>
        Effect.gen(function* () {
          const workspace = yield* context.workspace
          if (input.sourceId === undefined) {
            return yield* pageOfSources(
              yield* knowledge.list(workspace.id, input.customAIId),
              input.limit,
              input.cursor
            )
          }
          const read = yield* knowledge.read(workspace.id, input.customAIId, input.sourceId, {
            offset: input.offset ?? 0,
            length: input.length ?? 10_000
          })
          return {
            title: read.source.title,
            text: read.text,
            characters: read.source.characters,
            ...(read.nextOffset === undefined ? {} : { nextOffset: read.nextOffset })
          }
        })
    }),
    defineTool({
      name: "svc_search_custom_ai_knowledge",
      title: "Search Custom AI knowledge",
      group: "Custom AI",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "Search a Custom AI's knowledge by words (English) and, with an embedding model, by meaning: the best passages with their sources, best first; empty when nothing matches. Free. Then svc_read_custom_ai_knowledge for a whole source.",
      input: {
        customAIId: CustomAiIdField,
        query: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(KNOWLEDGE_QUERY_MAX)).annotations({
          description: 'Words or "a phrase"; -word excludes.'
        }),
        limit: Schema.optional(
          Schema.Int.pipe(Schema.between(1, PASSAGES_MAX)).annotations({
            description: `Passages, 1 to ${PASSAGES_MAX}; default 5.`
          })
        )
      },
      output: {
        passages: Schema.Array(
          Schema.Struct({
            sourceId: Schema.String.annotations({ description: "Source id." }),
            sourceTitle: Schema.String.annotations({ description: "Its title." }),
            sourceKind: Schema.String.annotations({ description: "Source kind." }),
            url: Schema.optional(Schema.String.annotations({ description: "Page address." })),
            text: Schema.String.annotations({ description: "The passage." }),
            rank: Schema.Number.annotations({ description: "Higher: better." })
          })
        ).annotations({ description: "Passages, best first." })
      },
      handler: (input, context) =>
        Effect.gen(function* () {
          const workspace = yield* context.workspace
          const passages = yield* knowledge.search(workspace.id, input.customAIId, input.query, {
            limit: input.limit ?? 5
          })
          return {
            passages: passages.map((p) => ({
              sourceId: p.sourceId,
              sourceTitle: p.sourceTitle,
              sourceKind: p.sourceKind,
              ...(p.url === null ? {} : { url: p.url }),
              text: p.text,
              rank: p.rank
            }))
          }
        })
    }),
    defineTool({
      name: "svc_organize_custom_ai_knowledge",
      title: "Organize Custom AI knowledge",
      group: "Store",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "File a Custom AI's knowledge sources in folders, order (position) and rename them, several at once. For a course: its lessons, a folder a module, mediaId a lesson's video or image. Answers every source in order.",
      input: {
        customAIId: CustomAiIdField,
        changes: Schema.Array(
          Schema.Struct({
            sourceId: Id.annotations({ description: "Source id (ks_…)." }),
            folder: Schema.optional(
              Schema.String.pipe(Schema.maxLength(SOURCE_FOLDER_MAX)).annotations({
                description: `Folder; "" for none.`
              })
            ),
            position: Schema.optional(
              Schema.Int.pipe(Schema.between(0, SOURCE_POSITION_MAX)).annotations({
                description: "Sort order, low first."
              })
            ),
            title: Schema.optional(
              Schema.String.pipe(Schema.maxLength(SOURCE_TITLE_MAX)).annotations({ description: "New title." })
            ),
            mediaId: Schema.optional(
              Schema.String.pipe(Schema.maxLength(100)).annotations({ description: `Lesson media (med_…); "" none.` })
            )
          })
        )
          .pipe(Schema.minItems(1), Schema.maxItems(SOURCES_PER_CUSTOM_AI_MAX))
          .annotations({ description: "One entry per source to change." })
      },
      output: {
        sources: Schema.Array(SourceOutput).annotations({ description: "Every source, in order." })
      },
      handler: (input, context) =>
        Effect.gen(function* () {
          const workspace = yield* context.workspace
          const sources = yield* knowledge.organize(workspace.id, input.customAIId, input.changes)
          return { sources: sources.map(sourceJson) }
        })
    })
  ]
})

// The fields each kind takes on add; a field of another kind is refused rather than silently ignored.
const KIND_FIELDS = {
  text: ["text"],
  note: ["noteId"],
  url: ["url"],
  file: ["fileName", "contentBase64"]
} as const

type AddFields = {
  readonly kind?: SourceInput["kind"] | undefined
  readonly title?: string | undefined
  readonly text?: string | undefined
  readonly noteId?: string | undefined
  readonly url?: string | undefined
  readonly fileName?: string | undefined
  readonly contentBase64?: string | undefined
}

const sourceInputOf = (input: AddFields) =>
  Effect.gen(function* () {
    const kind = input.kind
    if (kind === undefined) return yield* invalid("kind", "action add needs kind: text, note, url or file")
    for (const [other, fields] of Object.entries(KIND_FIELDS)) {
      for (const field of fields) {
        const given = input[field] !== undefined
        if (other === kind && !given) return yield* invalid(field, `a ${kind} source needs ${field}`)
        if (other !== kind && given) return yield* invalid(field, `${field} is for ${other} sources, not ${kind}`)
      }
    }
    const title = input.title
    const source: SourceInput =
      kind === "text"
        ? { kind, title, text: input.text ?? "" }
        : kind === "note"
          ? { kind, title, noteId: input.noteId ?? "" }
          : kind === "url"
            ? { kind, title, url: input.url ?? "" }
            : { kind, title, name: input.fileName ?? "", contentBase64: input.contentBase64 ?? "" }
    return source
  })
