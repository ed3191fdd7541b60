import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type { Authenticator } from "@svc/core/auth"
import { creditsOf } from "@svc/core/credits"
import { type FinishedRoutineRun, Routines } from "@svc/core/routines"
import type { ToolServer } from "@svc/core/tools"
import { Clock, Effect, type Layer } from "effect"
import { PublicUrl, type PublicUrlShape } from "../config.js"
import { type FaceRequest, platformFaceRequest } from "../exchange.js"
import { chatUrl } from "./ask.js"
import { answerStep, makeStepGate, stepJson } from "./caller.js"

/** Where the automation tool's "Routine finished" trigger polls (`{ai_url}/zapier/routine-runs`). */
export const ROUTINE_RUNS_PATH = "/ai/zapier/routine-runs"

/** How far back the trigger looks: runs that finished in the last day. */
export const ROUTINE_RUNS_WINDOW_MS = 24 * 60 * 60 * 1000

/** One run as the trigger lists it: snake_case, with the `id` the automation tool deduplicates by. */
const runJson = (run: FinishedRoutineRun, workspaceId: string, url: PublicUrlShape) => ({
  id: run.id,
  routine_id: run.routineId,
  routine_name: run.routineName,
  workspace_id: workspaceId,
  status: run.status,
  due_at: run.dueAt.toISOString(),
  started_at: run.startedAt.toISOString(),
  finished_at: run.finishedAt?.toISOString() ?? null,
  answer: run.answer,
  sources: run.sources.map((source) => ({ title: source.sourceTitle, url: source.url })),
  error: run.error,
  custom_ai_id: run.customAiId,
  chat_id: run.chatId,
  chat_url: run.chatId === null ? null : chatUrl(url, run.chatId, workspaceId),
  message_id: run.messageId,
  credits_charged: creditsOf(run.chargedTenths)
})

/**
 * `GET /ai/zapier/routine-runs?workspace_id=<id>`: each routine's latest run that finished in the last day, newest
 * first, with its answer (or why it failed), as a JSON array for the automation tool's polling trigger. The caller
 * is a bearer token as the tools take it (API key or OAuth) with read access to routines; it takes one call from the
 * caller's tool-call limit. `workspace_id` left out: the caller's default workspace; one it cannot reach is a 404.
 */
export const RoutineRunsRoute: Layer.Layer<
  never,
  never,
  HttpLayerRouter.HttpRouter | Routines | ToolServer | Authenticator | PublicUrl
> = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const steps = yield* makeStepGate
    const routines = yield* Routines
    const url = yield* PublicUrl

    const list = (request: FaceRequest) =>
      Effect.gen(function* () {
        const principal = yield* steps.authorize(request, { group: "Routines", write: false })
        const named = request.query("workspace_id")
        const workspace = yield* steps.workspaceOf(principal, named === undefined || named === "" ? undefined : named)
        const now = yield* Clock.currentTimeMillis
        const runs = yield* routines.latestRuns(workspace.id, new Date(now - ROUTINE_RUNS_WINDOW_MS))
        return stepJson(
          200,
          runs.map((run) => runJson(run, workspace.id, url))
        )
      })

    yield* router.add("GET", ROUTINE_RUNS_PATH, (request) => answerStep(list(platformFaceRequest(request))))
  })
)
