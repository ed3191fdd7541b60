/**
 * The analytics test core: the whole core (analytics included) on the test database with the given publishers
 * (scheduling) and metrics readers (the own feed's is built in).
 */
import { AnalyticsPortsLive, type MetricsReader } from "@svc/core/analytics"
import { type PlatformPublisher, SchedulingPortsLive } from "@svc/core/scheduling"
import { Layer } from "effect"
import { SqlPortsLive } from "../../src/sql/layers.js"
import { TEST_PUBLIC_BASE, testCoreLayer } from "../support/core.js"

/** The core publishing with `publishers` and reading metrics with `readers`. */
export const analyticsTestLayer = (
  publishers: ReadonlyArray<PlatformPublisher>,
  readers: ReadonlyArray<MetricsReader>
) =>
  testCoreLayer(
    Layer.merge(SchedulingPortsLive(TEST_PUBLIC_BASE, publishers), AnalyticsPortsLive(readers)).pipe(
      Layer.provide(SqlPortsLive)
    )
  )
