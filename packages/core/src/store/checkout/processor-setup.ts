import { Clock, Effect, Option } from "effect"
import { requireApiKeyFor, type StoreCaller } from "../../auth/store-caller.js"
import { invalid, NotFound, Unreachable } from "../../shared/errors.js"
import { CredentialSealer, Transactor } from "../../shared/ports.js"
import { StoreSetup } from "../catalog/settings.js"
import { StorePages } from "../catalog/store-pages.js"
import { type ProcessorAccount, type ProcessorStatus, processorStatusOf } from "./hosted-checkout.js"
import { ProcessorAccountsRepo } from "./ports.js"
import { CardProcessor, type ProcessorFailure } from "./processor.js"

/** A store's live processor keys, opened: what the checkout and the webhook use. */
export interface ProcessorKeys {
  readonly account: ProcessorAccount
  readonly secretKey: string
  readonly webhookSecret: string
}

// Stripe's formats: a secret (`sk_`) or restricted (`rk_`) key, and an endpoint's signing secret (`whsec_`).
const SECRET_KEY = /^(sk|rk)_(test|live)_[A-Za-z0-9]{10,250}$/
const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/=]{10,250}$/

/**
 * Connecting a store to its live card processor (Stripe): the secret key is checked with the processor before it is
 * kept, both keys are sealed with the server key, and connecting turns the store's card processor on. Without a
 * live account a connected store takes payments with the built-in test processor.
 */
export class ProcessorSetup extends Effect.Service<ProcessorSetup>()("svc/store/ProcessorSetup", {
  dependencies: [StoreSetup.Default],
  effect: Effect.gen(function* () {
    const accounts = yield* ProcessorAccountsRepo
    const sealer = yield* CredentialSealer
    const processor = yield* CardProcessor
    const setup = yield* StoreSetup
    const transactor = yield* Transactor
    const pages = yield* StorePages

    const status = (workspaceId: string): Effect.Effect<Option.Option<ProcessorStatus>> =>
      Effect.map(
        accounts.find(workspaceId),
        Option.map((account) => processorStatusOf(account, pages.publicBase))
      )

    /** The store's opened keys, when it has a live account. */
    const keys = (workspaceId: string): Effect.Effect<Option.Option<ProcessorKeys>> =>
      Effect.flatMap(accounts.find(workspaceId), (found) =>
        Option.isNone(found)
          ? Effect.succeed(Option.none())
          : Effect.map(
              Effect.all([sealer.open(found.value.secretKeySealed), sealer.open(found.value.webhookSecretSealed)]),
              ([secretKey, webhookSecret]) => Option.some({ account: found.value, secretKey, webhookSecret })
            )
      )

    const keyRefused = (failure: ProcessorFailure) =>
      failure.reason === "bad_key" || failure.reason === "refused"
        ? invalid("secret_key", `Stripe did not accept the secret key: ${failure.message}`)
        : new Unreachable({ message: `Stripe could not check the key now: ${failure.message}` })

    /** Checks and keeps the store's Stripe keys, and turns its card processor on (the owner's settings page). */
    const connect = (workspaceId: string, input: { readonly secretKey: string; readonly webhookSecret: string }) =>
      Effect.gen(function* () {
        const secretKey = input.secretKey.trim()
        const webhookSecret = input.webhookSecret.trim()
        if (!SECRET_KEY.test(secretKey)) {
          return yield* invalid(
            "secret_key",
            "a Stripe secret key starts sk_test_ or sk_live_ (or rk_ for a restricted key): copy it from Stripe's Developers > API keys"
          )
        }
        if (!WEBHOOK_SECRET.test(webhookSecret)) {
          return yield* invalid(
            "webhook_secret",
            "a Stripe webhook signing secret starts whsec_: add this store's webhook endpoint in Stripe, then copy its signing secret"
          )
        }
        const checked = yield* Effect.mapError(processor.checkKey(secretKey), keyRefused)
        const account: ProcessorAccount = {
          workspaceId,
          processor: "stripe",
          accountId: checked.accountId,
          livemode: checked.livemode,
          secretKeySealed: yield* sealer.seal(secretKey),
          webhookSecretSealed: yield* sealer.seal(webhookSecret),
          connectedAt: new Date(yield* Clock.currentTimeMillis)
        }
        yield* transactor.withTransaction(
          Effect.zipRight(accounts.save(account), setup.set(workspaceId, { cardProcessor: "connected" }))
        )
        return processorStatusOf(account, pages.publicBase)
      })

    /**
     * Forgets the store's Stripe keys and turns its card processor off: falling back to the test processor would let
     * buyers take paid products with a test card. The seller turns the test processor on again by hand if they mean to.
     */
    const disconnect = (workspaceId: string) =>
      Effect.gen(function* () {
        const removed = yield* transactor.withTransaction(
          Effect.gen(function* () {
            if (!(yield* accounts.remove(workspaceId))) return false
            yield* setup.set(workspaceId, { cardProcessor: "none" })
            return true
          })
        )
        if (!removed) return yield* new NotFound({ message: "this store has no Stripe account connected" })
      })

    /** `connect` for a store API caller: an API key, never an automation connection. */
    const connectStripe = (
      caller: StoreCaller,
      input: { readonly secretKey: string; readonly webhookSecret: string }
    ) => Effect.zipRight(requireApiKeyFor(caller, "connect a card processor"), connect(caller.workspaceId, input))

    /** `disconnect` for a store API caller. */
    const disconnectFor = (caller: StoreCaller) =>
      Effect.zipRight(requireApiKeyFor(caller, "disconnect the card processor"), disconnect(caller.workspaceId))

    return { status, keys, connect, disconnect, connectStripe, disconnectFor } as const
  })
}) {}
