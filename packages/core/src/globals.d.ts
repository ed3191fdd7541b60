// The WHATWG `URL`, a global of every runtime the core runs on, is missing from TypeScript's ES libs. Declared here
// rather than through `@types/node` or the DOM lib, which would also let Node built-ins or browser globals type-check
// in a core that must use neither. Not emitted: the core's declarations name `URL`, which users' runtimes supply.

declare global {
  /** A parsed URL (WHATWG URL Standard). */
  class URL {
    constructor(url: string | URL, base?: string | URL)
    /** Whether `url` (against `base`) parses; since Node 19.9. */
    static canParse(url: string | URL, base?: string | URL): boolean
    hash: string
    host: string
    hostname: string
    href: string
    readonly origin: string
    password: string
    pathname: string
    port: string
    protocol: string
    search: string
    readonly searchParams: URLSearchParams
    username: string
    toJSON(): string
    toString(): string
  }

  /** The query of a URL as name/value pairs (WHATWG URL Standard). */
  class URLSearchParams {
    constructor(init?: string | Record<string, string> | Iterable<readonly [string, string]>)
    readonly size: number
    append(name: string, value: string): void
    delete(name: string, value?: string): void
    get(name: string): string | null
    getAll(name: string): Array<string>
    has(name: string, value?: string): boolean
    set(name: string, value: string): void
    sort(): void
    toString(): string
    forEach(callback: (value: string, name: string, parent: URLSearchParams) => void): void
    entries(): IterableIterator<[string, string]>
    keys(): IterableIterator<string>
    values(): IterableIterator<string>
    [Symbol.iterator](): IterableIterator<[string, string]>
  }
}

export {}
