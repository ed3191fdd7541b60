/**
 * svc inside a Fastify app, under `/svc`: the app's own routes, and in a plugin of its own every svc route (`/mcp`,
 * `/v1/tools`, the store API, OAuth, `/health`, under the prefix) and OAuth discovery at the root.
 *
 *   PORT=3000 npx tsx examples/embed-fastify.ts
 */
import { getRequestListener } from "@hono/node-server"
import Fastify from "fastify"
import { announce, port, publicUrl, SVC_PREFIX, startSvc, stopOnSignal } from "./embedded-svc.js"

const { svc, apiKey } = await startSvc(publicUrl)
const app = Fastify()

// The app's own routes, with Fastify's usual JSON body parsing.
app.get("/hello", async () => ({ hello: "from the Fastify app" }))
app.post("/echo", async (request) => ({ echoed: request.body }))

// svc in an encapsulated plugin: its content-type parsers replace the app's there only, with one that reads
// nothing, so svc gets each request body as sent. The handler hands the raw Node request and response to
// `getRequestListener`, which turns svc's fetch handler into a Node listener; `hijack` tells Fastify that the
// response is written outside it.
await app.register(async (svcScope) => {
  svcScope.removeAllContentTypeParsers()
  svcScope.addContentTypeParser("*", (_request, _body, done) => done(null))
  const listener = getRequestListener(svc.handler, { overrideGlobalObjects: false })
  // svc's routes under the prefix, and the discovery documents it answers at the root.
  for (const path of [`${SVC_PREFIX}/*`, "/.well-known/*"]) {
    svcScope.all(path, async (request, reply) => {
      reply.hijack()
      await listener(request.raw, reply.raw)
    })
  }
})

const address = await app.listen({ port, host: "127.0.0.1" })
announce(address, apiKey, `${address}${SVC_PREFIX}`)

stopOnSignal(async () => {
  // Fastify stops taking connections and waits for the calls in flight; then svc and its database close.
  await app.close()
  await svc.dispose()
})
