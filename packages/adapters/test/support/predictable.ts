/**
 * Randomness and time a test controls: ids and webhook secrets counted up instead of drawn, and a clock that moves
 * only when the test moves it. A run over them answers the same bytes as the run before, on either engine.
 */
import { Ids } from "@svc/core/shared"
import { WebhookSecrets } from "@svc/core/webhooks"
import { Clock, type Duration, Effect, Layer } from "effect"
import { WebhookSecretsLive } from "../../src/system/webhook-secrets.js"

/** `Ids` that count per prefix: `prod_00000000000000000001`, the same length as the live ones (20 characters). */
export const countingIds = () => {
  const counters = new Map<string, number>()
  return Layer.succeed(Ids, {
    make: (prefix) =>
      Effect.sync(() => {
        const next = (counters.get(prefix) ?? 0) + 1
        counters.set(prefix, next)
        return `${prefix}${next.toString(36).padStart(20, "0")}`
      })
  })
}

/** The live sealing and signing, with new signing secrets counted (`whsec_` and 43 characters, as the live ones). */
export const countingWebhookSecrets = () => {
  let count = 0
  return Layer.effect(
    WebhookSecrets,
    Effect.map(WebhookSecrets, (live) => ({
      ...live,
      generate: Effect.sync(() => {
        count += 1
        return `whsec_${count.toString(36).padStart(43, "0")}`
      })
    }))
  ).pipe(Layer.provide(WebhookSecretsLive))
}

/** A clock standing at `startMillis` until `advance` moves it; its sleeps are the real ones, so timeouts still fire. */
export class ManualClock implements Clock.Clock {
  readonly [Clock.ClockTypeId]: Clock.ClockTypeId = Clock.ClockTypeId
  private readonly real = Clock.make()
  private millis: number

  constructor(startMillis: number) {
    this.millis = startMillis
  }

  /** Moves the clock on by `millis`. */
  advance(millis: number): void {
    this.millis += millis
  }

  unsafeCurrentTimeMillis(): number {
    return this.millis
  }

  get currentTimeMillis(): Effect.Effect<number> {
    return Effect.sync(() => this.millis)
  }

  unsafeCurrentTimeNanos(): bigint {
    return BigInt(this.millis) * 1_000_000n
  }

  get currentTimeNanos(): Effect.Effect<bigint> {
    return Effect.sync(() => this.unsafeCurrentTimeNanos())
  }

  sleep(duration: Duration.Duration): Effect.Effect<void> {
    return this.real.sleep(duration)
  }
}
