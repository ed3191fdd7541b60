import { Layer } from "effect"
import { PageFetcherLive } from "../http-sender/page-fetcher.js"
import { DocumentTextLive } from "./document-text.js"
import { NoChatModelLive } from "./none.js"

/**
 * The ports Custom AIs need, with no language model: knowledge sources are fetched (through the SSRF-safe page
 * fetcher) and read (PDF text), and answers are extractive. A backend that embeds the core and configures no model
 * provides this; one with a model provides `ConfiguredChatModelLive` instead of `NoChatModelLive`.
 */
export const CustomAiPortsNoModel = Layer.mergeAll(NoChatModelLive, PageFetcherLive, DocumentTextLive)
