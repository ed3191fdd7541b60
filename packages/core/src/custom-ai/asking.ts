import { Clock, Duration, Effect, Fiber, Option, Ref } from "effect"
import { CUSTOM_AI_MESSAGE_COST } from "../credits/costs.js"
import { Credits } from "../credits/service.js"
import { type Conflict, invalid, NotFound, Unreachable } from "../shared/errors.js"
import { Ids, Transactor } from "../shared/ports.js"
import { withSpan } from "../shared/spans.js"
import { AskJobs, type AskMode, AskSettings } from "./ask-jobs.js"
import { AskJobRunner, type Attendance } from "./ask-runner.js"
import { ChatModel } from "./chat-model.js"
import { ASK_MESSAGE_MAX, type AnswerSource, type ChatMessage, CustomAiChats, CustomAiChatsRepo } from "./chats.js"
import { extractiveAnswer } from "./extractive.js"
import { CustomAiKnowledge } from "./knowledge.js"
import { PROMPT_PASSAGES_MAX } from "./prompt.js"
import { CustomAis } from "./service.js"

/** A question to a Custom AI. */
export interface AskInput {
  /** The account that asks, and pays when a language model answers. */
  readonly accountId: string
  readonly workspaceId: string
  /** The Custom AI to ask; left out: the chat's own, else the workspace's default assistant. */
  readonly customAiId?: string | undefined
  readonly message: string
  readonly mode?: AskMode | undefined
  /** A chat to continue; left out: a new chat. */
  readonly chatId?: string | undefined
  /**
   * How long to wait for a language model before answering `running`; left out: the ask budget
   * (`SVC_AI_ASK_BUDGET_MS`). Callers that report the answer later (automation steps, routines) pass their own.
   */
  readonly waitMs?: number | undefined
  /**
   * The caller's own record of the ask (the automation step's callback, a routine run's message id), committed in
   * the transaction that stores the answer's message, job and charge: a crash can then never leave a charged ask
   * that its caller does not know of (and would ask, and charge, again). Its failure rolls the ask back.
   */
  readonly alongside?: ((asked: AskedIds) => Effect.Effect<void, Conflict>) | undefined
}

/** What an ask stored, for its caller's `alongside` record. */
export interface AskedIds {
  readonly messageId: string
  readonly chatId: string
  readonly customAiId: string
}

/** Where a question stands: answered (with the answer), or still running in the background. */
export interface AskAnswer {
  readonly status: "answered" | "running"
  readonly chatId: string
  /** The assistant message the answer is (or will be) stored as. */
  readonly messageId: string
  readonly customAiId: string
  readonly answer?: string
  readonly sources?: ReadonlyArray<AnswerSource>
  /** The model that answered; null for an extractive answer (no language model configured). */
  readonly model?: string | null
  readonly chargedTenths?: number
  /** The asking account's balance now, in tenths. */
  readonly balanceTenths?: number
}

/**
 * Asking a Custom AI and reading its answers. With no language model configured it answers at once by quoting its
 * knowledge, for free. With one, the question becomes a durable job claimed by this process and run at once; `ask`
 * waits for it up to the budget, then answers `running` and the job goes on (or, if this process dies, is taken
 * over by another instance's worker after its lease).
 */
