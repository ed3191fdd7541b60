/**
 * svc inside an Express app, under `/svc`: the app's own routes, then one middleware that hands svc what it serves
 * (its routes under the prefix, and OAuth discovery at the root where MCP clients look for it).
 *
 *   PORT=3000 npx tsx examples/embed-express.ts
 */
import { getRequestListener } from "@hono/node-server"
import express from "express"
import { announce, port, publicUrl, SVC_PREFIX, startSvc, stopOnSignal } from "./embedded-svc.js"

const { svc, apiKey } = await startSvc(publicUrl)
const app = express()

// The app's own routes. Body parsers go on the routes that want them: a global `app.use(express.json())`
// would read every request body before svc sees it, and svc needs the bytes as sent.
app.get("/hello", (_request, response) => {
  response.json({ hello: "from the Express app" })
})
app.post("/echo", express.json(), (request, response) => {
  response.json({ echoed: request.body })
})

// What is svc's goes to svc, with its path as it came: `app.use("/svc", …)` would cut the prefix off `request.url`.
// `getRequestListener` turns svc's fetch handler into a Node (req, res) listener; `overrideGlobalObjects: false`
// leaves the app's global Request and Response as they are.
const toSvc = getRequestListener(svc.handler, { overrideGlobalObjects: false })
app.use((request, response, next) => {
  if (svc.serves(request.url)) void toSvc(request, response)
  else next()
})

const server = app.listen(port, "127.0.0.1", () => {
  const address = server.address()
  const url = typeof address === "object" && address ? `http://127.0.0.1:${address.port}` : publicUrl
  announce(url, apiKey, `${url}${SVC_PREFIX}`)
})

stopOnSignal(async () => {
  // Stop taking connections and wait for the calls in flight, then close svc: its workers, then its database.
  await new Promise<void>((done, fail) => server.close((error) => (error ? fail(error) : done())))
  await svc.dispose()
})
