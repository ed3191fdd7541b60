/**
 * The record keys of a delivery's posts on Bluesky. A post's key is a TID (a microsecond time and a 10-bit clock id,
 * 13 base32 characters); deriving it from the delivery instead of the clock makes every try of one delivery write the
 * same keys, so the PDS holds at most one record per part whatever happens between tries.
 */
import { createHash } from "node:crypto"
import type { TID } from "@atproto/common-web"

/**
 * The key of part `part` (0 for the first post) of the thread a delivery publishes. The time is the delivery's
 * creation, spread over its millisecond by a hash of the delivery's id, with the clock id taken from the same hash, so
 * two deliveries created in one millisecond still get different keys; parts follow their first post one microsecond
 * apart, in order, as the posts of a thread written by hand would. `tid` is `@atproto/common-web`'s `TID`, loaded with
 * the rest of the AT Protocol packages when first used.
 */
export const recordKeyOf = (tid: typeof TID, deliveryId: string, createdAt: Date, part: number): string => {
  const digest = createHash("sha256").update(deliveryId, "utf8").digest()
  const microsInMilli = digest.readUInt32BE(0) % 1000
  const clockId = digest.readUInt16BE(4) & 0x3ff
  return tid.fromTime(createdAt.getTime() * 1000 + microsInMilli + part, clockId).toString()
}
