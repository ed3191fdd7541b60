import { Layer } from "effect"
import { AskJobRunner } from "./ask-runner.js"
import { CustomAiAsking } from "./asking.js"
import { CustomAiChats } from "./chats.js"
import { CustomAiKnowledge } from "./knowledge.js"
import { CustomAis } from "./service.js"

/**
 * The Custom AI services, each given the ones it builds on: the records, then their knowledge and chats, then the
 * job runner and asking. Needs `Credits` and the ports (`ChatModel`, `PageFetcher`, `DocumentText`, repositories).
 */
export const CustomAiLive = CustomAiAsking.Default.pipe(
  Layer.provideMerge(AskJobRunner.Default),
  Layer.provideMerge(Layer.mergeAll(CustomAiKnowledge.Default, CustomAiChats.Default)),
  Layer.provideMerge(CustomAis.Default)
)
