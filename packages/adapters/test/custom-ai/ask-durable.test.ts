import { expect, layer } from "@effect/vitest"
import { Credits } from "@svc/core/credits"
import { AskJobs, AskWorkerLive, CustomAiAsking, runDueAskJobs } from "@svc/core/custom-ai"
import { WorkspaceSearch } from "@svc/core/workspace"
import { Effect, Exit, Layer, Option, TestClock } from "effect"
import { signUp } from "../support/core.js"
import { engineName } from "../support/database.js"
import {
  askTestLayer,
  assistantWithText,
  eventually,
  realPause,
  scriptedModel,
  testAskSettings
} from "./ask-support.js"

const model = scriptedModel()

/**
 * A question whose run dies with its process: the model call never returns to it (the fiber dies), so the job stays
 * claimed and leased, as a crashed instance leaves it.
 */
const questionLeftByACrash = Effect.gen(function* () {
  const user = yield* signUp({ plan: "free" })
  yield* assistantWithText(user.workspace.id, {
    name: "Helpdesk",
    title: "Shipping",
    text: "Orders ship within two days from our warehouse in Leeds."
  })
  const balance = Effect.map((yield* Credits).balance(user.account.id), (b) => b.balanceTenths)
  const before = yield* balance
  model.answerWith(() => Effect.dieMessage("the instance crashed"))
  const asking = yield* CustomAiAsking
  const crashed = yield* Effect.exit(
    asking.ask({ accountId: user.account.id, workspaceId: user.workspace.id, message: "When does it ship?" })
  )
  expect(Exit.isFailure(crashed)).toBe(true)
  return { user, balance, before, asking, jobs: yield* AskJobs }
})

/** The workspace's most recently active chat. */
const latestChatId = (workspaceId: string) =>
  Effect.gen(function* () {
    const page = yield* (yield* WorkspaceSearch).listChats(workspaceId, { limit: 1 })
    const first = page.rows[0]
    if (first === undefined) return yield* Effect.dieMessage("no chat")
    return first.id
  }).pipe(Effect.orDie)

layer(askTestLayer(model.layer), { timeout: "120 seconds" })(`durable ask jobs (${engineName})`, (it) => {
  it.effect("a job left leased by a dead instance runs once after its lease, charged once, even with two workers", () =>
    Effect.gen(function* () {
      const { user, balance, before, asking, jobs } = yield* questionLeftByACrash
      // Charged when asked (one entry, keyed by the answer's message id).
      expect(yield* balance).toBe(before - 10)
      const running = yield* asking.answer({
        accountId: user.account.id,
        workspaceId: user.workspace.id,
        chatId: yield* latestChatId(user.workspace.id)
      })
      expect(running.status).toBe("running")
      const held = yield* jobs.find(running.messageId)
      expect(Option.map(held, (job) => [job.status, job.attempts])).toEqual(Option.some(["running", 1]))

      // While the lease lasts, no worker takes it.
      expect(yield* runDueAskJobs({ leaseMs: testAskSettings.leaseMs })).toBe(0)

      let calls = 0
      model.answerWith(() =>
        Effect.sync(() => {
          calls += 1
          return { text: "Within two days.", model: "test-model" }
        })
      )
      yield* TestClock.adjust(testAskSettings.leaseMs + 1)
      const claimed = yield* Effect.all(
        [runDueAskJobs({ leaseMs: testAskSettings.leaseMs }), runDueAskJobs({ leaseMs: testAskSettings.leaseMs })],
        { concurrency: 2 }
      )
      expect(claimed[0] + claimed[1]).toBe(1)
      expect(calls).toBe(1)
      const answered = yield* asking.answer({
        accountId: user.account.id,
        workspaceId: user.workspace.id,
        chatId: running.chatId
      })
      expect(answered).toMatchObject({ status: "answered", answer: "Within two days.", chargedTenths: 10 })
      expect(yield* balance).toBe(before - 10)
      expect(yield* jobs.find(running.messageId)).toEqual(Option.none())
      yield* TestClock.adjust(testAskSettings.leaseMs + 1)
      expect(yield* runDueAskJobs({ leaseMs: testAskSettings.leaseMs })).toBe(0)
      expect(calls).toBe(1)
    })
  )

  it.effect("the worker layer picks the job up by itself once the lease ends", () =>
    Effect.gen(function* () {
      const { user, balance, before, asking } = yield* questionLeftByACrash
      model.answerWith(() => Effect.succeed({ text: "Two days.", model: "test-model" }))
      const chatId = yield* latestChatId(user.workspace.id)
      const chat = { accountId: user.account.id, workspaceId: user.workspace.id, chatId }
      yield* Effect.scoped(
        Effect.gen(function* () {
          yield* Layer.build(AskWorkerLive({ leaseMs: testAskSettings.leaseMs, idleMs: 1_000 }))
          yield* TestClock.adjust(testAskSettings.leaseMs)
          for (let step = 0; step < 500; step++) {
            if ((yield* asking.answer(chat)).status === "answered") break
            yield* realPause()
            yield* TestClock.adjust("1 second")
          }
        })
      )
      yield* eventually(Effect.map(asking.answer(chat), (answer) => answer.status === "answered"))
      expect(yield* asking.answer(chat)).toMatchObject({ status: "answered", answer: "Two days." })
      expect(yield* balance).toBe(before - 10)
    })
  )
})
