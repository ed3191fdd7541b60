import { Effect } from "effect"
import type { Tool } from "../tools/tool.js"

/** The Store group's svc_get_bundle and svc_save_bundle (being built). */
export const bundleTools = Effect.succeed<ReadonlyArray<Tool>>([])
