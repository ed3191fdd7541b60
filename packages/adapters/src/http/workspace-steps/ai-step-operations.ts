import { Schema } from "effect"
import type { StepOperation } from "./operation.js"
import { Ok, Time } from "./wire.js"

// The `{ai_url}` steps (ai-steps/), described for the steps' one OpenAPI document. Their routes decode with their own
// schemas; these mirror them field for field (docs/automation-steps.md is the reference for both).

const Source = Schema.Struct({ title: Schema.String, url: Schema.NullOr(Schema.String) })

const AskBody = Schema.Struct({
  message: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(8_000)).annotations({
    description: "The question."
  }),
  callback_url: Schema.String.annotations({
    description: "https address on one of the automation tool's hook domains; the answer is posted there."
  }),
  custom_ai_id: Schema.optionalWith(Schema.String, { nullable: true }).annotations({
    description: "Left out: the chat's Custom AI, else the workspace's default assistant."
  }),
  workspace_id: Schema.optionalWith(Schema.String, { nullable: true }),
  chat_id: Schema.optionalWith(Schema.String, { nullable: true }).annotations({ description: "Continue this chat." }),
  mode: Schema.optionalWith(Schema.Literal("standard", "max"), { nullable: true }).annotations({
    description: "max costs 2 credits instead of 1."
  })
})

const AskAnswer = Schema.Struct({
  ok: Ok,
  chat_id: Schema.String,
  chat_url: Schema.String.annotations({ description: "GET it with the same token: the chat as JSON." }),
  message_id: Schema.String,
  status: Schema.Literal("running", "answered")
})

const Message = Schema.Struct({
  id: Schema.String,
  role: Schema.Literal("user", "assistant"),
  status: Schema.Literal("running", "answered", "failed"),
  text: Schema.String,
  sources: Schema.Array(Source),
  model: Schema.NullOr(Schema.String),
  error: Schema.NullOr(Schema.String),
  created_at: Time,
  answered_at: Schema.NullOr(Time)
})

const ChatAnswer = Schema.Struct({
  ok: Ok,
  chat: Schema.Struct({
    id: Schema.String,
    title: Schema.String,
    custom_ai_id: Schema.String,
    workspace_id: Schema.String
  }),
  messages: Schema.Array(Message).annotations({ description: "The latest 100, oldest first." })
})

const RoutineRun = Schema.Struct({
  id: Schema.String.annotations({ description: "Run id: the trigger's dedupe key." }),
  routine_id: Schema.String,
  routine_name: Schema.String,
  workspace_id: Schema.String,
  status: Schema.String,
  due_at: Time,
  started_at: Time,
  finished_at: Schema.NullOr(Time),
  answer: Schema.NullOr(Schema.String),
  sources: Schema.Array(Source),
  error: Schema.NullOr(Schema.String),
  custom_ai_id: Schema.NullOr(Schema.String),
  chat_id: Schema.NullOr(Schema.String),
  chat_url: Schema.NullOr(Schema.String),
  message_id: Schema.NullOr(Schema.String),
  credits_charged: Schema.Number
})

const WorkspaceQuery = Schema.Struct({
  workspace_id: Schema.optional(Schema.String).annotations({ description: "Left out: the default workspace." })
})

/** The `{ai_url}` steps as the OpenAPI document lists them. */
export const aiStepOperations: ReadonlyArray<StepOperation> = [
  {
    method: "post",
    path: "/ai/zapier/ask",
    operationId: "askCustomAi",
    summary: "Ask a Custom AI",
    description:
      "Asks a Custom AI and answers at once with the chat; the answer is posted to callback_url once ready (1 credit, 2 with mode max). The rules of the Custom AI tools (edit access).",
    group: "Custom AI",
    write: true,
    body: AskBody,
    answer: AskAnswer
  },
  {
    method: "get",
    path: "/ai/chats/{chat_id}",
    operationId: "getChat",
    summary: "Read a chat",
    description: "A Custom AI chat and its latest messages: the chat_url of an ask. Read access to Custom AIs.",
    group: "Custom AI",
    write: false,
    pathParameters: [{ name: "chat_id", description: "The chat's id (chat_…)." }],
    query: WorkspaceQuery,
    answer: ChatAnswer
  },
  {
    method: "get",
    path: "/ai/zapier/routine-runs",
    operationId: "listRoutineRuns",
    summary: "Routine finished",
    description:
      "Polling trigger: each routine's latest run that finished in the last day, newest first, as a JSON array. Read access to routines.",
    group: "Routines",
    write: false,
    query: WorkspaceQuery,
    answer: Schema.Array(RoutineRun)
  }
]
