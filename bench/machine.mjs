/**
 * What a bench ran on, recorded in every result and report: the machine is shared (2 cores, other
 * engineers' builds and tests), so a figure means little without the load around it.
 */
import { execFileSync } from "node:child_process";
import { cpus, loadavg } from "node:os";

const ROOT = new URL("..", import.meta.url).pathname;

function gitOr(args, fallback) {
  try {
    return execFileSync("git", args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return fallback;
  }
}

/** The 1, 5 and 15 minute load averages, rounded. */
export function loadNow() {
  return loadavg().map((x) => Math.round(x * 100) / 100);
}

/** CPU, cores, Node, commit (and whether the tree had changes not committed), load now. */
export function machineInfo() {
  const list = cpus();
  return {
    cpu: list[0]?.model?.trim() ?? "unknown",
    cores: list.length,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    commit: gitOr(["rev-parse", "--short", "HEAD"], "unknown"),
    dirty: gitOr(["status", "--porcelain", "--untracked-files=no"], "") !== "",
    load: loadNow(),
  };
}
