/** Rate limits: the `RateLimiter` port and the `RateLimited` error. */
export { type RateDecision, RateLimiter } from "./ports.js"
export { RateLimited, TOOL_CALLS_PER_MINUTE } from "./schema.js"
