/**
 * The automation tool's "Ask a Custom AI" step (`POST /ai/zapier/ask`) over the real core and database: the answer at
 * once, the chat at `chat_url`, and the callback posted by the worker to a receiver on loopback through the real
 * SSRF-safe sender (loopback admitted by the tests' sender and by hook hosts `hooks.zapier.com, 127.0.0.1`).
 */
import type { ServerResponse } from "node:http"
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import { expect, layer } from "@effect/vitest"
import { readOnlyAccess } from "@svc/core/auth"
import { Credits } from "@svc/core/credits"
import { ChatModel, CustomAiAsking, CustomAis } from "@svc/core/custom-ai"
import { DEFAULT_ASK_CALLBACK_WORKER, runDueAskCallbacks } from "@svc/core/webhooks"
import { Clock, Context, Deferred, Duration, Effect, Layer, Option, TestClock } from "effect"
import { AiStepsRoutes, HttpFaceSettings, PublicUrl } from "../../src/http/index.js"
import { OutboundSettings } from "../../src/http-sender/config.js"
import { type SeenRequest, startLoopbackProvider } from "../ai/loopback-provider.js"
import { signUp } from "../support/core.js"
import { engineName } from "../support/database.js"
import { askTestLayer, assistantWithText, eventually, scriptedModel } from "./ask-support.js"

const BASE = "http://svc.test"
const RETURNS = "Returns are accepted within 30 days of delivery. Refunds go back to the original card."

// The provider is an outside system: a scripted model the tests switch on (a language model configured) and off.
const model = scriptedModel()
let modelConfigured = false
const switchableModel = Layer.effect(
  ChatModel,
  Effect.map(ChatModel, (scripted) => ({
    ...scripted,
    get description() {
      return modelConfigured ? scripted.description : Option.none()
    }
  }))
).pipe(Layer.provide(model.layer))

const coreLayer = askTestLayer(switchableModel)
type Core = Layer.Layer.Success<typeof coreLayer>

/** The automation steps as a web handler over the test core. */
class StepFace extends Context.Tag("test/StepFace")<StepFace, (request: Request) => Promise<Response>>() {}

const stepFaceLayer = Layer.scoped(
  StepFace,
  Effect.gen(function* () {
    const core = yield* Effect.context<Core>()
    const outbound = Layer.succeed(OutboundSettings, {
      allowLoopback: true,
      instantHookHosts: ["hooks.zapier.com", "127.0.0.1"]
    })
    const routes = AiStepsRoutes.pipe(
      Layer.provide(
        Layer.mergeAll(Layer.succeedContext(core), PublicUrl.layer(BASE), HttpFaceSettings.Default, outbound)
      )
    )
    const web = yield* Effect.acquireRelease(
      Effect.sync(() => HttpLayerRouter.toWebHandler(routes, { disableLogger: true })),
      (handler) => Effect.promise(() => handler.dispose())
    )
    return web.handler
  })
)

/** A hook receiver on loopback whose answer the test sets (200 unless told otherwise). */
const startReceiver = Effect.acquireRelease(
  Effect.promise(async () => {
    let answer = (_request: SeenRequest, response: ServerResponse) => {
      response.writeHead(200, { "content-type": "application/json" }).end('{"status":"success"}')
    }
    const server = await startLoopbackProvider({ "POST /hook": (request, response) => answer(request, response) })
    return {
      ...server,
      hookUrl: `${server.baseUrl}/hook`,
      answerWith: (statuses: ReadonlyArray<number>) => {
        let calls = 0
        answer = (_request, response) => {
          const status = statuses[Math.min(calls, statuses.length - 1)] ?? 200
          calls += 1
          response.writeHead(status, { "content-type": "application/json" }).end("{}")
        }
      }
    }
  }),
  (receiver) => Effect.promise(receiver.close)
)

