import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type { Authenticator } from "@svc/core/auth"
import { Notes } from "@svc/core/boards"
import { ItemTitle } from "@svc/core/library"
import type { ToolServer } from "@svc/core/tools"
import { Effect, type Layer, Schema } from "effect"
import { HttpFaceSettings, type PublicUrl } from "../config.js"
import { type FaceRequest, platformFaceRequest } from "../exchange.js"
import { answerStep, stepJson } from "../ai-steps/caller.js"
import { makeWorkspaceStepGate } from "./gate.js"
import { namedWorkspace, readBody, refusalIn, StepId } from "./input.js"
import type { StepOperation } from "./operation.js"
import { API_PREFIX, Ok, Time } from "./wire.js"

/** `{api_url}/workspace-items/markdown`: the Create note step. */
export const CREATE_NOTE_PATH = `${API_PREFIX}/workspace-items/markdown` as const

const CreateNoteBody = Schema.Struct({
  markdown: Schema.String.annotations({ description: "The note's body, Markdown (at most 200,000 characters)." }),
  title: Schema.optionalWith(ItemTitle, { nullable: true }).annotations({
    description: "Title; left out: the body's first line."
  }),
  workspace_id: Schema.optionalWith(StepId, { nullable: true }).annotations({
    description: "Workspace id (ws_…); left out: the default workspace."
  })
})

const CreateNoteAnswer = Schema.Struct({
  ok: Ok,
  id: Schema.String.annotations({ description: "Note id (note_…): the item_id of POST /items/{item_id}/reference." }),
  type: Schema.Literal("note"),
  title: Schema.String,
  markdown: Schema.String,
  characters: Schema.Int,
  workspace_id: Schema.String,
  created_at: Time,
  updated_at: Time
})

const encode = Schema.encodeSync(CreateNoteAnswer)

/** The OpenAPI entry of the Create note step. */
export const createNoteOperation: StepOperation = {
  method: "post",
  path: CREATE_NOTE_PATH,
  operationId: "createNote",
  summary: "Create note",
  description:
    "Creates a Markdown note in the workspace, as svc_create_note. The rules of the Boards & documents tools (edit access).",
  group: "Boards & documents",
  write: true,
  body: CreateNoteBody,
  answer: CreateNoteAnswer
}

const noteFields = refusalIn({})

/** `POST {api_url}/workspace-items/markdown`: creates a note, as `svc_create_note`. */
export const CreateNoteRoute: Layer.Layer<
  never,
  never,
  HttpLayerRouter.HttpRouter | ToolServer | Authenticator | PublicUrl | HttpFaceSettings | Notes
> = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const steps = yield* makeWorkspaceStepGate
    const notes = yield* Notes
    const { maxBodyBytes } = yield* HttpFaceSettings

    const create = (request: FaceRequest) =>
      Effect.gen(function* () {
        const principal = yield* steps.authorize(request, { group: "Boards & documents", write: true })
        const body = yield* readBody(request, maxBodyBytes, CreateNoteBody)
        const workspace = yield* steps.workspaceOf(principal, namedWorkspace(body))
        const note = yield* Effect.mapError(
          notes.create(workspace.id, { title: body.title, markdown: body.markdown }),
          noteFields
        )
        return stepJson(
          200,
          encode({
            ok: true,
            id: note.id,
            type: "note",
            title: note.title,
            markdown: note.markdown,
            characters: note.characters,
            workspace_id: workspace.id,
            created_at: note.createdAt,
            updated_at: note.updatedAt
          })
        )
      })

    yield* router.add("POST", CREATE_NOTE_PATH, (request) => answerStep(create(platformFaceRequest(request))))
  })
)
