/**
 * svc inside a Hono app on Node: the app's own routes, and every other path (`/mcp`, `/v1/tools`, the store API,
 * OAuth, `/health`) answered by svc's fetch handler. Hono speaks `Request`/`Response` natively, so svc is one route.
 *
 *   PORT=3000 npx tsx examples/embed-hono.ts
 */
import { serve } from "@hono/node-server"
import { Hono } from "hono"
import { announce, port, publicUrl, startSvcHandler, stopOnSignal } from "./embedded-svc.js"

const svc = await startSvcHandler(publicUrl)
const app = new Hono()

// The app's own routes. `c.req.json()` reads the body in this handler only: other requests reach svc unread.
app.get("/hello", (c) => c.json({ hello: "from the Hono app" }))
app.post("/echo", async (c) => c.json({ echoed: await c.req.json() }))

// Everything else: the web Request as it came, handed to svc.
app.all("*", (c) => svc.handler(c.req.raw))

const server = serve({ fetch: app.fetch, port, hostname: "127.0.0.1" }, (info) => {
  announce(`http://127.0.0.1:${info.port}`, svc.apiKey)
})

stopOnSignal(async () => {
  await new Promise<void>((done, fail) => server.close((error) => (error ? fail(error) : done())))
  await svc.dispose()
})
