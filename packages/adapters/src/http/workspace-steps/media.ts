import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type { Authenticator } from "@svc/core/auth"
import { MediaLibrary } from "@svc/core/media"
import type { ToolServer } from "@svc/core/tools"
import { Effect, type Layer, Schema } from "effect"
import { HttpFaceSettings, type PublicUrl } from "../config.js"
import { type FaceRequest, platformFaceRequest } from "../exchange.js"
import { answerStep, stepJson } from "../ai-steps/caller.js"
import { makeWorkspaceStepGate } from "./gate.js"
import { namedWorkspace, readBody, refusalIn, StepId } from "./input.js"
import type { StepOperation } from "./operation.js"
import { API_PREFIX, Ok, Time } from "./wire.js"

/** `{api_url}/scheduling/media/prepare`: the Post media upload step. */
export const PREPARE_MEDIA_PATH = `${API_PREFIX}/scheduling/media/prepare` as const

const PrepareMediaBody = Schema.Struct({
  file_name: Schema.optionalWith(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(255)), {
    nullable: true
  }).annotations({ description: "The file's name, for people; the type is read from the bytes." }),
  workspace_id: Schema.optionalWith(StepId, { nullable: true }).annotations({
    description: "Workspace id (ws_…); left out: the default workspace."
  })
})

const PrepareMediaAnswer = Schema.Struct({
  ok: Ok,
  upload_id: Schema.String.annotations({ description: "mup_…" }),
  media_id: Schema.String.annotations({
    description: "Media id (med_…) the file becomes once sent: put it in the schedule step's media."
  }),
  upload_url: Schema.String.annotations({ description: "PUT the file's bytes here, once, with no other headers." }),
  method: Schema.Literal("PUT"),
  expires_at: Time.annotations({ description: "The URL works until then (15 minutes)." }),
  workspace_id: Schema.String
})

const encode = Schema.encodeSync(PrepareMediaAnswer)

/** The OpenAPI entry of the Post media upload step. */
export const prepareMediaOperation: StepOperation = {
  method: "post",
  path: PREPARE_MEDIA_PATH,
  operationId: "prepareMediaUpload",
  summary: "Post media upload",
  description:
    "Prepares one media upload: answers the URL to PUT the file to (up to 100 MB; JPG, PNG, WebP, GIF, PDF, MP4, MOV or WebM, read from the bytes), as svc_prepare_scheduling_media_upload. The rules of the Scheduling tools (edit access, the Starter plan).",
  group: "Scheduling",
  write: true,
  body: PrepareMediaBody,
  answer: PrepareMediaAnswer
}

const mediaFields = refusalIn({ fileName: "file_name" })

/** `POST {api_url}/scheduling/media/prepare`: a URL to PUT one file to, as `svc_prepare_scheduling_media_upload`. */
export const PrepareMediaRoute: Layer.Layer<
  never,
  never,
  HttpLayerRouter.HttpRouter | ToolServer | Authenticator | PublicUrl | HttpFaceSettings | MediaLibrary
> = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const steps = yield* makeWorkspaceStepGate
    const media = yield* MediaLibrary
    const { maxBodyBytes } = yield* HttpFaceSettings

    const prepare = (request: FaceRequest) =>
      Effect.gen(function* () {
        const principal = yield* steps.authorize(request, { group: "Scheduling", write: true })
        const body = yield* readBody(request, maxBodyBytes, PrepareMediaBody)
        const workspace = yield* steps.workspaceOf(principal, namedWorkspace(body))
        const prepared = yield* Effect.mapError(media.prepare(workspace.id, { fileName: body.file_name }), mediaFields)
        return stepJson(
          200,
          encode({
            ok: true,
            upload_id: prepared.upload.id,
            media_id: prepared.upload.mediaId,
            upload_url: prepared.url,
            method: "PUT",
            expires_at: prepared.upload.expiresAt,
            workspace_id: workspace.id
          })
        )
      })

    yield* router.add("POST", PREPARE_MEDIA_PATH, (request) => answerStep(prepare(platformFaceRequest(request))))
  })
)
