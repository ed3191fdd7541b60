/**
 * `@svc/client/effect`: the client as Effect programs. The store API client derived from the store API's `HttpApi`
 * contract (`HttpApiClient`), and webhook verification as an Effect that reads `Clock`.
 */
export * from "./effect/store.js"
export * from "./effect/webhooks.js"
