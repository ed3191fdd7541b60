/**
 * The checked fetch: its connections reach public addresses only (loopback when allowed), whatever the address is
 * written as, and whatever a name resolves to.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import {
  AddressRefused,
  addressRefusalOf,
  makeCheckedFetch,
  type ResolvedAddress
} from "../../src/http-sender/index.js"

// A real server on loopback, counting what reaches it.
let server: Server
let port = 0
let requests = 0
let connections = 0

beforeAll(async () => {
  server = createServer((request, response) => {
    requests++
    if (request.url === "/to-metadata") {
      response.writeHead(302, { location: "http://169.254.169.254/latest/meta-data" }).end()
      return
    }
    response.writeHead(200, { "content-type": "text/plain" }).end(`reached ${request.url}`)
  })
  server.on("connection", () => connections++)
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done))
  port = (server.address() as AddressInfo).port
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((done) => server.close(done))
})

// Names a test decides the addresses of; any other name is unknown.
const names: Record<string, ReadonlyArray<ResolvedAddress>> = {
  "rebind.example": [{ address: "127.0.0.1", family: 4 }],
  "half-inside.example": [
    { address: "93.184.215.14", family: 4 },
    { address: "10.1.2.3", family: 4 }
  ],
  "metadata.example": [{ address: "169.254.169.254", family: 4 }]
}
const resolve = async (host: string) => names[host] ?? []

/** What a fetch rejected with, and the refusal in it (or undefined). */
const refusalOf = async (run: Promise<Response>) => {
  const error = await run.then(
    () => undefined,
    (error: unknown) => error
  )
  expect(error).toBeInstanceOf(TypeError)
  return addressRefusalOf(error)
}

describe("checked fetch", () => {
  it("refuses private, link-local (cloud metadata) and loopback addresses, written as literals or behind a name", async () => {
    const checked = makeCheckedFetch({ allowLoopback: false, resolve })
    const before = { requests, connections }
    try {
      for (const target of [
        "http://10.0.0.1/",
        "http://169.254.169.254/latest/meta-data",
        `http://127.0.0.1:${port}/`,
        `http://[::1]:${port}/`,
        `http://[::ffff:127.0.0.1]:${port}/`,
        `http://rebind.example:${port}/`,
        "https://metadata.example/",
        "https://half-inside.example/"
      ]) {
        const refusal = await refusalOf(checked(target))
        expect(refusal, target).toBeInstanceOf(AddressRefused)
        expect(refusal?.message).toContain("private, loopback or otherwise non-public address")
      }
      // `localhost` through the system resolver, as a person could type it.
      const system = makeCheckedFetch({ allowLoopback: false })
      expect(await refusalOf(system(`http://localhost:${port}/`))).toBeInstanceOf(AddressRefused)
      await system.close()
      expect({ requests, connections }).toEqual(before)
    } finally {
      await checked.close()
    }
  })

  it("reaches a server on this machine when loopback is allowed, by address and by name", async () => {
    const checked = makeCheckedFetch({ allowLoopback: true, resolve })
    try {
      const byAddress = await checked(`http://127.0.0.1:${port}/by-address`)
      expect(await byAddress.text()).toBe("reached /by-address")
      const byName = await checked(`http://rebind.example:${port}/by-name`)
      expect(await byName.text()).toBe("reached /by-name")
      // Loopback is all the switch admits.
      expect(await refusalOf(checked("http://10.0.0.1/"))).toBeInstanceOf(AddressRefused)
    } finally {
      await checked.close()
    }
  })

  it("checks every hop of a redirect", async () => {
    const checked = makeCheckedFetch({ allowLoopback: true, resolve })
    try {
      const before = requests
      const refusal = await refusalOf(checked(`http://127.0.0.1:${port}/to-metadata`))
      expect(refusal?.host).toBe("169.254.169.254")
      expect(requests).toBe(before + 1)
    } finally {
      await checked.close()
    }
  })

  it("answers a name with no address as not found, not as refused", async () => {
    const checked = makeCheckedFetch({ allowLoopback: false, resolve })
    try {
      expect(await refusalOf(checked("https://nowhere.example/"))).toBeUndefined()
    } finally {
      await checked.close()
    }
  })
})
