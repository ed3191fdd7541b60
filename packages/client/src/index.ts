export * from "./webhooks.js"
