#!/usr/bin/env node
// `npm start`: builds the app when the sources are newer than the last build, then serves it (and,
// once it exists, the embedded exchange) on loopback. `--no-build` serves the existing build.
import { spawnSync, spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const stamp = join(root, "dist", "build.json");
const inputs = ["src", "public", "locales", "index.html", "vite.config.ts", "package-lock.json"];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function needsBuild() {
  if (!existsSync(stamp)) return true;
  const built = statSync(stamp).mtimeMs;
  return inputs.some((p) => newestMtime(join(root, p)) > built);
}

if (!existsSync(join(root, "node_modules", ".package-lock.json"))) {
  console.error("Dependencies are missing: run `npm ci` first (or `npm ci && npm start`).");
  process.exit(1);
}

if (!process.argv.includes("--no-build") && needsBuild()) {
  console.log("Building the app…");
  const r = spawnSync("npx", ["vite", "build", "--logLevel", "warn"], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

// Node itself with tsx's loader, not `npx tsx`: one process, so a signal sent to this script reaches
// the server directly (through npx and tsx's own child, a SIGTERM could leave the server running).
const server = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
  cwd: root,
  stdio: "inherit",
  env: process.env,
});
const forward = (sig) => () => server.kill(sig);
process.on("SIGINT", forward("SIGINT"));
process.on("SIGTERM", forward("SIGTERM"));
server.on("exit", (code) => process.exit(code ?? 0));
