import { Layer } from "effect"
import { IdsLive } from "../system/ids.js"
import { SecretsLive } from "../system/secrets.js"
import { RateLimiterSql } from "./rate-limiter.js"
import { AccountsRepoSql } from "./repos/accounts.js"
import { ApiKeysRepoSql } from "./repos/api-keys.js"
import { EventLogSql } from "./repos/events.js"
import { ItemsRepoSql } from "./repos/items.js"
import { WorkspacesRepoSql } from "./repos/workspaces.js"
import { TransactorSql } from "./transactor.js"

/** Every storage port of the core over one `SqlClient`. */
export const SqlReposLive = Layer.mergeAll(
  AccountsRepoSql,
  WorkspacesRepoSql,
  ApiKeysRepoSql,
  ItemsRepoSql,
  EventLogSql,
  TransactorSql
)

/**
 * All core ports over SQL plus the system's randomness; the rate limiter in PostgreSQL, so
 * several instances share one count. Swap in `RateLimiterMemory` for a single embedded server.
 */
export const SqlPortsLive = Layer.mergeAll(SqlReposLive, RateLimiterSql, IdsLive, SecretsLive)
