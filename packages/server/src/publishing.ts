/**
 * The publishing side of scheduling as `svc` composes it: the publishers this server has, by platform, and the
 * public addresses scheduling gives out (the own feed, connect links), both from the server's public address.
 */
import { makeCheckedFetch } from "@svc/adapters/http-sender"
import { makeBlueskyMetricsReader, makeMastodonMetricsReader } from "@svc/adapters/analytics"
import { makeBlueskyInbox, makeMastodonInbox } from "@svc/adapters/auto-dm"
import { makeBlueskyPublisher, makeMastodonPublisher } from "@svc/adapters/publisher"
import { AnalyticsPortsLive } from "@svc/core/analytics"
import { EngagementInboxesLive } from "@svc/core/auto-dm"
import { SchedulingPortsLive } from "@svc/core/scheduling"
import { Effect, Layer } from "effect"

/**
 * `Publishers` (the own feed, Bluesky and Mastodon) and `ConnectLinks` for a server at `publicBase` (needs the link
 * signer, `MailSigner`). Bluesky and Mastodon reach the server an account names through the checked fetch, so that
 * address cannot be one inside our network; `allowLoopback` (`SVC_WEBHOOKS_ALLOW_LOOPBACK`, development and tests)
 * admits this machine, and lets a Mastodon account live on it over plain http. The fetch's kept connections close
 * with the layer.
 */
export const schedulingPortsAt = (publicBase: string, allowLoopback = false) =>
  Layer.unwrapScoped(
    Effect.map(
      Effect.acquireRelease(
        Effect.sync(() => makeCheckedFetch({ allowLoopback })),
        (checked) => Effect.promise(checked.close)
      ),
      (checked) =>
        Layer.mergeAll(
          SchedulingPortsLive(publicBase, [
            makeBlueskyPublisher({ fetch: checked }),
            makeMastodonPublisher({ allowPlainHttp: allowLoopback, dispatcher: checked.dispatcher })
          ]),
          // The same accounts' posts' metrics, for analytics.
          AnalyticsPortsLive([
            makeBlueskyMetricsReader({ fetch: checked }),
            makeMastodonMetricsReader({ allowPlainHttp: allowLoopback, dispatcher: checked.dispatcher })
          ]),
          // The same accounts' replies and mentions, for the auto-DM rules.
          EngagementInboxesLive([
            makeBlueskyInbox({ fetch: checked }),
            makeMastodonInbox({ allowPlainHttp: allowLoopback, dispatcher: checked.dispatcher })
          ])
        )
    )
  )
