import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import { AccountsRepo } from "@svc/core/accounts"
import type { Authenticator } from "@svc/core/auth"
import type { ToolServer } from "@svc/core/tools"
import { Workspaces } from "@svc/core/workspace"
import { Effect, type Layer, Option, Schema } from "effect"
import type { PublicUrl } from "../config.js"
import { type FaceRequest, platformFaceRequest } from "../exchange.js"
import { answerStep, domainRefusal, stepJson } from "../ai-steps/caller.js"
import { makeWorkspaceStepGate } from "./gate.js"
import type { StepOperation } from "./operation.js"
import { API_PREFIX, Ok, Time } from "./wire.js"

/** `{api_url}/me`. */
export const ME_PATH = `${API_PREFIX}/me` as const

// One page of the caller's workspaces: an account holds a handful, and the step has no paging of its own.
const WORKSPACES_SHOWN = 100

const WorkspaceRow = Schema.Struct({
  id: Schema.String.annotations({ description: "Workspace id (ws_…): the workspace_id of the other steps." }),
  name: Schema.String,
  is_default: Schema.Boolean.annotations({ description: "The workspace a step uses when it names none." }),
  store: Schema.NullOr(Schema.Struct({ handle: Schema.String, name: Schema.String })),
  created_at: Time
})

const MeAnswer = Schema.Struct({
  ok: Ok,
  user: Schema.Struct({
    id: Schema.String.annotations({ description: "Account id (acct_…)." }),
    email: Schema.NullOr(Schema.String),
    name: Schema.NullOr(Schema.String),
    plan: Schema.String.annotations({ description: "free, starter, …" })
  }),
  default_workspace_id: Schema.NullOr(Schema.String),
  workspaces: Schema.Array(WorkspaceRow).annotations({
    description: `The workspaces the credential reaches, newest first (at most ${WORKSPACES_SHOWN}).`
  })
})

const encode = Schema.encodeSync(MeAnswer)

/** The OpenAPI entry of `GET /me`. */
export const meOperation: StepOperation = {
  method: "get",
  path: ME_PATH,
  operationId: "getMe",
  summary: "Workspaces",
  description:
    "The user behind the token and the workspaces it reaches, for any account on any plan and any access: the automation tool's connection test and its workspace choices.",
  group: null,
  write: false,
  answer: MeAnswer
}

/** `GET {api_url}/me`: the user and their workspaces; any valid token may call it. */
export const MeRoute: Layer.Layer<
  never,
  never,
  HttpLayerRouter.HttpRouter | ToolServer | Authenticator | PublicUrl | Workspaces | AccountsRepo
> = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const steps = yield* makeWorkspaceStepGate
    const workspaces = yield* Workspaces
    const accounts = yield* AccountsRepo

    const me = (request: FaceRequest) =>
      Effect.gen(function* () {
        const principal = yield* steps.identify(request)
        const account = yield* accounts.findById(principal.accountId)
        const page = yield* Effect.mapError(
          workspaces.listWorkspaces(principal, { limit: WORKSPACES_SHOWN }),
          domainRefusal
        )
        return stepJson(
          200,
          encode({
            ok: true,
            user: {
              id: principal.accountId,
              email: Option.getOrNull(Option.map(account, (a) => a.email)),
              name: Option.getOrNull(Option.map(account, (a) => a.name)),
              plan: principal.plan
            },
            default_workspace_id: principal.workspaceId,
            workspaces: page.rows.map(({ workspace, store }) => ({
              id: workspace.id,
              name: workspace.name,
              is_default: workspace.id === principal.workspaceId,
              store: store === null ? null : { handle: store.handle, name: store.name },
              created_at: workspace.createdAt
            }))
          })
        )
      })

    yield* router.add("GET", ME_PATH, (request) => answerStep(me(platformFaceRequest(request))))
  })
)
