import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { type CreatorPage, creatorPageChangesOf, creatorPageJson, StoreCreatorPage, StorePages } from "@svc/core/store"
import type { StoreCaller } from "@svc/core/store"
import { StoreApi } from "@svc/core/store-api"
import { Effect } from "effect"
import { withCaller } from "./caller.js"
import { answer } from "./errors.js"

/** The store API's creator page: read it, change it. */
export const CreatorPageHandlersLive = HttpApiBuilder.group(StoreApi, "creatorPage", (handlers) =>
  Effect.gen(function* () {
    const pages = yield* StoreCreatorPage
    const { publicBase } = yield* StorePages
    const one = (caller: StoreCaller) => (page: CreatorPage) => ({
      ok: true as const,
      creator_page: creatorPageJson(page, { publicBase, handle: caller.store.handle })
    })
    return handlers
      .handle("get", () =>
        withCaller("creatorPage.get", (caller) => answer(Effect.map(pages.get(caller), one(caller))))
      )
      .handle("update", ({ payload }) =>
        withCaller("creatorPage.update", (caller) =>
          answer(Effect.map(pages.update(caller, creatorPageChangesOf(payload)), one(caller)))
        )
      )
  })
)
