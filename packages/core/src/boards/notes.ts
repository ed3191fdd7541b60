import { Clock, Effect, Either, Option } from "effect"
import { makeEventMaker, makeEventRecorder } from "../events/service.js"
import { Conflict, invalid, NotFound } from "../shared/errors.js"
import { Ids, Transactor } from "../shared/ports.js"
import { trusted } from "../shared/trusted.js"
import { LIBRARY_LIMITS } from "../items/limits.js"
import { ItemsRepo } from "../items/ports.js"
import { NOTE_MAX_CHARACTERS, Note, TITLE_MAX_CHARACTERS } from "../items/schema.js"
import { applyEdits, applyUnifiedDiff, type TextEdit } from "./patch.js"
import { withSpan } from "../shared/spans.js"

/** The ways svc_patch_note can change a note: find/replace edits or a unified diff. */
export type NotePatch =
  | { readonly edits: ReadonlyArray<TextEdit>; readonly diff?: undefined }
  | { readonly diff: string; readonly edits?: undefined }

// A note with no title is named after its first line, as a person skimming a list would.
const titleFromMarkdown = (markdown: string): string => {
  const line = markdown.split("\n").find((l) => l.trim().length > 0) ?? ""
  const text = line.replace(/^#+\s*|^[-*>]\s+/, "").trim()
  return text.length === 0 ? "Untitled note" : text.length > 80 ? `${text.slice(0, 79)}…` : text
}

const tooLong = (path: string, characters: number) =>
  invalid(path, `the note would be ${characters} characters; a note holds at most ${NOTE_MAX_CHARACTERS}`)

/** Markdown notes (create, read, append, patch, replace, rename) and the note on any item. Every change records its event in the same transaction. */
export class Notes extends Effect.Service<Notes>()("svc/boards/Notes", {
  effect: Effect.gen(function* () {
    const items = yield* ItemsRepo
    const ids = yield* Ids
    const tx = yield* Transactor
    const recordEvent = yield* makeEventRecorder
    const makeEvent = yield* makeEventMaker

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
        // Lengths are checked above; the types guarantee the rest.
        const note = new Note(
          {
            id: yield* ids.make("note_"),
            title,
            markdown: input.markdown,
            characters: input.markdown.length,
            createdAt: now,
            updatedAt: now
          },
          trusted
        )
        // The note and its event in one statement: atomic on its own, so no transaction (see `insertNote`).
        yield* items.insertNote(
          workspaceId,
          note,
          yield* makeEvent(workspaceId, "item.created", { item_id: note.id, type: "note", title }, now)
        )
        return note
      }).pipe(withSpan("Notes.create", { captureStackTrace: false }))

    /** Reads one note with its body. */
    // A plain check, not Option.match: compiled with keepNames (tsx) every named arrow made per call costs a
    // defineProperty, and this read is the hottest tool call.
    const get = (workspaceId: string, noteId: string) =>
      items
        .findNote(workspaceId, noteId)
        .pipe(
          Effect.flatMap((found) =>
            Option.isSome(found) ? Effect.succeed(found.value) : Effect.fail(notFound(noteId))
          )
        )

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
      }).pipe(withSpan("Notes.append", { captureStackTrace: false }))

    // Reads the note under a row lock, computes the new body and writes it, so concurrent edits never lose each other.
    const rewrite = (
      workspaceId: string,
      noteId: string,
      change: string,
      compute: (note: Note) => Effect.Effect<{ readonly markdown: string; readonly title?: string }, Conflict>
    ) =>
      Effect.gen(function* () {
        const now = new Date(yield* Clock.currentTimeMillis)
        return yield* tx.withTransaction(
          Effect.gen(function* () {
            const current = yield* items.lockNote(workspaceId, noteId)
            if (Option.isNone(current)) return yield* notFound(noteId)
            const next = yield* compute(current.value)
            if (next.markdown.length > NOTE_MAX_CHARACTERS) return yield* tooLong("markdown", next.markdown.length)
            if (
              next.markdown === current.value.markdown &&
              (next.title ?? current.value.title) === current.value.title
            ) {
              return current.value
            }
            const note = yield* items.replaceNoteBody(workspaceId, noteId, next, now)
            yield* recordEvent(workspaceId, "note.updated", {
              note_id: noteId,
              change,
              characters: note.characters,
              ...(next.title !== undefined ? { title: note.title } : {})
            })
            return note
          })
        )
      })

    /** Applies find/replace edits or a unified diff; a patch that does not apply fails with `Conflict` saying why. */
    const patch = (workspaceId: string, input: { readonly noteId: string } & NotePatch) =>
      rewrite(workspaceId, input.noteId, "patched", (note) => {
        const result =
          input.diff !== undefined
            ? applyUnifiedDiff(note.markdown, input.diff)
            : applyEdits(note.markdown, input.edits)
        return Either.match(result, {
          onLeft: (reason) => Effect.fail(new Conflict({ message: `the patch does not apply: ${reason}` })),
          onRight: (markdown) => Effect.succeed({ markdown })
        })
      }).pipe(withSpan("Notes.patch", { captureStackTrace: false }))

    /** Replaces a note's whole body, and its title when given. */
    const replace = (
      workspaceId: string,
      input: { readonly noteId: string; readonly markdown: string; readonly title?: string | undefined }
    ) =>
      Effect.gen(function* () {
        if (input.markdown.length > NOTE_MAX_CHARACTERS) return yield* tooLong("markdown", input.markdown.length)
        const title = input.title?.trim()
        if (input.title !== undefined && !title) return yield* invalid("title", "title must not be blank")
        return yield* rewrite(workspaceId, input.noteId, "replaced", () =>
          Effect.succeed(title === undefined ? { markdown: input.markdown } : { markdown: input.markdown, title })
        )
      }).pipe(withSpan("Notes.replace", { captureStackTrace: false }))

    /** Gives a note a new title. */
    const rename = (workspaceId: string, input: { readonly noteId: string; readonly title: string }) =>
      Effect.gen(function* () {
        const title = input.title.trim()
        if (!title) return yield* invalid("title", "title must not be blank")
        return yield* rewrite(workspaceId, input.noteId, "renamed", (note) =>
          Effect.succeed({ markdown: note.markdown, title })
        )
      }).pipe(withSpan("Notes.rename", { captureStackTrace: false }))

    /** Sets the note of any item (what a person wrote about it); an empty note clears it. */
    const setItemNote = (workspaceId: string, input: { readonly itemId: string; readonly note: string }) =>
      Effect.gen(function* () {
        if (input.note.length > LIBRARY_LIMITS.itemNoteCharacters) {
          return yield* invalid(
            "note",
            `an item note holds at most ${LIBRARY_LIMITS.itemNoteCharacters} characters (got ${input.note.length}); keep longer writing in a note (svc_create_note)`
          )
        }
        const now = new Date(yield* Clock.currentTimeMillis)
        return yield* tx.withTransaction(
          Effect.gen(function* () {
            const item = yield* items.lockItem(workspaceId, input.itemId)
            if (Option.isNone(item) || item.value.trashedAt !== null) {
              return yield* new NotFound({
                message: `no item ${input.itemId} in this workspace (or it is in the trash); svc_list_workspace_items lists them`
              })
            }
            if (item.value.note === input.note) return { ...item.value }
            yield* items.updateItem(workspaceId, input.itemId, { note: input.note }, now)
            yield* recordEvent(workspaceId, "item.note_set", {
              item_id: input.itemId,
              characters: input.note.length
            })
            return { ...item.value, note: input.note, updatedAt: now }
          })
        )
      }).pipe(withSpan("Notes.setItemNote", { captureStackTrace: false }))

    return { create, get, append, patch, replace, rename, setItemNote } as const
  })
}) {}
