/**
 * `npm run bench -- --compare REF`: the core A/B run. REF is checked out in a temporary worktree
 * (worktree.mjs); ab-variant.ts is bundled twice, once from this checkout's `src/` (head, with any
 * uncommitted change) and once from REF's (a copy of this checkout's ab-variant.ts placed in the
 * worktree, so the harness is the same on both sides and only the product code differs); core-ab.ts
 * then runs both, interleaved. The worktree is removed at the end, also on failure or Ctrl+C.
 * `--head-ref REF2`: head is REF2 (a second worktree) instead of the working tree, to compare two
 * commits while the checkout holds changes of its own (or other people's).
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { build } from "rolldown";
import { addWorktree, describeHead, ROOT } from "./worktree.mjs";

const CACHE = join(ROOT, "node_modules", ".cache", "bench-ab");

/** Bundles `entry` (resolving its relative imports in its own tree) into `out`. */
export async function bundle(entry, out) {
  await build({
    input: entry,
    platform: "node",
    external: (id) => !id.startsWith(".") && !id.startsWith("/") && !id.startsWith("\0"),
    output: { file: out, format: "esm" },
    logLevel: "warn",
  });
  return out;
}

/** Runs the core A/B of the working tree against `ref`; `args` pass through (--quick, --depths=, --rounds=). */
export async function compareCore(ref, argv) {
  const [headRef, args] = takeOption(argv, "head-ref");
  const wt = addWorktree(ref);
  const headWt = headRef ? addWorktree(headRef) : null;
  try {
    mkdirSync(CACHE, { recursive: true });
    process.stdout.write(`Base: ${wt.short} ${wt.subject} (worktree ${wt.dir})\n`);
    const head = headWt
      ? { ref: headRef, sha: headWt.sha, short: headWt.short, subject: headWt.subject, dirty: false }
      : describeHead();
    process.stdout.write(`Head: ${head.short} ${head.subject}${head.dirty ? " + uncommitted changes" : ""}\n`);
    copyFileSync(join(ROOT, "bench", "ab-variant.ts"), join(wt.dir, "bench", "ab-variant.ts"));
    const baseFile = await bundle(join(wt.dir, "bench", "ab-variant.ts"), join(CACHE, `base-${process.pid}.mjs`));
    if (headWt) copyFileSync(join(ROOT, "bench", "ab-variant.ts"), join(headWt.dir, "bench", "ab-variant.ts"));
    const headFile = await bundle(
      join(headWt?.dir ?? ROOT, "bench", "ab-variant.ts"),
      join(CACHE, `head-${process.pid}.mjs`),
    );
    const meta = {
      base: { ref, sha: wt.sha, short: wt.short, subject: wt.subject },
      head,
      note: "harness (generator, rounds, statistics) from this checkout for both sides; only src/ differs",
    };
    const r = spawnSync(
      process.execPath,
      [
        join(ROOT, "scripts", "run-ts.mjs"),
        join(ROOT, "bench", "core-ab.ts"),
        `--base=${baseFile}`,
        `--head=${headFile}`,
        ...args,
      ],
      { stdio: "inherit", env: { ...process.env, BENCH_AB_META: JSON.stringify(meta) } },
    );
    return r.status ?? 1;
  } finally {
    wt.remove();
    headWt?.remove();
  }
}

/** `--NAME VALUE` / `--NAME=VALUE` out of the arguments: [value or null, the other arguments]. */
export function takeOption(argv, name) {
  const rest = [];
  let value = null;
  let seen = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === `--${name}`) {
      seen = true;
      value = argv[++i] ?? null;
    } else if (a.startsWith(`--${name}=`)) {
      seen = true;
      value = a.slice(name.length + 3);
    } else rest.push(a);
  }
  if (seen && (!value || value.startsWith("--"))) throw new Error(`--${name} needs a git ref, e.g. --${name} HEAD~1`);
  return [value, rest];
}

/** `--compare REF` / `--compare=REF` out of the arguments: [ref or null, the other arguments]. */
export function takeCompare(argv) {
  return takeOption(argv, "compare");
}
