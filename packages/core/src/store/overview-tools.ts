import { Effect } from "effect"
import type { Tool } from "../tools/tool.js"

/** The Store group's svc_list_stores and svc_get_seller_overview (being built). */
export const overviewTools = Effect.succeed<ReadonlyArray<Tool>>([])
