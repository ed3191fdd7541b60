import { Layer } from "effect"
import { OAuthClientsRepoSql } from "./oauth-clients.js"
import { OAuthGrantsRepoSql } from "./oauth-grants.js"
import { OAuthHousekeepingRepoSql } from "./oauth-housekeeping.js"
import { BrowserSessionsRepoSql } from "./oauth-sessions.js"

/** Every storage port of the authorization server over SQL. */
export const OAuthReposSql = Layer.mergeAll(
  OAuthClientsRepoSql,
  BrowserSessionsRepoSql,
  OAuthGrantsRepoSql,
  OAuthHousekeepingRepoSql
)
