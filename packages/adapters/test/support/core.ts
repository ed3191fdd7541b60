/**
 * The whole core on a real test database (PGlite, or PostgreSQL with TEST_DATABASE_URL):
 * what the server runs, minus HTTP. Build it once per test file.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { CoreLive, everyToolset, toolServerLive } from "@svc/core"
import { Accounts, type Plan } from "@svc/core/accounts"
import { type Access, ApiKeys, AuthSettings, type Part, type Principal } from "@svc/core/auth"
import { SchedulingPortsLive } from "@svc/core/scheduling"
import { StoreSetup } from "@svc/core/store"
import { HttpSender } from "@svc/core/webhooks"
import { PageFetcher } from "@svc/core/custom-ai"
import { MediaFetcher } from "@svc/core/media"
import type { SqlClient } from "@effect/sql/SqlClient"
import type { LeanSql } from "../../src/sql/lean.js"
import { Effect, Layer } from "effect"
import { NoChatModelLive } from "../../src/ai/none.js"
import { DocumentTextLive } from "../../src/ai/document-text.js"
import { makePageFetcher } from "../../src/http-sender/page-fetcher.js"
import { StripeProcessorLive } from "../../src/payments/stripe.js"
import { makeMediaFetcher } from "../../src/media/fetcher.js"
import { MediaStoreSettings } from "../../src/media/settings.js"
import { makeSsrfSafeSender } from "../../src/http-sender/index.js"
import { migrations } from "../../src/sql/migrations/index.js"
import { SqlPortsLive } from "../../src/sql/layers.js"
import { testDatabaseLayer } from "./database.js"

/** The real SSRF-safe sender, with loopback receivers allowed so tests can run theirs on 127.0.0.1. */
export const testSenderLayer = Layer.scoped(
  HttpSender,
  makeSsrfSafeSender({
    allowLoopback: true,
    timeoutMs: 10_000,
    maxResponseBytes: 64 * 1024,
    userAgent: "svc-webhooks-test"
  })
)

/** The real page fetcher for url knowledge sources, with loopback pages allowed as for the sender. */
export const testPageFetcherLayer = Layer.succeed(
  PageFetcher,
  makePageFetcher({
    allowLoopback: true,
    timeoutMs: 10_000,
    maxBytes: 2 * 1024 * 1024,
    maxRedirects: 5,
    userAgent: "svc-knowledge-test"
  })
)

/** The real media importer, with loopback files allowed as for the sender. */
export const testMediaFetcherLayer = Layer.succeed(
  MediaFetcher,
  makeMediaFetcher({ allowLoopback: true, headMs: 10_000, idleMs: 10_000, userAgent: "svc-media-test" })
)

/** The filesystem media store of the test core: a temporary directory of its own, never the working directory. */
const testMediaStoreSettings = Layer.sync(MediaStoreSettings, () => ({
  directory: mkdtempSync(join(tmpdir(), "svc-test-media-")),
  publicBase: "http://svc.test"
}))

/** The public address the test core's links and feed addresses use. */
export const TEST_PUBLIC_BASE = "http://svc.test"

/**
 * Scheduling's publishers (the own feed; a test of another publisher replaces `Publishers`) and its public
 * addresses, at {@link TEST_PUBLIC_BASE}.
 */
export const testSchedulingPorts = SchedulingPortsLive(TEST_PUBLIC_BASE).pipe(Layer.provide(SqlPortsLive))

/**
 * Ports a test puts in place of the live ones (e.g. predictable `Ids`, see predictable.ts, or `Publishers` with a
 * network the test scripts), over the test database.
 */
export type PortReplacements<ROut = never> = Layer.Layer<ROut, never, SqlClient | LeanSql>

/**
 * Core services with the tool server over every area's tools, ports (with the loopback-allowing sender, and any
 * `replacements` in place of the live ones) and a migrated `SqlClient`.
 */
export const testCoreLayer = <ROut = never>(replacements?: PortReplacements<ROut>) =>
  toolServerLive(everyToolset).pipe(
    Layer.provideMerge(CoreLive),
    // Closest to the core, so it is the importer the core gets.
    Layer.provideMerge(testMediaFetcherLayer),
    // Merged last, the replacements win over the live ports of the same tags.
    Layer.provideMerge(Layer.mergeAll(SqlPortsLive, testSchedulingPorts, replacements ?? Layer.empty)),
    Layer.provideMerge(testSenderLayer),
    Layer.provideMerge(NoChatModelLive),
    // Stripe at its own address: a test of the live processor replaces `CardProcessor` with one on a replay server.
    Layer.provideMerge(StripeProcessorLive()),
    Layer.provideMerge(testPageFetcherLayer),
    Layer.provideMerge(DocumentTextLive),
    Layer.provideMerge(AuthSettings.Default),
    Layer.provideMerge(testMediaStoreSettings),
    Layer.provideMerge(testDatabaseLayer(migrations))
  )

let counter = 0

/** Opens a fresh account (unique email) with an API key, and answers the principal its token gives. */
export const signUp = (
  options: { readonly plan?: Plan; readonly access?: Access; readonly toolsets?: ReadonlyArray<Part> } = {}
) =>
  Effect.gen(function* () {
    counter += 1
    const email = `user${counter}-${Date.now()}@example.com`
    const { account, workspace, store } = yield* (yield* Accounts).create({
      email,
      password: "correct horse battery",
      plan: options.plan ?? "starter"
    })
    const keys = yield* ApiKeys
    const { key, token } = yield* keys.create(account.id, { access: options.access, toolsets: options.toolsets })
    const principal: Principal = yield* keys.authenticate(token)
    return { account, workspace, store, key, token, principal }
  })

/** A seller: `signUp` (Starter unless `plan` says otherwise), its store set up to sell with no card processor. */
export const signUpSeller = (options: { readonly plan?: Plan; readonly access?: Access } = {}) =>
  Effect.gen(function* () {
    const user = yield* signUp({
      plan: options.plan ?? "starter",
      ...(options.access ? { access: options.access } : {})
    })
    yield* (yield* StoreSetup).set(user.workspace.id, { supportEmail: "help@example.com", cardProcessor: "none" })
    return user
  })
