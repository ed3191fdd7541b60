import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { applyUnifiedDiff } from "../src/boards/patch.js"

// The diff reader behind svc_patch_note; the tool's own cases (headers, several hunks, ambiguity) run in
// packages/adapters/test/core/notes-edit.test.ts.
describe("applying a unified diff to a note", () => {
  it("inserts with a pure-addition hunk and tolerates trailing spaces", () => {
    expect(applyUnifiedDiff("a\nb", "@@ -0,0 +1,1 @@\n+top\n")).toEqual(Either.right("top\na\nb"))
    expect(applyUnifiedDiff("a  \nb", "@@ -1,2 +1,2 @@\n a\n-b\n+c\n")).toEqual(Either.right("a  \nc"))
  })
})
