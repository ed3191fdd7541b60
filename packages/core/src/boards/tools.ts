import { Effect, Schema } from "effect"
import { defineTool } from "../tools/tool.js"
import { NOTE_MAX_CHARACTERS, Note, TITLE_MAX_CHARACTERS } from "../workspace/schema.js"
import { Notes } from "./notes.js"

const Markdown = Schema.String.pipe(Schema.maxLength(NOTE_MAX_CHARACTERS))

/** The Boards & documents group's tools that exist so far. */
export const boardTools = Effect.gen(function* () {
  const notes = yield* Notes
  return [
    defineTool({
      name: "svc_create_note",
      description:
        "Create a Markdown note in the workspace and return it (id, title, body, timestamps). Free. Add to it later with svc_append_to_note; read it with svc_get_note_markdown.",
      input: {
        title: Schema.optional(
          Schema.String.pipe(Schema.maxLength(TITLE_MAX_CHARACTERS)).annotations({
            description: `Note title, up to ${TITLE_MAX_CHARACTERS} characters. Leave out to use the body's first line.`
          })
        ),
        markdown: Markdown.annotations({
          description: `The note body in Markdown, up to ${NOTE_MAX_CHARACTERS} characters.`
        })
      },
      output: { note: Note },
      hints: { destructive: false, idempotent: false, openWorld: false },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          return { note: yield* notes.create(id, input) }
        })
    }),
    defineTool({
      name: "svc_append_to_note",
      description:
        "Append Markdown to the end of a note and return the note as it now is. Free. The addition follows a blank line unless separator says otherwise; a note holds at most 200000 characters.",
      input: {
        noteId: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)).annotations({
          description: "Note id (note_…) from svc_create_note or svc_list_workspace_items."
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
      hints: { destructive: false, idempotent: false, openWorld: false },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          return { note: yield* notes.append(id, input) }
        })
    })
  ]
})
