/** Files for the media tests, made here from their formats' first bytes (no binary fixtures in the repository). */
import sharp from "sharp"

/** A real PNG of `width` × `height`, made with sharp. */
export const png = (width: number, height: number): Promise<Uint8Array> =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 20 } } })
    .png()
    .toBuffer()
    .then((buffer) => new Uint8Array(buffer))

/** A zip archive holding one stored file: what a `.png` name cannot make an image. */
export const zip = (): Uint8Array => {
  const name = Buffer.from("notes.txt")
  const data = Buffer.from("not an image at all\n")
  const local = Buffer.alloc(30)
  local.writeUInt32LE(0x04034b50, 0)
  local.writeUInt16LE(10, 4)
  local.writeUInt32LE(data.length, 18)
  local.writeUInt32LE(data.length, 22)
  local.writeUInt16LE(name.length, 26)
  const central = Buffer.alloc(46)
  central.writeUInt32LE(0x02014b50, 0)
  central.writeUInt16LE(20, 4)
  central.writeUInt16LE(10, 6)
  central.writeUInt32LE(data.length, 20)
  central.writeUInt32LE(data.length, 24)
  central.writeUInt16LE(name.length, 28)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(1, 8)
  end.writeUInt16LE(1, 10)
  end.writeUInt32LE(central.length + name.length, 12)
  end.writeUInt32LE(local.length + name.length + data.length, 16)
  return new Uint8Array(Buffer.concat([local, name, data, central, name, end]))
}

/** The first bytes of an MP4 file: an `ftyp` box of brand `isom`. */
export const mp4Head = (): Uint8Array => {
  const box = Buffer.alloc(24)
  box.writeUInt32BE(24, 0)
  box.write("ftyp", 4, "latin1")
  box.write("isom", 8, "latin1")
  box.writeUInt32BE(0x200, 12)
  box.write("isomiso2", 16, "latin1")
  return new Uint8Array(box)
}

/**
 * `total` bytes starting with `head`, made one 64 KiB chunk at a time as they are pulled; `pulled()` says how many
 * went out, to show a reader stopped early.
 */
export const generated = (head: Uint8Array, total: number) => {
  let pulled = 0
  const chunk = 64 * 1024
  async function* bytes() {
    let sent = 0
    while (sent < total) {
      const size = Math.min(chunk, total - sent)
      const out = new Uint8Array(size)
      if (sent === 0) out.set(head.subarray(0, size))
      sent += size
      pulled = sent
      yield out
    }
  }
  return { bytes, pulled: () => pulled }
}
