/**
 * Debian's Chromium driven by `playwright-core` (never a downloaded browser). `.ci/run` installs the
 * `chromium` package when it is missing; a machine without it fails these tests with that instruction.
 */
import { execFileSync } from "node:child_process"
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import { type Browser, chromium, type Page } from "playwright-core"

const chromiumPath = (): string => {
  try {
    return execFileSync("sh", ["-c", "command -v chromium"], { encoding: "utf8" }).trim()
  } catch {
    throw new Error("chromium is not installed: run `apt-get install -y chromium` (Debian's package), as .ci/run does")
  }
}

/** A headless Chromium, closed with the scope. */
export const launchChromium = Effect.acquireRelease(
  Effect.promise(() =>
    chromium.launch({
      executablePath: chromiumPath(),
      headless: true,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run"
      ]
    })
  ),
  (browser: Browser) => Effect.promise(() => browser.close())
)

/** Where the page screenshots go, for a person to look at. */
export const SCREENSHOT_DIR = "/tmp/svc-oauth-screenshots"

/** Saves a full-page screenshot of `page` as `<name>.png`. */
export const screenshot = async (page: Page, name: string) => {
  mkdirSync(SCREENSHOT_DIR, { recursive: true })
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true })
}
