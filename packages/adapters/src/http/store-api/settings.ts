import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { renamePaths } from "@svc/core/shared"
import { StoreSetup, storeSettingsJson } from "@svc/core/store"
import { StoreApi } from "@svc/core/store-api"
import { Effect } from "effect"
import { withCaller } from "./caller.js"
import { answer } from "./errors.js"

// The settings service names fields as the domain does; the API's body names them in snake_case.
const wireNames: Readonly<Record<string, string>> = { supportEmail: "support_email", cardProcessor: "card_processor" }

/** The store API's settings routes: the credential's store and its settings, read and changed. */
export const SettingsHandlersLive = HttpApiBuilder.group(StoreApi, "settings", (handlers) =>
  Effect.map(StoreSetup, (setup) =>
    handlers
      .handle("get", () =>
        withCaller("settings.get", (caller) =>
          Effect.map(setup.readFor(caller), (view) => ({ ok: true as const, settings: storeSettingsJson(view) }))
        )
      )
      .handle("update", ({ payload }) =>
        withCaller("settings.update", (caller) =>
          answer(
            setup
              .changeFor(caller, {
                name: payload.name,
                supportEmail: payload.support_email,
                cardProcessor: payload.card_processor,
                emailListAddBuyers: payload.email_list_add_buyers,
                emailDoubleOptIn: payload.email_double_opt_in
              })
              .pipe(
                Effect.mapError((error) =>
                  error._tag === "InvalidInput" ? renamePaths(error, (path) => wireNames[path] ?? path) : error
                ),
                Effect.map((view) => ({ ok: true as const, settings: storeSettingsJson(view) }))
              )
          )
        )
      )
  )
)
