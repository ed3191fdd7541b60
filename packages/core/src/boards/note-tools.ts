import { Effect, Schema } from "effect"
import { invalid } from "../shared/errors.js"
import { defineTool } from "../tools/tool.js"
import { LIBRARY_LIMITS } from "../items/limits.js"
import { NOTE_MAX_CHARACTERS, Note, TITLE_MAX_CHARACTERS } from "../items/schema.js"
import { Notes } from "./notes.js"
import { ItemIdField, NotedItem, NoteIdField, titleInput } from "./tool-fields.js"

const PATCH_MAX_EDITS = LIBRARY_LIMITS.patchEdits

const Edit = Schema.Struct({
  find: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(NOTE_MAX_CHARACTERS)).annotations({
    description:
      "The exact passage to replace, copied from the note (spaces and line breaks count); it must occur once unless replaceAll, so include surrounding words."
  }),
  replace: Schema.String.pipe(Schema.maxLength(NOTE_MAX_CHARACTERS)).annotations({
    description: "The text to put in its place; empty to delete the passage."
  }),
  replaceAll: Schema.optional(
    Schema.Boolean.annotations({
      description: "Replace every occurrence instead of requiring exactly one. Default false."
    })
  )
}).annotations({ description: "One find/replace edit." })

const Markdown = Schema.String.pipe(Schema.maxLength(NOTE_MAX_CHARACTERS))

/** The note tools of Boards & documents: create, append, patch, replace, rename, and the note on any item. */
export const noteTools = Effect.gen(function* () {
  const notes = yield* Notes
  return [
    defineTool({
      name: "svc_create_note",
      title: "Create note",
      group: "Boards & documents",
      write: true,
      aliases: [{ name: "svc_create_sticky_note", title: "Create sticky note" }],
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
      description:
        "Create a Markdown note in the workspace and return it (id, title, body, timestamps). Free. Add to it later with svc_append_to_note. Read it with svc_get_note_markdown.",
      input: {
        title: Schema.optional(
          Schema.String.pipe(Schema.maxLength(TITLE_MAX_CHARACTERS)).annotations({
            description: "Note title; leave out to use the body's first line."
          })
        ),
        markdown: Markdown.annotations({
          description: "The note body in Markdown."
        })
      },
      output: { note: Note },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          return { note: yield* notes.create(id, input) }
        })
    }),
    defineTool({
      name: "svc_append_to_note",
      title: "Append to note",
      group: "Boards & documents",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
      description:
        "Append Markdown to the end of a note and return the note as it now is. Free. The addition follows a blank line unless separator says otherwise; a note holds at most 200000 characters.",
      input: {
        noteId: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)).annotations({
          description: "Note id (note_…). From svc_create_note or svc_list_workspace_items."
        }),
        markdown: Markdown.pipe(Schema.minLength(1)).annotations({
          description: "The Markdown to add at the end, 1 or more characters."
        }),
        separator: Schema.optional(
          Schema.String.pipe(Schema.maxLength(10)).annotations({
            description:
              'What goes between the old body and the addition; default "\\n\\n" (a blank line). Not added to an empty note.'
          })
        )
      },
      output: { note: Note },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          return { note: yield* notes.append(id, input) }
        })
    }),
    defineTool({
      name: "svc_patch_note",
      title: "Patch note",
      group: "Boards & documents",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
      description:
        "Edit part of a note and return it: find/replace edits (in order, all or nothing) or a unified diff. Free. A patch that does not apply changes nothing (conflict): reread with svc_get_note_markdown and retry. Whole body: svc_update_note.",
      input: {
        noteId: NoteIdField,
        edits: Schema.optional(
          Schema.Array(Edit)
            .pipe(Schema.minItems(1), Schema.maxItems(PATCH_MAX_EDITS))
            .annotations({
              description: `Find/replace edits, 1 to ${PATCH_MAX_EDITS}, applied in order. Give edits or diff, not both.`
            })
        ),
        diff: Schema.optional(
          Schema.String.pipe(Schema.minLength(1), Schema.maxLength(NOTE_MAX_CHARACTERS)).annotations({
            description:
              "Unified diff of the note body (hunks '@@ -12,3 +12,4 @@', lines starting with space, - or +; ---/+++ headers optional), placed by line number, else where the context matches once. Edits or diff, not both."
          })
        )
      },
      output: { note: Note },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          if (input.edits !== undefined && input.diff !== undefined) {
            return yield* invalid("diff", "give edits or diff, not both")
          }
          if (input.diff !== undefined)
            return { note: yield* notes.patch(id, { noteId: input.noteId, diff: input.diff }) }
          if (input.edits !== undefined) {
            return { note: yield* notes.patch(id, { noteId: input.noteId, edits: input.edits }) }
          }
          return yield* invalid("edits", "give edits (find/replace) or diff (a unified diff)")
        })
    }),
    defineTool({
      name: "svc_update_note",
      title: "Update note",
      group: "Boards & documents",
      write: true,
      annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
      description:
        "Replace a note's whole Markdown body (and its title when given) and return the note as it now is. Free. Destructive: the old body is gone; prefer svc_patch_note for a change to part of it.",
      input: {
        noteId: NoteIdField,
        markdown: Markdown.annotations({
          description: "The new body in Markdown; it replaces the old one entirely."
        }),
        title: Schema.optional(titleInput("New note"))
      },
      output: { note: Note },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          return { note: yield* notes.replace(id, input) }
        })
    }),
    defineTool({
      name: "svc_rename_note",
      title: "Rename note",
      group: "Boards & documents",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description: "Give a note a new title and return the note as it now is. Free. The body is unchanged.",
      input: { noteId: NoteIdField, title: titleInput("New note") },
      output: { note: Note },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          return { note: yield* notes.rename(id, input) }
        })
    }),
    defineTool({
      name: "svc_set_item_note",
      title: "Set item note",
      group: "Boards & documents",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "Set the note of any item (link, board, table, note, post…): what it is about or why it was kept. Replaces the previous note; empty clears it. Returns the item with its note. Free.",
      input: {
        itemId: ItemIdField,
        note: Schema.String.pipe(Schema.maxLength(LIBRARY_LIMITS.itemNoteCharacters)).annotations({
          description: "The note, plain text or Markdown; empty clears it."
        })
      },
      output: { item: NotedItem },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const item = yield* notes.setItemNote(id, input)
          return {
            item: { id: item.id, type: item.type, title: item.title, note: item.note, updatedAt: item.updatedAt }
          }
        })
    })
  ]
})
