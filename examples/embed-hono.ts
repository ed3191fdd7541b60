/**
 * svc inside a Hono app, under `/svc`: the app's own routes, svc's routes under the prefix, and OAuth discovery at
 * the root where MCP clients look for it. Hono hands svc the web Request as it came.
 *
 *   PORT=3000 npx tsx examples/embed-hono.ts
 */
import { serve } from "@hono/node-server"
import { Hono } from "hono"
import { announce, port, publicUrl, SVC_PREFIX, startSvc, stopOnSignal } from "./embedded-svc.js"

const { svc, apiKey } = await startSvc(publicUrl)
const app = new Hono()

// The app's own routes. `c.req.json()` reads the body in this handler only: other requests reach svc unread.
app.get("/hello", (c) => c.json({ hello: "from the Hono app" }))
app.post("/echo", async (c) => c.json({ echoed: await c.req.json() }))

// svc's routes, and the discovery documents it answers at the root.
app.all(`${SVC_PREFIX}/*`, (c) => svc.handler(c.req.raw))
app.all("/.well-known/*", (c) => svc.handler(c.req.raw))

const server = serve({ fetch: app.fetch, port, hostname: "127.0.0.1" }, (info) => {
  const url = `http://127.0.0.1:${info.port}`
  announce(url, apiKey, `${url}${SVC_PREFIX}`)
})

stopOnSignal(async () => {
  await new Promise<void>((done, fail) => server.close((error) => (error ? fail(error) : done())))
  await svc.dispose()
})
