import { Schema } from "effect"

/**
 * An OAuth token whose scopes reach nothing on the tool faces (a `store` token on `/mcp` or `/v1/tools`). Not an
 * authentication failure: the face answers 403 with an RFC 6750 `insufficient_scope` challenge naming `needed`, so
 * the client can ask the user for more rather than sign in again.
 */
export class ScopeNotGranted extends Schema.TaggedError<ScopeNotGranted>()("ScopeNotGranted", {
  /** The scopes the token has, as protocol text. */
  granted: Schema.String,
  /** The scopes to ask for, as protocol text (the `scope` attribute of the challenge). */
  needed: Schema.String
}) {
  override get message() {
    return `this connection was authorized with scope "${this.granted}", which reaches only the store API (/store-app/v1); authorize again with scope "${this.needed}" to use the tools`
  }
}
