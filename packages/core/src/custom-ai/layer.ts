import { Layer } from "effect"
import { AskJobRunner } from "./ask-runner.js"
import { CustomAiAsking } from "./asking.js"
import { CustomAiChats } from "./chats.js"
import { CustomAiKnowledge } from "./knowledge.js"
import { CustomAis } from "./service.js"

/**
 * The Custom AI services, each bringing the services it builds on (`Credits`, the records, their knowledge …).
 * Needs the ports (`ChatModel`, `PageFetcher`, `DocumentText`, repositories, `AskSettings`).
 */
export const CustomAiLive = Layer.mergeAll(
  CustomAis.Default,
  CustomAiKnowledge.Default,
  CustomAiChats.Default,
  AskJobRunner.Default,
  CustomAiAsking.Default
)
