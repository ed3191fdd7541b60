import { Clock, Effect, Option } from "effect"
import { makeEventRecorder } from "../events/service.js"
import { invalid, NotFound } from "../shared/errors.js"
import { Ids, Transactor } from "../shared/ports.js"
import { ItemsRepo } from "../workspace/ports.js"
import { NOTE_MAX_CHARACTERS, Note, TITLE_MAX_CHARACTERS } from "../workspace/schema.js"

// A note with no title is named after its first line, as a person skimming a list would.
const titleFromMarkdown = (markdown: string): string => {
  const line = markdown.split("\n").find((l) => l.trim().length > 0) ?? ""
  const text = line.replace(/^#+\s*|^[-*>]\s+/, "").trim()
  return text.length === 0 ? "Untitled note" : text.length > 80 ? `${text.slice(0, 79)}…` : text
}

const tooLong = (path: string, characters: number) =>
  invalid(path, `the note would be ${characters} characters; a note holds at most ${NOTE_MAX_CHARACTERS}`)

/** Markdown notes: create, read, append. Every change records its event in the same transaction. */
export class Notes extends Effect.Service<Notes>()("svc/boards/Notes", {
  effect: Effect.gen(function* () {
    const items = yield* ItemsRepo
    const ids = yield* Ids
    const tx = yield* Transactor
    const recordEvent = yield* makeEventRecorder

    const notFound = (noteId: string) =>
      new NotFound({
        message: `no note ${noteId} in this workspace; svc_list_workspace_items with type "note" lists them`
      })

    /** Creates a note; the title defaults to the body's first line. */
    const create = (workspaceId: string, input: { readonly title?: string | undefined; readonly markdown: string }) =>
      Effect.gen(function* () {
        if (input.markdown.length > NOTE_MAX_CHARACTERS) return yield* tooLong("markdown", input.markdown.length)
        const title = input.title?.trim() || titleFromMarkdown(input.markdown)
        if (title.length > TITLE_MAX_CHARACTERS) {
          return yield* invalid("title", `title must be at most ${TITLE_MAX_CHARACTERS} characters`)
        }
        const now = new Date(yield* Clock.currentTimeMillis)
        const note = new Note({
          id: yield* ids.make("note_"),
          title,
          markdown: input.markdown,
          characters: input.markdown.length,
          createdAt: now,
          updatedAt: now
        })
        yield* tx.withTransaction(
          Effect.zipRight(
            items.insertNote(workspaceId, note),
            recordEvent(workspaceId, "item.created", { item_id: note.id, type: "note", title })
          )
        )
        return note
      }).pipe(Effect.withSpan("Notes.create"))

    /** Reads one note with its body. */
    const get = (workspaceId: string, noteId: string) =>
      items
        .findNote(workspaceId, noteId)
        .pipe(Effect.flatMap(Option.match({ onNone: () => Effect.fail(notFound(noteId)), onSome: Effect.succeed })))

    /** Adds Markdown to the end of a note, after a blank line unless told otherwise. */
    const append = (
      workspaceId: string,
      input: { readonly noteId: string; readonly markdown: string; readonly separator?: string | undefined }
    ) =>
      Effect.gen(function* () {
        const separator = input.separator ?? "\n\n"
        const now = new Date(yield* Clock.currentTimeMillis)
        const result = yield* tx.withTransaction(
          Effect.gen(function* () {
            const updated = yield* items.appendToNote(
              workspaceId,
              input.noteId,
              input.markdown,
              separator,
              NOTE_MAX_CHARACTERS,
              now
            )
            if (Option.isSome(updated) && updated.value !== "too-long") {
              yield* recordEvent(workspaceId, "note.updated", {
                note_id: input.noteId,
                change: "appended",
                characters: updated.value.characters
              })
            }
            return updated
          })
        )
        if (Option.isNone(result)) return yield* notFound(input.noteId)
        if (result.value === "too-long") {
          return yield* invalid("markdown", `appending would take the note past ${NOTE_MAX_CHARACTERS} characters`)
        }
        return result.value
      }).pipe(Effect.withSpan("Notes.append"))

    return { create, get, append } as const
  })
}) {}
