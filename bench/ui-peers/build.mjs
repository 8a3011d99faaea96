/**
 * Builds the side-by-side page (index.html + main.tsx) for production with the app's own Vite
 * config, so both books run exactly as the shipped app's code does (same plugins, minified, the
 * worker as its own chunk), into a git-ignored directory.
 */
import { join } from "node:path";
import { build } from "vite";

const ROOT = new URL("../..", import.meta.url).pathname;
// Under bench/node_modules (which exists whenever the peer does): git, ESLint, Prettier and vitest
// all leave it alone, where a new top-level build directory would need an ignore entry in each.
export const PEERS_DIST = join(ROOT, "bench", "node_modules", ".ui-peers-dist");
/** The page's path under the served directory (Vite keeps the input's path relative to the root). */
export const PEERS_PAGE = "/bench/ui-peers/index.html";

export async function buildPeerPage() {
  await build({
    configFile: join(ROOT, "vite.config.ts"),
    root: ROOT,
    logLevel: "warn",
    // The peer's dependency tree (bench/node_modules) carries its own React 18 as a peer install;
    // the page must run the app's one React 19.
    resolve: { dedupe: ["react", "react-dom"] },
    build: {
      outDir: PEERS_DIST,
      emptyOutDir: true,
      copyPublicDir: false,
      rollupOptions: { input: join(ROOT, "bench", "ui-peers", "index.html") },
    },
  });
  return PEERS_DIST;
}
