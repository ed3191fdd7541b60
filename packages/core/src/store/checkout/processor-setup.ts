import { Clock, Effect, Option } from "effect"
import { requireApiKeyFor, type StoreCaller } from "../../auth/store-caller.js"
import { Conflict, invalid, NotFound, Unreachable } from "../../shared/errors.js"
import { CredentialSealer, Transactor } from "../../shared/ports.js"
import { StoreSetup } from "../catalog/settings.js"
import { StorePages } from "../catalog/store-pages.js"
import { type ProcessorAccount, type ProcessorStatus, processorStatusOf } from "./hosted-checkout.js"
import { ProcessorAccountsRepo } from "./ports.js"
import { CardProcessor, type ProcessorFailure, type ProcessorKey } from "./processor.js"
import { ProcessorPlatform } from "./processor-platform.js"

/**
 * A store's live processor keys, opened: what the checkout and the webhook use. `key` is null for an account
 * connected through Stripe Connect while this server has no Connect settings (any more): such a store takes no
 * payments (it never falls back to the test processor) until the server is configured again or the seller reconnects.
 */
export interface ProcessorKeys {
  readonly account: ProcessorAccount
  readonly key: ProcessorKey | null
  /** The secret the store's own webhook is checked with; null for a Connect account (the platform's endpoint). */
  readonly webhookSecret: string | null
}

