// parse-prometheus-text-format ships no types; its output follows prom2json's, every value a string as written.
declare module "parse-prometheus-text-format" {
  /** A counter's, gauge's or untyped sample. */
  interface SampleMetric {
    readonly value: string
    readonly labels?: Readonly<Record<string, string>>
  }

  /** A histogram's series: cumulative counts by upper bound (`+Inf` last), with its count and sum. */
  interface HistogramMetric {
    readonly buckets: Readonly<Record<string, string>>
    readonly count: string
    readonly sum: string
    readonly labels?: Readonly<Record<string, string>>
  }

  interface MetricFamily {
    readonly name: string
    readonly help: string
    readonly type: "COUNTER" | "GAUGE" | "HISTOGRAM" | "SUMMARY" | "UNTYPED"
    readonly metrics: ReadonlyArray<SampleMetric | HistogramMetric>
  }

  export default function parsePrometheusTextFormat(text: string): Array<MetricFamily>
}
