/** Custom AIs: the `CustomAis` service, its repository and schemas. */
export { CustomAisRepo } from "./ports.js"
export { CustomAi, CustomAiKind } from "./schema.js"
export { CustomAis } from "./service.js"