/** The route on the owner's settings page where Stripe sends them back after authorizing the platform. */
export const STRIPE_CONNECT_RETURN_PATH = "/settings/store/stripe/connect/return"

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
    const platform = (yield* ProcessorPlatform).connect

    const status = (workspaceId: string): Effect.Effect<Option.Option<ProcessorStatus>> =>
      Effect.map(
        accounts.find(workspaceId),
        Option.map((account) => processorStatusOf(account, pages.publicBase))
      )

    /** The opened keys of `account`. */
    const keysOf = (account: ProcessorAccount): Effect.Effect<ProcessorKeys> => {
      if (account.via === "connect") {
        return Effect.succeed({
          account,
          key: platform === null ? null : { secretKey: platform.secretKey, account: account.accountId },
          webhookSecret: null
        })
      }
      if (account.secretKeySealed === null || account.webhookSecretSealed === null) {
        return Effect.dieMessage(`the Stripe account of ${account.workspaceId} has no sealed keys`)
      }
      return Effect.map(
        Effect.all([sealer.open(account.secretKeySealed), sealer.open(account.webhookSecretSealed)]),
        ([secretKey, webhookSecret]) => ({ account, key: { secretKey, account: null }, webhookSecret })
      )
    }

    /** The store's opened keys, when it has a live account. */
    const keys = (workspaceId: string): Effect.Effect<Option.Option<ProcessorKeys>> =>
      Effect.flatMap(accounts.find(workspaceId), (found) =>
        Option.isNone(found) ? Effect.succeed(Option.none()) : Effect.map(keysOf(found.value), Option.some)
      )

    /** The store whose account `accountId` connected through the platform, with its keys. */
    const connectedAccount = (accountId: string) =>
      Effect.flatMap(accounts.findConnected(accountId), (found) =>
        Option.isNone(found) ? Effect.succeed(Option.none()) : Effect.map(keysOf(found.value), Option.some)
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
          via: "key",
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

    /** Whether this server offers Stripe Connect. */
    const connectOffered = platform !== null

    /**
     * Where to send the owner to authorize the platform on Stripe (Stripe Connect, standard accounts): Stripe's
     * authorization page, which sends them back to the settings page with a code and `state`. `state` must be a
     * secret bound to the owner's browser session, checked on the way back.
     */
    const connectUrl = (state: string) =>
      platform === null
        ? Option.none()
        : Option.some(
            `https://connect.stripe.com/oauth/authorize?${new URLSearchParams({
              response_type: "code",
              client_id: platform.clientId,
              scope: "read_write",
              state,
              redirect_uri: `${pages.publicBase}${STRIPE_CONNECT_RETURN_PATH}`
            }).toString()}`
          )

    /**
     * Completes Stripe Connect for a store: the code the owner's browser brought back is redeemed for the account they
     * authorized, which then takes the store's payments (its card processor turned on). A store connected by key
     * before is connected through the platform from then on.
     */
    const completeConnect = (workspaceId: string, code: string) =>
      Effect.gen(function* () {
        if (platform === null) {
          return yield* invalid("code", "this server does not offer Stripe Connect; connect Stripe with a secret key")
        }
        if (!/^[A-Za-z0-9_-]{1,300}$/.test(code)) return yield* invalid("code", "Stripe's code is not one it gives")
        const connected = yield* processor
          .connectAccount(platform.secretKey, code)
          .pipe(
            Effect.mapError((failure) =>
              failure.reason === "refused" || failure.reason === "bad_key"
                ? invalid("code", `Stripe did not complete the connection: ${failure.message} Start again.`)
                : new Unreachable({ message: `Stripe could not complete the connection now: ${failure.message}` })
            )
          )
        const account: ProcessorAccount = {
          workspaceId,
          processor: "stripe",
          via: "connect",
          accountId: connected.accountId,
          livemode: connected.livemode,
          secretKeySealed: null,
          webhookSecretSealed: null,
          connectedAt: new Date(yield* Clock.currentTimeMillis)
        }
        yield* transactor.withTransaction(
          Effect.gen(function* () {
            const other = yield* accounts.findConnected(connected.accountId)
            if (Option.isSome(other) && other.value.workspaceId !== workspaceId) {
              return yield* new Conflict({
                message: `Stripe account ${connected.accountId} already takes the payments of another store; disconnect it there first`
              })
            }
            yield* accounts.save(account)
            yield* setup.set(workspaceId, { cardProcessor: "connected" })
          })
        )
        return processorStatusOf(account, pages.publicBase)
      })

    /**
     * Forgets the store's Stripe keys and turns its card processor off: falling back to the test processor would let
     * buyers take paid products with a test card. The seller turns the test processor on again by hand if they mean to.
     */
    const disconnect = (workspaceId: string) =>
      Effect.gen(function* () {
        const found = yield* accounts.find(workspaceId)
        const removed = yield* transactor.withTransaction(
          Effect.gen(function* () {
            if (!(yield* accounts.remove(workspaceId))) return false
            yield* setup.set(workspaceId, { cardProcessor: "none" })
            return true
          })
        )
        if (!removed) return yield* new NotFound({ message: "this store has no Stripe account connected" })
        // The platform lets go of an account connected through it. The store is disconnected already: should Stripe
        // not answer, the seller can remove the platform in Stripe's dashboard, and its events find no store here.
        if (Option.isSome(found) && found.value.via === "connect" && platform !== null) {
          yield* processor
            .disconnectAccount(platform.secretKey, platform.clientId, found.value.accountId)
            .pipe(
              Effect.catchAll((failure) =>
                Effect.logWarning(
                  `Stripe did not take back the platform's access to ${found.value.accountId}: ${failure.message}`
                )
              )
            )
        }
      })

    /**
     * The seller took the platform's access away in Stripe (`account.application.deauthorized`): the store is
     * disconnected as by the seller here, without telling Stripe again.
     */
    const deauthorized = (workspaceId: string) =>
      transactor
        .withTransaction(
          Effect.gen(function* () {
            if (yield* accounts.remove(workspaceId)) yield* setup.set(workspaceId, { cardProcessor: "none" })
          })
        )
        .pipe(
          // Turning the card processor off is always a valid setting.
          Effect.catchTag("InvalidInput", (error) => Effect.die(error))
        )

    /** `connect` for a store API caller: an API key, never an automation connection. */
    const connectStripe = (
      caller: StoreCaller,
      input: { readonly secretKey: string; readonly webhookSecret: string }
    ) => Effect.zipRight(requireApiKeyFor(caller, "connect a card processor"), connect(caller.workspaceId, input))

    /** `disconnect` for a store API caller. */
    const disconnectFor = (caller: StoreCaller) =>
      Effect.zipRight(requireApiKeyFor(caller, "disconnect the card processor"), disconnect(caller.workspaceId))

    return {
      status,
      keys,
      connectedAccount,
      connect,
      connectOffered,
      connectUrl,
      completeConnect,
      disconnect,
      deauthorized,
      connectStripe,
      disconnectFor
    } as const
  })
}) {}
