import { Effect } from "effect"
import type { Tool } from "../tools/tool.js"

/** The Store group's svc_manage_sales and svc_manage_cohorts (being built). */
export const salesTools = Effect.succeed<ReadonlyArray<Tool>>([])
