/** A PostgreSQL schema of a test's own on the test server, reached through `search_path`, dropped afterwards. */
import { randomBytes } from "node:crypto"
import pg from "pg"
import { testPostgresUrl } from "../../../adapters/test/support/external-tool.js"

/** The schema's name, a `DATABASE_URL` into it, an open admin connection, and how to throw it all away. */
export interface TestSchema {
  readonly name: string
  readonly url: string
  readonly admin: pg.Client
  readonly drop: () => Promise<void>
}

/** Creates `<prefix>_<random>` on the test PostgreSQL. */
export const createTestSchema = async (prefix: string): Promise<TestSchema> => {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`
  const admin = new pg.Client({ connectionString: testPostgresUrl() })
  await admin.connect()
  await admin.query(`CREATE SCHEMA ${name}`)
  const url = new URL(testPostgresUrl())
  url.searchParams.set("options", `-c search_path=${name}`)
  return {
    name,
    url: url.toString(),
    admin,
    drop: async () => {
      await admin.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`)
      await admin.end()
    }
  }
}
