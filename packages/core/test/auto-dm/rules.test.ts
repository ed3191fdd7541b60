/** Auto-DM rules without storage: keywords as kept and matched, templates checked and filled, which replies match. */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import {
  type AutoDmRule,
  checkKeywords,
  checkTemplate,
  type Engagement,
  hasKeyword,
  renderMessage,
  ruleMatches
} from "../../src/auto-dm/index.js"

const problem = <A>(result: Either.Either<A, { readonly errors: ReadonlyArray<{ path: string; message: string }> }>) =>
  Either.isLeft(result) ? result.left.errors[0] : undefined

describe("keywords", () => {
  it("are kept trimmed, lower-cased, with single spaces and no repeats", () => {
    expect(checkKeywords(["  Free  PDF ", "guide", "GUIDE"])).toEqual(Either.right(["free pdf", "guide"]))
  })

  it("are 1 to 20, each 1 to 100 characters, and * stands alone", () => {
    expect(problem(checkKeywords([]))?.path).toBe("keywords")
    expect(problem(checkKeywords(Array.from({ length: 21 }, (_, i) => `k${i}`)))?.path).toBe("keywords")
    expect(problem(checkKeywords(["ok", "  "]))?.path).toBe("keywords.1")
    expect(problem(checkKeywords(["x".repeat(101)]))?.path).toBe("keywords.0")
    expect(problem(checkKeywords(["*", "guide"]))?.message).toMatch(/stands alone/)
    expect(checkKeywords(["*"])).toEqual(Either.right(["*"]))
  })

  it("match whole words and phrases in any case, across any spaces", () => {
    expect(hasKeyword("Could I get the GUIDE?", "guide")).toBe(true)
    expect(hasKeyword("guidelines please", "guide")).toBe(false)
    expect(hasKeyword("send the free\n PDF!", "free pdf")).toBe(true)
    expect(hasKeyword("#promo code", "#promo")).toBe(true)
    expect(hasKeyword("Grüße, Straße", "straße")).toBe(true)
    expect(hasKeyword("anything at all", "*")).toBe(true)
  })
})

describe("templates", () => {
  it("take {name}, {handle} and {link}, and refuse another placeholder by name", () => {
    expect(problem(checkTemplate("Hi {firstName}", null))?.message).toMatch(/unknown placeholder \{firstName\}/)
    expect(problem(checkTemplate("Read {link}", null))?.path).toBe("link")
    expect(problem(checkTemplate("Hi", "javascript:alert(1)"))?.path).toBe("link")
    expect(problem(checkTemplate("   ", null))?.path).toBe("template")
    expect(problem(checkTemplate("x".repeat(1001), null))?.path).toBe("template")
    expect(checkTemplate(" Hi {name}: {link} ", "https://example.com/g")).toEqual(
      Either.right({ template: "Hi {name}: {link}", link: "https://example.com/g" })
    )
  })

  it("fill the display name (else the handle, cut to 64 characters), the handle with @, and the link", () => {
    expect(renderMessage("Hi {name} ({handle}): {link}", "https://e.com", { handle: "a.test", name: " Ann " })).toBe(
      "Hi Ann (@a.test): https://e.com"
    )
    expect(renderMessage("Hi {name}", null, { handle: "a.test", name: null })).toBe("Hi a.test")
    expect(renderMessage("{name}", null, { handle: "a", name: "n".repeat(100) })).toHaveLength(64)
  })
})

describe("which replies a rule answers", () => {
  const rule: AutoDmRule = {
    id: "adm_1",
    workspaceId: "ws_1",
    accountId: "sac_1",
    platform: "bluesky",
    postId: "post_1",
    postRemoteId: "at://me/app.bsky.feed.post/1",
    keywords: ["guide"],
    template: "Hi",
    link: null,
    delivery: "dmOrReply",
    enabled: true,
    sentCount: 0,
    failedCount: 0,
    createdAt: new Date("2026-12-01T08:00:00Z"),
    updatedAt: new Date("2026-12-01T08:00:00Z")
  }
  const reply: Engagement = {
    remoteId: "at://you/app.bsky.feed.post/9",
    cid: "c",
    kind: "reply",
    authorId: "did:you",
    authorHandle: "you.test",
    authorName: null,
    text: "guide please",
    parentRemoteId: "at://you/app.bsky.feed.post/8",
    rootRemoteId: "at://me/app.bsky.feed.post/1",
    root: { uri: "at://me/app.bsky.feed.post/1", cid: "r" },
    direct: false,
    at: new Date("2026-12-01T09:00:00Z")
  }

  it("are those in the post's thread, made since the rule, with a keyword", () => {
    expect(ruleMatches(rule, reply)).toBe(true)
    expect(ruleMatches(rule, { ...reply, text: "nice" })).toBe(false)
    expect(ruleMatches(rule, { ...reply, at: new Date("2026-12-01T07:59:59Z") })).toBe(false)
    expect(ruleMatches(rule, { ...reply, rootRemoteId: "at://me/app.bsky.feed.post/2", parentRemoteId: null })).toBe(
      false
    )
    expect(ruleMatches(rule, { ...reply, kind: "mention" })).toBe(false)
    expect(ruleMatches({ ...rule, postId: null, postRemoteId: null }, { ...reply, kind: "mention" })).toBe(true)
  })
})
