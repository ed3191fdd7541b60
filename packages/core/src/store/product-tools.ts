import { Effect } from "effect"
import type { Tool } from "../tools/tool.js"

/** The Store group's svc_get_custom_ai_product, svc_save_custom_ai_product and svc_publish_custom_ai_product (being built). */
export const customAiProductTools = Effect.succeed<ReadonlyArray<Tool>>([])
