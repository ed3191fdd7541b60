import { crc32, deflateRawSync } from "node:zlib"

/**
 * A gzip member (RFC 1952) for `head ++ tail` where `tail` is constant and compressed once: the head
 * travels as stored deflate blocks, the tail's cached deflate follows, and only the trailer is computed
 * per call. The tail's deflate never refers back before its own start, so it stays valid after any head.
 */
export interface GzipSplice {
  /** The member's bytes in order; the tail's deflate chunk is shared between calls and must not be mutated. */
  readonly chunks: (head: Uint8Array) => ReadonlyArray<Uint8Array>
  /** The total byte length of `chunks(head)`, for a Content-Length. */
  readonly byteLength: (head: Uint8Array) => number
}

/** Options for {@link makeGzipSplice}. */
export interface GzipSpliceOptions {
  /** The zlib level the tail is compressed with once; 9 by default, since the cost is paid once. */
  readonly level?: number
}

/** Prepares a {@link GzipSplice} for the constant `tail`: compresses it and its CRC work once. */
export const makeGzipSplice = (tail: Uint8Array, options: GzipSpliceOptions = {}): GzipSplice => {
  const level = options.level ?? 9
  const header = gzipHeader(level)
  const deflatedTail = deflateRawSync(tail, { level })
  const tailCrc = crc32(tail)
  const shiftOverTail = zeroBytesOperator(tail.length)

  const prefixLength = (head: Uint8Array) => header.length + storedLength(head.length)
  const byteLength = (head: Uint8Array) => prefixLength(head) + deflatedTail.length + TRAILER_LENGTH

  const chunks = (head: Uint8Array): ReadonlyArray<Uint8Array> => {
    const prefix = Buffer.allocUnsafe(prefixLength(head))
    prefix.set(header, 0)
    writeStoredBlocks(prefix, header.length, head)
    const trailer = Buffer.allocUnsafe(TRAILER_LENGTH)
    // See zeroBytesOperator for why advancing the head's CRC and XOR-ing the tail's CRC gives the whole CRC.
    trailer.writeUInt32LE((applyOperator(shiftOverTail, crc32(head)) ^ tailCrc) >>> 0, 0)
    trailer.writeUInt32LE((head.length + tail.length) % 2 ** 32, 4)
    return [prefix, deflatedTail, trailer]
  }

  return { chunks, byteLength }
}

const TRAILER_LENGTH = 8
const MAX_STORED = 0xffff
const STORED_BLOCK_OVERHEAD = 5

/** ID1 ID2 CM=deflate FLG=0 MTIME=0 XFL OS=unknown. XFL advertises the level as RFC 1952 §2.3.1 suggests. */
const gzipHeader = (level: number) =>
  Uint8Array.of(0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, level === 9 ? 2 : level === 1 ? 4 : 0, 0xff)

const storedLength = (length: number) => length + STORED_BLOCK_OVERHEAD * Math.ceil(length / MAX_STORED)

/**
 * Writes `head` as non-final stored blocks (RFC 1951 §3.2.4). A stored block ends byte-aligned, so the
 * tail's deflate can start on the next byte; an empty head needs no block at all.
 */
const writeStoredBlocks = (target: Buffer, offset: number, head: Uint8Array) => {
  let at = offset
  for (let start = 0; start < head.length; start += MAX_STORED) {
    const block = head.subarray(start, start + MAX_STORED)
    target[at] = 0x00 // BFINAL=0, BTYPE=00; the remaining header bits are padding
    target.writeUInt16LE(block.length, at + 1)
    target.writeUInt16LE(~block.length & 0xffff, at + 3)
    target.set(block, at + STORED_BLOCK_OVERHEAD)
    at += STORED_BLOCK_OVERHEAD + block.length
  }
}

/**
 * A linear map on 32-bit CRC registers over GF(2), as its 32 columns: column i is the image of bit i.
 * Applying it XORs the columns of the set bits.
 */
type Operator = Uint32Array

const applyOperator = (operator: Operator, register: number) => {
  let result = 0
  for (let bit = 0, rest = register >>> 0; rest !== 0; bit++, rest >>>= 1) {
    if (rest & 1) result ^= operator[bit]!
  }
  return result >>> 0
}

const compose = (outer: Operator, inner: Operator): Operator => inner.map((column) => applyOperator(outer, column))

const IDENTITY: Operator = Uint32Array.from({ length: 32 }, (_, bit) => (1 << bit) >>> 0)

/** One zero bit through the reflected CRC-32 register: shift right, fold in the polynomial on a carry. */
const ONE_ZERO_BIT: Operator = Uint32Array.from({ length: 32 }, (_, bit) => (bit === 0 ? 0xedb88320 : 1 << (bit - 1)))

const ONE_ZERO_BYTE = [0, 1, 2].reduce((op) => compose(op, op), ONE_ZERO_BIT)

/**
 * The map advancing a raw CRC-32 register over `count` zero bytes, by squaring.
 *
 * Why it combines CRCs: with R(r, d) the raw register after feeding d from r, R is linear, so
 * R(r, t) = A(r) ^ R(0, t) with A = this map for t.length. zlib's crc32(d) is ~R(~0, d), and for the
 * head h the raw register ~0 becomes R(~0, h) = ~crc32(h). Then crc32(h ++ t) = ~(A(~crc32(h)) ^ R(0, t))
 * = A(crc32(h)) ^ ~(A(~0) ^ R(0, t)) = A(crc32(h)) ^ crc32(t), since A(~x) = A(x) ^ A(~0).
 */
const zeroBytesOperator = (count: number): Operator => {
  let result = IDENTITY
  let power = ONE_ZERO_BYTE
  for (let rest = count; rest > 0; rest = Math.floor(rest / 2)) {
    if (rest % 2 === 1) result = compose(power, result)
    power = compose(power, power)
  }
  return result
}
