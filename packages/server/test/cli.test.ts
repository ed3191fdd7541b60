import { describe, expect, it } from "@effect/vitest"
import { engineName, svc, svcJson, useFreshDatabase } from "./support/environment.js"

// Unmigrated: the first test checks what `svc migrate` applies to an empty database.
const currentEnv = useFreshDatabase({}, { unmigrated: true })
const json = (args: ReadonlyArray<string>) => svcJson(args, currentEnv())

describe(`the svc CLI on ${engineName}`, { timeout: 180_000 }, () => {
  it("migrates, opens an account, sets a plan, and makes, lists and revokes keys", async () => {
    const migrate = await json(["migrate"])
    expect(migrate.code).toBe(0)
    expect(migrate.body.applied.map((m: { name: string }) => m.name)).toContain("foundation")
    expect((await json(["migrate"])).body).toEqual({ applied: [] })

    const created = await json(["accounts", "create", "--email", "cli@example.com", "--password", "long password 1"])
    expect(created.code).toBe(0)
    expect(created.body.account).toMatchObject({ email: "cli@example.com", plan: "free" })

    const plan = await json(["plans", "set", "--email", "cli@example.com", "--plan", "starter"])
    expect(plan.body.account.plan).toBe("starter")

    const key = await json([
      "keys",
      "create",
      "--email",
      "cli@example.com",
      "--name",
      "reader",
      "--part",
      "workspace=read",
      "--part",
      "boards=read",
      "--expires-in-days",
      "30"
    ])
    expect(key.code).toBe(0)
    expect(key.body.token).toMatch(/^svc_pat_[0-9A-Za-z]{36}$/)
    expect(key.body.key).toMatchObject({
      name: "reader",
      access: { kind: "custom", parts: { workspace: "read", boards: "read" } }
    })
    expect(key.body.key.expiresAt).not.toBeNull()

    const listed = await json(["keys", "list", "--email", "cli@example.com"])
    expect(listed.body.keys).toHaveLength(1)
    expect(JSON.stringify(listed.body)).not.toContain(key.body.token)

    const revoked = await json(["keys", "revoke", key.body.key.id])
    expect(revoked.body).toEqual({ revoked: key.body.key.id })
    const after = await json(["keys", "list", "--email", "cli@example.com"])
    expect(after.body.keys[0].revokedAt).not.toBeNull()
  })

  it("explains mistakes with exit code 2, and failures with exit code 1", async () => {
    const unknown = await svc(["frobnicate"], currentEnv())
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain("unknown command")
    const badPart = await svc(["keys", "create", "--email", "cli@example.com", "--part", "boards=write"], currentEnv())
    expect(badPart.code).toBe(2)
    expect(badPart.stderr).toContain("the level must be one of off, read, edit")
    const duplicate = await json(["accounts", "create", "--email", "cli@example.com", "--password", "long password 1"])
    expect(duplicate.code).toBe(1)
    expect(JSON.parse(duplicate.stderr)).toEqual({
      ok: false,
      error: "an account with the email cli@example.com already exists"
    })
    const nobody = await svc(["keys", "list", "--email", "nobody@example.com"], currentEnv())
    expect(nobody.code).toBe(1)
    expect(nobody.stderr).toContain("no account with the email nobody@example.com")
    const help = await svc(["--help"], currentEnv())
    expect(help.code).toBe(0)
    expect(help.stdout).toContain("svc keys create")
  })
})
