/**
 * svc inside an Express app: the app's own routes first, then every svc route (`/mcp`, `/v1/tools`, the store API,
 * OAuth, `/health`) through one middleware.
 *
 *   PORT=3000 npx tsx examples/embed-express.ts
 */
import { getRequestListener } from "@hono/node-server"
import express from "express"
import { announce, port, publicUrl, startSvcHandler, stopOnSignal } from "./embedded-svc.js"

const svc = await startSvcHandler(publicUrl)
const app = express()

// The app's own routes. Body parsers go on the routes that want them: a global `app.use(express.json())`
// would read every request body before svc sees it, and svc needs the bytes as sent.
app.get("/hello", (_request, response) => {
  response.json({ hello: "from the Express app" })
})
app.post("/echo", express.json(), (request, response) => {
  response.json({ echoed: request.body })
})

// Everything else goes to svc. `getRequestListener` turns svc's fetch handler into a Node (req, res) listener:
// it builds the web Request from the incoming message (headers, streamed body) and writes the Response back.
// `overrideGlobalObjects: false` leaves the app's global Request and Response as they are.
app.use(getRequestListener(svc.handler, { overrideGlobalObjects: false }))

const server = app.listen(port, "127.0.0.1", () => {
  const address = server.address()
  announce(typeof address === "object" && address ? `http://127.0.0.1:${address.port}` : publicUrl, svc.apiKey)
})

stopOnSignal(async () => {
  // Stop taking connections and wait for the calls in flight, then close svc and its database.
  await new Promise<void>((done, fail) => server.close((error) => (error ? fail(error) : done())))
  await svc.dispose()
})
