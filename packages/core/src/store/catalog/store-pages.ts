import { Context } from "effect"

/**
 * Where the store's owner changes what only they can change, for the messages that send them there. The server gives
 * the absolute address from its public URL; an embedder that gives none gets the path alone.
 */
export class StorePages extends Context.Reference<StorePages>()("svc/store/StorePages", {
  defaultValue: () => ({ settingsPage: "/settings" })
}) {}
