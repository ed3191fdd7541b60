/** Language models for Custom AIs: the configured provider's `ChatModel`, or none. */
export { ConfiguredChatModelLive } from "./configured.js"
export { DocumentTextLive } from "./document-text.js"
export { NoChatModelLive } from "./none.js"
export { type ChatModelProvider, type ChatModelSettings, DEFAULT_BASE_URLS, OUTPUT_TOKENS } from "./settings.js"
export { CustomAiPortsNoModel } from "./offline.js"
