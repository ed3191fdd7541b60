/**
 * `svc music import <file>`: loads the server's licensed music catalog (what `svc_search_instagram_music` searches)
 * from a CSV or JSON file. The file is read and parsed here; checking the rows, matching them to the catalog's tracks
 * and writing them is the core's `MusicCatalog.importTracks`.
 */
import { readFile, stat } from "node:fs/promises"
import * as path from "node:path"
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { MusicCatalogRepoSql } from "@svc/adapters/sql"
import { type ImportReport, MusicCatalog, type TrackRow } from "@svc/core/music"
import { CsvError, parse as parseCsv } from "csv-parse/sync"
import { Data, Effect, Layer } from "effect"
import { CommandContext, CommandExit, onApp } from "./command-context.js"
import { type Output, report } from "./output.js"

/** The largest catalog file read, in bytes. */
export const MUSIC_FILE_MAX_BYTES = 64 * 1024 * 1024

/** A catalog file that cannot be read as one: the whole file is refused. */
export class CatalogFileRefused extends Data.TaggedError("CatalogFileRefused")<{ readonly message: string }> {}

type Field = "title" | "artist" | "duration" | "isrc" | "usageNotes"

// Column names and JSON keys are compared lower-case without spaces, underscores or dashes, so `usage_notes`,
// `Usage Notes` and `usageNotes` are one column.
const FIELDS: Record<string, Field> = {
  title: "title",
  artist: "artist",
  duration: "duration",
  durationseconds: "duration",
  isrc: "isrc",
  usagenotes: "usageNotes"
}

const fieldOf = (name: string): Field | undefined => FIELDS[name.toLowerCase().replace(/[^a-z0-9]/g, "")]

/** What a file held: its rows, its format, and the columns or keys it has that no track field takes. */
export interface CatalogFile {
  readonly format: "csv" | "json"
  readonly rows: ReadonlyArray<TrackRow>
  readonly ignoredColumns: ReadonlyArray<string>
}

const refused = (message: string) => new CatalogFileRefused({ message })

/** Which columns give which field; a field twice is refused. */
const columnsOf = (file: string, names: ReadonlyArray<string>) => {
  const columns = new Map<Field, number>()
  const ignored: Array<string> = []
  names.forEach((name, index) => {
    const field = fieldOf(name)
    if (field === undefined) {
      if (name.trim() !== "") ignored.push(name.trim())
    } else if (columns.has(field)) {
      throw refused(`${file}: two columns give the ${field === "usageNotes" ? "usage notes" : field}`)
    } else columns.set(field, index)
  })
  for (const required of ["title", "artist"] as const) {
    if (!columns.has(required)) {
      throw refused(
        `${file} has no ${required} column; its first line must name the columns: title, artist, and any of duration, isrc, usage_notes`
      )
    }
  }
  return { columns, ignored }
}

// The line breaks in a record's raw text: csv-parse keeps "\r" of a "\r\n" record end and drops the "\n".
const breaks = (raw: string) => raw.match(/\r\n|\r|\n/g)?.length ?? 0

// The separator is the one of `,` `;` and tab the header line has most of (spreadsheets set to a locale where the
// comma is the decimal mark write `;`), a comma when it has none.
const separatorOf = (text: string): string => {
  const header = text.split(/\r\n|\r|\n/).find((line) => line.trim() !== "") ?? ""
  const counts = [",", ";", "\t"].map((separator) => [separator, header.split(separator).length - 1] as const)
  const [best] = [...counts].sort((a, b) => b[1] - a[1])
  return best !== undefined && best[1] > 0 ? best[0] : ","
}

