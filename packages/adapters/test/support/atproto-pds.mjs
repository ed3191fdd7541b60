// A local AT Protocol network in one process: a PLC directory (@did-plc/server, in memory) and a PDS (@atproto/pds,
// SQLite and blobs under the directory given as the first argument). Started by atproto-network.ts as a child
// process, so the tests can stop it like an outside server, and so the PDS's own modules stay out of the test's.
// It prints one JSON line, {"pdsUrl","plcUrl","adminPassword"}, once both answer; it stops on SIGTERM.
import { generateKeyPairSync, randomBytes } from "node:crypto"
import { mkdirSync } from "node:fs"
import { createServer } from "node:net"
import path from "node:path"
import { envToCfg, envToSecrets, PDS } from "@atproto/pds"
import plc from "@did-plc/server"

const directory = process.argv[2]
if (directory === undefined) throw new Error("usage: atproto-pds.mjs <data directory>")

/** A port nothing listens on now (the PDS must know its own before it starts: it is part of its public URL). */
const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })

/** A secp256k1 private key as hex, the PDS's PLC rotation key (node:crypto, so no key library is needed here). */
const k256PrivateKeyHex = () => {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "secp256k1" })
  return Buffer.from(privateKey.export({ format: "jwk" }).d, "base64url").toString("hex")
}

const plcPort = await freePort()
const plcServer = plc.PlcServer.create({ db: plc.Database.mock(), port: plcPort })
await plcServer.start()

const port = await freePort()
const adminPassword = randomBytes(12).toString("hex")
const env = {
  devMode: true,
  hostname: "localhost",
  port,
  dataDirectory: path.join(directory, "data"),
  blobstoreDiskLocation: path.join(directory, "blobs"),
  didPlcUrl: `http://localhost:${plcPort}`,
  jwtSecret: randomBytes(16).toString("hex"),
  adminPassword,
  plcRotationKeyK256PrivateKeyHex: k256PrivateKeyHex(),
  serviceHandleDomains: [".test"],
  inviteRequired: false,
  // As on bsky.social: a client that logs in too often is answered 429 with RateLimit-* headers.
  rateLimitsEnabled: true,
  // The image limit under test is the lexicon's (1,000,000 bytes per image), not the upload's.
  blobUploadLimit: 10 * 1024 * 1024
}
mkdirSync(env.dataDirectory, { recursive: true })
const pds = await PDS.create(envToCfg(env), envToSecrets(env))
await pds.start()

const stop = async () => {
  await pds.destroy()
  await plcServer.destroy()
  process.exit(0)
}
process.once("SIGTERM", stop)
process.once("SIGINT", stop)
process.stdout.write(
  `${JSON.stringify({ pdsUrl: `http://localhost:${port}`, plcUrl: env.didPlcUrl, adminPassword })}\n`
)
