import type { Plan } from "../accounts/schema.js"
import type { Part } from "../auth/access.js"

/** The tool groups of the service description, each with the access part that governs it and the plan it needs. */
export const toolGroups = {
  Workspace: { part: "workspace", plan: "free" },
  "Highlights & captures": { part: "highlights", plan: "free" },
  "Social intelligence": { part: "social", plan: "free" },
  "Boards & documents": { part: "boards", plan: "free" },
  Scheduling: { part: "scheduling", plan: "starter" },
  Routines: { part: "routines", plan: "free" },
  Media: { part: "media", plan: "free" },
  "Custom AI": { part: "custom_ai", plan: "free" },
  Skills: { part: "skills", plan: "free" },
  Store: { part: "store", plan: "starter" }
} as const satisfies Record<string, { readonly part: Part; readonly plan: Plan }>

export type ToolGroup = keyof typeof toolGroups
