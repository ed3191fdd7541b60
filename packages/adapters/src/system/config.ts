import { Context, Option, type Redacted } from "effect"

/** The server key as configured: webhook signing secrets are sealed with it and other keys are derived from it. */
export interface ServerSecretKeyShape {
  /**
   * The base64 of 32 random bytes (the server's `SVC_SECRET_KEY`). None: a key generated once into the database
   * (`server_secrets`), with a warning that a copy of the database then reveals the sealed secrets.
   */
  readonly configured: Option.Option<Redacted.Redacted<string>>
}

/** The server key in use: none configured (the generated one) unless a layer provides it. */
export class ServerSecretKey extends Context.Reference<ServerSecretKey>()("svc/system/ServerSecretKey", {
  defaultValue: (): ServerSecretKeyShape => ({ configured: Option.none() })
}) {}
