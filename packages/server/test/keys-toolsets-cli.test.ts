import { describe, expect, it } from "@effect/vitest"
import { engineName, svcHere, svcJson, useFreshDatabase } from "./support/environment.js"

const currentEnv = useFreshDatabase()
const json = (args: ReadonlyArray<string>) => svcJson(args, currentEnv())

describe(`svc keys and default toolsets on ${engineName}`, { timeout: 180_000 }, () => {
  it("stores the toolsets given with --toolset (repeated or as a comma list) and shows them in keys list", async () => {
    const email = "toolsets@example.com"
    expect((await json(["accounts", "create", "--email", email, "--password", "long password 1"])).code).toBe(0)

    const narrowed = await json([
      "keys",
      "create",
      "--email",
      email,
      "--name",
      "narrow",
      "--toolset",
      "Boards, workspace",
      "--toolset",
      "highlights"
    ])
    expect(narrowed.code).toBe(0)
    // Stored in catalog order, whatever order they were named in.
    expect(narrowed.body.key.toolsets).toEqual(["workspace", "highlights", "boards"])

    const every = await json(["keys", "create", "--email", email, "--name", "every", "--toolset", "all"])
    expect(every.body.key.toolsets).toBeNull()
    const plain = await json(["keys", "create", "--email", email, "--name", "plain"])
    expect(plain.body.key.toolsets).toBeNull()

    const listed = await json(["keys", "list", "--email", email])
    const byName = new Map(
      (listed.body.keys as ReadonlyArray<{ name: string; toolsets: unknown }>).map((key) => [key.name, key.toolsets])
    )
    expect(byName.get("narrow")).toEqual(["workspace", "highlights", "boards"])
    expect(byName.get("every")).toBeNull()

    const text = await svcHere(["keys", "list", "--email", email], currentEnv())
    expect(text.stdout).toContain("toolsets: workspace,highlights,boards")
    expect(text.stdout).toContain("toolsets: all")
  })

  it("refuses an unknown toolset with exit code 2, naming the valid ones, and makes no key", async () => {
    const email = "bad-toolset@example.com"
    expect((await json(["accounts", "create", "--email", email, "--password", "long password 1"])).code).toBe(0)
    const refused = await svcHere(["keys", "create", "--email", email, "--toolset", "workspace,nope"], currentEnv())
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('--toolset: the toolset list names an unknown toolset "nope"')
    expect(refused.stderr).toContain("custom_ai")
    expect((await json(["keys", "list", "--email", email])).body.keys).toEqual([])
  })
})
