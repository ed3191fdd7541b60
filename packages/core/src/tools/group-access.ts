import { planAtLeast } from "../accounts/schema.js"
import type { Principal } from "../auth/schema.js"
import { Forbidden } from "../shared/errors.js"
import type { ToolGroup } from "./groups.js"
import { toolGroups } from "./groups.js"
import { canUse } from "./registry.js"

/**
 * Why `principal` may not use a tool of `group` (a change when `write`), or none when it may: the access part first,
 * then the plan. The tool server answers every tool call with it; a face that reads a group's data without a tool
 * (GraphQL's `post(id)`) asks it too, so the same credential is refused the same way everywhere.
 */
export const groupRefusal = (
  principal: Principal,
  tool: { readonly name: string; readonly group: ToolGroup; readonly write: boolean }
): Forbidden | undefined => {
  const { part, plan } = toolGroups[tool.group]
  if (!canUse(principal.access, tool)) {
    return new Forbidden({
      message:
        tool.write && canUse(principal.access, { group: tool.group, write: false })
          ? `${tool.name} changes data and this credential may only read ${part}; use a key with edit access`
          : `this credential has no access to ${part} tools`,
      reason: "access"
    })
  }
  if (!planAtLeast(principal.plan, plan)) {
    return new Forbidden({ message: `${tool.group} tools need the Starter plan or above`, reason: "plan" })
  }
  return undefined
}
