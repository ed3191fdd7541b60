import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type { Authenticator } from "@svc/core/auth"
import { ItemType } from "@svc/core/items"
import type { ToolServer } from "@svc/core/tools"
import { Workspaces } from "@svc/core/workspace"
import { Effect, type Layer, Schema } from "effect"
import type { PublicUrl } from "../config.js"
import { type FaceRequest, platformFaceRequest } from "../exchange.js"
import { answerStep, stepJson } from "../ai-steps/caller.js"
import { makeWorkspaceStepGate } from "./gate.js"
import { pageRequestOf, pagingQueryFields, readQuery, refusalIn } from "./input.js"
import type { StepOperation } from "./operation.js"
import { API_PREFIX, ItemRow, itemRow, PageAnswer, pageAnswer } from "./wire.js"

/** `{api_url}/workspaces/<id>/mobile/items`: a workspace's items of one type (`type=canvas`: its boards). */
export const ITEMS_PATH = `${API_PREFIX}/workspaces/:workspace_id/mobile/items` as const
/** `{api_url}/workspaces/<id>/mobile/library`: the New item saved trigger. */
export const LIBRARY_PATH = `${API_PREFIX}/workspaces/:workspace_id/mobile/library` as const

// `canvas` is the automation tool's word for a board.
const StepItemType = Schema.Union(ItemType, Schema.Literal("canvas")).annotations({
  description: "Only items of this type: canvas (or board), note, link, table, media, post or ad. Left out: every type."
})

const ItemsQuery = Schema.Struct({ type: Schema.optional(StepItemType), ...pagingQueryFields })

const ItemsAnswer = PageAnswer(ItemRow)
const encode = Schema.encodeSync(ItemsAnswer)

const workspaceParameter = [
  { name: "workspace_id", description: "Workspace id (ws_…) from GET /me; another account's answers 404." }
]

/** The OpenAPI entry of the Boards step. */
export const itemsOperation: StepOperation = {
  method: "get",
  path: `${API_PREFIX}/workspaces/{workspace_id}/mobile/items`,
  operationId: "listWorkspaceItems",
  summary: "Boards",
  description:
    "The workspace's items, newest first, paged; type=canvas lists its boards. The rules of the Workspace tools (read access).",
  group: "Workspace",
  write: false,
  pathParameters: workspaceParameter,
  query: ItemsQuery,
  answer: ItemsAnswer
}

/** The OpenAPI entry of the New item saved trigger. */
export const libraryOperation: StepOperation = {
  method: "get",
  path: `${API_PREFIX}/workspaces/{workspace_id}/mobile/library`,
  operationId: "listNewItems",
  summary: "New item saved",
  description:
    "Polling trigger: the workspace's items (links, posts, media, notes, …), newest first, each with its stable id and created_at; type narrows them. The rules of the Workspace tools (read access).",
  group: "Workspace",
  write: false,
  pathParameters: workspaceParameter,
  query: ItemsQuery,
  answer: ItemsAnswer
}

const cursorField = refusalIn({ cursor: "starting_after" })

/**
 * `GET {api_url}/workspaces/<id>/mobile/items` and `…/mobile/library`: a workspace's items newest first, narrowed by
 * `type` (`canvas` for boards), paged with `limit` and `starting_after`. Both follow the Workspace tools' rules.
 */
export const ItemsRoutes: Layer.Layer<
  never,
  never,
  HttpLayerRouter.HttpRouter | ToolServer | Authenticator | PublicUrl | Workspaces
> = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const steps = yield* makeWorkspaceStepGate
    const workspaces = yield* Workspaces

    const list = (request: FaceRequest, url: string, workspaceId: string) =>
      Effect.gen(function* () {
        const principal = yield* steps.authorize(request, { group: "Workspace", write: false })
        const query = yield* readQuery(url, ItemsQuery)
        const page = yield* pageRequestOf(query)
        const workspace = yield* steps.workspaceOf(principal, workspaceId)
        const type = query.type === "canvas" ? "board" : query.type
        const items = yield* Effect.mapError(
          workspaces.listItems(workspace.id, { type, limit: page.limit, cursor: page.cursor }),
          cursorField
        )
        return stepJson(200, encode(pageAnswer(items, page, itemRow)))
      })

    for (const path of [ITEMS_PATH, LIBRARY_PATH]) {
      yield* router.add("GET", path, (request) =>
        Effect.flatMap(HttpLayerRouter.params, ({ workspace_id }) =>
          answerStep(list(platformFaceRequest(request), request.url, workspace_id ?? ""))
        )
      )
    }
  })
)
