/**
 * `svc webhooks listen --forward-to <url>`: webhook development without a public address, as `stripe listen` does it.
 * The command reads the store's event log through the store API (`GET /store-app/v1/events`, with a store API key),
 * and posts each new event to a local address, signed exactly as a delivery is (`X-Svc-Signature` over
 * `<timestamp>.<body>`) with a secret of this session, which it prints: the receiver checks it with the client's
 * `verifyWebhook` as it will check the real deliveries. Nothing is registered on the server, so nothing is left
 * behind; the command runs until SIGINT or SIGTERM.
 */
import { createHmac, randomBytes } from "node:crypto"
import { EVENT_HEADER, EVENT_ID_HEADER, EventEnvelope, SIGNATURE_HEADER, TIMESTAMP_HEADER } from "@svc/core/webhooks"
import { Data, Duration, Effect, Schema } from "effect"
import type { Output } from "./output.js"

/** What `svc webhooks listen` takes. */
export interface ListenOptions {
  /** Where the events go, e.g. `http://localhost:3000/hooks`. */
  readonly forwardTo: string
  /** The svc server's base URL. */
  readonly url: string
  /** A store API key (Store: Read is enough). */
  readonly key: string
  /** Only these event types; every type when empty. */
  readonly events: ReadonlyArray<string>
  readonly pollMs: number
}

/** The store API refused or could not be reached: the reason, said once. */
export class ListenFailed extends Data.TaggedError("ListenFailed")<{ readonly message: string }> {}

const EventPage = Schema.Struct({
  data: Schema.Array(EventEnvelope),
  has_more: Schema.Boolean,
  next_cursor: Schema.String
})

type Envelope = typeof EventEnvelope.Type

/** One page of the event log, newest first, created after `after` (ms), from `cursor` on. */
const readPage = (options: ListenOptions, after: number, cursor: string | undefined) =>
  Effect.gen(function* () {
    const query = new URLSearchParams({ limit: "100", created_after: String(after) })
    if (cursor !== undefined) query.set("starting_after", cursor)
    const address = `${options.url.replace(/\/+$/, "")}/store-app/v1/events?${query}`
    const response = yield* Effect.tryPromise({
      try: (signal) => fetch(address, { headers: { authorization: `Bearer ${options.key}` }, signal }),
      catch: () => new ListenFailed({ message: `the server at ${options.url} does not answer; is svc serve running?` })
    })
    const body: unknown = yield* Effect.tryPromise({
      try: () => response.json(),
      catch: () =>
        new ListenFailed({ message: `the server at ${options.url} answered ${response.status} without JSON` })
    })
    if (!response.ok) {
      const said =
        typeof body === "object" && body !== null && "message" in body ? String(body.message) : `${response.status}`
      return yield* new ListenFailed({ message: `the store API refused to list events: ${said}` })
    }
    return yield* Schema.decodeUnknown(EventPage)(body).pipe(
      Effect.mapError(() => new ListenFailed({ message: "the store API's event page was not as expected" }))
    )
  })

/** Every event created after `after`, oldest first. */
const readNewEvents = (options: ListenOptions, after: number) =>
  Effect.gen(function* () {
    const newestFirst: Array<Envelope> = []
    let cursor: string | undefined
    for (;;) {
      const page = yield* readPage(options, after, cursor)
      newestFirst.push(...page.data)
      if (!page.has_more || page.data.length === 0) break
      cursor = page.next_cursor
    }
    return newestFirst.reverse()
  })

/** Posts one event to the local address, signed with the session's secret; answers the status or the reason. */
const forward = (options: ListenOptions, secret: string, event: Envelope) =>
  Effect.gen(function* () {
    const body = JSON.stringify(event)
    const timestamp = Date.now()
    const signature = createHmac("sha256", Buffer.from(secret, "utf8"))
      .update(`${timestamp}.${body}`, "utf8")
      .digest("hex")
    return yield* Effect.tryPromise({
      try: (signal) =>
        fetch(options.forwardTo, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            [SIGNATURE_HEADER]: `sha256=${signature}`,
            [TIMESTAMP_HEADER]: String(timestamp),
            [EVENT_HEADER]: event.type,
            [EVENT_ID_HEADER]: event.id
          },
          body,
          signal: AbortSignal.any([signal, AbortSignal.timeout(10_000)])
        }).then((response) => String(response.status)),
      catch: (error) => `not delivered (${error instanceof Error ? error.message : String(error)})`
    }).pipe(Effect.merge)
  })

/** Ends when the process gets SIGINT or SIGTERM. */
const signalled = Effect.async<void>((resume) => {
  const stop = () => resume(Effect.void)
  process.once("SIGINT", stop)
  process.once("SIGTERM", stop)
  return Effect.sync(() => {
    process.off("SIGINT", stop)
    process.off("SIGTERM", stop)
  })
})

/**
 * Forwards the store's new events to `forwardTo` until a signal. Events already in the log when it starts are not
 * sent; each new one is sent once, oldest first.
 */
export const listen = (options: ListenOptions, output: Output) =>
  Effect.gen(function* () {
    let target: URL
    try {
      target = new URL(options.forwardTo)
    } catch {
      return yield* new ListenFailed({ message: `--forward-to must be a URL, like http://localhost:3000/hooks` })
    }
    if (target.protocol !== "http:" && target.protocol !== "https:") {
      return yield* new ListenFailed({ message: "--forward-to must be an http or https URL" })
    }
    const secret = `whsec_${randomBytes(24).toString("base64url")}`
    const wanted = (event: Envelope) => options.events.length === 0 || options.events.includes(event.type)
    // The log as it is now is the starting point: what is in it is not sent. Times are the server's own, so a clock
    // here that is off does not matter.
    const existing = yield* readPage(options, 0, undefined)
    let after = existing.data.reduce((latest, event) => Math.max(latest, Date.parse(event.created_at)), 0)
    // Events of the same millisecond as `after` may come later: ids already sent are skipped.
    let sent = new Set(existing.data.map((event) => event.id))

    output.print(
      output.json
        ? JSON.stringify({ ok: true, listening: true, forward_to: target.href, signing_secret: secret })
        : `Ready. Forwarding ${options.events.length === 0 ? "every event" : options.events.join(", ")} of the store to ${target.href}; signing secret ${secret} (stop with Ctrl-C)`
    )

    const round = Effect.gen(function* () {
      const events = yield* readNewEvents(options, after - 1)
      const fresh = events.filter((event) => !sent.has(event.id))
      for (const event of fresh) {
        if (wanted(event)) {
          const status = yield* forward(options, secret, event)
          output.print(
            output.json
              ? JSON.stringify({ event: event.id, type: event.type, status })
              : `${event.created_at}  ${event.type}  ${event.id}  -> ${status}`
          )
        }
      }
      if (fresh.length > 0) {
        after = Math.max(after, ...fresh.map((event) => Date.parse(event.created_at)))
        sent = new Set(
          [...sent, ...fresh.map((event) => event.id)].filter((id) =>
            events.some((event) => event.id === id && Date.parse(event.created_at) >= after)
          )
        )
      }
    })

    yield* Effect.raceFirst(
      Effect.forever(Effect.zipRight(round, Effect.sleep(Duration.millis(options.pollMs)))),
      signalled
    )
    if (!output.json) output.print("Stopped.")
  })
