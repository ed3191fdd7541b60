/** Rate limits: the `RateLimiter` port, the `RateLimited` error and the count of refusals. */
export { countingRefusals, rateLimitRefusals } from "./metrics.js"
export { type RateDecision, RateLimiter } from "./ports.js"
export { RateLimited, TOOL_CALLS_PER_MINUTE } from "./schema.js"
