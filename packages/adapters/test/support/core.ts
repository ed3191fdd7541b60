/**
 * The whole core on a real test database (PGlite, or PostgreSQL with TEST_DATABASE_URL):
 * what the server runs, minus HTTP. Build it once per test file.
 */
import { Accounts, type Access, ApiKeys, AuthSettings, CoreLive, type Principal, type Plan } from "@svc/core"
import { Effect, Layer } from "effect"
import { migrations } from "../../src/sql/migrations/index.js"
import { SqlPortsLive } from "../../src/sql/ports.js"
import { testDatabaseLayer } from "./database.js"

/** Core services, ports and a migrated `SqlClient`. */
export const testCoreLayer = () =>
  CoreLive.pipe(
    Layer.provideMerge(SqlPortsLive),
    Layer.provideMerge(AuthSettings.Default),
    Layer.provideMerge(testDatabaseLayer(migrations))
  )

let counter = 0

/** Opens a fresh account (unique email) with an API key, and answers the principal its token gives. */
export const signUp = (options: { readonly plan?: Plan; readonly access?: Access } = {}) =>
  Effect.gen(function* () {
    counter += 1
    const email = `user${counter}-${Date.now()}@example.com`
    const { account, workspace, store } = yield* (yield* Accounts).create({
      email,
      password: "correct horse battery",
      plan: options.plan ?? "starter"
    })
    const keys = yield* ApiKeys
    const { key, token } = yield* keys.create(account.id, { access: options.access })
    const principal: Principal = yield* keys.authenticate(token)
    return { account, workspace, store, key, token, principal }
  })
