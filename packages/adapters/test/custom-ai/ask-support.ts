/**
 * The core on the test database for asking Custom AIs, with a language model the test scripts (the provider is an
 * outside system: its port gets a test double; our storage stays real).
 */
import { CoreLive, toolServerLive } from "@svc/core"
import { type Principal, ApiKeys, AuthSettings } from "@svc/core/auth"
import {
  AskSettings,
  type AskSettingsShape,
  askTools,
  ChatModel,
  CustomAiKnowledge,
  CustomAis,
  type ModelAnswer,
  type ModelPrompt,
  type ModelRefused,
  type ModelUnreachable
} from "@svc/core/custom-ai"
import { ToolServer } from "@svc/core/tools"
import { searchTools } from "@svc/core/workspace"
import { Duration, Effect, Fiber, Layer, Option, TestClock } from "effect"
import { DocumentTextLive } from "../../src/ai/document-text.js"
import { NoChatModelLive } from "../../src/ai/none.js"
import { SqlPortsLive } from "../../src/sql/layers.js"
import { migrations } from "../../src/sql/migrations/index.js"
import { testPageFetcherLayer, testSchedulingPorts, testSenderLayer } from "../support/core.js"
import { testDatabaseLayer } from "../support/database.js"

/** What the scripted model does with one prompt. */
export type ModelStep = (prompt: ModelPrompt) => Effect.Effect<ModelAnswer, ModelUnreachable | ModelRefused>

/** A language model whose answers the test sets, recording every prompt it was given. */
export const scriptedModel = () => {
  const prompts: Array<ModelPrompt> = []
  let step: ModelStep = (prompt) =>
    Effect.succeed({ text: `Answer to: ${prompt.turns[prompt.turns.length - 1]?.text ?? ""}`, model: "test-model" })
  const layer = Layer.succeed(ChatModel, {
    description: Option.some({ provider: "openai-compatible", model: "test-model", embeddingModel: Option.none() }),
    generate: (prompt) =>
      Effect.suspend(() => {
        prompts.push(prompt)
        return step(prompt)
      }),
    embed: Option.none()
  })
  return {
    layer,
    prompts,
    /** Sets what the following calls do. */
    answerWith: (next: ModelStep) => {
      step = next
    }
  }
}

/** The asking settings the tests run with: a 1 s budget, a 60 s lease. */
export const testAskSettings: AskSettingsShape = { budgetMs: 1_000, leaseMs: 60_000 }

/** The core (tools: asking and chats) over the test database, with `model` (default: none configured). */
export const askTestLayer = (
  model: Layer.Layer<ChatModel> = NoChatModelLive,
  settings: AskSettingsShape = testAskSettings
) =>
  toolServerLive([askTools, searchTools]).pipe(
    Layer.provideMerge(CoreLive),
    Layer.provideMerge(Layer.merge(SqlPortsLive, testSchedulingPorts)),
    Layer.provideMerge(testSenderLayer),
    Layer.provideMerge(model),
    Layer.provideMerge(testPageFetcherLayer),
    Layer.provideMerge(DocumentTextLive),
    Layer.provideMerge(AuthSettings.Default),
    Layer.provideMerge(Layer.succeed(AskSettings, settings)),
    Layer.provideMerge(testDatabaseLayer(migrations))
  )

/** Calls a tool through the real tool server as `principal`, answering its body. */
export const callTool = (principal: Principal, name: string, args: unknown) =>
  Effect.flatMap(ToolServer, (server) => server.call(principal, name, args)).pipe(
    Effect.map((answer) => answer as Record<string, unknown>),
    Effect.orDie
  )

/** The principal of an API key token. */
export const principalOf = (token: string) => Effect.flatMap(ApiKeys, (keys) => keys.authenticate(token))

/** A Custom AI in the workspace that knows one text source. */
export const assistantWithText = (
  workspaceId: string,
  fields: { readonly name: string; readonly instructions?: string; readonly title: string; readonly text: string }
) =>
  Effect.gen(function* () {
    const customAi = yield* (yield* CustomAis).create(workspaceId, {
      name: fields.name,
      instructions: fields.instructions ?? ""
    })
    yield* (yield* CustomAiKnowledge).add(workspaceId, customAi.id, {
      kind: "text",
      title: fields.title,
      text: fields.text
    })
    return customAi
  }).pipe(Effect.orDie)

/** Waits a moment of real time (the test clock stands still), so work in other fibers can move on. */
export const realPause = (ms = 10) => Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, ms)))

/**
 * Runs `effect` on a fiber and moves the test clock on by `stepMs` until it ends: the way past a budget or a lease
 * without knowing exactly when the fiber starts waiting.
 */
export const pastTheClock = <A, E, R>(effect: Effect.Effect<A, E, R>, stepMs: number) =>
  Effect.gen(function* () {
    const fiber = yield* Effect.fork(effect)
    while (Option.isNone(yield* Fiber.poll(fiber))) {
      yield* realPause()
      yield* TestClock.adjust(Duration.millis(stepMs))
    }
    return yield* Fiber.join(fiber)
  })

/** Polls `check` in real time until it answers true (at most ~10 s). */
export const eventually = <E, R>(check: Effect.Effect<boolean, E, R>) =>
  Effect.gen(function* () {
    for (let tries = 0; tries < 1_000; tries++) {
      if (yield* check) return
      yield* realPause()
    }
    return yield* Effect.dieMessage("the condition never came true")
  })