const readCsv = (file: string, text: string): CatalogFile => {
  let records: Array<{ readonly record: Array<string>; readonly raw: string }>
  try {
    // With `raw`, each record comes as `{ record, raw }`; csv-parse's declarations give that only with `columns`.
    records = parseCsv(text, {
      bom: true,
      raw: true,
      relax_column_count: true,
      delimiter: separatorOf(text)
    }) as unknown as typeof records
  } catch (error) {
    if (error instanceof CsvError) throw refused(`${file} is not CSV this command can read: ${error.message}`)
    throw error
  }
  let line = 1
  let header: { readonly columns: Map<Field, number>; readonly ignored: Array<string> } | undefined
  const rows: Array<TrackRow> = []
  for (const { record, raw } of records) {
    const start = line
    line += breaks(raw)
    if (record.every((value) => value.trim() === "")) continue
    if (header === undefined) {
      header = columnsOf(file, record)
      continue
    }
    const { columns } = header
    // A short row's missing cells are blank (empty); a column the file lacks is not given, so a track keeps its own.
    const cell = (field: Field) => {
      const index = columns.get(field)
      return index === undefined ? undefined : (record[index] ?? "")
    }
    rows.push({
      row: start,
      title: cell("title"),
      artist: cell("artist"),
      duration: cell("duration"),
      isrc: cell("isrc"),
      usageNotes: cell("usageNotes")
    })
  }
  if (header === undefined) throw refused(`${file} is empty: its first line must name the columns (title, artist, …)`)
  return { format: "csv", rows, ignoredColumns: header.ignored }
}

