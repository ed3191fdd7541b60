import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { engineName, freshDatabase, svcHere } from "./support/environment.js"
import { type RunningServer, startServer } from "./support/server-process.js"

let env: Record<string, string> = {}
let dispose = async () => {}
const servers: Array<RunningServer> = []

beforeAll(async () => {
  const database = await freshDatabase()
  env = { ...database.env, SVC_BOOTSTRAP: "false" }
  dispose = database.dispose
}, 60_000)

afterAll(async () => {
  for (const server of servers) if (server.process.exitCode === null) await server.stop()
  await dispose()
})

const callTool = (server: RunningServer, token: string) =>
  fetch(`${server.baseUrl}/v1/tools/svc_list_workspaces`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: "{}"
  })

describe(`two server instances on one ${engineName} database`, { timeout: 180_000 }, () => {
  it(
    engineName === "PostgreSQL"
      ? "share one rate limit: the 121st tool call in a minute is refused whichever instance gets it"
      : "cannot both open the embedded database: the second is refused with a clear message",
    async () => {
      await svcHere(["accounts", "create", "--email", "two@example.com", "--password", "long password 1"], env)
      const key = await svcHere(["keys", "create", "--email", "two@example.com", "--json"], env)
      const token = JSON.parse(key.stdout).token as string
      servers.push(await startServer(env))
      if (engineName === "PGlite") {
        await expect(startServer(env)).rejects.toThrow(/holds the data directory/)
        return
      }
      servers.push(await startServer(env))
      const [first, second] = servers as [RunningServer, RunningServer]
      for (let i = 0; i < 120; i++) {
        const response = await callTool(i % 2 === 0 ? first : second, token)
        expect(response.status).toBe(200)
      }
      const refused = await callTool(second, token)
      expect(refused.status).toBe(429)
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
      expect((await callTool(first, token)).status).toBe(429)
    }
  )
})
