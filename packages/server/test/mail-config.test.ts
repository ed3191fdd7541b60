/** `SMTP_URL` and `SMTP_FROM` are read at start-up and checked there (docs/email.md). */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Option, Redacted } from "effect"
import { ConfigProvider } from "effect"
import { mailFrom, ServerConfig } from "../src/config.js"

const read = (env: Record<string, string>) =>
  Effect.either(Effect.withConfigProvider(ServerConfig, ConfigProvider.fromMap(new Map(Object.entries(env)))))

const failure = (env: Record<string, string>) =>
  Effect.map(read(env), (result) => (Either.isLeft(result) ? String(result.left) : "accepted"))

describe("SMTP configuration", () => {
  it.effect("sends no mail when SMTP_URL is unset, and defaults the From to the public host", () =>
    Effect.gen(function* () {
      const config = Either.getOrThrow(yield* read({ PUBLIC_URL: "https://svc.example.com" }))
      expect(Option.isNone(config.smtpUrl)).toBe(true)
      expect(mailFrom(config)).toBe("svc <no-reply@svc.example.com>")
      expect(mailFrom(Either.getOrThrow(yield* read({})))).toBe("svc <no-reply@localhost>")
    })
  )

  it.effect("reads the URL (kept redacted) and the From", () =>
    Effect.gen(function* () {
      const config = Either.getOrThrow(
        yield* read({ SMTP_URL: "smtps://user:pw@smtp.example.com:465", SMTP_FROM: "Ada's Shop <shop@ada.example>" })
      )
      expect(Option.map(config.smtpUrl, Redacted.value)).toEqual(Option.some("smtps://user:pw@smtp.example.com:465"))
      expect(String(Option.getOrThrow(config.smtpUrl))).not.toContain("pw")
      expect(mailFrom(config)).toBe("Ada's Shop <shop@ada.example>")
    })
  )

  it.effect("refuses a URL that is not SMTP and a From that is not one address", () =>
    Effect.gen(function* () {
      expect(yield* failure({ SMTP_URL: "https://smtp.example.com" })).toContain("SMTP_URL must be")
      expect(yield* failure({ SMTP_FROM: "not an address" })).toContain("SMTP_FROM must be")
      expect(yield* failure({ SMTP_FROM: "a@example.com, b@example.com" })).toContain("SMTP_FROM must be")
      expect(yield* failure({ SMTP_FROM: "shop@ada.example" })).toBe("accepted")
    })
  )
})
