import { describe, expect, it } from "@effect/vitest"
import { checkReceiverUrl, isLoopbackHost, isPublicAddress } from "../src/webhooks/address.js"

describe("which addresses webhooks may reach", () => {
  it.each([
    "0.0.0.0",
    "10.1.2.3",
    "100.64.0.1",
    "100.127.255.255",
    "127.0.0.1",
    "127.255.0.9",
    "169.254.169.254",
    "172.16.0.1",
    "172.31.255.255",
    "192.0.0.8",
    "192.0.2.1",
    "192.168.1.1",
    "198.18.0.1",
    "198.51.100.7",
    "203.0.113.9",
    "224.0.0.1",
    "239.255.255.250",
    "240.0.0.1",
    "255.255.255.255",
    "::",
    "::1",
    "[::1]",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "::ffff:169.254.169.254",
    "::127.0.0.1",
    "64:ff9b::10.0.0.1",
    "64:ff9b::a9fe:a9fe",
    "64:ff9b:1::1",
    "2002:0a00:0001::1",
    "2002:7f00:1::",
    "2001:0:4136:e378::1",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "fe80::1%eth0",
    "fec0::1",
    "ff02::1",
    "2001:db8::1",
    "100::1",
    "not an address",
    "1.2.3",
    "1.2.3.256"
  ])("refuses %s", (address) => {
    expect(isPublicAddress(address)).toBe(false)
  })

  it.each([
    "1.1.1.1",
    "8.8.8.8",
    "93.184.216.34",
    "172.32.0.1",
    "100.128.0.1",
    "2606:4700:4700::1111",
    "2a00:1450:4001:80b::200e",
    "::ffff:8.8.8.8",
    "64:ff9b::8.8.8.8",
    "2002:0808:0808::1"
  ])("admits %s", (address) => {
    expect(isPublicAddress(address)).toBe(true)
  })

  it("checks the form of receiver URLs", () => {
    const check = (url: string, allowLoopback = false) => {
      const result = checkReceiverUrl(url, { allowLoopback })
      return result.ok ? "ok" : result.refusal
    }
    expect(check("https://hooks.example.com/in")).toBe("ok")
    expect(check("http://hooks.example.com/in")).toBe("not-https")
    expect(check("ftp://hooks.example.com")).toBe("not-https")
    expect(check("https://user:pw@hooks.example.com")).toBe("userinfo")
    expect(check("https://10.0.0.1/in")).toBe("ip-literal")
    expect(check("https://[::1]/in")).toBe("ip-literal")
    expect(check("https://8.8.8.8/in")).toBe("ip-literal")
    expect(check("https://localhost/in")).toBe("localhost")
    expect(check("https://api.localhost/in")).toBe("localhost")
    expect(check("https://printer.local/")).toBe("localhost")
    expect(check("https://metadata.google.internal/")).toBe("localhost")
    expect(check("https://intranet/")).toBe("localhost")
    expect(check("not a url")).toBe("not-a-url")
    expect(check("http://127.0.0.1:9999/in", true)).toBe("ok")
    expect(check("http://localhost:9999/in", true)).toBe("ok")
    expect(check("http://10.0.0.1/in", true)).toBe("not-https")
  })

  it("knows loopback hosts for the test switch", () => {
    expect(isLoopbackHost("127.0.0.1")).toBe(true)
    expect(isLoopbackHost("[::1]")).toBe(true)
    expect(isLoopbackHost("::ffff:127.0.0.1")).toBe(true)
    expect(isLoopbackHost("localhost")).toBe(true)
    expect(isLoopbackHost("10.0.0.1")).toBe(false)
  })
})
