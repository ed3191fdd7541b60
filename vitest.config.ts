import { configDefaults, defineConfig } from "vitest/config"
import { SlowestFirst } from "./scripts/test-order.js"

/**
 * Test files whose outcome cannot depend on the test engine: they open no test database (or always PGlite, as the
 * dump test and the embedding example do). They form the `engine-free` project, which CI runs once; the `storage`
 * project holds every other file and runs on PGlite and again on PostgreSQL (`TEST_DATABASE_URL`). A file missing
 * here lands in `storage` and runs on both engines, so forgetting a new file costs time, never coverage.
 */
const engineFree = [
  // The local AT Protocol network with an AppView (its own PostgreSQL schema) and the Bluesky research source on it.
  "packages/adapters/test/research/atproto-appview.test.ts",
  "packages/adapters/test/research/bluesky-source.test.ts",
  // Research sources against loopback peers and replays: no database.
  "packages/adapters/test/research/rss-source.test.ts",
  "packages/adapters/test/research/provider-source.test.ts",
  "packages/adapters/test/research/youtube-source.test.ts",
  "packages/adapters/test/research/meta-ads-source.test.ts",
  // Auto-DM's Bluesky chat and Mastodon inboxes against replayed recordings: no database.
  "packages/adapters/test/auto-dm/bluesky-chat.test.ts",
  "packages/adapters/test/auto-dm/mastodon-inbox.test.ts",
  "packages/adapters/test/analytics/mastodon.test.ts",
  // Analytics and auto-DM end to end on svc serve: the engine is the storage tests' concern, run it once.
  "packages/server/test/engagement-e2e.test.ts",
  "packages/core/test/**/*.test.ts",
  "packages/client/test/**/*.test.ts",
  "packages/server/test/bin.test.ts",
  // Help and mistakes in the command line are answered before any database is opened.
  "packages/server/test/cli-help.test.ts",
  "packages/server/test/pack.test.ts",
  "scripts/client-codegen.test.ts",
  "scripts/toolset-table.test.ts",
  // The client as a team installs it, and clients generated from the OpenAPI documents: what they check is the
  // client's and the documents', the same over either engine.
  "packages/server/test/client-pack.test.ts",
  "packages/server/test/openapi-clients.test.ts",
  "scripts/graphql-sdl.test.ts",
  // The docs' TypeScript blocks, type-checked against the built declarations.
  "scripts/doc-snippets.test.ts",
  "packages/server/test/examples.test.ts",
  // The bench harness's smoke run checks the harness (every server answers every case), not the engine: the engine's
  // own behaviour under load is what the storage tests and the multi-instance tests check on both.
  "packages/server/test/bench-smoke.test.ts",
  "packages/server/test/tracing-config.test.ts",
  // Where /metrics is served and the request metrics' labels: settings and pure values, no database.
  "packages/server/test/metrics-config.test.ts",
  "packages/adapters/test/http/request-metrics.test.ts",
  "packages/server/test/graphql-config.test.ts",
  "packages/server/test/mail-config.test.ts",
  // Where a PUBLIC_URL with a path is answered: routing and the addresses given out, the same over either engine.
  "packages/server/test/public-url-path.test.ts",
  // How the HTTP server stops (readiness, in-flight requests): the engine under it changes nothing there.
  "packages/server/test/drain.test.ts",
  // The embedded database's own takeover at start: always PGlite (a directory of its own), whatever the engine.
  "packages/server/test/lease-takeover.test.ts",
  // HAProxy in front of three instances: always on PostgreSQL (SVC_TEST_POSTGRES_URL), so it runs once.
  "packages/server/test/haproxy.test.ts",
  // The same, with an instance killed and one drained under a mixed load: on PostgreSQL alone, so it runs once.
  "packages/server/test/chaos.test.ts",
  // From the embedded database to PostgreSQL: always both, whatever the engine of the pass, so it runs once.
  "packages/server/test/db-export-import.test.ts",
  // The Docker image: built and run by the daemon, whatever the engine of the pass.
  "packages/server/test/docker.test.ts",
  // Two instances publishing 200 posts, one killed: always on PostgreSQL (SVC_TEST_POSTGRES_URL), so it runs once.
  "packages/server/test/scheduling-instances.test.ts",
  // Reads the sources of the core and the adapters for environment reads: no database.
  "packages/server/test/settings-at-the-edge.test.ts",
  // The GraphQL document limits, the GraphiQL page and the served switches answer before any storage is read.
  "packages/adapters/test/graphql/limits.test.ts",
  "packages/adapters/test/graphql/graphiql-browser.test.ts",
  "packages/server/test/graphql-serve.test.ts",
  "packages/adapters/test/core/fiber-pool.test.ts",
  // The tool registry's own checks: schemas, contracts and the list's size are the same over either engine.
  "packages/adapters/test/core/compiled-schemas.test.ts",
  "packages/adapters/test/core/tool-contracts.test.ts",
  "packages/adapters/test/http/tool-list-budget.test.ts",
  "packages/adapters/test/http/served-names.test.ts",
  "packages/adapters/test/http/instructions-date.test.ts",
  "packages/adapters/test/core/ids.test.ts",
  "packages/adapters/test/http/gzip-answers.test.ts",
  // Each face's failure table, answered for one failure of every tag: pure values, no database.
  "packages/adapters/test/http/failure-tables.test.ts",
  // Protocol conformance of outside clients: the engine under the server changes nothing they check.
  "packages/adapters/test/interop/*.test.ts",
  "packages/adapters/test/http-sender/sender.test.ts",
  // The checked fetch and the publishers through it, against servers on loopback: no database.
  "packages/adapters/test/http-sender/checked-fetch.test.ts",
  "packages/adapters/test/publisher/checked-network.test.ts",
  "packages/adapters/test/http/jsonrpc-codes.test.ts",
  "packages/adapters/test/browser/*.test.ts",
  // Journeys a real Chromium drives. What a browser adds is its side: the pages, their forms and redirects, the SDK's
  // own flow; the storage under those flows (OAuth codes and tokens, double opt-in signups, feeds, deliveries) is what
  // the storage files of the same areas check on both engines. Chromium is the heaviest thing a test starts on a
  // 2-core CI machine, so these run once, on PGlite.
  "packages/adapters/test/oauth/mcp-sdk-browser.test.ts",
  "packages/adapters/test/store/signup-browser.test.ts",
  "packages/adapters/test/store/checkout-stripe-browser.test.ts",
  "packages/adapters/test/store/review-browser.test.ts",
  "packages/adapters/test/store/creator-page-browser.test.ts",
  "packages/adapters/test/store/course-browser.test.ts",
  "packages/adapters/test/sql/batched-lookup.test.ts",
  "packages/adapters/test/sql/pglite-dump.test.ts",
  "packages/adapters/test/sql/pglite-seed.test.ts",
  // Language-model providers on loopback, and their configuration: no database.
  "packages/adapters/test/ai/chat-model.test.ts",
  // Chunking, pages as text (html-to-text in a worker) and extractive quotes: pure, no database.
  "packages/adapters/test/custom-ai/knowledge-text.test.ts",
  "packages/server/test/ai-config.test.ts",
  // The Stripe adapter against recorded exchanges on a loopback replay server: no database.
  "packages/adapters/test/payments/stripe.test.ts",
  // The Mastodon publisher against recorded exchanges on a loopback replay server: no database.
  "packages/adapters/test/publisher/mastodon.test.ts",
  // The Bluesky publisher against a local PDS in a child process (SQLite of its own): no test database.
  "packages/adapters/test/publisher/bluesky.test.ts"
]

