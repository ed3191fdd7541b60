import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type { Authenticator } from "@svc/core/auth"
import { Boards } from "@svc/core/boards"
import { BoardId, ItemTitle, LibrarySaves, SavedText, WebUrl } from "@svc/core/library"
import type { ToolServer } from "@svc/core/tools"
import { Effect, type Layer, Schema } from "effect"
import { HttpFaceSettings, type PublicUrl } from "../config.js"
import { type FaceRequest, platformFaceRequest } from "../exchange.js"
import { answerStep, stepJson } from "../ai-steps/caller.js"
import { makeWorkspaceStepGate } from "./gate.js"
import { namedWorkspace, readBody, refusalIn, StepId } from "./input.js"
import type { StepOperation } from "./operation.js"
import { API_PREFIX, Ok, Time } from "./wire.js"

/** `{api_url}/workspace-items/link`: the Save link step. */
export const SAVE_LINK_PATH = `${API_PREFIX}/workspace-items/link` as const
/** `{api_url}/items/<id>/reference`: puts a saved item on a board. */
export const REFERENCE_PATH = `${API_PREFIX}/items/:item_id/reference` as const

// The library's own limits (the save tools' schemas), so the step refuses what the tools refuse.
const NOTE_MAX = 20_000

const workspaceFields = {
  workspace_id: Schema.optionalWith(StepId, { nullable: true }).annotations({
    description: "Workspace id (ws_…); left out: the default workspace."
  })
}

const SaveLinkBody = Schema.Struct({
  url: WebUrl.annotations({ description: "Absolute http(s) address of the page." }),
  title: Schema.optionalWith(ItemTitle, { nullable: true }).annotations({
    description: "Title; left out: the page's own (or one made from the address)."
  }),
  note: Schema.optionalWith(Schema.String.pipe(Schema.maxLength(NOTE_MAX)), { nullable: true }).annotations({
    description: "Your note on the link."
  }),
  text: Schema.optionalWith(SavedText, { nullable: true }).annotations({
    description: "Text of the page, kept as a capture."
  }),
  board_id: Schema.optionalWith(BoardId, { nullable: true }).annotations({
    description: "Board id (board_…) to also place the link on."
  }),
  ...workspaceFields
})

const BoardPlacement = Schema.Struct({
  id: Schema.String.annotations({ description: "Board id (board_…)." }),
  title: Schema.String,
  item_count: Schema.Int.annotations({ description: "Items on the board now." })
})

const SaveLinkAnswer = Schema.Struct({
  ok: Ok,
  id: Schema.String.annotations({ description: "Link id (link_…): the item_id of POST /items/{item_id}/reference." }),
  type: Schema.Literal("link"),
  title: Schema.String,
  url: Schema.String,
  description: Schema.NullOr(Schema.String).annotations({ description: "The page's description, when known." }),
  note: Schema.String,
  reused: Schema.Boolean.annotations({ description: "true when the address was already saved (its item is reused)." }),
  board: Schema.NullOr(BoardPlacement).annotations({ description: "The board it was placed on, or null." }),
  workspace_id: Schema.String,
  created_at: Time,
  updated_at: Time
})

const ReferenceBody = Schema.Struct({
  board_id: BoardId.annotations({ description: "Board id (board_…) to place the item on." }),
  ...workspaceFields
})

const ReferenceAnswer = Schema.Struct({
  ok: Ok,
  item_id: Schema.String,
  board: BoardPlacement,
  x: Schema.Number.annotations({ description: "Where the item sits on the board, in canvas units." }),
  y: Schema.Number,
  added_at: Time,
  workspace_id: Schema.String
})

const encodeSaved = Schema.encodeSync(SaveLinkAnswer)
const encodeReference = Schema.encodeSync(ReferenceAnswer)

/** The OpenAPI entry of the Save link step. */
export const saveLinkOperation: StepOperation = {
  method: "post",
  path: SAVE_LINK_PATH,
  operationId: "saveLink",
  summary: "Save link",
  description:
    "Saves a web link to the workspace's library (an address saved before reuses its item), and onto a board when board_id is given. The rules of the Boards & documents tools (edit access).",
  group: "Boards & documents",
  write: true,
  body: SaveLinkBody,
  answer: SaveLinkAnswer
}

