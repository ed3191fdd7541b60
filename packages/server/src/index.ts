/**
 * The composition root of svc, for running the whole service from your own process.
 *
 * - `Server`: the HTTP server with every face and the background workers (`Server.ServerLive`, `Server.runServer`).
 * - `App`: the core with its ports on the database the environment names (`App.AppLive`).
 * - `Storage`: every core port over one database (`Storage.storageLayer`).
 * - `Settings`: what the server reads from its environment (`Settings.ServerConfig`).
 * - `Tracing`: OpenTelemetry export over OTLP (`Tracing.otlpTracerLayer`), as `svc serve` sets it up.
 * - `Cli`: the `svc` command line as a function (`Cli.runCommand`) and its command tree (`Cli.svcCommand`).
 * - `makeSvc`: all of svc as one web handler in your own server, with the same workers as `svc serve`
 *   (docs/embedding.md); `Workers`: the workers, by name.
 */
export * as App from "./runtime.js"
export * as Cli from "./cli/main.js"
export * as Server from "./serve.js"
export * as Settings from "./config.js"
export * as Storage from "./storage.js"
export * as Tracing from "./tracing.js"
export * as Workers from "./workers.js"
export { makeSvc, type Svc, type SvcOptions, type SvcSettings } from "./embed.js"
export type { ApiKeyView, CohortView, SvcAdmin } from "./embed-admin.js"
