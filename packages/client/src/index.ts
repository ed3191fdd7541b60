/**
 * `@svc/client`: the typed client of svc as plain Promises over `fetch`. It runs in Node 20+, browsers and any runtime
 * with `fetch`, and imports no `node:` module and none of the server's packages (the Effect face is
 * `@svc/client/effect`).
 */
export * from "./http/request.js"
export * from "./oauth/index.js"
export * from "./store/index.js"
export * from "./tools/index.js"
export * from "./webhooks/index.js"