/** The OpenAPI entry of the board reference step. */
export const referenceOperation: StepOperation = {
  method: "post",
  path: `${API_PREFIX}/items/{item_id}/reference`,
  operationId: "placeItemOnBoard",
  summary: "Save link: put it on a board",
  description:
    "Places a saved item (a link from Save link, a note, …) on a board; an item already there stays where it is. The rules of the Boards & documents tools (edit access).",
  group: "Boards & documents",
  write: true,
  pathParameters: [{ name: "item_id", description: "The item's id (link_…, note_…)." }],
  body: ReferenceBody,
  answer: ReferenceAnswer
}

// The one link goes to the library as `links[0]`; the one item to the board as `items[0]`.
const linkFields = refusalIn({
  "links.0.url": "url",
  "links.0.title": "title",
  "links.0.note": "note",
  "links.0.text": "text",
  links: "url",
  boardId: "board_id"
})
const referenceFields = refusalIn({
  "items.0.itemId": "item_id",
  "items.0": "item_id",
  items: "board_id",
  boardId: "board_id"
})

/**
 * `POST {api_url}/workspace-items/link` (save a link, optionally onto a board, as `svc_save_links_to_board`) and
 * `POST {api_url}/items/<id>/reference` (put an item on a board, as `svc_save_items_to_board`).
 */
export const LinkRoutes: Layer.Layer<
  never,
  never,
  HttpLayerRouter.HttpRouter | ToolServer | Authenticator | PublicUrl | HttpFaceSettings | LibrarySaves | Boards
> = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const steps = yield* makeWorkspaceStepGate
    const saves = yield* LibrarySaves
    const boards = yield* Boards
    const { maxBodyBytes } = yield* HttpFaceSettings

    const saveLink = (request: FaceRequest) =>
      Effect.gen(function* () {
        const principal = yield* steps.authorize(request, { group: "Boards & documents", write: true })
        const body = yield* readBody(request, maxBodyBytes, SaveLinkBody)
        const workspace = yield* steps.workspaceOf(principal, namedWorkspace(body))
        const saved = yield* Effect.mapError(
          saves.saveLinks(workspace.id, {
            links: [{ url: body.url, title: body.title, note: body.note, text: body.text }],
            boardId: body.board_id
          }),
          linkFields
        )
        const [link] = saved.links
        if (link === undefined) return yield* Effect.dieMessage("saving one link answered none")
        const description = link.item.data.description
        return stepJson(
          200,
          encodeSaved({
            ok: true,
            id: link.item.id,
            type: "link",
            title: link.item.title,
            url: link.item.url ?? body.url,
            description: typeof description === "string" ? description : null,
            note: link.item.note,
            reused: link.outcome !== "created",
            board:
              saved.board === null
                ? null
                : { id: saved.board.id, title: saved.board.title, item_count: saved.board.itemCount },
            workspace_id: workspace.id,
            created_at: link.item.createdAt,
            updated_at: link.item.updatedAt
          })
        )
      })

    const reference = (request: FaceRequest, itemId: string) =>
      Effect.gen(function* () {
        const principal = yield* steps.authorize(request, { group: "Boards & documents", write: true })
        const body = yield* readBody(request, maxBodyBytes, ReferenceBody)
        const workspace = yield* steps.workspaceOf(principal, namedWorkspace(body))
        const placed = yield* Effect.mapError(
          boards.saveItems(workspace.id, { boardId: body.board_id, items: [{ itemId }] }),
          referenceFields
        )
        const [item] = placed.items
        if (item === undefined) return yield* Effect.dieMessage("placing one item answered none")
        return stepJson(
          200,
          encodeReference({
            ok: true,
            item_id: item.id,
            board: { id: placed.board.id, title: placed.board.title, item_count: placed.board.itemCount },
            x: item.x,
            y: item.y,
            added_at: item.addedAt,
            workspace_id: workspace.id
          })
        )
      })

    yield* router.add("POST", SAVE_LINK_PATH, (request) => answerStep(saveLink(platformFaceRequest(request))))
    yield* router.add("POST", REFERENCE_PATH, (request) =>
      Effect.flatMap(HttpLayerRouter.params, ({ item_id }) =>
        answerStep(reference(platformFaceRequest(request), item_id ?? ""))
      )
    )
  })
)
