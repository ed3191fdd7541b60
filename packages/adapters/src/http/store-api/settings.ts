import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import {
  ProcessorSetup,
  StoreSetup,
  settingsProblemOnWire,
  storeSettingsChangesOf,
  storeSettingsJson
} from "@svc/core/store"
import { StoreApi } from "@svc/core/store-api"
import { Effect } from "effect"
import { withCaller } from "./caller.js"
import { answer } from "./errors.js"

/** The store API's settings routes: the credential's store and its settings, read and changed, and its Stripe keys. */
export const SettingsHandlersLive = HttpApiBuilder.group(StoreApi, "settings", (handlers) =>
  Effect.gen(function* () {
    const setup = yield* StoreSetup
    const processor = yield* ProcessorSetup
    return handlers
      .handle("get", () =>
        withCaller("settings.get", (caller) =>
          Effect.map(setup.readFor(caller), (view) => ({ ok: true as const, settings: storeSettingsJson(view) }))
        )
      )
      .handle("update", ({ payload }) =>
        withCaller("settings.update", (caller) =>
          answer(
            setup.changeFor(caller, storeSettingsChangesOf(payload)).pipe(
              Effect.mapError(settingsProblemOnWire),
              Effect.map((view) => ({ ok: true as const, settings: storeSettingsJson(view) }))
            )
          )
        )
      )
      .handle("connectStripe", ({ payload }) =>
        withCaller("settings.connectStripe", (caller) =>
          answer(
            processor
              .connectStripe(caller, { secretKey: payload.secret_key, webhookSecret: payload.webhook_secret })
              .pipe(
                Effect.zipRight(setup.readFor(caller)),
                Effect.map((view) => ({ ok: true as const, settings: storeSettingsJson(view) }))
              )
          )
        )
      )
      .handle("disconnectStripe", () =>
        withCaller("settings.disconnectStripe", (caller) =>
          answer(
            processor.disconnectFor(caller).pipe(
              Effect.zipRight(setup.readFor(caller)),
              Effect.map((view) => ({ ok: true as const, settings: storeSettingsJson(view) }))
            )
          )
        )
      )
  })
)
