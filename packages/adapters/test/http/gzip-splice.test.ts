import { spawnSync } from "node:child_process"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { createGunzip, crc32, gunzipSync } from "node:zlib"
import { describe, expect, it } from "@effect/vitest"
import { acceptsGzip } from "../../src/http/accept-encoding.js"
import { makeGzipSplice } from "../../src/http/gzip-splice.js"

const utf8 = (text: string) => new TextEncoder().encode(text)

/** Deterministic bytes that deflate cannot shrink (xorshift32). */
const noise = (length: number, seed: number) => {
  const bytes = new Uint8Array(length)
  let state = seed
  for (let i = 0; i < length; i++) {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    bytes[i] = state & 0xff
  }
  return bytes
}

/** A `tools/list`-like result of about 150 KB, repetitive the way real schemas are. */
const toolListJson = () => {
  const tools = Array.from({ length: 110 }, (_, n) => ({
    name: `tool_${n}_${"abcdefgh"[n % 8]}`,
    title: `Tool number ${n} — ünïcödé`,
    description: `Does thing ${n} to the store. Returns a page of results; pass the cursor to continue. `.repeat(3),
    inputSchema: {
      type: "object",
      properties: {
        cursor: { type: "string", description: "Opaque cursor from the previous page." },
        limit: { type: "integer", minimum: 1, maximum: 100 + n },
        [`filter_${n}`]: { type: "string", enum: ["open", "closed", `state_${n}`] }
      },
      required: [`filter_${n}`],
      additionalProperties: false
    },
    outputSchema: { type: "object", properties: { items: { type: "array" }, next: { type: ["string", "null"] } } },
    annotations: { readOnlyHint: n % 3 === 0, idempotentHint: n % 2 === 0 },
    _meta: { "svc/group": `group_${n % 9}`, "svc/write": n % 3 !== 0 }
  }))
  return `${JSON.stringify({ tools })}}`
}

const heads = {
  empty: new Uint8Array(0),
  "one byte": utf8("{"),
  "JSON-RPC prefix": utf8('{"jsonrpc":"2.0","id":"abc","result":'),
  "multi-byte id": utf8('{"jsonrpc":"2.0","id":"é✓🙂","result":'),
  "one full stored block": noise(65_535, 7),
  "70,000 random bytes": noise(70_000, 11)
}

const tails = {
  empty: new Uint8Array(0),
  "one byte": utf8("}"),
  small: utf8('{"tools":[]}}'),
  "150 KB tool list": utf8(toolListJson()),
  "100 KB random": noise(100_000, 23)
}

const concat = (parts: ReadonlyArray<Uint8Array>) => Buffer.concat(parts.map((part) => Buffer.from(part)))

/**
 * Decodes with a streaming gunzip, written one byte at a time within 64 bytes of every seam between
 * chunks (where the decoder changes state) and in odd-sized pieces elsewhere, to keep the test quick.
 */
const gunzipStreaming = (chunks: ReadonlyArray<Uint8Array>) =>
  new Promise<Buffer>((resolve, reject) => {
    const member = concat(chunks)
    const chunkSeams = [0]
    for (const chunk of chunks) chunkSeams.push(chunkSeams.at(-1)! + chunk.length)
    // The head's stored blocks (65,535 bytes plus a 5-byte header each) start after the 10-byte gzip header.
    const blockSeams = Array.from({ length: Math.ceil(chunks[0]!.length / 65_540) }, (_, k) => 10 + k * 65_540)
    const seams = [...chunkSeams, ...blockSeams]
    const nearSeam = (offset: number) => seams.some((seam) => Math.abs(offset - seam) <= 64)
    const nextWindow = (offset: number) => Math.min(...seams.map((seam) => seam - 64).filter((start) => start > offset))
    const gunzip = createGunzip()
    const out: Array<Buffer> = []
    gunzip.on("data", (chunk: Buffer) => out.push(chunk))
    gunzip.on("error", reject)
    gunzip.on("end", () => resolve(Buffer.concat(out)))
    for (let at = 0; at < member.length; ) {
      const size = nearSeam(at) ? 1 : Math.min(4093, nextWindow(at) - at)
      gunzip.write(member.subarray(at, at + size))
      at += size
    }
    gunzip.end()
  })

/** Runs `script` under python3 with the member for `head ++ tail` on stdin; answers its stdout. */
const python = (script: string, head: Uint8Array, tail: Uint8Array) => {
  const run = spawnSync("python3", ["-c", script], {
    input: concat(makeGzipSplice(tail).chunks(head)),
    maxBuffer: 16 * 1024 * 1024
  })
  expect(run.error).toBeUndefined()
  expect(run.stderr.toString()).toBe("")
  expect(run.status).toBe(0)
  return run.stdout
}

const pairs = Object.entries(tails).flatMap(([tailName, tail]) =>
  Object.entries(heads).map(([headName, head]) => ({ name: `head ${headName} + tail ${tailName}`, head, tail }))
)

