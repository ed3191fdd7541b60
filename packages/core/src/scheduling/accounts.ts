/** Opening a connected account for a platform's use: publishing, reading its metrics, answering its inbox. */
import { Effect } from "effect"
import { CredentialSealer } from "./ports.js"
import type { PublishingAccount } from "./publisher.js"
import type { SocialAccount } from "./schema.js"

/** Opens a connected account, or answers why it cannot be used now. */
export type OpenAccount = <E>(
  account: SocialAccount,
  needsReconnect: (reason: string) => E
) => Effect.Effect<PublishingAccount, E>

/**
 * Makes the `OpenAccount` function a service keeps, from the credential sealer: an account marked `needs_reconnect`
 * fails with `needsReconnect` (its reason, or "the account needs reconnecting"); any other has its credentials
 * unsealed.
 */
export const makeAccountOpener = Effect.map(
  CredentialSealer,
  (sealer): OpenAccount =>
    (account, needsReconnect) =>
      account.status === "needs_reconnect"
        ? Effect.fail(needsReconnect(account.statusReason ?? "the account needs reconnecting"))
        : Effect.map(
            sealer.open(account.credentialsSealed),
            (opened): PublishingAccount => ({
              id: account.id,
              platform: account.platform,
              handle: account.handle,
              serviceUrl: account.serviceUrl,
              credentials: JSON.parse(opened) as Record<string, unknown>
            })
          )
)
