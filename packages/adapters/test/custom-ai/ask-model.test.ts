import { expect, layer } from "@effect/vitest"
import { Credits } from "@svc/core/credits"
import { AskJobs, CustomAiAsking, CustomAis, ModelRefused, ModelUnreachable, runDueAskJobs } from "@svc/core/custom-ai"
import { Deferred, Effect, Option, TestClock } from "effect"
import { signUp } from "../support/core.js"
import { engineName } from "../support/database.js"
import {
  askTestLayer,
  assistantWithText,
  callTool,
  eventually,
  pastTheClock,
  principalOf,
  realPause,
  scriptedModel,
  testAskSettings
} from "./ask-support.js"

const model = scriptedModel()

const RETURNS =
  "Returns are accepted within 30 days of delivery. Refunds go back to the original card within five working days."

const setUp = Effect.gen(function* () {
  const user = yield* signUp({ plan: "free" })
  const customAi = yield* assistantWithText(user.workspace.id, {
    name: "Helpdesk",
    instructions: "You answer questions about our shop politely.",
    title: "Returns policy",
    text: RETURNS
  })
  const credits = yield* Credits
  const balance = Effect.map(credits.balance(user.account.id), (b) => b.balanceTenths)
  return { user, customAi, balance, principal: yield* principalOf(user.token), before: yield* balance }
})

