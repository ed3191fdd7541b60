import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type { Authenticator } from "@svc/core/auth"
import { ConnectLinks, Scheduling } from "@svc/core/scheduling"
import type { ToolServer } from "@svc/core/tools"
import { Effect, type Layer, Schema } from "effect"
import type { PublicUrl } from "../config.js"
import { type FaceRequest, platformFaceRequest } from "../exchange.js"
import { answerStep, stepJson } from "../ai-steps/caller.js"
import { makeWorkspaceStepGate } from "./gate.js"
import { namedWorkspace, readQuery, workspaceQueryFields } from "./input.js"
import type { StepOperation } from "./operation.js"
import { Ok, SCHEDULING_PREFIX, Time } from "./wire.js"

/** `{scheduling_url}/mcp/schedules`: the Schedules step. */
export const SCHEDULES_PATH = `${SCHEDULING_PREFIX}/mcp/schedules` as const

const SchedulesQuery = Schema.Struct(workspaceQueryFields)

const SchedulesAnswer = Schema.Struct({
  ok: Ok,
  workspace_id: Schema.String,
  time_zone: Schema.String.annotations({ description: "IANA time zone of the slots." }),
  slots: Schema.Array(
    Schema.Struct({
      weekday: Schema.Int.annotations({ description: "1 Monday … 7 Sunday." }),
      time: Schema.String.annotations({ description: 'Local time "HH:MM".' })
    })
  ).annotations({ description: "Weekly posting slots, local time." }),
  next_slots: Schema.Array(Time).annotations({ description: "The next free slot times." }),
  accounts: Schema.Array(
    Schema.Struct({
      id: Schema.String.annotations({ description: "Account id (sac_…)." }),
      platform: Schema.String,
      handle: Schema.String,
      display_name: Schema.NullOr(Schema.String),
      status: Schema.Literal("connected", "needs_reconnect"),
      status_reason: Schema.NullOr(Schema.String),
      connected_at: Time
    })
  ).annotations({ description: "Connected social accounts." }),
  needs_reconnect: Schema.Array(Schema.String).annotations({ description: "Handles of accounts to reconnect." }),
  publishable_to: Schema.Array(Schema.String).annotations({
    description: "The platforms posts can go to on this server (the platforms of the schedule step)."
  }),
  feed_url: Schema.String.annotations({ description: "The workspace's public posts page (platform feed)." })
})

const encode = Schema.encodeSync(SchedulesAnswer)

/** The OpenAPI entry of the Schedules step. */
export const schedulesOperation: StepOperation = {
  method: "get",
  path: SCHEDULES_PATH,
  operationId: "listSchedules",
  summary: "Schedules",
  description:
    "The workspace's posting schedule (time zone, weekly slots, next free slots), its connected accounts and the platforms posts can go to, as svc_list_schedules. The rules of the Scheduling tools (read access, the Starter plan).",
  group: "Scheduling",
  write: false,
  query: SchedulesQuery,
  answer: SchedulesAnswer
}

/** `GET {scheduling_url}/mcp/schedules?workspaceId=<id>`: the schedule as `svc_list_schedules` answers it. */
export const SchedulesRoute: Layer.Layer<
  never,
  never,
  HttpLayerRouter.HttpRouter | ToolServer | Authenticator | PublicUrl | Scheduling | ConnectLinks
> = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const steps = yield* makeWorkspaceStepGate
    const scheduling = yield* Scheduling
    const links = yield* ConnectLinks

    const read = (request: FaceRequest, url: string) =>
      Effect.gen(function* () {
        const principal = yield* steps.authorize(request, { group: "Scheduling", write: false })
        const query = yield* readQuery(url, SchedulesQuery)
        const workspace = yield* steps.workspaceOf(principal, namedWorkspace(query))
        const overview = yield* scheduling.overview(workspace.id)
        return stepJson(
          200,
          encode({
            ok: true,
            workspace_id: workspace.id,
            time_zone: overview.schedule.timeZone,
            slots: overview.schedule.slots,
            next_slots: overview.nextSlots,
            accounts: overview.accounts.map((account) => ({
              id: account.id,
              platform: account.platform,
              handle: account.handle,
              display_name: account.displayName,
              status: account.status,
              status_reason: account.statusReason,
              connected_at: account.updatedAt
            })),
            needs_reconnect: overview.accounts.filter((a) => a.status === "needs_reconnect").map((a) => a.handle),
            publishable_to: overview.publishableTo,
            feed_url: links.feedUrl(overview.feedHandle)
          })
        )
      })

    yield* router.add("GET", SCHEDULES_PATH, (request) => answerStep(read(platformFaceRequest(request), request.url)))
  })
)
