import { expect, layer } from "@effect/vitest"
import { Credits, MONTHLY_CREDITS } from "@svc/core/credits"
import { CustomAiAsking } from "@svc/core/custom-ai"
import { Effect, Either } from "effect"
import { signUp } from "../support/core.js"
import { engineName } from "../support/database.js"
import { askTestLayer, assistantWithText, scriptedModel } from "./ask-support.js"

const model = scriptedModel()

layer(askTestLayer(model.layer), { timeout: "120 seconds" })(
  `parallel asks on a small balance (${engineName})`,
  (it) => {
    it.effect("50 parallel asks on a balance that pays for 10: exactly 10 answered, the balance 0", () =>
      Effect.gen(function* () {
        const user = yield* signUp({ plan: "free" })
        const customAi = yield* assistantWithText(user.workspace.id, {
          name: "Helpdesk",
          title: "Shipping",
          text: "Orders ship within two days."
        })
        const credits = yield* Credits
        // The free plan's monthly allowance, spent down to 10 credits: ten standard messages.
        const allowance = MONTHLY_CREDITS.free
        yield* credits.charge({ accountId: user.account.id, callId: "setup", tenths: allowance - 100, reason: "test" })
        expect((yield* credits.balance(user.account.id)).balanceTenths).toBe(100)
        const seen = model.prompts.length

        const asking = yield* CustomAiAsking
        const outcomes = yield* Effect.all(
          Array.from({ length: 50 }, (_, n) =>
            Effect.either(
              asking.ask({
                accountId: user.account.id,
                workspaceId: user.workspace.id,
                customAiId: customAi.id,
                message: `Question ${n}: when does it ship?`
              })
            )
          ),
          { concurrency: "unbounded" }
        )
        const answered = outcomes.filter(Either.isRight)
        const refused = outcomes.filter(Either.isLeft)
        expect(answered.length).toBe(10)
        expect(answered.every((o) => o.right.status === "answered" && o.right.chargedTenths === 10)).toBe(true)
        expect(refused.length).toBe(40)
        expect(refused.every((o) => o.left._tag === "Forbidden")).toBe(true)
        expect((yield* credits.balance(user.account.id)).balanceTenths).toBe(0)
        // Only the paid questions reached the model.
        expect(model.prompts.length - seen).toBe(10)
        const ledger = yield* credits.entries(user.account.id, { limit: 100, after: undefined })
        expect(ledger.rows.filter((entry) => entry.kind === "charge").length).toBe(11)
      })
    )
  }
)
