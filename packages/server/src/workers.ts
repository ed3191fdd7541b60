/**
 * The background work of a svc process, one switch per worker: `svc serve` sets the switches from its environment
 * (`workersOf`), `makeSvc` from its options. Both build the same layers (`workersLayer`).
 */
import { SmtpTransportLive } from "@svc/adapters/mail"
import { OAuthPurgeLive } from "@svc/core/auth"
import { TrashPurgeLive } from "@svc/core/boards"
import { AskWorkerLive } from "@svc/core/custom-ai"
import { MailPurgeLive, MailWorkerLive } from "@svc/core/mail"
import { MediaPurgeLive } from "@svc/core/media"
import { RoutineWorkerLive } from "@svc/core/routines"
import { PublishWorkerLive } from "@svc/core/scheduling"
import { AutoDmWorkerLive } from "@svc/core/auto-dm"
import { AnalyticsWorkerLive } from "@svc/core/analytics"
import { RenewalWorkerLive, ReviewRequestWorkerLive, SequenceWorkerLive } from "@svc/core/store"
import { AskCallbackWorkerLive, InstantHookWorkerLive, WebhookPurgeLive, WebhookWorkerLive } from "@svc/core/webhooks"
import { Layer } from "effect"
import { mailFrom, publicBase, type ServerConfig } from "./config.js"

/** Every background worker, with what it does. */
export const SVC_WORKERS = {
  webhooks: "sends the store's webhook deliveries, with retries",
  instantHooks: "pushes new events to the automation tool's instant hooks",
  askAnswers: "finishes Custom AI answers that outlived their call",
  askCallbacks: "calls back the ask step's callback addresses",
  routines: "runs routines when they are due",
  sequences: "sends the email sequences' due steps",
  renewals: "charges the checkout's memberships (the test processor's) when a period ends",
  reviewRequests: "emails buyers a week after their first sale of a product, asking for a review",
  publishing: "publishes scheduled posts to their platforms",
  analytics: "fetches published posts' metrics on their schedule",
  autoDm: "reads replies and mentions of connected accounts and sends the auto-DM rules' messages",
  mail: "sends the outbox over SMTP (only with an SMTP server)",
  trashPurge: "empties the trash of items deleted over 30 days ago",
  webhookPurge: "drops delivery records and events past their keeping time",
  oauthPurge: "drops expired OAuth grants, codes and sessions",
  mailPurge: "drops sent and failed mail past its keeping time",
  mediaPurge: "deletes abandoned media uploads (never completed) an hour after they expire"
} as const

/** A worker's name. */
export type SvcWorker = keyof typeof SVC_WORKERS

/** Which workers run. */
export type SvcWorkers = { readonly [Worker in SvcWorker]: boolean }

/**
 * The workers `svc serve` runs: the purges always; webhooks and instant hooks unless `SVC_WEBHOOK_WORKER=false`,
 * the Custom AI's three unless `SVC_AI_WORKER=false`, sequences, the checkout's renewals and review requests unless
 * `SVC_SEQUENCE_WORKER=false`, and mail when
 * `SMTP_URL` is set.
 */
export const workersOf = (config: ServerConfig): SvcWorkers => ({
  webhooks: config.webhookWorker,
  instantHooks: config.webhookWorker,
  askAnswers: config.aiWorker,
  askCallbacks: config.aiWorker,
  routines: config.aiWorker,
  sequences: config.sequenceWorker,
  renewals: config.sequenceWorker,
  reviewRequests: config.sequenceWorker,
  publishing: config.publishWorker,
  analytics: config.analyticsWorker,
  autoDm: config.autoDmWorker,
  mail: config.smtpUrl._tag === "Some",
  trashPurge: true,
  webhookPurge: true,
  oauthPurge: true,
  mailPurge: true,
  mediaPurge: true
})

/** The layers of the workers switched on; the mail worker runs only with an SMTP server to send through. */
export const workersLayer = (config: ServerConfig, on: SvcWorkers) => {
  const when = <A, E, R>(switched: boolean, layer: () => Layer.Layer<A, E, R>) => (switched ? layer() : Layer.empty)
  return Layer.mergeAll(
    when(on.trashPurge, () => TrashPurgeLive()),
    when(on.webhookPurge, () => WebhookPurgeLive()),
    when(on.oauthPurge, () => OAuthPurgeLive()),
    when(on.mailPurge, () => MailPurgeLive()),
    when(on.mediaPurge, () => MediaPurgeLive()),
    when(on.webhooks, () =>
      WebhookWorkerLive({
        concurrency: config.webhookConcurrency,
        perWebhook: config.webhookPerWebhook,
        leaseMs: config.webhookLeaseMs
      })
    ),
    when(on.instantHooks, () => InstantHookWorkerLive({ intervalMs: config.instantHookIntervalMs })),
    when(on.askAnswers, () => AskWorkerLive({ leaseMs: config.aiLeaseMs })),
    when(on.askCallbacks, () => AskCallbackWorkerLive()),
    when(on.routines, () => RoutineWorkerLive({ leaseMs: config.aiLeaseMs })),
    when(on.sequences, () => SequenceWorkerLive()),
    when(on.renewals, () => RenewalWorkerLive()),
    when(on.reviewRequests, () => ReviewRequestWorkerLive()),
    when(on.publishing, () => PublishWorkerLive({ leaseMs: config.publishLeaseMs })),
    when(on.analytics, () =>
      AnalyticsWorkerLive({ leaseMs: config.analyticsLeaseMs, firstDayEveryMs: config.analyticsFirstDayEveryMs })
    ),
    when(on.autoDm, () => AutoDmWorkerLive({ leaseMs: config.autoDmLeaseMs, pollMs: config.autoDmPollMs })),
    config.smtpUrl._tag === "Some" && on.mail
      ? MailWorkerLive({ publicBase: publicBase(config) }).pipe(
          Layer.provide(SmtpTransportLive({ url: config.smtpUrl.value, from: mailFrom(config) }))
        )
      : Layer.empty
  )
}
