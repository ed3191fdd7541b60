/**
 * Debian's Chromium driven by `playwright-core` (never a downloaded browser). `.ci/run` installs the
 * `chromium` package when it is missing; a machine without it skips these tests (see external-tool.ts).
 */
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import { type Browser, chromium, type Page } from "playwright-core"
import { chromiumTool, type ExternalTool } from "../support/external-tool.js"

/** Debian's Chromium on this machine, or what to install to get it. */
export const chromiumOnMachine: ExternalTool = await chromiumTool()

const chromiumPath = (): string => {
  if (chromiumOnMachine.available) return chromiumOnMachine.path
  throw new Error(`chromium is not installed: ${chromiumOnMachine.install}`)
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
