import { Schema } from "effect"
import type { Plan } from "../accounts/schema.js"
import { Timestamp } from "../shared/time.js"
import { Access, Part } from "./access.js"

/** A personal access token as stored: never the token itself, only its hash and a display prefix. */
export class ApiKey extends Schema.Class<ApiKey>("ApiKey")({
  id: Schema.String,
  accountId: Schema.String,
  workspaceId: Schema.String,
  name: Schema.String,
  prefix: Schema.String,
  access: Access,
  /**
   * The toolsets (named by their access part) the key is served when a request names none; `null` for every
   * group. A default, not a ceiling: a request may name others, within `access`.
   */
  toolsets: Schema.optionalWith(Schema.NullOr(Schema.Array(Part)), { default: () => null }),
  createdAt: Timestamp,
  lastUsedAt: Schema.NullOr(Timestamp),
  expiresAt: Schema.NullOr(Timestamp),
  revokedAt: Schema.NullOr(Timestamp)
}) {}

/** Who is calling, as every face and service sees it once the bearer token is checked. */
export interface Principal {
  readonly accountId: string
  readonly plan: Plan
  readonly access: Access
  /** The toolsets served when a request names none (an API key's default toolsets); absent or `null`: every group. */
  readonly toolsets?: ReadonlyArray<Part> | null
  /** The credential behind the call, for rate limits and audit. */
  readonly credential: { readonly kind: "api_key" | "oauth"; readonly id: string }
  /** The workspace the credential is bound to: the default for tools, the only store for the store API. */
  readonly workspaceId: string | null
  /** Whether tools may name the account's other workspaces (OAuth sign-ins) or only the bound one (API keys). */
  readonly reach: "bound" | "account"
  /** Set for credentials exempt from the tool-call rate limit (see the server's `SVC_RATE_LIMIT_EXEMPT_KEYS`). */
  readonly rateLimitExempt: boolean
}
