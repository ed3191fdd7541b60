/** Card processors behind the core's `CardProcessor` port, one module per processor. */
export { makeStripeProcessor, type StripeProcessorOptions, StripeProcessorLive } from "./stripe.js"
