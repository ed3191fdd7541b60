/** Ports that need no database or network: ids, secrets, an in-memory rate limiter, offline link previews. */
export { ServerSecretKey, type ServerSecretKeyShape } from "./config.js"
export { IdsLive } from "./ids.js"
export { LinkPreviewOffline } from "./link-preview-offline.js"
export { RateLimiterMemory } from "./rate-limiter-memory.js"
export { SecretsLive } from "./secrets.js"
export { WebhookSecretsLive } from "./webhook-secrets.js"
