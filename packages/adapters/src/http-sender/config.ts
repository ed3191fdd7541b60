import { DEFAULT_INSTANT_HOOK_HOSTS, type InstantHookPolicy } from "@svc/core/webhooks"
import { Context } from "effect"

/** Where outgoing requests (webhooks, instant hooks, callbacks, fetched pages) may go. */
export interface OutboundSettingsShape {
  /**
   * Test-only: loopback targets over plain http (`SVC_WEBHOOKS_ALLOW_LOOPBACK`). Read by the sender, the page fetcher
   * and the routes that check a target before it is stored; never from a request.
   */
  readonly allowLoopback: boolean
  /**
   * Host suffixes an instant hook's `target_url` and the ask step's `callback_url` must be on (the host itself or a
   * name under it; `SVC_INSTANT_HOOK_HOSTS`): lower case, without a leading or trailing dot, at least one.
   */
  readonly instantHookHosts: ReadonlyArray<string>
}

/** The outbound settings in use: no loopback and the automation tool's own hook domain, unless a layer says else. */
export class OutboundSettings extends Context.Reference<OutboundSettings>()("svc/http-sender/OutboundSettings", {
  defaultValue: (): OutboundSettingsShape => ({ allowLoopback: false, instantHookHosts: DEFAULT_INSTANT_HOOK_HOSTS })
}) {}

/** The policy instant hooks and the ask step's callbacks are checked with. */
export const instantHookPolicy = (settings: OutboundSettingsShape): InstantHookPolicy => ({
  allowLoopback: settings.allowLoopback,
  hosts: settings.instantHookHosts
})