describe("makeGzipSplice", () => {
  describe.each(pairs)("$name", ({ head, tail }) => {
    const splice = makeGzipSplice(tail)
    const expected = concat([head, tail])
    const member = concat(splice.chunks(head))

    it("gunzips to head ++ tail", () => {
      expect(gunzipSync(member).equals(expected)).toBe(true)
    })

    it("ends with the CRC-32 and length of head ++ tail", () => {
      expect(member.readUInt32LE(member.length - 8)).toBe(crc32(expected))
      expect(member.readUInt32LE(member.length - 4)).toBe(expected.length)
    })

    it("reports its byte length", () => {
      expect(splice.byteLength(head)).toBe(member.length)
    })

    it("decodes with a streaming gunzip fed one byte at a time across the seams", async () => {
      expect((await gunzipStreaming(splice.chunks(head))).equals(expected)).toBe(true)
    })
  })

  it("serves many heads from one preparation, sharing the tail's compressed bytes", () => {
    const tail = utf8(toolListJson())
    const splice = makeGzipSplice(tail, { level: 6 })
    const ids = ["1", '"a"', "9007199254740991", '"x".repeat(300)', `"${"y".repeat(70_000)}"`]
    const answers = ids.map((id) => splice.chunks(utf8(`{"jsonrpc":"2.0","id":${id},"result":`)))
    ids.forEach((id, n) => {
      expect(gunzipSync(concat(answers[n]!)).toString()).toBe(`{"jsonrpc":"2.0","id":${id},"result":${toolListJson()}`)
    })
    expect(new Set(answers.map((chunks) => chunks[1])).size).toBe(1)
    expect(answers[0]![1]!.length).toBeLessThan(tail.length / 5)
  })

  it("is accepted by Python's gzip module, an independent header and trailer check", () => {
    const head = utf8('{"jsonrpc":"2.0","id":42,"result":')
    const tail = utf8(toolListJson())
    const decoded = python(
      "import gzip,sys; sys.stdout.buffer.write(gzip.decompress(sys.stdin.buffer.read()))",
      head,
      tail
    )
    expect(decoded.equals(concat([head, tail]))).toBe(true)
  })

  it("is exactly one member: a 10-byte header, one deflate stream, then the 8-byte trailer", () => {
    const head = noise(70_000, 3)
    const tail = utf8(toolListJson())
    const script = [
      "import sys,zlib,struct",
      "m = sys.stdin.buffer.read()",
      "assert m[:4] == bytes([0x1f, 0x8b, 8, 0]), m[:10]",
      "d = zlib.decompressobj(-15)",
      "out = d.decompress(m[10:]) + d.flush()",
      "assert d.eof and len(d.unused_data) == 8, (d.eof, len(d.unused_data))",
      "assert struct.unpack('<II', d.unused_data) == (zlib.crc32(out), len(out) % 2**32)",
      "sys.stdout.buffer.write(out)"
    ].join("\n")
    expect(python(script, head, tail).equals(concat([head, tail]))).toBe(true)
  })

  it("is decoded by fetch from a Content-Encoding: gzip answer", async () => {
    const head = utf8('{"jsonrpc":"2.0","id":"req-1","result":')
    const tail = utf8(toolListJson())
    const splice = makeGzipSplice(tail)
    const server = createServer((_request, response) => {
      response.writeHead(200, {
        "content-type": "application/json",
        "content-encoding": "gzip",
        "content-length": splice.byteLength(head)
      })
      for (const chunk of splice.chunks(head)) response.write(chunk)
      response.end()
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    try {
      const { port } = server.address() as AddressInfo
      const response = await fetch(`http://127.0.0.1:${port}/`, { headers: { "accept-encoding": "gzip, deflate" } })
      expect(await response.json()).toEqual(JSON.parse(new TextDecoder().decode(concat([head, tail]))))
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})

describe("acceptsGzip", () => {
  it.each([
    ["gzip", true],
    ["gzip, deflate", true],
    ["gzip, deflate, br, zstd", true],
    ["GZIP", true],
    ["deflate, Gzip;Q=0.5", true],
    ["x-gzip", true],
    ["*", true],
    ["gzip;q=1.000", true],
    ["gzip;q=0.001", true],
    [" deflate ,  gzip ; q=0.8 ", true],
    ["gzip;level=1", true],
    ["", false],
    ["identity", false],
    ["deflate, br", false],
    ["gzip;q=0", false],
    ["gzip;q=0.000", false],
    ["*, gzip;q=0", false],
    ["gzip;q=0, *", false],
    ["gzip;q=0, x-gzip", false],
    ["*;q=0", false],
    ["gzip;q=2", false],
    ["gzip;q=abc", false],
    ["gzipped", false]
  ])("%j → %s", (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected)
  })

  it("refuses when there is no header", () => {
    expect(acceptsGzip(undefined)).toBe(false)
    expect(acceptsGzip(null)).toBe(false)
  })
})
