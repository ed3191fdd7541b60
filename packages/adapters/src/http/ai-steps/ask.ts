import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type { Authenticator } from "@svc/core/auth"
import { ASK_MESSAGE_MAX } from "@svc/core/custom-ai"
import { InvalidInput, renamePaths, unstorableInput } from "@svc/core/shared"
import { toInvalidInput, type ToolServer } from "@svc/core/tools"
import { AskCallbacks } from "@svc/core/webhooks"
import { Effect, type Layer, Schema } from "effect"
import { type BodyError, isJsonObject, parseJson } from "../body.js"
import { HttpFaceSettings, PublicUrl, type PublicUrlShape } from "../config.js"
import { platformFaceRequest, type FaceRequest } from "../exchange.js"
import { instantHookPolicy, OutboundSettings } from "../../http-sender/config.js"
import { answerStep, domainRefusal, makeStepGate, StepRefusal, stepJson } from "./caller.js"

/** Where the automation tool's "Ask a Custom AI" step posts (`{ai_url}/zapier/ask`, the `/ai` prefix being `{ai_url}`). */
export const ASK_STEP_PATH = "/ai/zapier/ask"

/** Where a chat is read as JSON: the `chat_url` the ask step answers. */
export const chatUrl = (url: PublicUrlShape, chatId: string, workspaceId: string): string =>
  `${url.base}/ai/chats/${encodeURIComponent(chatId)}?workspace_id=${encodeURIComponent(workspaceId)}`

const Id = Schema.String.pipe(Schema.maxLength(100))

/** The ask step's body, snake_case as the automation tool sends it; `null` counts as left out. */
const AskStepBody = Schema.Struct({
  message: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(ASK_MESSAGE_MAX)),
  custom_ai_id: Schema.optionalWith(Id, { nullable: true }),
  workspace_id: Schema.optionalWith(Id, { nullable: true }),
  chat_id: Schema.optionalWith(Id, { nullable: true }),
  mode: Schema.optionalWith(Schema.Literal("standard", "max"), { nullable: true }),
  callback_url: Schema.String
})

const decodeBody = Schema.decodeUnknown(AskStepBody)

// The ask service names fields as the tool does (`customAIId`, `chatId`); the step's caller sent them snake_case.
const STEP_FIELDS: Readonly<Record<string, string>> = { customAIId: "custom_ai_id", chatId: "chat_id" }

const inStepFields = <E extends { readonly _tag: string }>(error: E): E | InvalidInput =>
  error instanceof InvalidInput ? renamePaths(error, (path) => STEP_FIELDS[path] ?? path) : error

const bodyRefusal = (error: BodyError) =>
  error._tag === "BodyTooLarge"
    ? new StepRefusal({
        status: 413,
        error: "payload_too_large",
        message: `${error.message}; send at most ${error.maxBytes} bytes`
      })
    : new StepRefusal({ status: 400, error: "bad_request", message: error.reason })

/** The body as a decoded ask, or why not: 413/400 for the bytes, 400 for no JSON object, 422 naming the field. */
const askOf = (request: FaceRequest, maxBytes: number) =>
  Effect.gen(function* () {
    const text = yield* Effect.mapError(request.readBody(maxBytes), bodyRefusal)
    const json = parseJson(text)
    if (!isJsonObject(json)) {
      return yield* new StepRefusal({ status: 400, error: "bad_request", message: "the body must be a JSON object" })
    }
    const unstorable = unstorableInput(json)
    if (unstorable !== undefined) return yield* domainRefusal(unstorable)
    return yield* Effect.mapError(decodeBody(json), (error) => domainRefusal(toInvalidInput(error)))
  })

/**
 * `POST /ai/zapier/ask`: asks a Custom AI (the workspace's default when `custom_ai_id` is left out) and answers at
 * once with the chat, while the answer runs in the background on the usual AI credits; the answer then goes to
 * `callback_url`, which must be on one of the automation tool's hook domains (`SVC_INSTANT_HOOK_HOSTS`).
 */
export const AskStepRoute: Layer.Layer<
  never,
  never,
  HttpLayerRouter.HttpRouter | AskCallbacks | ToolServer | Authenticator | PublicUrl | HttpFaceSettings
> = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const steps = yield* makeStepGate
    const callbacks = yield* AskCallbacks
    const url = yield* PublicUrl
    const { maxBodyBytes } = yield* HttpFaceSettings
    const policy = instantHookPolicy(yield* OutboundSettings)

    const ask = (request: FaceRequest) =>
      Effect.gen(function* () {
        const principal = yield* steps.authorize(request, { group: "Custom AI", write: true })
        const body = yield* askOf(request, maxBodyBytes)
        const workspace = yield* steps.workspaceOf(principal, body.workspace_id)
        const asked = yield* callbacks
          .ask(
            {
              accountId: principal.accountId,
              workspaceId: workspace.id,
              customAiId: body.custom_ai_id,
              message: body.message,
              mode: body.mode,
              chatId: body.chat_id,
              callbackUrl: body.callback_url
            },
            policy
          )
          .pipe(Effect.mapError((error) => domainRefusal(inStepFields(error))))
        return stepJson(200, {
          ok: true,
          chat_id: asked.chatId,
          chat_url: chatUrl(url, asked.chatId, workspace.id),
          message_id: asked.messageId,
          status: asked.status
        })
      })

    yield* router.add("POST", ASK_STEP_PATH, (request) => answerStep(ask(platformFaceRequest(request))))
  })
)
