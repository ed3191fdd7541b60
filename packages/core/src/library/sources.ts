import type { Platform } from "../items/schema.js"
import { siteOf, type WebAddress } from "./urls.js"

/** What an address tells about a social post or ad: its platform and, when the address shows them, id and author. */
export interface SourceFacts {
  readonly platform: Platform
  readonly externalId: string | null
  readonly author: string | null
}

const platformOfSite = (site: string): Platform => {
  if (site === "x.com" || site === "twitter.com") return "x"
  if (site === "linkedin.com" || site.endsWith(".linkedin.com")) return "linkedin"
  if (site === "instagram.com") return "instagram"
  if (site === "tiktok.com" || site.endsWith(".tiktok.com")) return "tiktok"
  if (site === "youtube.com" || site === "youtu.be" || site === "music.youtube.com") return "youtube"
  if (site === "substack.com" || site.endsWith(".substack.com")) return "substack"
  if (site === "threads.net" || site === "threads.com") return "threads"
  if (site === "facebook.com" || site === "fb.com" || site === "fb.watch") return "facebook"
  return "other"
}

const queryParam = (address: WebAddress, name: string): string | null => {
  const match = new RegExp(`[?&]${name}=([^&]+)`).exec(address.query)
  return match?.[1] ?? null
}

// The address shapes of each platform's post and ad pages; anything else keeps only its platform.
const readers: Record<Platform, (address: WebAddress) => Partial<Omit<SourceFacts, "platform">>> = {
  x: (a) => {
    const m = /^\/([A-Za-z0-9_]{1,15})\/status(?:es)?\/(\d+)/.exec(a.path)
    return m ? { author: `@${m[1]}`, externalId: m[2] ?? null } : {}
  },
  linkedin: (a) => {
    const m = /(?:activity[-:]|ugcPost[-:]|share[-:])(\d{10,})/.exec(a.path)
    const author = /^\/posts\/([^_/]+)_/.exec(a.path)
    return { externalId: m?.[1] ?? null, author: author?.[1] ?? null }
  },
  instagram: (a) => {
    const m = /^\/(?:[A-Za-z0-9_.]+\/)?(?:p|reel|reels|tv)\/([A-Za-z0-9_-]+)/.exec(a.path)
    return m ? { externalId: m[1] ?? null } : {}
  },
  tiktok: (a) => {
    const m = /^\/@([A-Za-z0-9_.]+)\/(?:video|photo)\/(\d+)/.exec(a.path)
    return m ? { author: `@${m[1]}`, externalId: m[2] ?? null } : {}
  },
  youtube: (a) => {
    if (a.host === "youtu.be") return { externalId: /^\/([A-Za-z0-9_-]{6,})/.exec(a.path)?.[1] ?? null }
    const short = /^\/(?:shorts|live|embed)\/([A-Za-z0-9_-]{6,})/.exec(a.path)
    return { externalId: short?.[1] ?? (a.path === "/watch" ? queryParam(a, "v") : null) }
  },
  substack: (a) => {
    const m = /^\/p\/([A-Za-z0-9_-]+)/.exec(a.path)
    const publication = /^([a-z0-9-]+)\.substack\.com$/.exec(a.host)?.[1]
    if (!m) return {}
    return { externalId: publication ? `${publication}/${m[1]}` : (m[1] ?? null), author: publication ?? null }
  },
  threads: (a) => {
    const m = /^\/@([A-Za-z0-9_.]+)\/post\/([A-Za-z0-9_-]+)/.exec(a.path)
    return m ? { author: `@${m[1]}`, externalId: m[2] ?? null } : {}
  },
  facebook: (a) => {
    if (a.path.startsWith("/ads/library")) return { externalId: queryParam(a, "id") }
    const m = /\/(?:posts|videos|reel)\/([A-Za-z0-9]+)/.exec(a.path)
    return m ? { externalId: m[1] ?? null } : {}
  },
  other: () => ({})
}

/** Reads the platform, and the id and author where the address shows them, from a post's or ad's address. */
export const sourceFactsOf = (address: WebAddress): SourceFacts => {
  const platform = platformOfSite(siteOf(address))
  const read = readers[platform](address)
  return { platform, externalId: read.externalId ?? null, author: read.author ?? null }
}

const platformNames: Record<Platform, string> = {
  x: "X",
  linkedin: "LinkedIn",
  instagram: "Instagram",
  tiktok: "TikTok",
  youtube: "YouTube",
  substack: "Substack",
  threads: "Threads",
  facebook: "Facebook",
  other: "the web"
}

/**
 * A title for a saved post or ad from what is known: "Ad by Acme on Facebook: Summer sale…",
 * "@ada on X: Shipping today…", or the platform and id when there is no text.
 */
export const postTitle = (
  type: "post" | "ad",
  facts: { readonly platform: Platform; readonly author: string | null; readonly externalId: string | null },
  text: string | null
): string => {
  const on = platformNames[facts.platform]
  const who = type === "ad" ? `Ad${facts.author ? ` by ${facts.author}` : ""}` : (facts.author ?? "Post")
  const line =
    text
      ?.split("\n")
      .find((l) => l.trim().length > 0)
      ?.trim() ?? ""
  const excerpt = line.length > 80 ? `${line.slice(0, 79)}…` : line
  if (excerpt.length > 0) return `${who} on ${on}: ${excerpt}`
  return facts.externalId ? `${who} on ${on} (${facts.externalId})` : `${who} on ${on}`
}
