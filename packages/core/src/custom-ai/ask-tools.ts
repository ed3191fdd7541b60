import { Effect, Schema } from "effect"
import { creditsOf } from "../credits/costs.js"
import { defineTool } from "../tools/tool.js"
import { type AskAnswer, CustomAiAsking } from "./asking.js"
import { ASK_MESSAGE_MAX } from "./chats.js"

const ChatId = Schema.String.pipe(Schema.maxLength(100)).annotations({
  description: "Chat id (chat_…) from an answer. Listed by svc_list_chats."
})

// One flat answer shape for both tools, so an agent reads a running answer and its later form the same way.
const answerFields = {
  status: Schema.Literal("answered", "running").annotations({
    description: "answered, or running: read it soon with svc_get_custom_ai_answer."
  }),
  chatId: Schema.String.annotations({ description: "The chat; pass it back to continue it." }),
  messageId: Schema.String.annotations({ description: "Answer message id (msg_…)." }),
  answer: Schema.optional(Schema.String.annotations({ description: "The answer text." })),
  sources: Schema.optional(
    Schema.Array(
      Schema.Struct({
        title: Schema.String.annotations({ description: "Source title." }),
        url: Schema.NullOr(Schema.String).annotations({ description: "Its address, or null." })
      })
    ).annotations({ description: "Knowledge the answer drew on." })
  ),
  model: Schema.optional(
    Schema.NullOr(Schema.String).annotations({ description: "Model that answered; null: quoted knowledge." })
  ),
  credits: Schema.optional(
    Schema.Struct({
      charged: Schema.Number.annotations({ description: "Credits charged, e.g. 1." }),
      balance: Schema.Number.annotations({ description: "Credits left, e.g. 12.5." })
    }).annotations({ description: "AI credits (when answered)." })
  )
}

const toOutput = (answer: AskAnswer) => ({
  status: answer.status,
  chatId: answer.chatId,
  messageId: answer.messageId,
  ...(answer.answer === undefined ? {} : { answer: answer.answer }),
  ...(answer.sources === undefined
    ? {}
    : { sources: answer.sources.map((source) => ({ title: source.sourceTitle, url: source.url })) }),
  ...(answer.model === undefined ? {} : { model: answer.model }),
  ...(answer.chargedTenths === undefined || answer.balanceTenths === undefined
    ? {}
    : { credits: { charged: creditsOf(answer.chargedTenths), balance: creditsOf(answer.balanceTenths) } })
})

/** The Custom AI group's svc_ask_custom_ai and svc_get_custom_ai_answer. */
export const askTools = Effect.gen(function* () {
  const asking = yield* CustomAiAsking

  return [
    defineTool({
      name: "svc_ask_custom_ai",
      title: "Ask a Custom AI",
      group: "Custom AI",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: true },
      description:
        "Ask a Custom AI (default: the workspace's default): the answer with its sources, or status running: then svc_get_custom_ai_answer with chatId. Costs 1 credit, 2 with mode max, when a language model answers; without one it quotes the knowledge, free.",
      input: {
        customAIId: Schema.optional(
          Schema.String.pipe(Schema.maxLength(100)).annotations({
            description: "Custom AI id (cai_…); omit for the default."
          })
        ),
        message: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(ASK_MESSAGE_MAX)).annotations({
          description: `The question, 1-${ASK_MESSAGE_MAX} characters.`
        }),
        mode: Schema.optional(
          Schema.Literal("standard", "max").annotations({ description: "max: more thorough, costs 2 credits." })
        ),
        chatId: Schema.optional(ChatId)
      },
      output: answerFields,
      handler: (input, { principal, workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const answer = yield* asking.ask({
            accountId: principal.accountId,
            workspaceId: id,
            customAiId: input.customAIId,
            message: input.message,
            mode: input.mode,
            chatId: input.chatId
          })
          return toOutput(answer)
        })
    }),
    defineTool({
      name: "svc_get_custom_ai_answer",
      title: "Get a Custom AI answer",
      group: "Custom AI",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "Read the latest answer of a Custom AI chat: status running (look again in a few seconds) or answered with text, sources and credits; a failed answer says why. Free.",
      input: { chatId: ChatId },
      output: answerFields,
      handler: (input, { principal, workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          return toOutput(
            yield* asking.answer({ accountId: principal.accountId, workspaceId: id, chatId: input.chatId })
          )
        })
    })
  ]
})
