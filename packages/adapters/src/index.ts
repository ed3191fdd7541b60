/**
 * The adapters of svc, one namespace per folder; each is also its own subpath (`@svc/adapters/sql`, …).
 *
 * - `Ai`: the language model Custom AIs answer with (`Ai.NoChatModelLive`, or a configured provider).
 * - `Sql`: storage on PGlite or PostgreSQL (`Sql.databaseLayer`, `Sql.SqlReposLive`, `Sql.migrations`).
 * - `System`: ports with no I/O beyond the process (`System.IdsLive`, `System.SecretsLive`, …).
 * - `HttpSender`: the SSRF-safe outgoing HTTP sender (`HttpSender.HttpSenderLive`).
 * - `Mail`: mail delivery over SMTP (`Mail.SmtpTransportLive`) and the signer of unsubscribe links.
 * - `Http`: the HTTP faces (MCP, REST tools, the store API, OAuth) on one router (`Http.ToolFacesLive`).
 */
export * as Ai from "./ai/index.js"
export * as Http from "./http/index.js"
export * as HttpSender from "./http-sender/index.js"
export * as Mail from "./mail/index.js"
export * as Sql from "./sql/index.js"
export * as System from "./system/index.js"
