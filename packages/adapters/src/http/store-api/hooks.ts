import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { StoreApi } from "@svc/core/store-api"
import { DEFAULT_INSTANT_HOOK_HOSTS, type InstantHookPolicy, InstantHooks } from "@svc/core/webhooks"
import { Config, Effect } from "effect"
import { withCaller } from "./caller.js"
import { answer } from "./errors.js"

/**
 * The automation tool's hook domains (`SVC_INSTANT_HOOK_HOSTS`, comma-separated host suffixes): a target must be
 * one of them or a name under one. Lower case, without a leading or trailing dot.
 */
export const InstantHookHosts = Config.string("SVC_INSTANT_HOOK_HOSTS").pipe(
  Config.withDefault(DEFAULT_INSTANT_HOOK_HOSTS.join(",")),
  Config.map((text) =>
    text
      .split(",")
      .map((host) =>
        host
          .trim()
          .toLowerCase()
          .replace(/^\.+|\.+$/g, "")
      )
      .filter((host) => host.length > 0)
  ),
  Config.validate({
    message: "SVC_INSTANT_HOOK_HOSTS must name at least one host",
    validation: (hosts) => hosts.length > 0
  })
)

/** Test-only: loopback targets over plain http, the same switch the sender reads; never from a request. */
export const AllowLoopback = Config.boolean("SVC_WEBHOOKS_ALLOW_LOOPBACK").pipe(Config.withDefault(false))

/** Instant hook routes of the store API: subscribe and unsubscribe. */
export const InstantHooksHandlersLive = HttpApiBuilder.group(StoreApi, "hooks", (handlers) =>
  Effect.gen(function* () {
    const hooks = yield* InstantHooks
    const policy: InstantHookPolicy = {
      allowLoopback: yield* Effect.orDie(AllowLoopback),
      hosts: yield* Effect.orDie(InstantHookHosts)
    }
    return handlers
      .handle("subscribe", ({ payload }) =>
        withCaller("hooks.subscribe", (caller) => answer(hooks.subscribe(caller, payload, policy)))
      )
      .handle("unsubscribe", ({ path }) =>
        withCaller("hooks.unsubscribe", (caller) => answer(hooks.unsubscribe(caller, path.id)))
      )
  })
)
