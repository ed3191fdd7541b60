import { LinkPreview } from "@svc/core/library"
import { Effect, Layer } from "effect"

/**
 * `LinkPreview` that never reaches the network: it answers no title (the core then makes one from the address)
 * and says `source: "offline"`, which the save tools pass on to the caller as `preview: "offline"`. A fetching
 * adapter belongs behind the SSRF-safe HTTP sender.
 */
export const LinkPreviewOffline = Layer.succeed(LinkPreview, {
  preview: () => Effect.succeed({ title: null, description: null, source: "offline" as const })
})