// Tests, like the dev loop, read our packages' TypeScript sources: `@svc/source` is the first condition of each
// package's `exports`. Everything else (`svc`, a user's install) reads the compiled dist/. The rest are Vite's defaults.
const sourceConditions = ["@svc/source", "module", "node", "development|production"]

/** Builds dist/ first: the tests that run `svc` or pack the packages must not run an older build. */
const buildPackages = "packages/server/test/support/build-packages.ts"

export default defineConfig({
  ssr: { resolve: { conditions: sourceConditions } },
  // graphql ships CommonJS (`main`) and ES modules (`module`) without an exports map: Vite would take the ES build for
  // our sources while Node gives graphql-yoga the CommonJS one, and two copies of graphql refuse each other's schema.
  // Our sources get the one Node gives everyone, as they do outside the tests.
  resolve: { alias: [{ find: /^graphql$/, replacement: "graphql/index.js" }] },
  test: {
    pool: "forks",
    // Most test files wait on PGlite start-up, child processes and sockets rather than the CPU, so four at a time
    // finish sooner than one per core on a 2-core machine (CI, fresh clone: 21 min with three, 19 with four).
    // Each fork keeps the modules it loaded from one storage test file to the next (isolate: false; the engine-free
    // project below stays isolated): loading the core, the adapters and their dependencies again for every file was
    // a third of a run's time (CI, fresh clone, 2 cores: 21.6 min isolated, 14.6 min not). No test file mocks
    // modules or changes process.env, and every file builds its own layers, so nothing else is shared. The pool
    // stays at four forks from start to end: tinypool ends idle forks above the minimum, and ending one between two
    // files of its batch fails the run ("Terminating worker thread").
    poolOptions: { forks: { minForks: 4, maxForks: 4, isolate: false } },
    // The slowest files start first, so the run does not end on one of them alone (scripts/test-order.ts).
    sequence: { sequencer: SlowestFirst },
    // What a test logs is printed only when it fails: the servers under test log every request and every mail,
    // megabytes a run, which buried failures and kept vitest's main process writing (see .ci/run).
    silent: "passed-only",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "storage",
          include: ["packages/*/test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...engineFree],
          // One migrated PGlite database, copied by every test file that needs one (see the file).
          globalSetup: [buildPackages, "packages/adapters/test/support/pglite-template.ts"]
        }
      },
      {
        extends: true,
        test: {
          name: "engine-free",
          include: engineFree,
          globalSetup: [buildPackages],
          // Isolated: these files load the client, the Effect face and the core side by side, and one CI run with
          // shared modules failed TestClock.setTime in client/test/verify-webhook.test.ts after other files.
          poolOptions: { forks: { isolate: true } }
        }
      }
    ]
  }
})
