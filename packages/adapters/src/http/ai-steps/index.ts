import { Layer } from "effect"
import { AskStepRoute } from "./ask.js"
import { ChatRoute } from "./chats.js"
import { RoutineRunsRoute } from "./routine-runs.js"

export { ASK_STEP_PATH, AskStepRoute, chatUrl } from "./ask.js"
export { CHAT_PATH, ChatRoute } from "./chats.js"
export { ROUTINE_RUNS_PATH, RoutineRunsRoute } from "./routine-runs.js"

/**
 * The automation tool's steps under `{ai_url}` (the `/ai` prefix of this server): `POST /ai/zapier/ask` and the chat
 * it answers with, `GET /ai/chats/<chat_id>`, and the Routine finished step, `GET /ai/zapier/routine-runs`.
 */
export const AiStepsRoutes = Layer.mergeAll(AskStepRoute, ChatRoute, RoutineRunsRoute)
