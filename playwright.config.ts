import { defineConfig } from "@playwright/test";

const PORT = Number(process.env["E2E_PORT"] ?? 5190);

export default defineConfig({
  testDir: "tests/e2e",
  forbidOnly: true,
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [["list"]],
  // Journeys share one exchange. Those that change it for everyone — maintenance halts trading
  // (@exclusive), a market moved through liquidation prices (@exclusive-market) — run after all
  // the others, one after the other.
  projects: [
    { name: "journeys", grepInvert: /@exclusive/ },
    { name: "exclusive", grep: /@exclusive\b(?!-)/, dependencies: ["journeys"] },
    { name: "exclusive-market", grep: /@exclusive-market/, dependencies: ["exclusive"] },
  ],
  outputDir: "test-results/e2e",
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: {
    // The product exactly as `npm start` runs it, on its own port.
    command: "node scripts/start.mjs",
    // Every journey comes from one address: the suite signs in more often than the 10 a minute a
    // person gets, makes more calls than the 90 a minute of one person's pages (two journeys side by
    // side on account pages that each load several calls), and opens more accounts than the 3 an
    // hour one address gets before the sign-up captcha.
    // A confirmed withdrawal completes within seconds (WITHDRAW_STEP_MS; 10 s a step by default).
    // A deposit's three confirmations take 9 s (DEPOSIT_BLOCK_MS): long enough that a journey on a
    // loaded machine still sees the deposit below three before it is credited.
    env: {
      PORT: String(PORT),
      RATE_LIMITS: "login=120,auth=600,public=600",
      SIGNUP_CAPTCHA_AFTER: "50",
      WITHDRAW_STEP_MS: "1500",
      DEPOSIT_BLOCK_MS: "3000",
      // A funding day of 6 s: a credit pays its first interest within seconds of opening (a 30-day
      // credit still runs three minutes, longer than any journey).
      FUNDING_DAY_MS: "6000",
    },
    url: `http://127.0.0.1:${PORT}/config.json`,
    reuseExistingServer: false,
    timeout: 120_000,
  },
});
