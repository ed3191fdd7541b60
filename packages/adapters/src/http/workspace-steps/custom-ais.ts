import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type { Authenticator } from "@svc/core/auth"
import { type CustomAi, CustomAis } from "@svc/core/custom-ai"
import type { ToolServer } from "@svc/core/tools"
import { Effect, type Layer, Schema } from "effect"
import type { PublicUrl } from "../config.js"
import { type FaceRequest, platformFaceRequest } from "../exchange.js"
import { answerStep, stepJson } from "../ai-steps/caller.js"
import { makeWorkspaceStepGate } from "./gate.js"
import { namedWorkspace, pageRequestOf, pagingQueryFields, readQuery, workspaceQueryFields } from "./input.js"
import type { StepOperation } from "./operation.js"
import { API_PREFIX, PageAnswer, pageAnswer, Time } from "./wire.js"

/** `{api_url}/custom-ai`. */
export const CUSTOM_AIS_PATH = `${API_PREFIX}/custom-ai` as const

const CustomAiRow = Schema.Struct({
  id: Schema.String.annotations({ description: "Custom AI id (cai_…): the custom_ai_id of the ask step." }),
  name: Schema.String,
  kind: Schema.String.annotations({ description: "assistant or course." }),
  description: Schema.String,
  is_default: Schema.Boolean.annotations({ description: "The one asked when an ask names none." }),
  created_at: Time,
  updated_at: Time
})

const customAiRow = (customAi: CustomAi): typeof CustomAiRow.Type => ({
  id: customAi.id,
  name: customAi.name,
  kind: customAi.kind,
  description: customAi.description,
  is_default: customAi.isDefault,
  created_at: customAi.createdAt,
  updated_at: customAi.updatedAt
})

const CustomAisQuery = Schema.Struct({ ...workspaceQueryFields, ...pagingQueryFields })
const CustomAisAnswer = PageAnswer(CustomAiRow)
const encode = Schema.encodeSync(CustomAisAnswer)

/** The OpenAPI entry of the Custom AIs step. */
export const customAisOperation: StepOperation = {
  method: "get",
  path: CUSTOM_AIS_PATH,
  operationId: "listCustomAis",
  summary: "Custom AIs",
  description:
    "The workspace's Custom AIs, newest first, paged (workspaceId or workspace_id; left out: the default workspace). The rules of the Custom AI tools (read access).",
  group: "Custom AI",
  write: false,
  query: CustomAisQuery,
  answer: CustomAisAnswer
}

/** `GET {api_url}/custom-ai?workspaceId=<id>`: the workspace's Custom AIs, as `svc_list_custom_ai` lists them. */
export const CustomAisRoute: Layer.Layer<
  never,
  never,
  HttpLayerRouter.HttpRouter | ToolServer | Authenticator | PublicUrl | CustomAis
> = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const steps = yield* makeWorkspaceStepGate
    const customAis = yield* CustomAis

    const list = (request: FaceRequest, url: string) =>
      Effect.gen(function* () {
        const principal = yield* steps.authorize(request, { group: "Custom AI", write: false })
        const query = yield* readQuery(url, CustomAisQuery)
        const page = yield* pageRequestOf(query)
        const workspace = yield* steps.workspaceOf(principal, namedWorkspace(query))
        const found = yield* customAis.listPage(workspace.id, { limit: page.limit, after: page.after })
        return stepJson(200, encode(pageAnswer(found, page, customAiRow)))
      })

    yield* router.add("GET", CUSTOM_AIS_PATH, (request) => answerStep(list(platformFaceRequest(request), request.url)))
  })
)
