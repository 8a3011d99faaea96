/**
 * The other side of an A/B run: the given commit checked out in a temporary worktree
 * (`git worktree add --detach`, which leaves the main checkout, its index and its branches alone),
 * with the main checkout's node_modules linked in rather than installed again, and removed with
 * `git worktree remove --force` when the run ends, however it ends.
 *
 * Layout: /tmp/bench-ab-XXXX/main is the worktree and /tmp/bench-ab-XXXX/shared links to the
 * checkout's ../shared, so code that looks for ../shared from its root (the exchange's recordings)
 * finds the same data on both sides.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");

function git(args, cwd = ROOT) {
  return execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

/** The commit a ref names, and its one-line description ("e39cbff refactor(ui): …"). */
export function describeRef(ref) {
  const sha = git(["rev-parse", "--verify", `${ref}^{commit}`]);
  return { sha, short: sha.slice(0, 7), subject: git(["log", "-1", "--format=%s", sha]) };
}

/** This checkout: its commit, and whether the tree has changes not committed (they are measured too). */
export function describeHead() {
  const sha = git(["rev-parse", "HEAD"]);
  const dirty = git(["status", "--porcelain", "--untracked-files=no"]) !== "";
  return { sha, short: sha.slice(0, 7), subject: git(["log", "-1", "--format=%s", sha]), dirty };
}

const open = new Set();
const beforeRemove = new Set();

/**
 * `fn` runs before the worktrees go, on exit and on SIGINT/SIGTERM (e.g. stopping the servers that
 * run from them); the returned function unregisters it.
 */
export function onCleanup(fn) {
  beforeRemove.add(fn);
  return () => beforeRemove.delete(fn);
}

function removeAll() {
  for (const fn of [...beforeRemove]) {
    beforeRemove.delete(fn);
    try {
      fn();
    } catch (err) {
      process.stderr.write(`cleanup: ${String(err)}\n`);
    }
  }
  for (const wt of [...open]) wt.remove();
}
let hooked = false;
function hookExit() {
  if (hooked) return;
  hooked = true;
  process.on("exit", removeAll);
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"])
    process.on(sig, () => {
      removeAll();
      process.exit(128 + (sig === "SIGINT" ? 2 : sig === "SIGTERM" ? 15 : 1));
    });
}

/**
 * Checks out `ref` in a new temporary worktree. `remove()` takes it away again (also run on exit
 * and on SIGINT/SIGTERM).
 */
export function addWorktree(ref) {
  const { sha, short, subject } = describeRef(ref);
  const base = mkdtempSync(join(tmpdir(), `bench-ab-${short}-`));
  const dir = join(base, "main");
  git(["worktree", "add", "--detach", dir, sha]);
  // The dependencies of this checkout, linked: the ref's package-lock may differ, which is said in
  // the report (a dependency change is part of what an A/B run of two commits measures only when
  // the ref's own install is used; here both sides run on this checkout's packages).
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  if (existsSync(join(ROOT, "bench", "node_modules")))
    symlinkSync(join(ROOT, "bench", "node_modules"), join(dir, "bench", "node_modules"));
  if (existsSync(join(ROOT, "..", "shared"))) symlinkSync(join(ROOT, "..", "shared"), join(base, "shared"));
  let removed = false;
  const wt = {
    dir,
    sha,
    short,
    subject,
    remove() {
      if (removed) return;
      removed = true;
      open.delete(wt);
      // The links first, so nothing can follow them into this checkout's files.
      for (const link of [join(dir, "node_modules"), join(dir, "bench", "node_modules"), join(base, "shared")])
        rmSync(link, { force: true });
      try {
        git(["worktree", "remove", "--force", dir]);
      } catch (err) {
        process.stderr.write(`could not remove the worktree ${dir}: ${String(err)}\n`);
      }
      rmSync(base, { recursive: true, force: true });
    },
  };
  open.add(wt);
  hookExit();
  return wt;
}
