import { Effect } from "effect"
import type { Tool } from "../tools/tool.js"

/** The Store group's svc_manage_content_links (being built). */
export const contentLinkTools = Effect.succeed<ReadonlyArray<Tool>>([])
