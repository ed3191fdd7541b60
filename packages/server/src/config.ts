import { DEFAULT_DRAIN, DEFAULT_GRAPHQL_SETTINGS, DEFAULT_HTTP_TIMEOUTS, timeoutsProblem } from "@svc/adapters/http"
import { fromAddressProblem } from "@svc/adapters/mail"
import { StoreSaleLimits } from "@svc/core/store"
import { DEFAULT_INSTANT_HOOK_HOSTS, DEFAULT_INSTANT_HOOK_INTERVAL_MS, DELIVERY_DEADLINE_MS } from "@svc/core/webhooks"
import { Config, Option, Redacted } from "effect"
import { parsePublicUrl } from "./base-path.js"
import { MediaConfig } from "./media-config.js"
import { MetricsConfig } from "./metrics-config.js"

const list = (name: string) =>
  Config.string(name).pipe(
    Config.withDefault(""),
    Config.map((text) =>
      text
        .split(",")
        .map((item) => item.trim())
        .filter((item) => item.length > 0)
    )
  )

const positive = (name: string, fallback: number) =>
  Config.integer(name).pipe(
    Config.withDefault(fallback),
    Config.validate({ message: `${name} must be at least 1`, validation: (n) => n >= 1 })
  )

const notNegative = (name: string, fallback: number) =>
  Config.integer(name).pipe(
    Config.withDefault(fallback),
    Config.validate({ message: `${name} must be 0 or more`, validation: (n) => n >= 0 })
  )

const switchedOn = (name: string, fallback: boolean) => Config.boolean(name).pipe(Config.withDefault(fallback))

/** The GraphQL face's limits and switches (docs/graphql.md), the documented defaults where a variable is unset. */
const graphqlSettings = Config.all({
  maxDepth: positive("SVC_GRAPHQL_MAX_DEPTH", DEFAULT_GRAPHQL_SETTINGS.maxDepth),
  maxCost: positive("SVC_GRAPHQL_MAX_COST", DEFAULT_GRAPHQL_SETTINGS.maxCost),
  maxAliases: positive("SVC_GRAPHQL_MAX_ALIASES", DEFAULT_GRAPHQL_SETTINGS.maxAliases),
  maxTokens: positive("SVC_GRAPHQL_MAX_TOKENS", DEFAULT_GRAPHQL_SETTINGS.maxTokens),
  maxBatch: positive("SVC_GRAPHQL_MAX_BATCH", DEFAULT_GRAPHQL_SETTINGS.maxBatch),
  introspection: switchedOn("SVC_GRAPHQL_INTROSPECTION", DEFAULT_GRAPHQL_SETTINGS.introspection),
  graphiql: switchedOn("SVC_GRAPHQL_GRAPHIQL", DEFAULT_GRAPHQL_SETTINGS.graphiql),
  pollIntervalMs: positive("SVC_GRAPHQL_POLL_INTERVAL_MS", DEFAULT_GRAPHQL_SETTINGS.pollIntervalMs)
})

const defaultSaleLimits = StoreSaleLimits.defaultValue()

