import { CredentialSealer } from "@svc/core/scheduling"
import { WebhookSecrets } from "@svc/core/webhooks"
import { Effect, Layer } from "effect"

/**
 * Social account credentials sealed as webhook secrets are: AES-256-GCM under the server key (`SVC_SECRET_KEY`, or
 * the generated one), so a copy of the database alone does not reveal them when the key is configured.
 */
export const CredentialSealerLive = Layer.effect(
  CredentialSealer,
  Effect.map(WebhookSecrets, (secrets) => ({ seal: secrets.seal, open: secrets.open }))
)
