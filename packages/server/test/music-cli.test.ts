/**
 * `svc music import <file>` as an operator runs it: CSV and JSON files with their quirks (a byte order mark, `;`
 * separators, quoted line breaks, other column names), refused rows listed by line, dry runs, whole-file refusals,
 * and the same command sent to a running server that holds the embedded data directory.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, relative } from "node:path"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { engineName, svcHere, svcJson, useFreshDatabase } from "./support/environment.js"
import { startServer } from "./support/server-process.js"

const currentEnv = useFreshDatabase({ SVC_BOOTSTRAP: "false" })
const folder = mkdtempSync(join(tmpdir(), "svc-music-"))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

const file = (name: string, content: string) => {
  const path = join(folder, name)
  writeFileSync(path, content)
  return path
}

const importJson = (args: ReadonlyArray<string>) => svcJson(["music", "import", ...args], currentEnv())

// A spreadsheet's export: a byte order mark, CRLF line ends, a column svc does not take, notes over two lines.
const catalogCsv = [
  "\uFEFFTitle,Artist,Album,Duration,ISRC,Usage Notes",
  "Blinding Lights,The Weeknd,After Hours,3:20,US-UG1-19-00001,Reels only",
  'Halo,Beyoncé,I Am... Sasha Fierce,261,USSM10804555,"Credit the artist.',
  'Not in ads."',
  ",Nameless,,1:00,,",
  "",
  "Long Night,Quiet Band,,75:00:00,NOTANISRC,",
  "Untimed,Quiet Band,,,,"
].join("\r\n")

describe(`svc music import on ${engineName}`, { timeout: 240_000 }, () => {
  it("imports a CSV file's good rows, lists the refused ones by line, and exits 1", async () => {
    const path = file("catalog.csv", catalogCsv)
    const first = await importJson([path])
    expect(first.code).toBe(1)
    expect(first.body).toMatchObject({
      format: "csv",
      dryRun: false,
      rows: 5,
      added: 3,
      updated: 0,
      unchanged: 0,
      refused: 2,
      saved: true,
      catalogTracks: 3,
      ignoredColumns: ["Album"]
    })
    // Lines of the file, the header being line 1: the notes over lines 3 and 4 make the next row line 5.
    expect(first.body.problems).toEqual([
      { row: 5, field: "title", message: "title is required: the track's title" },
      {
        row: 7,
        field: "duration",
        message: "duration 270000 seconds is out of range; from 1 second to 3 hours"
      },
      {
        row: 7,
        field: "isrc",
        message: expect.stringContaining('isrc "NOTANISRC" is not an ISRC')
      }
    ])

    // The same file again: what it saved is unchanged; as text, the refused rows are listed by line.
    const again = await svcHere(["music", "import", path], currentEnv())
    expect(again.code).toBe(1)
    expect(again.stdout).toContain(
      "Imported: added 0, updated 0, left 3 unchanged; 2 refused. The catalog holds 3 tracks."
    )
    expect(again.stdout).toContain("  line 5: title is required: the track's title")
    expect(again.stdout).toContain("Ignored columns: Album.")
  })

  it("imports a JSON array with camelCase or snake_case keys, and a dry run saves nothing", async () => {
    const path = file(
      "tracks.json",
      JSON.stringify([
        { title: "Halo", artist: "Beyoncé", durationSeconds: 262, isrc: "USSM10804555", usageNotes: null },
        { title: "Summer", artist: "Love Unlimited", duration: "5:10", usage_notes: "Any post" },
        { title: "Sunrise", artist: "Trio", mood: "calm" }
      ])
    )
    const dry = await importJson([path, "--dry-run"])
    expect(dry.code).toBe(0)
    expect(dry.body).toMatchObject({
      format: "json",
      dryRun: true,
      added: 2,
      updated: 1,
      refused: 0,
      saved: false,
      catalogTracks: 5,
      ignoredColumns: ["mood"]
    })
    const text = await svcHere(["music", "import", path, "--dry-run"], currentEnv())
    expect(text.stdout).toContain("Dry run, nothing saved: would add 2, update 1, leave 0 unchanged; 0 refused.")

    const saved = await importJson([path])
    expect(saved.code).toBe(0)
    expect(saved.body).toMatchObject({ added: 2, updated: 1, saved: true, catalogTracks: 5 })
    expect((await importJson([path])).body).toMatchObject({ added: 0, updated: 0, unchanged: 3 })
  })

  it("reads a file by its content, with `;` separators, whatever its name", async () => {
    const csv = file("catalog.txt", "title;artist;duration\nOne;Band;1:00\nTwo;Band;2:00\n")
    expect((await importJson([csv])).body).toMatchObject({ format: "csv", added: 2, refused: 0 })
    const json = file("catalog.export", ' [{"title": "Three", "artist": "Band"}]')
    expect((await importJson([json])).body).toMatchObject({ format: "json", added: 1 })
  })

  it("refuses a whole file it cannot read as a catalog, saying why", async () => {
    const refusal = async (args: ReadonlyArray<string>) => {
      const result = await svcJson(["music", "import", ...args], currentEnv())
      expect(result.code).toBe(1)
      return JSON.parse(result.stderr).error as string
    }
    expect(await refusal([join(folder, "missing.csv")])).toContain("cannot read")
    expect(await refusal([file("no-title.csv", "name,artist\nA,B\n")])).toContain("has no title column")
    expect(await refusal([file("twice.csv", "title,artist,duration,duration_seconds\nA,B,1,2\n")])).toContain(
      "two columns give the duration"
    )
    expect(await refusal([file("quote.csv", 'title,artist\n"A,B\n')])).toContain("is not CSV this command can read")
    expect(await refusal([file("object.json", '{"title": "A"}')])).toContain("must hold a JSON array")
    expect(await refusal([file("broken.json", "[{")])).toContain("is not valid JSON")
    expect(await refusal([file("items.json", '[{"title": "A", "artist": "B"}, 7]')])).toContain(
      "item 2 is not an object"
    )
    expect(await refusal([file("empty.csv", "\n\n")])).toContain("is empty")
    // A mistake in the command line itself is a usage error.
    expect((await svcJson(["music", "import"], currentEnv())).code).toBe(2)
  })

  it("with --replace, keeps only the file's tracks", async () => {
    const only = file("only.csv", "title,artist\nOnly,Band\n")
    const replaced = await importJson([only, "--replace"])
    expect(replaced.body).toMatchObject({ added: 1, removed: 8, saved: true, catalogTracks: 1 })
  })

  it("imports beside a running server, a file named relative to the command's own directory", async () => {
    // On the embedded engine the server holds the data directory, so the command is sent to it over its admin socket;
    // the server runs elsewhere (its own working directory), and is told the file by its absolute path.
    const elsewhere = mkdtempSync(join(tmpdir(), "svc-music-server-"))
    const server = await startServer(currentEnv(), {
      command: process.execPath,
      args: [join(import.meta.dirname, "../bin/svc.mjs"), "serve"],
      cwd: elsewhere
    })
    try {
      const path = relative(process.cwd(), file("served.csv", "title,artist\nServed,Band\n"))
      const result = await importJson([path])
      expect(result.code).toBe(0)
      expect(result.body).toMatchObject({ added: 1, catalogTracks: 2, file: join(folder, "served.csv") })
    } finally {
      await server.stop()
      rmSync(elsewhere, { recursive: true, force: true })
    }
  })
})
