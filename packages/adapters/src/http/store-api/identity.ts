import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { identityJson, sellableCustomAiJson, StoreCatalog } from "@svc/core/store"
import { StoreApi } from "@svc/core/store-api"
import { Effect } from "effect"
import { withCaller } from "./caller.js"

/** The store API's identity routes: the credential's store and its Custom AIs. */
export const IdentityHandlersLive = HttpApiBuilder.group(StoreApi, "identity", (handlers) =>
  Effect.map(StoreCatalog, (catalog) =>
    handlers
      .handle("me", () =>
        withCaller("identity.me", (caller) =>
          Effect.map(catalog.me(caller), (identity) => ({ ok: true as const, ...identityJson(identity) }))
        )
      )
      .handle("customAis", () =>
        withCaller("identity.customAis", (caller) =>
          Effect.map(catalog.listCustomAis(caller), (all) => ({
            ok: true as const,
            custom_ais: all.map(sellableCustomAiJson)
          }))
        )
      )
  )
)
