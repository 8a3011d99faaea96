/**
 * `npm start` entry: serves the built app on loopback. The embedded exchange (issue 4) joins this
 * process; until then the app runs against whatever /config.json points at.
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { servedConfig } from "./config.ts";
import { createAppServer } from "./static.ts";

const HOST = process.env["HOST"] ?? "127.0.0.1";
const PORT = Number(process.env["PORT"] ?? 5180);
const ROOT = resolve(process.env["APP_DIST"] ?? "dist");

async function main(): Promise<void> {
  const build = JSON.parse(await readFile(resolve(ROOT, "build.json"), "utf8")) as { build: string };
  const origin = `http://${HOST === "0.0.0.0" ? "127.0.0.1" : HOST}:${PORT}`;
  const server = createAppServer({ root: ROOT, config: servedConfig(process.env, origin, build.build) });
  server.listen(PORT, HOST, () => {
    process.stdout.write(`App ready at ${origin}/\n`);
  });
  const stop = (): void => {
    server.close(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`start failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
