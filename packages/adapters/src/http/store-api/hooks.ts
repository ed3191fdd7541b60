import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { StoreApi } from "@svc/core/store-api"
import { InstantHooks } from "@svc/core/webhooks"
import { Effect } from "effect"
import { instantHookPolicy, OutboundSettings } from "../../http-sender/config.js"
import { withCaller } from "./caller.js"
import { answer } from "./errors.js"

/** Instant hook routes of the store API: subscribe and unsubscribe. */
export const InstantHooksHandlersLive = HttpApiBuilder.group(StoreApi, "hooks", (handlers) =>
  Effect.gen(function* () {
    const hooks = yield* InstantHooks
    const policy = instantHookPolicy(yield* OutboundSettings)
    return handlers
      .handle("subscribe", ({ payload }) =>
        withCaller("hooks.subscribe", (caller) =>
          answer(Effect.map(hooks.subscribe(caller, payload, policy), (id) => ({ ok: true as const, id })))
        )
      )
      .handle("unsubscribe", ({ path }) =>
        withCaller("hooks.unsubscribe", (caller) =>
          answer(
            Effect.as(hooks.unsubscribe(caller, path.id), { ok: true as const, id: path.id, deleted: true as const })
          )
        )
      )
  })
)
