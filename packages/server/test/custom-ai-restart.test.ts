/**
 * A Custom AI answered by a language model in the real `svc serve`, through the official MCP SDK client: a slow
 * answer turns `running`, survives the server being killed and started again on the same database, and ends
 * `answered`, charged once; a provider's 429 answers `unreachable` and charges nothing.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { json, type Route, startLoopbackProvider } from "../../adapters/test/ai/loopback-provider.js"
import { engineName } from "./support/environment.js"
import { useServer } from "./support/server-fixture.js"
import { type RunningServer, startServer } from "./support/server-process.js"

type Answer = Record<string, unknown>

const ANSWER = "Orders ship within two days [1]."

// Every answer closes its connection: Node's server drops an idle kept-alive one after 5 s, and a server process still
// starting on a busy machine may not notice before it sends the next request on it ("the connection failed").
const CLOSE = { connection: "close" }

/** A chat completion as an OpenAI-compatible server (Ollama, vLLM) answers it. */
const completion: Route = json(
  200,
  {
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 1_700_000_000,
    model: "local-model",
    choices: [{ index: 0, message: { role: "assistant", content: ANSWER }, finish_reason: "stop" }],
    usage: { prompt_tokens: 40, completion_tokens: 8, total_tokens: 48 }
  },
  CLOSE
)

/** Holds the request open: the model is still thinking when the server goes down. */
const holding: Route = () => {}

// What the model does with the next request; the test changes it as the story goes on.
let model: Route = holding
let provider: Awaited<ReturnType<typeof startLoopbackProvider>> | undefined
const aiEnv: Record<string, string> = {}

beforeAll(async () => {
  provider = await startLoopbackProvider({
    "GET /v1/models": json(200, { object: "list", data: [{ id: "local-model", object: "model" }] }, CLOSE),
    "POST /v1/chat/completions": (request, response) => model(request, response)
  })
  Object.assign(aiEnv, {
    SVC_AI_PROVIDER: "openai-compatible",
    SVC_AI_BASE_URL: `${provider.baseUrl}/v1`,
    SVC_AI_MODEL: "local-model",
    // Ask waits 1 s before answering `running`. A run holds its job 10 s and gives the model 9 s of it: a server
    // still starting on a busy machine answers late, and a shorter lease would time the model out.
    SVC_AI_ASK_BUDGET_MS: "1000",
    SVC_AI_LEASE_MS: "10000"
  })
})
afterAll(() => provider?.close())

// Registered after the provider's hook, so the server starts with its address.
const fixture = useServer(aiEnv)

const mcpClient = async (server: RunningServer, token: string) => {
  const client = new Client({ name: "custom-ai-restart", version: "1.0.0" })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } }
    })
  )
  return client
}

const call = async (client: Client, name: string, args: Answer) =>
  (await client.callTool({ name, arguments: args })).structuredContent as Answer

const balanceOf = async (client: Client) =>
  ((await call(client, "svc_list_workspaces", {})).credits as { balance: number }).balance

const questionsSeen = (question: string) =>
  (provider?.seen ?? []).filter((request) => JSON.stringify(request.body ?? null).includes(question)).length

/** Calls `read` every 250 ms until `done` says its answer is final (at most `ms`). */
const poll = async (read: () => Promise<Answer>, done: (answer: Answer) => boolean, ms = 60_000) => {
  const deadline = Date.now() + ms
  for (;;) {
    const answer = await read()
    if (done(answer) || Date.now() > deadline) return answer
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

describe(`a Custom AI answered by a language model in svc serve on ${engineName}`, { timeout: 120_000 }, () => {
  it("keeps a running answer across a killed server and answers it after the restart, charged once", async () => {
    // The key printed when the server first starts on an empty database.
    const token = /svc_pat_[0-9A-Za-z]{36}/.exec(fixture.server.output())?.[0] ?? ""
    const client = await mcpClient(fixture.server, token)
    const created = await call(client, "svc_create_custom_ai", { name: "Helpdesk" })
    const customAIId = (created.customAI as { id: string }).id
    const added = await call(client, "svc_manage_custom_ai_sources", {
      customAIId,
      action: "add",
      kind: "text",
      title: "Shipping",
      text: "Orders ship within two days from our warehouse in Leeds."
    })
    expect(added).toMatchObject({ ok: true, sources: [{ status: "ready" }] })
    const before = await balanceOf(client)

    const question = "When does my order ship?"
    const running = await call(client, "svc_ask_custom_ai", { customAIId, message: question })
    expect(running).toMatchObject({ ok: true, status: "running" })
    expect(running.answer).toBeUndefined()
    const chatId = String(running.chatId)
    expect(questionsSeen(question)).toBe(1)
    expect(await call(client, "svc_get_custom_ai_answer", { chatId })).toMatchObject({ status: "running" })
    await client.close()

    // Killed while the model still holds the question: no clean shutdown hands the job back.
    const killed = fixture.server
    const exited = new Promise((resolve) => killed.process.once("exit", resolve))
    killed.process.kill("SIGKILL")
    await exited
    model = completion
    fixture.server = await startServer(fixture.env)

    const again = await mcpClient(fixture.server, token)
    const answered = await poll(
      () => call(again, "svc_get_custom_ai_answer", { chatId }),
      (answer) => answer.status !== "running"
    )
    expect(answered).toMatchObject({
      ok: true,
      status: "answered",
      chatId,
      messageId: running.messageId,
      answer: ANSWER,
      model: "local-model",
      sources: [{ title: "Shipping", url: null }],
      credits: { charged: 1 }
    })
    // The new process asked the model again after the lost run's lease; one credit for the answer in all.
    expect(questionsSeen(question)).toBeGreaterThanOrEqual(2)
    expect(await balanceOf(again)).toBe(before - 1)

    // A provider that is rate-limited: the caller still waits, so hears at once, and pays nothing.
    model = json(429, { error: { message: "Rate limit reached" } }, { "retry-after": "7", ...CLOSE })
    const limited = await again.callTool({
      name: "svc_ask_custom_ai",
      arguments: { customAIId, chatId, message: "And to Ireland?" }
    })
    expect(limited.isError).toBe(true)
    expect(limited.structuredContent).toMatchObject({ ok: false, status: "unreachable" })
    expect(String((limited.structuredContent as Answer).message)).toContain("429")
    expect(await balanceOf(again)).toBe(before - 1)
    await again.close()
  })
})