const call = (path: string, init: { readonly token?: string; readonly body?: unknown; readonly method?: string }) =>
  Effect.gen(function* () {
    const handler = yield* StepFace
    const headers: Record<string, string> = { "content-type": "application/json" }
    if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`
    const response = yield* Effect.promise(() =>
      handler(
        new Request(path.startsWith("http") ? path : `${BASE}${path}`, {
          method: init.method ?? (init.body === undefined ? "GET" : "POST"),
          headers,
          ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) })
        })
      )
    )
    const body = (yield* Effect.promise(() => response.json())) as Record<string, unknown>
    return { status: response.status, headers: response.headers, body }
  })

/**
 * One look of the callback worker on the test clock. The step runs on the real clock (the web handler's runtime), so
 * the test clock is first moved up to the real time when it is behind; tests move it further to pass retry delays.
 */
const workerLook = Effect.gen(function* () {
  const real = Date.now()
  if (real > (yield* Clock.currentTimeMillis)) yield* TestClock.setTime(real)
  return yield* runDueAskCallbacks(DEFAULT_ASK_CALLBACK_WORKER)
})

const setUp = Effect.gen(function* () {
  // The tests of this file share one test clock, which earlier tests moved hours ahead: back to the real time.
  yield* TestClock.setTime(Date.now())
  const user = yield* signUp({ plan: "free" })
  const customAi = yield* assistantWithText(user.workspace.id, {
    name: "Helpdesk",
    title: "Returns policy",
    text: RETURNS
  })
  return { user, customAi }
})

layer(stepFaceLayer.pipe(Layer.provideMerge(coreLayer)), { timeout: "120 seconds" })(
  `the automation tool's ask step (${engineName})`,
  (it) => {
    it.scoped("with no language model: answers at once, serves the chat, and posts the quoted knowledge back", () =>
      Effect.gen(function* () {
        modelConfigured = false
        const { user, customAi } = yield* setUp
        const receiver = yield* startReceiver

        const asked = yield* call("/ai/zapier/ask", {
          token: user.token,
          body: { message: "How long do I have to return?", callback_url: receiver.hookUrl }
        })
        expect(asked.status).toBe(200)
        expect(asked.body).toMatchObject({ ok: true, status: "answered" })
        const chatId = String(asked.body.chat_id)
        expect(asked.body.chat_url).toBe(`${BASE}/ai/chats/${chatId}?workspace_id=${user.workspace.id}`)

        const chat = yield* call(String(asked.body.chat_url), { token: user.token })
        expect(chat.status).toBe(200)
        expect(chat.body).toMatchObject({ ok: true, chat: { id: chatId, custom_ai_id: customAi.id } })
        const messages = chat.body.messages as ReadonlyArray<Record<string, unknown>>
        expect(messages.map((m) => [m.role, m.status])).toEqual([
          ["user", "answered"],
          ["assistant", "answered"]
        ])
        expect(messages[0]?.text).toBe("How long do I have to return?")
        expect(messages[1]?.id).toBe(asked.body.message_id)

        expect(yield* workerLook).toBe(1)
        expect(receiver.seen).toHaveLength(1)
        expect(receiver.seen[0]?.headers["content-type"]).toBe("application/json")
        expect(receiver.seen[0]?.body).toMatchObject({
          ok: true,
          answer: expect.stringContaining("within 30 days of delivery"),
          chat_id: chatId,
          message_id: asked.body.message_id,
          sources: [{ title: "Returns policy", url: null }]
        })
        // Delivered: nothing is sent again.
        yield* TestClock.adjust(Duration.hours(2))
        expect(yield* workerLook).toBe(0)
        expect(receiver.seen).toHaveLength(1)
      })
    )

    it.scoped("refuses a callback off the hook domains, a missing message, a bad token and a read-only key", () =>
      Effect.gen(function* () {
        modelConfigured = false
        const { user } = yield* setUp
        const ask = { message: "Hello?", callback_url: "https://hooks.zapier.com/hooks/catch/1/abc/" }

        const offDomain = yield* call("/ai/zapier/ask", {
          token: user.token,
          body: { ...ask, callback_url: "https://example.com/hook" }
        })
        expect(offDomain.status).toBe(422)
        expect(offDomain.body).toMatchObject({ ok: false, error: "invalid_field", errors: [{ path: "callback_url" }] })
        expect(String(offDomain.body.message)).toContain("hooks.zapier.com")

        const plainHttp = yield* call("/ai/zapier/ask", {
          token: user.token,
          body: { ...ask, callback_url: "http://hooks.zapier.com/hooks/catch/1/abc/" }
        })
        expect(plainHttp.body).toMatchObject({ error: "invalid_field", errors: [{ path: "callback_url" }] })

        const noMessage = yield* call("/ai/zapier/ask", { token: user.token, body: { callback_url: ask.callback_url } })
        expect(noMessage.status).toBe(422)
        expect(noMessage.body).toMatchObject({ ok: false, error: "invalid_field", errors: [{ path: "message" }] })

        const badToken = yield* call("/ai/zapier/ask", { token: "svc_pat_not-a-key", body: ask })
        expect(badToken.status).toBe(401)
        expect(badToken.body).toMatchObject({ ok: false, error: "unauthorized" })
        expect(badToken.headers.get("www-authenticate")).toContain('error="invalid_token"')
        expect((yield* call("/ai/zapier/ask", { body: ask })).status).toBe(401)

        const reader = yield* signUp({ access: readOnlyAccess })
        const readOnly = yield* call("/ai/zapier/ask", { token: reader.token, body: ask })
        expect(readOnly.status).toBe(403)
        expect(readOnly.body).toMatchObject({ ok: false, error: "forbidden" })

        // None of them asked anything, so no callback is queued.
        expect(yield* workerLook).toBe(0)
        expect((yield* call("/ai/chats/chat_unknown", { token: user.token })).status).toBe(404)
      })
    )

    it.scoped("with a language model: posts the answer once it is ready, retries a 500, and charges once", () =>
      Effect.gen(function* () {
        modelConfigured = true
        const { user } = yield* setUp
        const receiver = yield* startReceiver
        receiver.answerWith([500, 200])
        const credits = yield* Credits
        const balance = Effect.map(credits.balance(user.account.id), (b) => b.balanceTenths)
        const before = yield* balance
        const release = yield* Deferred.make<void>()
        model.answerWith(() => Effect.as(Deferred.await(release), { text: "Thirty days.", model: "test-model" }))

        const asked = yield* call("/ai/zapier/ask", {
          token: user.token,
          body: { message: "Return window?", mode: "standard", callback_url: receiver.hookUrl }
        })
        expect(asked.body).toMatchObject({ ok: true, status: "running" })
        const messageId = String(asked.body.message_id)

        // Still running: the worker looks and sends nothing.
        expect(yield* workerLook).toBe(1)
        expect(receiver.seen).toHaveLength(0)

        yield* Deferred.succeed(release, undefined)
        const asking = yield* CustomAiAsking
        const answer = { accountId: user.account.id, messageId, customAiId: "" }
        yield* eventually(Effect.map(asking.messageAnswer(answer), (a) => a.status === "answered"))

        // The next look sends; the receiver fails it with a 500, so it goes again after the first retry delay.
        yield* TestClock.adjust(Duration.millis(DEFAULT_ASK_CALLBACK_WORKER.answerPollMs))
        expect(yield* workerLook).toBe(1)
        expect(receiver.seen).toHaveLength(1)
        expect(yield* workerLook).toBe(0)
        yield* TestClock.adjust(Duration.minutes(1))
        expect(yield* workerLook).toBe(1)
        expect(receiver.seen).toHaveLength(2)
        yield* TestClock.adjust(Duration.hours(2))
        expect(yield* workerLook).toBe(0)
        expect(receiver.seen).toHaveLength(2)
        for (const seen of receiver.seen) {
          expect(seen.body).toEqual({
            ok: true,
            answer: "Thirty days.",
            chat_id: asked.body.chat_id,
            message_id: messageId,
            sources: [{ title: "Returns policy", url: null }]
          })
        }
        expect(yield* balance).toBe(before - 10)
      })
    )

    it.scoped("posts ok: false when the Custom AI was deleted meanwhile, and stops at a 410", () =>
      Effect.gen(function* () {
        modelConfigured = false
        const { user, customAi } = yield* setUp
        const receiver = yield* startReceiver
        receiver.answerWith([410])
        const asked = yield* call("/ai/zapier/ask", {
          token: user.token,
          body: { message: "Return window?", custom_ai_id: customAi.id, callback_url: receiver.hookUrl }
        })
        expect(asked.status).toBe(200)
        yield* Effect.flatMap(CustomAis, (customAis) => customAis.remove(user.workspace.id, customAi.id))

        expect(yield* workerLook).toBe(1)
        expect(receiver.seen).toHaveLength(1)
        expect(receiver.seen[0]?.body).toMatchObject({
          ok: false,
          error: expect.stringContaining("Custom AI was deleted"),
          chat_id: asked.body.chat_id,
          message_id: asked.body.message_id
        })
        // Gone: the hook was removed, so it is never sent again.
        yield* TestClock.adjust(Duration.hours(2))
        expect(yield* workerLook).toBe(0)
        expect(receiver.seen).toHaveLength(1)
      })
    )
  }
)
