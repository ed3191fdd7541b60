import { Clock, Context, Effect, Layer, Option } from "effect"
import { MailSigner } from "../mail/ports.js"
import { readLink, signLink } from "../mail/signed-links.js"

/**
 * The public addresses scheduling gives out, made where the server's address and key are known: the workspace's
 * feed page, and signed, expiring links a person opens to connect a social account to a workspace.
 */
export class ConnectLinks extends Context.Tag("svc/scheduling/ConnectLinks")<
  ConnectLinks,
  {
    /** The public posts page of the feed with this handle. */
    readonly feedUrl: (feedHandle: string) => string
    /** A link that lets whoever opens it connect an account to the workspace, for an hour. */
    readonly connectLink: (
      workspaceId: string,
      accountId: string,
      platform: "bluesky" | "mastodon" | undefined
    ) => Effect.Effect<{ readonly connectUrl: string; readonly expiresAt: Date }>
  }
>() {}

/** How long a connect link works. */
export const CONNECT_LINK_MS = 3_600_000

const PURPOSE = "social-connect"

/** What a connect link carries: the workspace, who made the link, the form to open first, and its expiry. */
export interface ConnectGrant {
  readonly workspaceId: string
  readonly accountId: string
  readonly platform: "bluesky" | "mastodon" | undefined
  readonly expiresAt: Date
}

/** The connect link's path under the server's public address. */
export const connectPath = (token: string) => `/connect/${token}`

/**
 * `ConnectLinks` for a server at `publicBase`: the feed at `/s/<handle>/posts`, and connect links at
 * `/connect/<token>`, the token signed with the server's link key (`signLink`), so it needs no stored state.
 */
export const ConnectLinksLive = (publicBase: string) =>
  Layer.effect(
    ConnectLinks,
    Effect.map(MailSigner, (signer) => ({
      feedUrl: (feedHandle: string) => `${publicBase}/s/${encodeURIComponent(feedHandle)}/posts`,
      connectLink: (workspaceId: string, accountId: string, platform: "bluesky" | "mastodon" | undefined) =>
        Effect.gen(function* () {
          const expiresAt = new Date((yield* Clock.currentTimeMillis) + CONNECT_LINK_MS)
          const token = yield* signLink(PURPOSE, [workspaceId, accountId, platform ?? "", String(expiresAt.getTime())])
          return { connectUrl: `${publicBase}${connectPath(token)}`, expiresAt }
        }).pipe(Effect.provideService(MailSigner, signer))
    }))
  )

/** The grant of a connect link this server signed and that has not expired; none otherwise. */
export const readConnectLink = (token: string) =>
  Effect.gen(function* () {
    const fields = yield* readLink(PURPOSE, token, 4)
    if (Option.isNone(fields)) return Option.none<ConnectGrant>()
    const [workspaceId = "", accountId = "", platform = "", expires = ""] = fields.value
    const expiresAt = new Date(Number(expires))
    if (!(expiresAt.getTime() > (yield* Clock.currentTimeMillis))) return Option.none<ConnectGrant>()
    return Option.some<ConnectGrant>({
      workspaceId,
      accountId,
      platform: platform === "bluesky" || platform === "mastodon" ? platform : undefined,
      expiresAt
    })
  })
