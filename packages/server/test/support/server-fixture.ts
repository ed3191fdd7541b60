/** One real `svc serve` per test file, on a fresh database, stopped and thrown away after the file. */
import { afterAll, beforeAll } from "@effect/vitest"
import { freshDatabase } from "./environment.js"
import { type RunningServer, startServer } from "./server-process.js"

/** What a test file shares: the database's environment and the running server (replaceable, e.g. on restart). */
export interface ServerFixture {
  env: Record<string, string>
  server: RunningServer
}

/** Registers the hooks that start the server before the file's tests and clean up after them. */
export const useServer = (extraEnv: Record<string, string> = {}): ServerFixture => {
  const fixture = { env: {}, server: undefined } as unknown as ServerFixture
  let dispose = async () => {}
  beforeAll(async () => {
    const database = await freshDatabase()
    fixture.env = { ...database.env, ...extraEnv }
    dispose = database.dispose
    fixture.server = await startServer(fixture.env)
  }, 90_000)
  afterAll(async () => {
    if (fixture.server && fixture.server.process.exitCode === null) await fixture.server.stop()
    await dispose()
  })
  return fixture
}