const readJson = (file: string, text: string): CatalogFile => {
  let parsed: unknown
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ""))
  } catch (error) {
    throw refused(`${file} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (!Array.isArray(parsed)) {
    throw refused(`${file} must hold a JSON array of tracks: [{"title": …, "artist": …}, …]`)
  }
  const ignored = new Set<string>()
  const rows = parsed.map((item: unknown, index): TrackRow => {
    if (typeof item !== "object" || item === null || Array.isArray(item)) {
      throw refused(`${file}: item ${index + 1} is not an object with title and artist`)
    }
    const fields: Partial<Record<Field, unknown>> = {}
    for (const [key, value] of Object.entries(item)) {
      const field = fieldOf(key)
      if (field === undefined) ignored.add(key)
      else if (field in fields) throw refused(`${file}: item ${index + 1} gives the ${field} twice`)
      // `null` is given and empty (it clears the field), as a blank CSV cell is.
      else fields[field] = value === null ? "" : value
    }
    return { row: index + 1, ...fields }
  })
  return { format: "json", rows, ignoredColumns: [...ignored] }
}

/** Reads a catalog file: CSV or JSON by its extension (`.csv`, `.json`), else by its first character. */
export const readCatalogFile = (file: string) =>
  Effect.gen(function* () {
    const size = yield* Effect.tryPromise({
      try: () => stat(file),
      catch: (error) => refused(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`)
    })
    if (!size.isFile()) return yield* refused(`${file} is not a file`)
    if (size.size > MUSIC_FILE_MAX_BYTES) {
      return yield* refused(
        `${file} is ${size.size} bytes; a catalog file may be at most ${MUSIC_FILE_MAX_BYTES / 1024 / 1024} MB: split it`
      )
    }
    const text = yield* Effect.tryPromise({
      try: () => readFile(file, "utf8"),
      catch: (error) => refused(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`)
    })
    const extension = path.extname(file).toLowerCase()
    const json = extension === ".json" || (extension !== ".csv" && /^\uFEFF?\s*[[{]/.test(text))
    return yield* Effect.try({
      try: () => (json ? readJson(file, text) : readCsv(file, text)),
      catch: (error) => (error instanceof CatalogFileRefused ? error : refused(`${file}: ${String(error)}`))
    })
  })

const plural = (count: number, one: string, many = `${one}s`) =>
  `${count.toLocaleString("en")} ${count === 1 ? one : many}`

/** The report's lines for a person. */
const reportLines = (
  file: string,
  read: CatalogFile,
  done: ImportReport,
  options: { readonly dryRun: boolean; readonly replace: boolean }
): Array<string> => {
  const where = read.format === "csv" ? "line" : "item"
  const counts = options.dryRun
    ? `would add ${done.added}, update ${done.updated}, leave ${done.unchanged} unchanged${options.replace ? `, remove ${done.removed}` : ""}`
    : `added ${done.added}, updated ${done.updated}, left ${done.unchanged} unchanged${options.replace ? `, removed ${done.removed}` : ""}`
  const lines = [
    `${file}: ${plural(done.rows, "row")} (${read.format.toUpperCase()}).`,
    done.saved
      ? `Imported: ${counts}; ${done.refused} refused. The catalog holds ${plural(done.catalogTracks, "track")}.`
      : options.dryRun
        ? `Dry run, nothing saved: ${counts}; ${done.refused} refused. The catalog would hold ${plural(done.catalogTracks, "track")}.`
        : `Nothing saved: with --replace a file is saved only when no row is refused (a refused row would remove the track it meant to keep). Checked: ${counts}; ${done.refused} refused.`
  ]
  if (done.problems.length > 0) {
    lines.push("Refused:")
    for (const problem of done.problems) lines.push(`  ${where} ${problem.row}: ${problem.message}`)
    if (done.problemsNotListed > 0) lines.push(`  … and ${plural(done.problemsNotListed, "more problem")}`)
  }
  if (read.ignoredColumns.length > 0) {
    lines.push(`Ignored ${read.format === "csv" ? "columns" : "keys"}: ${read.ignoredColumns.join(", ")}.`)
  }
  return lines
}

/** `svc music import <file> [--dry-run] [--replace]`: prints what was done; exits 1 when a row was refused. */
export const importMusic = (
  input: { readonly file: string; readonly dryRun: boolean; readonly replace: boolean },
  output: Output
) =>
  Effect.gen(function* () {
    const read = yield* readCatalogFile(input.file)
    const catalog = yield* MusicCatalog
    const done = yield* catalog.importTracks(read.rows, { dryRun: input.dryRun, replace: input.replace })
    yield* report(
      output,
      {
        file: input.file,
        format: read.format,
        dryRun: input.dryRun,
        replace: input.replace,
        ...done,
        ignoredColumns: read.ignoredColumns
      },
      reportLines(input.file, read, done, input)
    )
    // The report is printed; the exit code tells a script that the file was not taken whole.
    if (done.refused > 0) return yield* new CommandExit({ code: 1 })
  }).pipe(Effect.provide(MusicCatalog.Default.pipe(Layer.provide(MusicCatalogRepoSql))))

const json = Options.boolean("json").pipe(
  Options.withDescription("Print the result (or the failure, on standard error) as one JSON document.")
)

/** `svc music …` */
export const musicCommand = Command.make("music").pipe(
  Command.withDescription("The licensed music catalog that agents search with svc_search_instagram_music."),
  Command.withSubcommands([
    Command.make(
      "import",
      {
        file: Args.text({ name: "file" }).pipe(
          Args.withDescription(
            "A CSV file (a header line naming title, artist and any of duration, isrc, usage_notes) or a JSON array of objects with those fields."
          )
        ),
        dryRun: Options.boolean("dry-run").pipe(
          Options.withDescription("Check the file and say what it would change; save nothing.")
        ),
        replace: Options.boolean("replace").pipe(
          Options.withDescription(
            "The file is the whole catalog: remove the tracks it does not name. Saves nothing if a row is refused."
          )
        ),
        json
      },
      (flags) =>
        Effect.flatMap(CommandContext, (context) => {
          // A command may run in the server that holds the data directory (its admin socket), whose working
          // directory is not this one: the file is named to it by its absolute path.
          const file = path.resolve(flags.file)
          const at = context.argv.indexOf(flags.file, 2)
          const argv = at < 0 ? context.argv : context.argv.map((word, index) => (index === at ? file : word))
          return onApp(flags.json, (output) =>
            importMusic({ file, dryRun: flags.dryRun, replace: flags.replace }, output)
          ).pipe(Effect.provideService(CommandContext, { ...context, argv }))
        })
    ).pipe(
      Command.withDescription(
        "Add and update the catalog's tracks from a CSV or JSON file: a track is matched by its ISRC, else by title and artist. Rows with problems are refused and listed (exit code 1); the others are saved."
      )
    )
  ])
)