export class CustomAiAsking extends Effect.Service<CustomAiAsking>()("svc/custom-ai/CustomAiAsking", {
  dependencies: [
    CustomAis.Default,
    CustomAiKnowledge.Default,
    CustomAiChats.Default,
    AskJobRunner.Default,
    Credits.Default
  ],
  scoped: Effect.gen(function* () {
    const customAis = yield* CustomAis
    const chats = yield* CustomAiChats
    const messages = yield* CustomAiChatsRepo
    const jobs = yield* AskJobs
    const runner = yield* AskJobRunner
    const knowledge = yield* CustomAiKnowledge
    const credits = yield* Credits
    const model = yield* ChatModel
    const ids = yield* Ids
    const transactor = yield* Transactor
    const settings = yield* AskSettings
    // Runs started by `ask` outlive the call that started them, not the service: closing it hands their jobs back.
    const runs = yield* Effect.scope

    const assistantOf = (input: AskInput) =>
      Effect.gen(function* () {
        if (input.customAiId === undefined && input.chatId !== undefined) {
          const chat = yield* chats.find(input.workspaceId, input.chatId)
          return yield* customAis.get(input.workspaceId, chat.customAiId)
        }
        return yield* customAis.resolve(input.workspaceId, input.customAiId)
      })

    /** The answer a stored assistant message gives: its text when answered, `Unreachable` with why when failed. */
    const answerOf = (
      message: ChatMessage,
      customAiId: string,
      accountId: string
    ): Effect.Effect<AskAnswer, Unreachable> =>
      Effect.gen(function* () {
        const base = { chatId: message.chatId, messageId: message.id, customAiId }
        switch (message.status) {
          case "running":
            return { status: "running", ...base } satisfies AskAnswer
          case "failed":
            return yield* new Unreachable({ message: message.error ?? "the answer failed; ask again" })
          case "answered": {
            const { balanceTenths } = yield* credits.balance(accountId)
            return {
              status: "answered",
              ...base,
              answer: message.text,
              sources: message.sources,
              model: message.model,
              chargedTenths: message.chargedTenths,
              balanceTenths
            } satisfies AskAnswer
          }
        }
      })

    const storedAnswer = (messageId: string, customAiId: string, accountId: string) =>
      Effect.gen(function* () {
        const found = yield* messages.findMessage(messageId)
        if (Option.isNone(found)) {
          return yield* new NotFound({ message: `the answer ${messageId} is gone (its Custom AI was deleted)` })
        }
        return yield* answerOf(found.value, customAiId, accountId)
      })

    /** Asks the Custom AI; see the class comment. */
    const ask = (input: AskInput) =>
      Effect.gen(function* () {
        const question = input.message.trim()
        if (question.length === 0 || input.message.length > ASK_MESSAGE_MAX) {
          return yield* invalid("message", `message must be 1 to ${ASK_MESSAGE_MAX} characters`)
        }
        const mode = input.mode ?? "standard"
        const customAi = yield* assistantOf(input)
        if (customAi.kind === "course") {
          return yield* invalid(
            "customAIId",
            `${customAi.name} is a course, with its AI turned off; ask an assistant (svc_list_custom_ai)`
          )
        }
        const at = new Date(yield* Clock.currentTimeMillis)
        const { chat } = yield* chats.postQuestion(customAi, input.chatId, question, at)
        const messageId = yield* ids.make("msg_")
        const assistantMessage = (fields: Partial<ChatMessage>): ChatMessage => ({
          id: messageId,
          chatId: chat.id,
          role: "assistant",
          status: "running",
          text: "",
          sources: [],
          model: null,
          chargedTenths: 0,
          error: null,
          createdAt: at,
          answeredAt: null,
          ...fields
        })

        const alongside = Effect.suspend(() =>
          input.alongside === undefined
            ? Effect.void
            : input.alongside({ messageId, chatId: chat.id, customAiId: customAi.id })
        )

        if (Option.isNone(model.description)) {
          const passages = yield* knowledge.search(input.workspaceId, customAi.id, question, {
            limit: PROMPT_PASSAGES_MAX
          })
          const extract = extractiveAnswer(question, passages)
          const message = assistantMessage({
            status: "answered",
            text: extract.text,
            sources: extract.citations,
            answeredAt: at
          })
          yield* transactor.withTransaction(Effect.zipRight(messages.insertMessage(message), alongside))
          return yield* answerOf(message, customAi.id, input.accountId)
        }

        // The message, its job and its charge commit together: a question that cannot be paid leaves no answer
        // behind (only the question), and a charged one always has a job that will finish it.
        const job = yield* transactor.withTransaction(
          Effect.gen(function* () {
            yield* messages.insertMessage(assistantMessage({}))
            const claimed = yield* jobs.insertClaimed(
              {
                messageId,
                chatId: chat.id,
                accountId: input.accountId,
                workspaceId: input.workspaceId,
                customAiId: customAi.id,
                mode
              },
              {
                now: at,
                claimToken: yield* ids.make("clm_"),
                leaseUntil: new Date(at.getTime() + settings.leaseMs)
              }
            )
            yield* credits.charge({
              accountId: input.accountId,
              callId: messageId,
              tenths: CUSTOM_AI_MESSAGE_COST[mode],
              reason: `Custom AI message (${mode}) to ${customAi.id}`
            })
            yield* alongside
            return claimed
          })
        )
        const attendance = yield* Ref.make<Attendance>("waiting")
        const run = yield* Effect.forkIn(runner.run(job, attendance), runs)
        const ended = yield* Fiber.join(run).pipe(
          Effect.timeoutOption(Duration.millis(Math.max(0, input.waitMs ?? settings.budgetMs)))
        )
        if (Option.isNone(ended)) {
          const detached = yield* Ref.modify(attendance, (state): readonly [boolean, Attendance] =>
            state === "waiting" ? [true, "detached"] : [false, state]
          )
          // A run that failed just as the budget ended chose to report to this caller: wait for it to record that.
          if (!detached) yield* Fiber.join(run)
        }
        return yield* storedAnswer(messageId, customAi.id, input.accountId)
      }).pipe(withSpan("CustomAi.ask"))

    /** The latest answer of a chat: `running`, `answered`, or `Unreachable` with why it failed. */
    const answer = (input: { readonly accountId: string; readonly workspaceId: string; readonly chatId: string }) =>
      Effect.gen(function* () {
        const chat = yield* chats.find(input.workspaceId, input.chatId)
        const latest = yield* messages.latestAnswer(chat.id)
        if (Option.isNone(latest)) {
          return yield* new NotFound({
            message: `chat ${chat.id} has no answer yet; ask with svc_ask_custom_ai and this chatId`
          })
        }
        return yield* answerOf(latest.value, chat.customAiId, input.accountId)
      }).pipe(withSpan("CustomAi.answer"))

    /**
     * The answer stored as one assistant message (`msg_…`), for callers that keep the message id of an ask that
     * answered `running`: `running`, `answered`, `Unreachable` when it failed, `NotFound` when its chat is gone.
     */
    const messageAnswer = (input: {
      readonly accountId: string
      readonly messageId: string
      readonly customAiId: string
    }) => storedAnswer(input.messageId, input.customAiId, input.accountId).pipe(withSpan("CustomAi.messageAnswer"))

    return { ask, answer, messageAnswer } as const
  })
}) {}
