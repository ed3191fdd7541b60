import { describe, expect, it } from "@effect/vitest"
import { type Access, allows, describeAccess, fullAccess, levelOf, readOnlyAccess } from "../src/auth/access.js"

describe("access grants", () => {
  it("full access edits everything", () => {
    expect(allows(fullAccess, "store", "edit")).toBe(true)
    expect(describeAccess(fullAccess)).toBe("full")
  })

  it("custom access grants only the parts named, off otherwise", () => {
    const access: Access = { kind: "custom", parts: { boards: "edit", store: "read" } }
    expect(allows(access, "boards", "edit")).toBe(true)
    expect(allows(access, "store", "read")).toBe(true)
    expect(allows(access, "store", "edit")).toBe(false)
    expect(levelOf(access, "social")).toBe("off")
    expect(allows(access, "social", "read")).toBe(false)
    expect(describeAccess(access)).toBe("boards=edit, store=read")
  })

  it("read-only access reads every part and edits none", () => {
    expect(allows(readOnlyAccess, "custom_ai", "read")).toBe(true)
    expect(allows(readOnlyAccess, "custom_ai", "edit")).toBe(false)
  })
})
