import { Effect } from "effect"
import type { Tool } from "../tools/tool.js"

/** The Store group's svc_list_customers, svc_get_customer, svc_manage_customer_access and svc_import_customers (being built). */
export const customerTools = Effect.succeed<ReadonlyArray<Tool>>([])
