import { Context, type Effect } from "effect"

/** Makes identifiers; a port so tests can make them predictable. */
export class Ids extends Context.Tag("svc/shared/Ids")<
  Ids,
  {
    /** A new opaque id with the given type prefix, e.g. `make("note_")`. */
    readonly make: (prefix: string) => Effect.Effect<string>
  }
>() {}

/** Randomness and one-way functions the core needs but may not compute with Node built-ins. */
export class Secrets extends Context.Tag("svc/shared/Secrets")<
  Secrets,
  {
    /** `length` cryptographically random bytes. */
    readonly randomBytes: (length: number) => Effect.Effect<Uint8Array>
    /** Lower-case hex SHA-256 of the UTF-8 text. */
    readonly sha256Hex: (text: string) => Effect.Effect<string>
    /** A salted, slow password hash in a self-describing string format. */
    readonly hashPassword: (password: string) => Effect.Effect<string>
    /** Whether `password` matches a hash made by `hashPassword`; constant-time. */
    readonly verifyPassword: (password: string, hash: string) => Effect.Effect<boolean>
  }
>() {}

/** Runs an effect in one storage transaction, so a change and its events commit together. */
export class Transactor extends Context.Tag("svc/shared/Transactor")<
  Transactor,
  {
    readonly withTransaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  }
>() {}

/** Seals and opens stored credentials (social accounts' tokens, a store's processor keys) with the server key. */
export class CredentialSealer extends Context.Tag("svc/scheduling/CredentialSealer")<
  CredentialSealer,
  {
    readonly seal: (plain: string) => Effect.Effect<string>
    readonly open: (sealed: string) => Effect.Effect<string>
  }
>() {}
