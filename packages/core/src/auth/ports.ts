import { Context, type Effect, type Option } from "effect"
import type { ApiKey } from "./schema.js"

/** Stored API keys. */
export class ApiKeysRepo extends Context.Tag("svc/auth/ApiKeysRepo")<
  ApiKeysRepo,
  {
    readonly insert: (key: ApiKey, tokenHash: string) => Effect.Effect<void>
    readonly findByHash: (tokenHash: string) => Effect.Effect<Option.Option<ApiKey>>
    readonly listByAccount: (accountId: string) => Effect.Effect<ReadonlyArray<ApiKey>>
    /** Marks a key revoked; `false` when there is no such key (of that account, when one is named). */
    readonly revoke: (keyId: string, accountId: string | undefined, at: Date) => Effect.Effect<boolean>
    readonly touch: (keyId: string, at: Date) => Effect.Effect<void>
  }
>() {}
