import { expect, layer } from "@effect/vitest"
import { Credits } from "@svc/core/credits"
import { CustomAiAsking, CustomAis } from "@svc/core/custom-ai"
import { ToolRegistry } from "@svc/core/tools"
import { Effect } from "effect"
import { toMcpTool } from "../../src/http/mcp/tool-list.js"
import { signUp } from "../support/core.js"
import { engineName } from "../support/database.js"
import { askTestLayer, assistantWithText, callTool, principalOf } from "./ask-support.js"

const SOURDOUGH =
  "Feed the starter twice a day with equal weights of flour and water. A healthy starter doubles within six hours. " +
  "Bake the loaf at 250 degrees for twenty minutes with the lid on, then twenty more without it."

layer(askTestLayer(), { timeout: "120 seconds" })(`asking a Custom AI with no language model (${engineName})`, (it) => {
  it.effect("quotes the knowledge with its source, charges nothing, and lists the chat", () =>
    Effect.gen(function* () {
      const user = yield* signUp({ plan: "free" })
      const principal = yield* principalOf(user.token)
      yield* assistantWithText(user.workspace.id, { name: "Baker", title: "Sourdough basics", text: SOURDOUGH })
      const before = (yield* (yield* Credits).balance(user.account.id)).balanceTenths

      // customAIId left out: the workspace's first Custom AI is its default assistant.
      const asked = yield* callTool(principal, "svc_ask_custom_ai", { message: "How often should I feed the starter?" })
      expect(asked).toMatchObject({
        ok: true,
        status: "answered",
        model: null,
        sources: [{ title: "Sourdough basics", url: null }],
        credits: { charged: 0, balance: before / 10 }
      })
      expect(asked.answer).toContain("Feed the starter twice a day")
      expect(asked.answer).toContain("Sourdough basics")
      expect(asked.answer).toMatch(/no language model/i)
      expect(String(asked.chatId)).toMatch(/^chat_/)
      expect(String(asked.messageId)).toMatch(/^msg_/)
      expect((yield* (yield* Credits).balance(user.account.id)).balanceTenths).toBe(before)

      const chats = yield* callTool(principal, "svc_list_chats", {})
      expect(chats.chats).toEqual([
        expect.objectContaining({ id: asked.chatId, title: "How often should I feed the starter?" })
      ])

      // The same answer reads back from the chat.
      const read = yield* callTool(principal, "svc_get_custom_ai_answer", { chatId: asked.chatId })
      expect(read).toEqual(asked)
    })
  )

  it.effect("continues a chat with its chatId, and keeps chats per workspace", () =>
    Effect.gen(function* () {
      const user = yield* signUp({ plan: "free" })
      const asking = yield* CustomAiAsking
      const baker = yield* assistantWithText(user.workspace.id, {
        name: "Baker",
        title: "Sourdough basics",
        text: SOURDOUGH
      })
      const first = yield* asking.ask({
        accountId: user.account.id,
        workspaceId: user.workspace.id,
        customAiId: baker.id,
        message: "How often do I feed the starter?"
      })
      const second = yield* asking.ask({
        accountId: user.account.id,
        workspaceId: user.workspace.id,
        chatId: first.chatId,
        message: "How long do I bake the loaf?"
      })
      expect(second.chatId).toBe(first.chatId)
      expect(second.messageId).not.toBe(first.messageId)
      expect(second.answer).toContain("250 degrees")
      const latest = yield* asking.answer({
        accountId: user.account.id,
        workspaceId: user.workspace.id,
        chatId: first.chatId
      })
      expect(latest.messageId).toBe(second.messageId)
      const principal = yield* principalOf(user.token)
      const listed = yield* callTool(principal, "svc_list_chats", { customAIId: baker.id })
      expect((listed.chats as ReadonlyArray<{ id: string }>).map((chat) => chat.id)).toEqual([first.chatId])

      // Another workspace's chat is not found, by chatId or for reading.
      const other = yield* signUp({ plan: "free" })
      const otherPrincipal = yield* principalOf(other.token)
      yield* assistantWithText(other.workspace.id, { name: "Other", title: "Other notes", text: "Nothing here." })
      const foreign = yield* callTool(otherPrincipal, "svc_ask_custom_ai", {
        message: "Hello?",
        chatId: first.chatId
      })
      expect(foreign).toMatchObject({ ok: false, status: "not-found" })
      expect(yield* callTool(otherPrincipal, "svc_get_custom_ai_answer", { chatId: first.chatId })).toMatchObject({
        ok: false,
        status: "not-found"
      })
      // A chat with another Custom AI of the same workspace is not this one's.
      const second_ai = yield* assistantWithText(user.workspace.id, { name: "Other", title: "x", text: "y" })
      const wrongAi = yield* callTool(principal, "svc_ask_custom_ai", {
        customAIId: second_ai.id,
        chatId: first.chatId,
        message: "Hi"
      })
      expect(wrongAi).toMatchObject({ ok: false, status: "not-found" })

      // Deleting the Custom AI deletes its chats with their messages.
      yield* (yield* CustomAis).remove(user.workspace.id, baker.id)
      expect((yield* callTool(principal, "svc_list_chats", {})).chats).toEqual([])
      expect(yield* callTool(principal, "svc_get_custom_ai_answer", { chatId: first.chatId })).toMatchObject({
        ok: false,
        status: "not-found"
      })
    })
  )

  it.effect("lists both asking tools within the tool-list budget, with honest annotations", () =>
    Effect.gen(function* () {
      const listed = (yield* ToolRegistry).tools
        .map((tool) => toMcpTool(tool.descriptor))
        .filter((tool) => tool.name === "svc_ask_custom_ai" || tool.name === "svc_get_custom_ai_answer")
      expect(listed.map((tool) => tool.name).sort()).toEqual(["svc_ask_custom_ai", "svc_get_custom_ai_answer"])
      for (const tool of listed) {
        expect(Buffer.byteLength(JSON.stringify(tool)), tool.name).toBeLessThanOrEqual(1_500)
      }
      const ask = listed.find((tool) => tool.name === "svc_ask_custom_ai")
      expect(ask?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, openWorldHint: true })
      expect(ask?.description).toContain("Costs 1 credit, 2 with mode max")
      expect(ask?.description).toContain("svc_get_custom_ai_answer")
    })
  )

  it.effect("refuses an empty or too long message, an unknown Custom AI, and a workspace without one", () =>
    Effect.gen(function* () {
      const user = yield* signUp({ plan: "free" })
      const principal = yield* principalOf(user.token)
      const none = yield* callTool(principal, "svc_ask_custom_ai", { message: "Anyone there?" })
      expect(none).toMatchObject({ ok: false, status: "not-found" })
      expect(String(none.message)).toContain("svc_create_custom_ai")
      yield* assistantWithText(user.workspace.id, { name: "Baker", title: "Sourdough basics", text: SOURDOUGH })
      expect(yield* callTool(principal, "svc_ask_custom_ai", { message: "" })).toMatchObject({
        ok: false,
        status: "invalid"
      })
      const blank = yield* callTool(principal, "svc_ask_custom_ai", { message: "   " })
      expect(blank).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "message" }] })
      expect(yield* callTool(principal, "svc_ask_custom_ai", { message: "x".repeat(8_001) })).toMatchObject({
        ok: false,
        status: "invalid"
      })
      expect(yield* callTool(principal, "svc_ask_custom_ai", { message: "Hi", customAIId: "cai_nope" })).toMatchObject({
        ok: false,
        status: "not-found"
      })
      expect(yield* callTool(principal, "svc_ask_custom_ai", { message: "Hi", mode: "turbo" })).toMatchObject({
        ok: false,
        status: "invalid"
      })
    })
  )
})
