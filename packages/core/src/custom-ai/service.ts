import { Clock, Effect } from "effect"
import { invalid } from "../shared/errors.js"
import { Ids } from "../shared/ports.js"
import { CustomAisRepo } from "./ports.js"
import { CUSTOM_AI_NAME_MAX, CustomAi, type CustomAiKind } from "./schema.js"

/** Creating and reading Custom AIs (the minimal record the store sells). */
export class CustomAis extends Effect.Service<CustomAis>()("svc/custom-ai/CustomAis", {
  effect: Effect.gen(function* () {
    const repo = yield* CustomAisRepo
    const ids = yield* Ids

    /** Creates a Custom AI in the workspace. */
    const create = (workspaceId: string, input: { readonly name: string; readonly kind?: CustomAiKind | undefined }) =>
      Effect.gen(function* () {
        const name = input.name.trim()
        if (name.length === 0 || name.length > CUSTOM_AI_NAME_MAX) {
          return yield* invalid("name", `name must be 1 to ${CUSTOM_AI_NAME_MAX} characters`)
        }
        const customAi = new CustomAi({
          id: yield* ids.make("cai_"),
          workspaceId,
          name,
          kind: input.kind ?? "assistant",
          createdAt: new Date(yield* Clock.currentTimeMillis)
        })
        yield* repo.insert(customAi)
        return customAi
      })

    return { create, find: repo.find, list: repo.list } as const
  })
}) {}
