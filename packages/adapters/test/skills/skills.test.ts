import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { expect, layer } from "@effect/vitest"
import type { Principal } from "@svc/core/auth"
import { SKILLS_PER_WORKSPACE_MAX, Skills } from "@svc/core/skills"
import { ToolRegistry, ToolServer } from "@svc/core/tools"
import { Effect, TestClock } from "effect"
import { toMcpTool } from "../../src/http/mcp/tool-list.js"
import { signUp, testCoreLayer } from "../support/core.js"
import { engineName } from "../support/database.js"

type Answer = Readonly<Record<string, unknown>>

const caller = (principal: Principal) => (name: string, args: unknown) =>
  Effect.flatMap(ToolServer, (server) => server.call(principal, name, args)).pipe(
    Effect.map((answer): Answer => answer),
    Effect.orDie
  )

const user = Effect.map(signUp(), ({ principal, workspace }) => ({ call: caller(principal), workspace }))

interface Listed {
  readonly id: string
  readonly name: string
  readonly description: string
  readonly size: number
}

const skillOf = (answer: Answer) => answer.skill as Listed & { readonly body: string; readonly frontMatter: object }

/** A loopback web server answering each path with the status, type and body `routes` give; closed with the scope. */
const serve = (routes: Record<string, { readonly status: number; readonly type?: string; readonly body: string }>) =>
  Effect.acquireRelease(
    Effect.async<http.Server>((resume) => {
      const server = http.createServer((req, res) => {
        const route = routes[req.url ?? ""] ?? { status: 404, type: "text/plain", body: "not here" }
        res.writeHead(route.status, route.type === undefined ? {} : { "content-type": route.type })
        res.end(Buffer.from(route.body, "utf8"))
      })
      server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
    }),
    (server) => Effect.async<void>((resume) => void server.close(() => resume(Effect.void)))
  ).pipe(Effect.map((server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`))

// Texts a careless reader or writer would change: line endings, unicode, blanks at line ends, keys beyond the two
// required ones, no final line break, a byte order mark, `---` rules in the body, an empty body.
const tricky: ReadonlyArray<readonly [string, string]> = [
  ["crlf-lines", "---\r\nname: crlf-lines\r\ndescription: Lines end in CRLF.\r\n---\r\n# Title\r\n\r\nStep one.\r\n"],
  [
    "unicode-text",
    "---\nname: unicode-text\ndescription: Grüße, 日本語, emoji 🧪 and e\u0301 combined.\n---\nBody with 🧪, ½ and \u00a0non-breaking space.\n"
  ],
  [
    "trailing-blanks",
    "---   \nname: trailing-blanks   \ndescription: Blanks end lines.  \n---  \nLine with two spaces  \n\t\n"
  ],
  [
    "extra-keys",
    '---\nname: extra-keys\ndescription: >\n  Folded description\n  on two lines.\nlicense: Apache-2.0\nallowed-tools: Bash(git:*) Read\ncompatibility: Needs git.\nmetadata:\n  author: example-org\n  version: "1.0"\n# a YAML comment\n---\nBody\n'
  ],
  ["no-final-newline", "---\nname: no-final-newline\ndescription: Ends without a line break.\n---\nLast line"],
  ["with-bom", "\uFEFF---\nname: with-bom\ndescription: Starts with a byte order mark.\n---\nBody\n"],
  ["rules-in-body", "---\nname: rules-in-body\ndescription: Body holds --- rules.\n---\nAbove\n\n---\n\nBelow\n---\n"],
  ["empty-body", "---\nname: empty-body\ndescription: Nothing after the front matter.\n---"]
]

layer(testCoreLayer(), { timeout: "120 seconds" })(`skills (${engineName})`, (it) => {
  it.effect("lists the four Skills tools within the tool-list budget, free, with honest annotations", () =>
    Effect.gen(function* () {
      const listed = (yield* ToolRegistry).tools
        .filter((tool) => tool.entry.group === "Skills")
        .map((tool) => toMcpTool(tool.descriptor))
      expect(listed.map((tool) => tool.name).sort()).toEqual([
        "svc_export_skill",
        "svc_get_skill",
        "svc_import_skill",
        "svc_list_skills"
      ])
      for (const tool of listed) {
        expect(Buffer.byteLength(JSON.stringify(tool)), tool.name).toBeLessThanOrEqual(1_500)
        expect(tool.description, tool.name).toContain("Free.")
        expect(tool.description.length, tool.name).toBeLessThanOrEqual(350)
        const write = tool.name === "svc_import_skill"
        expect(tool.annotations, tool.name).toMatchObject({
          readOnlyHint: !write,
          destructiveHint: write,
          openWorldHint: write
        })
      }
    })
  )

  it.effect("round-trips tricky SKILL.md texts byte for byte, and reads their fields", () =>
    Effect.gen(function* () {
      const { call } = yield* user
      for (const [name, text] of tricky) {
        const imported = yield* call("svc_import_skill", { text })
        expect(imported).toMatchObject({ ok: true, replaced: false, skill: { name, size: Buffer.byteLength(text) } })
        const id = skillOf(imported).id
        expect(id).toMatch(/^skill_/)
        const exported = yield* call("svc_export_skill", { skill: id })
        expect(exported).toEqual({ ok: true, id, name, path: `${name}/SKILL.md`, text })
        expect(Buffer.from(exported.text as string, "utf8").equals(Buffer.from(text, "utf8"))).toBe(true)
        expect((yield* call("svc_export_skill", { skill: name })).text).toBe(text)
      }

      const extra = skillOf(yield* call("svc_get_skill", { skill: "extra-keys" }))
      expect(extra).toMatchObject({
        name: "extra-keys",
        description: "Folded description on two lines.\n",
        body: "Body\n",
        frontMatter: {
          name: "extra-keys",
          license: "Apache-2.0",
          "allowed-tools": "Bash(git:*) Read",
          compatibility: "Needs git.",
          metadata: { author: "example-org", version: "1.0" }
        }
      })
      expect(skillOf(yield* call("svc_get_skill", { skill: "crlf-lines" })).body).toBe("# Title\r\n\r\nStep one.\r\n")
      expect(skillOf(yield* call("svc_get_skill", { skill: "rules-in-body" })).body).toBe(
        "Above\n\n---\n\nBelow\n---\n"
      )
      expect(skillOf(yield* call("svc_get_skill", { skill: "empty-body" })).body).toBe("")
      expect(skillOf(yield* call("svc_get_skill", { skill: "unicode-text" })).description).toBe(
        "Grüße, 日本語, emoji 🧪 and e\u0301 combined."
      )
    })
  )

  it.effect("refuses each broken rule with its field named, and takes the limits themselves", () =>
    Effect.gen(function* () {
      const { call } = yield* user
      const skill = (front: string, body = "Body\n") => `---\n${front}\n---\n${body}`
      const refusal = (text: unknown) => call("svc_import_skill", { text })
      const fieldOf = (answer: Answer) => {
        expect(answer).toMatchObject({ ok: false, status: "invalid" })
        return (answer.errors as ReadonlyArray<{ readonly path: string }>).map((e) => e.path)
      }
      const cases: ReadonlyArray<readonly [string, string]> = [
        ["# Just Markdown\n", "frontMatter"],
        ["\n---\nname: a\ndescription: b\n---\n", "frontMatter"],
        ["---\nname: a\ndescription: b\n", "frontMatter"],
        [skill("- a list\n- not a mapping"), "frontMatter"],
        [skill(""), "frontMatter"],
        [skill("name: [unclosed\ndescription: b"), "frontMatter"],
        [skill("name: a\nname: b\ndescription: c"), "frontMatter"],
        [skill(`name: a\ndescription: b\nx: ${"[".repeat(40)}${"]".repeat(40)}`), "frontMatter"],
        [skill("description: No name."), "name"],
        [skill("name: 42\ndescription: A number."), "name"],
        [skill("name: PDF-Tools\ndescription: Upper case."), "name"],
        [skill("name: pdf_tools\ndescription: Underscore."), "name"],
        [skill("name: café\ndescription: Not a-z."), "name"],
        [skill("name: -pdf\ndescription: Leading hyphen."), "name"],
        [skill("name: pdf-\ndescription: Trailing hyphen."), "name"],
        [skill("name: pdf--tools\ndescription: Two hyphens."), "name"],
        [skill(`name: ${"a".repeat(65)}\ndescription: Too long.`), "name"],
        [skill('name: ""\ndescription: Empty name.'), "name"],
        [skill("name: no-description"), "description"],
        [skill('name: blank\ndescription: "   "'), "description"],
        [skill(`name: long\ndescription: ${"d".repeat(1025)}`), "description"],
        [skill(`name: compat\ndescription: Too compatible.\ncompatibility: ${"c".repeat(501)}`), "compatibility"],
        [skill("name: big\ndescription: Too big.", "x".repeat(100_000)), "text"]
      ]
      for (const [text, field] of cases) {
        expect([text.slice(0, 60), fieldOf(yield* refusal(text))]).toEqual([text.slice(0, 60), [field]])
      }
      // Both required fields broken: both named at once.
      expect(fieldOf(yield* refusal(skill("name: Bad Name")))).toEqual(["name", "description"])
      expect(fieldOf(yield* call("svc_import_skill", {}))).toEqual(["text"])
      expect(
        fieldOf(
          yield* call("svc_import_skill", {
            text: skill("name: a\ndescription: b"),
            url: "https://example.com/SKILL.md"
          })
        )
      ).toEqual(["url"])
      expect(fieldOf(yield* refusal(skill("name: nul\ndescription: b", "a\u0000b")))).toEqual(["text"])
      expect((yield* call("svc_list_skills", {})).skills).toEqual([])

      // Exactly at the limits is fine.
      const name = `a${"-b".repeat(31)}c`
      expect(name).toHaveLength(64)
      const front = `name: ${name}\ndescription: ${"d".repeat(1024)}`
      const filler = "x".repeat(100_000 - skill(front, "").length)
      const atLimits = yield* refusal(skill(front, filler))
      expect(atLimits).toMatchObject({ ok: true, skill: { name, size: 100_000 } })
    })
  )

  it.effect("makes a name in use a conflict, and replaces the skill's text with replace: true", () =>
    Effect.gen(function* () {
      const { call } = yield* user
      const first = "---\nname: pdf-tools\ndescription: First version.\n---\nOld body\n"
      const second = "---\r\nname: pdf-tools\r\ndescription: Second version.\r\n---\r\nNew body\r\n"
      const made = skillOf(yield* call("svc_import_skill", { text: first }))
      yield* TestClock.adjust("1 minute")

      const clash = yield* call("svc_import_skill", { text: second })
      expect(clash).toMatchObject({ ok: false, status: "conflict" })
      expect(clash.message).toContain("replace: true")
      expect((yield* call("svc_export_skill", { skill: "pdf-tools" })).text).toBe(first)

      const replaced = yield* call("svc_import_skill", { text: second, replace: true })
      expect(replaced).toMatchObject({
        ok: true,
        replaced: true,
        skill: { id: made.id, name: "pdf-tools", description: "Second version.", size: second.length }
      })
      const record = replaced.skill as { readonly createdAt: string; readonly updatedAt: string }
      expect(new Date(record.updatedAt).getTime() - new Date(record.createdAt).getTime()).toBe(60_000)
      expect((yield* call("svc_export_skill", { skill: made.id })).text).toBe(second)
      expect(skillOf(yield* call("svc_get_skill", { skill: made.id })).body).toBe("New body\r\n")
      expect(((yield* call("svc_list_skills", {})).skills as ReadonlyArray<Listed>).map((s) => s.id)).toEqual([made.id])

      // replace with a new name simply imports it.
      const fresh = yield* call("svc_import_skill", {
        text: "---\nname: fresh\ndescription: New.\n---\n",
        replace: true
      })
      expect(fresh).toMatchObject({ ok: true, replaced: false, skill: { name: "fresh" } })
    })
  )

  it.effect("lets only one of two imports of one name at once create it", () =>
    Effect.gen(function* () {
      const { call } = yield* user
      const text = "---\nname: raced\ndescription: Imported twice at once.\n---\n"
      const answers = yield* Effect.all([call("svc_import_skill", { text }), call("svc_import_skill", { text })], {
        concurrency: "unbounded"
      })
      expect(answers.map((a) => (a.ok === true ? "ok" : a.status)).sort()).toEqual(["conflict", "ok"])
    })
  )

  it.scoped("imports from a URL exactly as served, and refuses pages that are not a SKILL.md", () =>
    Effect.gen(function* () {
      const { call } = yield* user
      const text = "---\r\nname: fetched\r\ndescription: Served over HTTP — ünïcödé.\r\n---\r\nBody  \r\nEnd"
      const base = yield* serve({
        "/skills/fetched/SKILL.md": { status: 200, type: "text/markdown; charset=utf-8", body: text },
        "/plain": { status: 200, body: "---\nname: untyped\ndescription: No content type.\n---\n" },
        "/page.html": { status: 200, type: "text/html", body: "<html><body>---</body></html>" },
        "/image": { status: 200, type: "image/png", body: "png" },
        "/broken": { status: 200, type: "text/plain", body: "no front matter here" },
        "/down": { status: 503, type: "text/plain", body: "busy" }
      })
      const imported = yield* call("svc_import_skill", { url: `${base}/skills/fetched/SKILL.md` })
      expect(imported).toMatchObject({
        ok: true,
        replaced: false,
        skill: { name: "fetched", size: Buffer.byteLength(text) }
      })
      expect((yield* call("svc_export_skill", { skill: "fetched" })).text).toBe(text)
      expect(yield* call("svc_import_skill", { url: `${base}/plain` })).toMatchObject({
        ok: true,
        skill: { name: "untyped" }
      })

      const refused = (path: string) => call("svc_import_skill", { url: `${base}${path}` })
      expect(yield* refused("/missing")).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "url" }] })
      expect((yield* refused("/missing")).message).toContain("HTTP 404")
      expect(yield* refused("/page.html")).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "url" }] })
      expect(yield* refused("/image")).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "url" }] })
      expect(yield* refused("/broken")).toMatchObject({
        ok: false,
        status: "invalid",
        errors: [{ path: "frontMatter" }]
      })
      expect(yield* refused("/down")).toMatchObject({ ok: false, status: "unreachable" })
    })
  )

  it.scoped("refuses private and malformed addresses clearly, and reports a host that does not answer", () =>
    Effect.gen(function* () {
      const { call } = yield* user
      const url = (address: string) => call("svc_import_skill", { url: address })
      for (const address of [
        "http://10.0.0.1/SKILL.md",
        "http://169.254.169.254/latest",
        "http://[::ffff:192.168.1.1]/x"
      ]) {
        const answer = yield* url(address)
        expect(answer).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "url" }] })
        expect(answer.message).toMatch(/private|non-public|public/)
      }
      for (const address of ["ftp://example.com/SKILL.md", "not a url", "file:///etc/passwd"]) {
        expect(yield* url(address)).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "url" }] })
      }
      // A loopback port nobody listens on: the fetch fails to connect.
      const closed = yield* serve({}).pipe(Effect.scoped)
      const answer = yield* url(`${closed}/SKILL.md`)
      expect(answer).toMatchObject({ ok: false, status: "unreachable" })
      expect(answer.message).toContain("pass the file as text")
      expect((yield* call("svc_list_skills", {})).skills).toEqual([])
    })
  )

  it.effect("lists skills newest first, a page at a time, without their text", () =>
    Effect.gen(function* () {
      const { call } = yield* user
      const names = ["alpha", "beta", "gamma", "delta", "epsilon"]
      for (const name of names) {
        yield* call("svc_import_skill", {
          text: `---\nname: ${name}\ndescription: Skill ${name}.\n---\nBody of ${name}\n`
        })
        yield* TestClock.adjust("1 second")
      }
      const seen: Array<string> = []
      let cursor: unknown
      let pages = 0
      do {
        const page = yield* call("svc_list_skills", { limit: 2, ...(cursor === undefined ? {} : { cursor }) })
        expect(page.ok).toBe(true)
        const listed = page.skills as ReadonlyArray<Listed & Record<string, unknown>>
        for (const skill of listed) {
          expect(Object.keys(skill).sort()).toEqual(["createdAt", "description", "id", "name", "size", "updatedAt"])
          seen.push(skill.name)
        }
        cursor = page.nextCursor
        pages += 1
      } while (cursor !== undefined)
      expect(seen).toEqual([...names].reverse())
      expect(pages).toBe(3)
      expect(yield* call("svc_list_skills", { cursor: "bogus" })).toMatchObject({
        ok: false,
        status: "invalid",
        errors: [{ path: "cursor" }]
      })
      expect(yield* call("svc_list_skills", { limit: 101 })).toMatchObject({ ok: false, status: "invalid" })
    })
  )

  it.effect("keeps each workspace's skills to itself", () =>
    Effect.gen(function* () {
      const owner = yield* user
      const other = yield* user
      const text = "---\nname: private-skill\ndescription: Only the owner's.\n---\nSecret body\n"
      const made = skillOf(yield* owner.call("svc_import_skill", { text }))

      for (const ref of [made.id, "private-skill"]) {
        expect(yield* other.call("svc_get_skill", { skill: ref })).toMatchObject({ ok: false, status: "not-found" })
        expect(yield* other.call("svc_export_skill", { skill: ref })).toMatchObject({ ok: false, status: "not-found" })
      }
      expect((yield* other.call("svc_list_skills", {})).skills).toEqual([])
      // The same name is free in another workspace.
      const theirs = yield* other.call("svc_import_skill", { text })
      expect(theirs).toMatchObject({ ok: true, replaced: false })
      expect(skillOf(theirs).id).not.toBe(made.id)
      expect(yield* owner.call("svc_get_skill", { skill: "nothing-here" })).toMatchObject({
        ok: false,
        status: "not-found"
      })
    })
  )

  it.effect(`holds at most ${SKILLS_PER_WORKSPACE_MAX} skills per workspace`, () =>
    Effect.gen(function* () {
      const { call, workspace } = yield* user
      const skills = yield* Skills
      for (let n = 0; n < SKILLS_PER_WORKSPACE_MAX; n++) {
        yield* skills.importSkill(
          workspace.id,
          { text: `---\nname: s${n}\ndescription: Number ${n}.\n---\n` },
          { replace: false }
        )
      }
      const over = yield* call("svc_import_skill", { text: "---\nname: one-more\ndescription: Over the cap.\n---\n" })
      expect(over).toMatchObject({ ok: false, status: "invalid" })
      expect(over.message).toContain(`${SKILLS_PER_WORKSPACE_MAX}`)
      // Replacing one at the cap still works.
      const replaced = yield* call("svc_import_skill", {
        text: "---\nname: s0\ndescription: Replaced at the cap.\n---\n",
        replace: true
      })
      expect(replaced).toMatchObject({ ok: true, replaced: true })
    })
  )
})
