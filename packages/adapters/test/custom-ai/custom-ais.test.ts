import { expect, layer } from "@effect/vitest"
import { specToolsByName } from "@svc/core/tools"
import { Effect } from "effect"
import { StoreTest } from "../store/support.js"
import { engineName } from "../support/database.js"

interface Record {
  readonly id: string
  readonly name: string
  readonly kind: string
  readonly description: string
  readonly instructions: string
  readonly isDefault: boolean
}

const customAiOf = (answer: { readonly [key: string]: unknown }) => answer.customAI as Record

layer(StoreTest.layer, { timeout: "120 seconds", excludeTestServices: true })(
  `Custom AI records (${engineName})`,
  (it) => {
    it.effect("creates, reads, lists, changes and moves the default between a workspace's Custom AIs", () =>
      Effect.gen(function* () {
        const h = yield* StoreTest
        // The seller's first Custom AI ("Coach", made by the harness) is the workspace's default.
        const s = yield* h.seller()
        const call = (name: string, args: unknown) => h.tool(s.token, name, args)

        const coach = customAiOf(yield* call("svc_get_custom_ai", { customAIId: s.customAiId }))
        expect(coach).toMatchObject({ name: "Coach", kind: "assistant", description: "", isDefault: true })

        const made = customAiOf(
          yield* call("svc_create_custom_ai", {
            name: "  Sourdough Coach ",
            description: "Answers questions about my sourdough course.",
            instructions: "Answer from the course material."
          })
        )
        expect(made).toMatchObject({
          name: "Sourdough Coach",
          description: "Answers questions about my sourdough course.",
          instructions: "Answer from the course material.",
          isDefault: false
        })
        expect(made.id).toMatch(/^cai_/)

        // Paged, newest first.
        const first = yield* call("svc_list_custom_ai", { limit: 1 })
        expect((first.customAIs as ReadonlyArray<Record>).map((c) => c.id)).toEqual([made.id])
        const second = yield* call("svc_list_custom_ai", { limit: 1, cursor: first.nextCursor })
        expect((second.customAIs as ReadonlyArray<Record>).map((c) => c.id)).toEqual([s.customAiId])
        expect(second.nextCursor).toBeUndefined()

        // Fields left out stay; making one the default takes the flag from the other.
        const changed = customAiOf(
          yield* call("svc_update_custom_ai", { customAIId: made.id, instructions: "Be brief.", isDefault: true })
        )
        expect(changed).toMatchObject({ name: "Sourdough Coach", instructions: "Be brief.", isDefault: true })
        expect(customAiOf(yield* call("svc_get_custom_ai", { customAIId: s.customAiId })).isDefault).toBe(false)

        // The default cannot be unset by itself: another must take it.
        const unset = yield* call("svc_update_custom_ai", { customAIId: made.id, isDefault: false })
        expect(unset).toMatchObject({ ok: false, status: "invalid" })

        // A new Custom AI shows in the store API, ready to sell.
        const listed = yield* Effect.promise(() => h.call(s.token, "GET", "/custom-ais"))
        expect(JSON.stringify(listed.body)).toContain(made.id)
      })
    )

    it.effect("refuses bad fields with the field named, and another workspace's id as not found", () =>
      Effect.gen(function* () {
        const h = yield* StoreTest
        const s = yield* h.seller()
        const other = yield* h.seller()
        const call = (name: string, args: unknown) => h.tool(s.token, name, args)

        expect(yield* call("svc_create_custom_ai", { name: "   " })).toMatchObject({
          ok: false,
          status: "invalid",
          errors: [{ path: "name" }]
        })
        const long = yield* call("svc_create_custom_ai", { name: "Coach", instructions: "x".repeat(8_001) })
        expect(long).toMatchObject({ ok: false, status: "invalid" })
        expect(JSON.stringify(long)).toContain("instructions")

        for (const [name, args] of [
          ["svc_get_custom_ai", { customAIId: other.customAiId }],
          ["svc_update_custom_ai", { customAIId: other.customAiId, name: "Mine now" }],
          ["svc_delete_custom_ai", { customAIId: other.customAiId }]
        ] as const) {
          expect(yield* call(name, args)).toMatchObject({ ok: false, status: "not-found" })
        }
        expect(yield* h.tool(other.token, "svc_get_custom_ai", { customAIId: other.customAiId })).toMatchObject({
          ok: true,
          customAI: { name: "Coach" }
        })
      })
    )

    it.effect("deletes a Custom AI, hands the default to the newest left, and refuses while a product sells it", () =>
      Effect.gen(function* () {
        const h = yield* StoreTest
        const s = yield* h.seller()
        const call = (name: string, args: unknown) => h.tool(s.token, name, args)
        const sold = yield* s.newCustomAi()
        yield* h.liveProduct(s, { customAiId: sold })
        const newest = customAiOf(yield* call("svc_create_custom_ai", { name: "Newest" }))

        expect(yield* call("svc_delete_custom_ai", { customAIId: sold })).toMatchObject({
          ok: false,
          status: "conflict"
        })
        expect(yield* call("svc_delete_custom_ai", { customAIId: s.customAiId })).toEqual({ ok: true, deleted: true })
        expect(yield* call("svc_get_custom_ai", { customAIId: s.customAiId })).toMatchObject({ status: "not-found" })
        expect(customAiOf(yield* call("svc_get_custom_ai", { customAIId: newest.id })).isDefault).toBe(true)
        expect(yield* call("svc_delete_custom_ai", { customAIId: s.customAiId })).toMatchObject({ status: "not-found" })
      })
    )

    it.effect("answers the builder guide: each step names its tools, and every tool it names exists", () =>
      Effect.gen(function* () {
        const h = yield* StoreTest
        const s = yield* h.seller()
        const { guide } = (yield* h.tool(s.token, "svc_get_custom_ai_builder_guide", {})) as { guide: string }
        const section = (title: string) => guide.split(/^## /m).find((part) => part.startsWith(title)) ?? ""
        expect(section("2. Create it")).toContain("svc_create_custom_ai")
        expect(section("4. Give it knowledge")).toContain("svc_manage_custom_ai_sources")
        expect(section("5. Test it")).toContain("svc_get_custom_ai_answer")
        expect(section("6. Sell it")).toContain("svc_publish_custom_ai_product")
        const named = new Set(guide.match(/svc_[a-z_]+/g))
        expect([...named].filter((name) => !specToolsByName.has(name))).toEqual([])
      })
    )
  }
)