/** The automation tool's hook domains: comma-separated host suffixes, lower case, without a leading or trailing dot. */
const instantHookHosts = Config.string("SVC_INSTANT_HOOK_HOSTS").pipe(
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

/**
 * Everything the server reads from its environment (see the README's configuration table). Nothing below the server
 * reads the environment: these reach the core and the adapters as layers (`runtime.ts`).
 */
export const ServerConfig = Config.all({
  host: Config.string("HOST").pipe(Config.withDefault("127.0.0.1")),
  port: Config.port("PORT").pipe(Config.withDefault(8787)),
  /** The origin clients use to reach us; defaults to http://HOST:PORT. */
  publicUrl: Config.option(
    Config.url("PUBLIC_URL").pipe(
      Config.validate({
        message: "PUBLIC_URL must be an http or https URL",
        validation: (url) => url.protocol === "http:" || url.protocol === "https:"
      })
    )
  ),
  /** The authorization server's base URL (`{auth_url}`, the OAuth issuer); defaults to the public origin. */
  authUrl: Config.option(Config.url("AUTH_URL")),
  bootstrap: Config.boolean("SVC_BOOTSTRAP").pipe(Config.withDefault(true)),
  rateLimitExemptKeyIds: list("SVC_RATE_LIMIT_EXEMPT_KEYS"),
  allowedOrigins: list("SVC_ALLOWED_ORIGINS"),
  /** Whether this process sends webhook deliveries (off: it only queues them, for another instance to send). */
  webhookWorker: Config.boolean("SVC_WEBHOOK_WORKER").pipe(Config.withDefault(true)),
  /** How long a claimed delivery is held before another worker may take it over (after a crash). */
  webhookLeaseMs: Config.integer("SVC_WEBHOOK_LEASE_MS").pipe(
    Config.withDefault(60_000),
    Config.validate({
      message: `SVC_WEBHOOK_LEASE_MS must be longer than the ${DELIVERY_DEADLINE_MS} ms delivery deadline`,
      validation: (ms) => ms > DELIVERY_DEADLINE_MS
    })
  ),
  /** Overrides the idle webhook workers' poll interval (both engines'); tests and benchmarks shorten it. */
  webhookPollMs: Config.option(Config.integer("SVC_WEBHOOK_POLL_MS")),
  /** Test-only: webhook receivers, instant hooks and fetched pages on loopback addresses over plain http. */
  allowLoopback: switchedOn("SVC_WEBHOOKS_ALLOW_LOOPBACK", false),
  /** Where instant hooks and the ask step's callbacks may point. */
  instantHookHosts,
  /** The base64 of 32 random bytes that seals webhook secrets; unset: a key generated into the database. */
  secretKey: Config.option(Config.redacted("SVC_SECRET_KEY")),
  /** Recorded sales per store per minute and per 24 hours (`POST /store-app/v1/sales`). */
  storeSaleLimits: Config.all({
    perMinute: Config.integer("SVC_STORE_SALES_PER_MINUTE").pipe(Config.withDefault(defaultSaleLimits.perMinute)),
    perDay: Config.integer("SVC_STORE_DAILY_SALE_CAP").pipe(Config.withDefault(defaultSaleLimits.perDay))
  }),
  /** Webhook sends in flight at once in this process. */
  webhookConcurrency: positive("SVC_WEBHOOK_CONCURRENCY", 16),
  /** Sends to one webhook in flight at once, across instances. */
  webhookPerWebhook: positive("SVC_WEBHOOK_PER_WEBHOOK", 4),
  /** Time between the instant hooks' push rounds (pushed by the processes that send webhooks). */
  instantHookIntervalMs: positive("SVC_INSTANT_HOOK_INTERVAL_MS", DEFAULT_INSTANT_HOOK_INTERVAL_MS),
  /** How long svc_ask_custom_ai waits for the language model before answering `running`. */
  aiAskBudgetMs: positive("SVC_AI_ASK_BUDGET_MS", 20_000),
  /**
   * Whether this process runs Custom AI answers left in the background and routines' runs (off: another instance
   * runs them).
   */
  aiWorker: switchedOn("SVC_AI_WORKER", true),
  /** Whether this process sends the email sequences' due steps (off: another instance sends them). */
  sequenceWorker: switchedOn("SVC_SEQUENCE_WORKER", true),
  /** Whether this process publishes scheduled posts (off: another instance publishes them). */
  publishWorker: switchedOn("SVC_PUBLISH_WORKER", true),
  /**
   * How long a post's delivery is held before another instance may take it over (after a crash); a delivery taken
   * over asks the network whether it already went out before publishing again.
   */
  publishLeaseMs: Config.integer("SVC_PUBLISH_LEASE_MS").pipe(
    Config.withDefault(300_000),
    Config.validate({ message: "SVC_PUBLISH_LEASE_MS must be at least 10000", validation: (ms) => ms >= 10_000 })
  ),
  /** How long a running Custom AI answer is held before another instance may take it over (after a crash). */
  /** Whether this process fetches published posts' metrics (off: another instance does). */
  analyticsWorker: switchedOn("SVC_ANALYTICS_WORKER", true),
  /** How long a claimed metrics fetch is held before another instance may take it over. */
  analyticsLeaseMs: Config.integer("SVC_ANALYTICS_LEASE_MS").pipe(
    Config.withDefault(120_000),
    Config.validate({ message: "SVC_ANALYTICS_LEASE_MS must be at least 10000", validation: (ms) => ms >= 10_000 })
  ),
  /** How often a post's metrics are fetched in its first day (later the schedule slows: docs/analytics.md). */
  analyticsFirstDayEveryMs: Config.integer("SVC_ANALYTICS_FIRST_DAY_EVERY_MS").pipe(
    Config.withDefault(900_000),
    Config.validate({
      message: "SVC_ANALYTICS_FIRST_DAY_EVERY_MS must be at least 10000",
      validation: (ms) => ms >= 10_000
    })
  ),
  /** How often each connected account's replies and mentions are read for the auto-DM rules. */
  autoDmPollMs: Config.integer("SVC_AUTO_DM_POLL_MS").pipe(
    Config.withDefault(60_000),
    Config.validate({ message: "SVC_AUTO_DM_POLL_MS must be at least 5000", validation: (ms) => ms >= 5_000 })
  ),
  /** Whether this process answers replies with the auto-DM rules (off: another instance does). */
  autoDmWorker: switchedOn("SVC_AUTO_DM_WORKER", true),
  /** How long a claimed auto-DM send is held before another instance may take it over. */
  autoDmLeaseMs: Config.integer("SVC_AUTO_DM_LEASE_MS").pipe(
    Config.withDefault(120_000),
    Config.validate({ message: "SVC_AUTO_DM_LEASE_MS must be at least 10000", validation: (ms) => ms >= 10_000 })
  ),
  aiLeaseMs: Config.integer("SVC_AI_LEASE_MS").pipe(
    Config.withDefault(120_000),
    Config.validate({ message: "SVC_AI_LEASE_MS must be at least 2000", validation: (ms) => ms >= 2_000 })
  ),
  graphql: graphqlSettings,
  /** Where `GET /metrics` is served: with a bearer token on this port, on a listener of its own, or nowhere. */
  metrics: MetricsConfig,
  /** Where media files are kept: the filesystem or an S3-compatible bucket (media-config.ts, docs/media.md). */
  media: MediaConfig,
  /**
   * The SMTP server mail goes out through (docs/email.md), e.g. `smtps://user:pass@smtp.example.com:465`. Unset: no
   * mail is sent, and the owner reads the outbox at /settings/outbox.
   */
  smtpUrl: Config.option(
    Config.redacted("SMTP_URL").pipe(
      Config.validate({
        message: "SMTP_URL must be an smtp:// or smtps:// URL, e.g. smtps://user:pass@smtp.example.com:465",
        validation: (url) => /^smtps?:\/\/[^\s/]+/i.test(Redacted.value(url))
      })
    )
  ),
  /** The From of every message; defaults to `svc <no-reply@<public URL's host>>`. */
  smtpFrom: Config.option(
    Config.string("SMTP_FROM").pipe(
      Config.validate({
        message: "SMTP_FROM must be one address, like Shop <shop@example.com> or shop@example.com",
        validation: (from) => fromAddressProblem(from) === undefined
      })
    )
  ),
  /**
   * Where Stripe's API is: Stripe's own unless set. A test, or a company proxy in front of Stripe, sets it (the
   * stores' own keys come from their settings, never from here).
   */
  stripeApiUrl: Config.option(Config.url("SVC_STRIPE_API_URL")),
  /**
   * The server's Stripe platform, with which sellers connect their accounts through Stripe Connect: all three set, or
   * none (sellers then connect with their own keys). The client id is `ca_…` from Stripe's Connect settings; the
   * webhook secret is that of the platform's Connect endpoint, `<public URL>/stripe/connect/webhooks`.
   */
  stripeConnect: Config.all([
    Config.option(Config.string("SVC_STRIPE_CONNECT_CLIENT_ID")),
    Config.option(Config.redacted("SVC_STRIPE_CONNECT_SECRET_KEY")),
    Config.option(Config.redacted("SVC_STRIPE_CONNECT_WEBHOOK_SECRET"))
  ]).pipe(
    Config.validate({
      message:
        "set SVC_STRIPE_CONNECT_CLIENT_ID (ca_…), SVC_STRIPE_CONNECT_SECRET_KEY (sk_…) and SVC_STRIPE_CONNECT_WEBHOOK_SECRET (whsec_…) together, or none of them",
      validation: (parts) => {
        const set = parts.filter((part: Option.Option<unknown>) => Option.isSome(part)).length
        if (set === 0) return true
        const [clientId, secretKey, webhookSecret] = parts
        return (
          set === 3 &&
          /^ca_[A-Za-z0-9]{8,}$/.test(Option.getOrElse(clientId, () => "")) &&
          /^(sk|rk)_(test|live)_[A-Za-z0-9]{10,}$/.test(
            Option.match(secretKey, { onNone: () => "", onSome: Redacted.value })
          ) &&
          /^whsec_[A-Za-z0-9+/=]{10,}$/.test(Option.match(webhookSecret, { onNone: () => "", onSome: Redacted.value }))
        )
      }
    }),
    Config.map(([clientId, secretKey, webhookSecret]) =>
      Option.isSome(clientId) && Option.isSome(secretKey) && Option.isSome(webhookSecret)
        ? Option.some({
            clientId: clientId.value,
            secretKey: Redacted.value(secretKey.value),
            webhookSecret: Redacted.value(webhookSecret.value)
          })
        : Option.none()
    )
  ),
  /** How a stop drains the HTTP server (`drain.ts` in the adapters): "not ready" for `delayMs`, then in-flight calls. */
  drain: Config.all({
    delayMs: notNegative("SVC_DRAIN_DELAY_MS", DEFAULT_DRAIN.delayMs),
    timeoutMs: positive("SVC_DRAIN_TIMEOUT_MS", DEFAULT_DRAIN.timeoutMs)
  }),
  /** How long the HTTP server waits on a slow client (docs/http-limits.md). */
  httpTimeouts: Config.all({
    headersMs: positive("SVC_HTTP_HEADERS_TIMEOUT_MS", DEFAULT_HTTP_TIMEOUTS.headersMs),
    requestMs: positive("SVC_HTTP_REQUEST_TIMEOUT_MS", DEFAULT_HTTP_TIMEOUTS.requestMs),
    bodyIdleMs: positive("SVC_HTTP_BODY_IDLE_TIMEOUT_MS", DEFAULT_HTTP_TIMEOUTS.bodyIdleMs),
    uploadMs: positive("SVC_HTTP_UPLOAD_TIMEOUT_MS", DEFAULT_HTTP_TIMEOUTS.uploadMs ?? 900_000)
  }).pipe(
    Config.validate({
      message:
        "SVC_HTTP_HEADERS_TIMEOUT_MS cannot be longer than SVC_HTTP_REQUEST_TIMEOUT_MS, nor SVC_HTTP_UPLOAD_TIMEOUT_MS shorter",
      validation: (timeouts) => timeoutsProblem(timeouts) === undefined
    })
  )
})

export type ServerConfig = Config.Config.Success<typeof ServerConfig>

/** The From address of outgoing mail: `SMTP_FROM`, or a no-reply address at the public URL's host. */
export const mailFrom = (config: ServerConfig): string => {
  if (config.smtpFrom._tag === "Some") return config.smtpFrom.value
  const host = new URL(publicBase(config)).hostname
  // An address or a bare name (127.0.0.1, a container name) is no mail domain a server would accept.
  return `svc <no-reply@${/^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/i.test(host) ? host : "localhost"}>`
}

/**
 * Where callers reach the server, without a trailing slash: `PUBLIC_URL` with its path (a server behind a proxy under
 * `/svc` answers there too, see serve.ts), or `http://HOST:PORT`.
 */
export const publicBase = (config: ServerConfig): string =>
  config.publicUrl._tag === "Some"
    ? parsePublicUrl(config.publicUrl.value, "PUBLIC_URL").base
    : `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${config.port}`
