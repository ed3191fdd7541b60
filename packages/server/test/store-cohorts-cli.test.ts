import { describe, expect, it } from "@effect/vitest"
import { engineName, svcHere, svcJson, useFreshDatabase } from "./support/environment.js"
import { startServer } from "./support/server-process.js"

const currentEnv = useFreshDatabase({ SVC_BOOTSTRAP: "false" })
const json = (args: ReadonlyArray<string>) => svcJson(args, currentEnv())

// The embedded engine's data directory belongs to one process at a time, so the server runs only
// while the store API is called, and the CLI in between.
const withServer = async <A>(token: string, use: (call: Call) => Promise<A>): Promise<A> => {
  const server = await startServer(currentEnv())
  try {
    return await use(async (method, path, body) => {
      const response = await fetch(`${server.baseUrl}/store-app/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      return { status: response.status, body: (await response.json()) as Record<string, unknown> }
    })
  } finally {
    await server.stop()
  }
}
type Call = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: Record<string, unknown> }>

describe(`svc cohorts and customers tag commands on ${engineName}`, { timeout: 480_000 }, () => {
  it("creates cohorts and tags from the CLI, which the store API then serves", async () => {
    const email = "cohorts@example.com"
    await json(["accounts", "create", "--email", email, "--password", "long password 1", "--plan", "starter"])
    await json(["store", "set", "--email", email, "--support-email", "help@example.com"])
    const customAi = await json(["custom-ais", "create", "--email", email, "--name", "Cohort course"])
    const key = await json(["keys", "create", "--email", email])
    const token = key.body.token as string

    const product = await withServer(token, async (call) => {
      const created = await call("POST", "/products", { custom_ai_id: customAi.body.id })
      const id = (created.body.product as { id: string }).id
      expect((await call("POST", `/products/${id}/publish`)).status).toBe(200)
      expect((await call("POST", "/sales", { event: "sale", product: id, email: "buyer@example.com" })).body).toEqual({
        ok: true,
        status: "granted"
      })
      return id
    })

    const cohort = await json([
      "cohorts",
      "create",
      "--email",
      email,
      "--product",
      product,
      "--name",
      "May",
      "--capacity",
      "1",
      "--starts-on",
      "2026-05-04"
    ])
    expect(cohort.code).toBe(0)
    expect(cohort.body.id).toMatch(/^coh_/)
    expect(cohort.body.cohort).toMatchObject({ product_id: product, name: "May", capacity: 1, starts_on: "2026-05-04" })
    const text = await svcHere(
      ["cohorts", "create", "--email", email, "--product", product, "--name", "Open"],
      currentEnv()
    )
    expect(text.code).toBe(0)
    expect(text.stdout).toMatch(/Created cohort Open: coh_[0-9a-z]+ \(capacity none, starts not set\)/)
    expect((await json(["cohorts", "create", "--email", email, "--product", product])).code).toBe(2)
    const badDay = await json([
      "cohorts",
      "create",
      "--email",
      email,
      "--product",
      product,
      "--name",
      "X",
      "--starts-on",
      "2026-13-01"
    ])
    expect(badDay.code).toBe(1)
    expect(badDay.stderr).toMatch(/YYYY-MM-DD/)
    const unknown = await json(["cohorts", "create", "--email", email, "--product", "prod_nope", "--name", "X"])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toMatch(/no product prod_nope/)

    const tagged = await json([
      "customers",
      "tag",
      "--email",
      email,
      "--customer",
      "Buyer@Example.com",
      "--tag",
      "VIP",
      "--tag",
      "May"
    ])
    expect(tagged.code).toBe(0)
    expect(tagged.body).toMatchObject({ email: "buyer@example.com", tags: [{ name: "May" }, { name: "VIP" }] })

    await withServer(token, async (call) => {
      const listed = await call("GET", `/products/${product}/cohorts`)
      expect((listed.body.cohorts as Array<{ name: string }>).map((c) => c.name)).toEqual(["May", "Open"])
      const moved = await call("POST", "/customers/cohort", {
        product,
        email: "buyer@example.com",
        cohort: cohort.body.id
      })
      expect(moved.body).toMatchObject({ ok: true, status: "moved", cohort: { members: 1, full: true } })
      const vip = await call("GET", "/customers?tag=vip")
      expect(vip.body.data).toMatchObject([{ email: "buyer@example.com", tags: ["May", "VIP"] }])
      const signups = await call("GET", "/cohort-signups/recent")
      expect(signups.body.signups).toMatchObject([{ email: "buyer@example.com", cohort_name: "May" }])
    })
  })
})
