import { Effect, Layer } from "effect"
import { ConnectLinksLive } from "./connect-links.js"
import { feedPublisher } from "./feed-publisher.js"
import type { Platform } from "./platforms.js"
import { type PlatformPublisher, Publishers } from "./publisher.js"
import { MediaLibrary } from "../media/service.js"
import { PostMediaFiles } from "./ports.js"
import { PostPublishing } from "./publishing.js"
import { Scheduling } from "./service.js"

/** Posts' media files, from the workspace's media library. */
const PostMediaFromLibrary = Layer.effect(
  PostMediaFiles,
  Effect.map(MediaLibrary, (library) => ({ findReady: library.findReady, read: library.read }))
).pipe(Layer.provide(MediaLibrary.Default))

/**
 * The Scheduling services: posts, schedules and accounts (`Scheduling`) and the publishing of due deliveries
 * (`PostPublishing`). Needs the ports (repositories, `Publishers`, `CredentialSealer`, the media ports).
 */
export const SchedulingLive = Layer.merge(Scheduling.Default, PostPublishing.Default).pipe(
  Layer.provide(PostMediaFromLibrary)
)

/**
 * Scheduling's ports for a server reached at `publicBase` (e.g. `https://svc.example.com`): the own feed's publisher
 * and `others` (Bluesky, Mastodon, …) as `Publishers`, and the connect and feed addresses (`ConnectLinks`, which
 * signs with `MailSigner`, one of the storage ports).
 */
export const SchedulingPortsLive = (publicBase: string, others: ReadonlyArray<PlatformPublisher> = []) => {
  const base = publicBase.replace(/\/+$/, "")
  const feed = feedPublisher((handle) => `${base}/s/${encodeURIComponent(handle)}/posts`)
  return Layer.merge(
    Layer.succeed(Publishers, new Map<Platform, PlatformPublisher>([feed, ...others].map((p) => [p.platform, p]))),
    ConnectLinksLive(base)
  )
}
