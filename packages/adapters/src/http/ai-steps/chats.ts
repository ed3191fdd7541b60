import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type { Authenticator } from "@svc/core/auth"
import { type ChatMessage, CustomAiChats } from "@svc/core/custom-ai"
import type { ToolServer } from "@svc/core/tools"
import { Effect, type Layer } from "effect"
import type { PublicUrl } from "../config.js"
import { type FaceRequest, platformFaceRequest } from "../exchange.js"
import { answerStep, domainRefusal, makeStepGate, StepRefusal, stepJson } from "./caller.js"

/** Where a Custom AI chat is read as JSON (the ask step's `chat_url`). */
export const CHAT_PATH = "/ai/chats/:chat_id"

const messageJson = (message: ChatMessage) => ({
  id: message.id,
  role: message.role,
  status: message.status,
  text: message.text,
  sources: message.sources.map((source) => ({ title: source.sourceTitle, url: source.url })),
  model: message.model,
  error: message.error,
  created_at: message.createdAt.toISOString(),
  answered_at: message.answeredAt?.toISOString() ?? null
})

/**
 * `GET /ai/chats/<chat_id>`: a Custom AI chat and its latest messages (oldest first), for the same bearer tokens as
 * the ask step and any that may read Custom AIs; `workspace_id` (query) names the chat's workspace when it is not
 * the caller's default.
 */
export const ChatRoute: Layer.Layer<
  never,
  never,
  HttpLayerRouter.HttpRouter | CustomAiChats | ToolServer | Authenticator | PublicUrl
> = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const steps = yield* makeStepGate
    const chats = yield* CustomAiChats

    const read = (request: FaceRequest, chatId: string) =>
      Effect.gen(function* () {
        const principal = yield* steps.authorize(request, { group: "Custom AI", write: false })
        const workspaceId = request.query("workspace_id")
        if (workspaceId !== undefined && workspaceId.length > 100) {
          return yield* new StepRefusal({
            status: 422,
            error: "invalid_field",
            message: "workspace_id must be at most 100 characters",
            extra: { errors: [{ path: "workspace_id", message: "must be at most 100 characters" }] }
          })
        }
        const workspace = yield* steps.workspaceOf(principal, workspaceId)
        const { chat, messages } = yield* Effect.mapError(chats.read(workspace.id, chatId), domainRefusal)
        return stepJson(200, {
          ok: true,
          chat: { id: chat.id, title: chat.title, custom_ai_id: chat.customAiId, workspace_id: chat.workspaceId },
          messages: messages.map(messageJson)
        })
      })

    yield* router.add("GET", CHAT_PATH, (request) =>
      Effect.flatMap(HttpLayerRouter.params, ({ chat_id }) =>
        answerStep(read(platformFaceRequest(request), chat_id ?? ""))
      )
    )
  })
)