layer(askTestLayer(model.layer), { timeout: "120 seconds" })(
  `asking a Custom AI with a language model (${engineName})`,
  (it) => {
    it.effect("answers from the model with the knowledge in the prompt, and charges once", () =>
      Effect.gen(function* () {
        const { user, principal, balance, before } = yield* setUp
        model.answerWith(() => Effect.succeed({ text: "Within 30 days [1].", model: "test-model-2" }))
        const seen = model.prompts.length

        const asked = yield* callTool(principal, "svc_ask_custom_ai", { message: "How long do I have to return?" })
        expect(asked).toMatchObject({
          ok: true,
          status: "answered",
          answer: "Within 30 days [1].",
          model: "test-model-2",
          sources: [{ title: "Returns policy", url: null }],
          credits: { charged: 1, balance: (before - 10) / 10 }
        })
        expect(yield* balance).toBe(before - 10)
        expect(model.prompts.length).toBe(seen + 1)
        const prompt = model.prompts[seen]
        expect(prompt?.system).toContain("You answer questions about our shop politely.")
        expect(prompt?.system).toContain("[1] Returns policy")
        expect(prompt?.system).toContain("Returns are accepted within 30 days")
        expect(prompt?.turns).toEqual([{ role: "user", text: "How long do I have to return?" }])
        expect(prompt?.mode).toBe("standard")

        // Reading the answer again charges nothing; continuing the chat (mode max) costs 2 and sends the chat so far.
        expect(yield* callTool(principal, "svc_get_custom_ai_answer", { chatId: asked.chatId })).toEqual(asked)
        const next = yield* callTool(principal, "svc_ask_custom_ai", {
          message: "And the refund?",
          mode: "max",
          chatId: asked.chatId
        })
        expect(next).toMatchObject({ status: "answered", credits: { charged: 2 } })
        expect(yield* balance).toBe(before - 30)
        expect(model.prompts[seen + 1]?.turns).toEqual([
          { role: "user", text: "How long do I have to return?" },
          { role: "assistant", text: "Within 30 days [1]." },
          { role: "user", text: "And the refund?" }
        ])
        expect(model.prompts[seen + 1]?.mode).toBe("max")
        const chats = yield* callTool(principal, "svc_list_chats", {})
        expect((chats.chats as ReadonlyArray<{ id: string }>).map((c) => c.id)).toEqual([asked.chatId])
        expect(user.workspace.id).toBeTruthy()
      })
    )

    it.effect("answers running past the budget, then answered once the model is done", () =>
      Effect.gen(function* () {
        const { user, balance, before } = yield* setUp
        const asking = yield* CustomAiAsking
        const release = yield* Deferred.make<void>()
        model.answerWith(() => Effect.as(Deferred.await(release), { text: "Thirty days.", model: "test-model" }))
        const ask = { accountId: user.account.id, workspaceId: user.workspace.id, message: "Return window?" }

        const running = yield* pastTheClock(asking.ask(ask), testAskSettings.budgetMs)
        expect(running).toMatchObject({ status: "running" })
        expect(running.answer).toBeUndefined()
        const chat = { accountId: user.account.id, workspaceId: user.workspace.id, chatId: running.chatId }
        expect(yield* asking.answer(chat)).toMatchObject({ status: "running", messageId: running.messageId })
        // Charged when asked; the job is held by the run going on in the background.
        expect(yield* balance).toBe(before - 10)

        yield* Deferred.succeed(release, undefined)
        yield* eventually(Effect.map(asking.answer(chat), (answer) => answer.status === "answered"))
        expect(yield* asking.answer(chat)).toMatchObject({
          status: "answered",
          answer: "Thirty days.",
          messageId: running.messageId,
          chargedTenths: 10,
          balanceTenths: before - 10
        })
        expect(yield* balance).toBe(before - 10)
        expect(yield* (yield* AskJobs).find(running.messageId)).toEqual(Option.none())
      })
    )

    it.effect("deleting the Custom AI while an answer runs gives its charge back; answered ones stay charged", () =>
      Effect.gen(function* () {
        const { user, customAi, balance, before } = yield* setUp
        const asking = yield* CustomAiAsking
        const ask = { accountId: user.account.id, workspaceId: user.workspace.id, message: "Return window?" }
        model.answerWith(() => Effect.succeed({ text: "Thirty days.", model: "test-model" }))
        expect(yield* asking.ask(ask)).toMatchObject({ status: "answered" })
        const release = yield* Deferred.make<void>()
        const seen = model.prompts.length
        model.answerWith(() => Effect.as(Deferred.await(release), { text: "Never shown.", model: "test-model" }))
        const running = yield* pastTheClock(asking.ask(ask), testAskSettings.budgetMs)
        expect(running.status).toBe("running")
        expect(yield* balance).toBe(before - 20)

        yield* (yield* CustomAis).remove(user.workspace.id, customAi.id)
        expect(yield* balance).toBe(before - 10)
        expect(yield* (yield* AskJobs).find(running.messageId)).toEqual(Option.none())
        // The model answers after all: its run finds nothing left to record and charges nothing.
        yield* Deferred.succeed(release, undefined)
        yield* realPause(50)
        expect(model.prompts.length).toBe(seen + 1)
        expect(yield* balance).toBe(before - 10)
        const gone = yield* Effect.flip(
          asking.messageAnswer({ accountId: user.account.id, messageId: running.messageId, customAiId: customAi.id })
        )
        expect(gone._tag).toBe("NotFound")
      })
    )

    it.effect("answers unreachable on a 429 and gives the credits back", () =>
      Effect.gen(function* () {
        const { principal, balance, before } = yield* setUp
        model.answerWith(() =>
          Effect.fail(
            new ModelUnreachable({ message: "the provider answered 429 Too Many Requests", retryAfterSeconds: 7 })
          )
        )
        const asked = yield* callTool(principal, "svc_ask_custom_ai", { message: "Can I return shoes?" })
        expect(asked).toMatchObject({ ok: false, status: "unreachable" })
        expect(String(asked.message)).toContain("429")
        expect(String(asked.message)).toContain("Try again in about 7 seconds")
        expect(yield* balance).toBe(before)

        // The chat keeps the failed answer, and says so when read.
        const chats = yield* callTool(principal, "svc_list_chats", {})
        const chatId = (chats.chats as ReadonlyArray<{ id: string }>)[0]?.id
        const read = yield* callTool(principal, "svc_get_custom_ai_answer", { chatId })
        expect(read).toMatchObject({ ok: false, status: "unreachable" })
        expect(String(read.message)).toContain("429")
      })
    )

    it.effect("fails at once with the provider's reason when it refuses the key", () =>
      Effect.gen(function* () {
        const { principal, balance, before } = yield* setUp
        const seen = model.prompts.length
        model.answerWith(() =>
          Effect.fail(new ModelRefused({ message: "the API key was rejected (401); check SVC_AI_API_KEY" }))
        )
        const asked = yield* callTool(principal, "svc_ask_custom_ai", { message: "Can I return a gift?" })
        expect(asked).toMatchObject({ ok: false, status: "unreachable" })
        expect(String(asked.message)).toContain("the API key was rejected (401)")
        expect(model.prompts.length).toBe(seen + 1)
        expect(yield* balance).toBe(before)
      })
    )

    it.effect("refuses a question the balance cannot pay, keeping the question and charging nothing", () =>
      Effect.gen(function* () {
        const { user, principal, balance, before } = yield* setUp
        const credits = yield* Credits
        yield* credits.charge({ accountId: user.account.id, callId: "spend-all", tenths: before, reason: "test" })
        const seen = model.prompts.length
        const asked = yield* callTool(principal, "svc_ask_custom_ai", { message: "Is shipping free?" })
        expect(asked).toMatchObject({ ok: false, status: "forbidden" })
        expect(String(asked.message)).toContain("costs 1 credit and the balance is 0 credits")
        expect(model.prompts.length).toBe(seen)
        expect(yield* balance).toBe(0)
        // The question stays in its chat; no answer was made for it.
        const chats = yield* callTool(principal, "svc_list_chats", {})
        const chatId = (chats.chats as ReadonlyArray<{ id: string; title: string }>)[0]
        expect(chatId?.title).toBe("Is shipping free?")
        expect(yield* callTool(principal, "svc_get_custom_ai_answer", { chatId: chatId?.id })).toMatchObject({
          ok: false,
          status: "not-found"
        })
      })
    )

    it.effect("retries an unreachable model in the background, and charges once when it answers", () =>
      Effect.gen(function* () {
        const { user, balance, before } = yield* setUp
        const asking = yield* CustomAiAsking
        const jobs = yield* AskJobs
        const release = yield* Deferred.make<void>()
        model.answerWith(() =>
          Effect.zipRight(
            Deferred.await(release),
            Effect.fail(new ModelUnreachable({ message: "the provider answered 503" }))
          )
        )
        const running = yield* pastTheClock(
          asking.ask({ accountId: user.account.id, workspaceId: user.workspace.id, message: "Refund time?" }),
          testAskSettings.budgetMs
        )
        expect(running.status).toBe("running")
        // The budget is over, so nobody waits: the failure puts the job back for later and returns the credits.
        yield* Deferred.succeed(release, undefined)
        yield* eventually(
          Effect.map(jobs.find(running.messageId), (job) => Option.isSome(job) && job.value.status === "pending")
        )
        expect(yield* balance).toBe(before)
        const chat = { accountId: user.account.id, workspaceId: user.workspace.id, chatId: running.chatId }
        expect((yield* asking.answer(chat)).status).toBe("running")

        // Not due yet; after the retry delay a worker runs it, this time answered.
        expect(yield* runDueAskJobs({ leaseMs: testAskSettings.leaseMs })).toBe(0)
        model.answerWith(() => Effect.succeed({ text: "Five working days.", model: "test-model" }))
        yield* TestClock.adjust("6 seconds")
        expect(yield* runDueAskJobs({ leaseMs: testAskSettings.leaseMs })).toBe(1)
        expect(yield* asking.answer(chat)).toMatchObject({ status: "answered", answer: "Five working days." })
        expect(yield* balance).toBe(before - 10)
        expect(yield* runDueAskJobs({ leaseMs: testAskSettings.leaseMs })).toBe(0)
      })
    )

    it.effect("gives up after three runs when the model stays unreachable", () =>
      Effect.gen(function* () {
        const { user, balance, before } = yield* setUp
        const asking = yield* CustomAiAsking
        const release = yield* Deferred.make<void>()
        model.answerWith(() =>
          Effect.zipRight(Deferred.await(release), Effect.fail(new ModelUnreachable({ message: "connection refused" })))
        )
        const running = yield* pastTheClock(
          asking.ask({ accountId: user.account.id, workspaceId: user.workspace.id, message: "Exchange?" }),
          testAskSettings.budgetMs
        )
        yield* Deferred.succeed(release, undefined)
        const jobs = yield* AskJobs
        const pending = Effect.map(
          jobs.find(running.messageId),
          (job) => Option.isSome(job) && job.value.status === "pending"
        )
        yield* eventually(pending)
        yield* TestClock.adjust("1 minute")
        expect(yield* runDueAskJobs({ leaseMs: testAskSettings.leaseMs })).toBe(1)
        yield* TestClock.adjust("1 minute")
        expect(yield* runDueAskJobs({ leaseMs: testAskSettings.leaseMs })).toBe(1)
        expect(yield* jobs.find(running.messageId)).toEqual(Option.none())
        const chat = { accountId: user.account.id, workspaceId: user.workspace.id, chatId: running.chatId }
        const failed = yield* Effect.flip(asking.answer(chat))
        expect(failed._tag).toBe("Unreachable")
        expect(failed.message).toContain("tried 3 times")
        expect(yield* balance).toBe(before)
      })
    )
  }
)
