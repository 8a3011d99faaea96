/**
 * The statistics of an A/B run (`--compare REF`): two versions measured round by round, one after
 * the other in each round, on the same frames. Each figure gets its median and spread per version
 * and the ratio head/base with a bootstrap confidence interval over the rounds.
 *
 * The ratio is the median of the per-round ratios (paired): a busy spell on the shared machine that
 * lands on one round slows both versions of that round, and drops out of their ratio. The interval
 * resamples whole rounds (percentile bootstrap, seeded, so a run's verdict is reproducible from its
 * raw figures). A run compares several figures at once; at 95% each, a run with no real change
 * would flag one of ten figures about every other run, so each interval is taken at 1 − 0.05/k for
 * k figures (Bonferroni): a run with no real change then flags any figure about one run in twenty.
 */
import { seededRandom } from "../src/protocol/random.ts";

export interface Spread {
  n: number;
  median: number;
  min: number;
  max: number;
  p25: number;
  p75: number;
}

export type Verdict = "no change beyond noise" | "slower" | "faster";

export interface Comparison {
  base: Spread;
  head: Spread;
  /** Median over the rounds of head/base (above 1: head takes more; every figure here is a cost). */
  ratio: number;
  /** Bootstrap interval of that median, at `level`. */
  ci: [number, number];
  level: number;
  verdict: Verdict;
  /** The per-round ratios the interval was drawn from. */
  ratios: number[];
}

export function median(xs: readonly number[]): number {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

/** Linear-interpolated quantile of an ascending array. */
function quantileSorted(s: ArrayLike<number>, q: number): number {
  if (s.length === 0) return Number.NaN;
  const at = q * (s.length - 1);
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return (s[lo] as number) + ((s[hi] as number) - (s[lo] as number)) * (at - lo);
}

export function spread(xs: readonly number[]): Spread {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  return {
    n: s.length,
    median: median(s),
    min: s[0] ?? Number.NaN,
    max: s.at(-1) ?? Number.NaN,
    p25: quantileSorted(s, 0.25),
    p75: quantileSorted(s, 0.75),
  };
}

/** head/base for one round; 0/0 is "the same" (e.g. no long tasks in either). */
function roundRatio(base: number, head: number): number {
  if (base === 0 && head === 0) return 1;
  return head / base;
}

/** The interval level for one of `figures` figures compared in one run. */
export function levelFor(figures: number, familyLevel = 0.95): number {
  return 1 - (1 - familyLevel) / Math.max(1, figures);
}

/**
 * Fewest rounds for which the bootstrap interval of a median can exclude 1 at `level` by more
 * than its extreme rounds: below it the interval is just [min, max] of the per-round ratios and a
 * run without change flags a figure more often than the level says (all rounds on one side of 1
 * by chance, 2^(1−n) per figure).
 */
export function roundsFor(level: number): number {
  let n = 1;
  while (2 ** (1 - n) > 1 - level) n++;
  return n;
}

export function compareRounds(
  base: readonly number[],
  head: readonly number[],
  options: { level?: number; resamples?: number; seed?: number } = {},
): Comparison {
  const level = options.level ?? 0.95;
  const resamples = options.resamples ?? 4000;
  const n = Math.min(base.length, head.length);
  const ratios: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = roundRatio(base[i] as number, head[i] as number);
    if (Number.isFinite(r)) ratios.push(r);
  }
  const ratio = median(ratios);
  const random = seededRandom(options.seed ?? 17);
  const n2 = ratios.length;
  const boot = new Float64Array(n2 > 0 ? resamples : 0);
  const sample = new Float64Array(n2);
  const m = n2 >> 1;
  for (let b = 0; b < boot.length; b++) {
    for (let i = 0; i < n2; i++) sample[i] = ratios[Math.floor(random() * n2)] as number;
    sample.sort();
    boot[b] = n2 % 2 ? (sample[m] as number) : ((sample[m - 1] as number) + (sample[m] as number)) / 2;
  }
  boot.sort();
  const alpha = (1 - level) / 2;
  const ci: [number, number] = [quantileSorted(boot, alpha), quantileSorted(boot, 1 - alpha)];
  let verdict: Verdict = "no change beyond noise";
  if (ci[0] > 1) verdict = "slower";
  else if (ci[1] < 1) verdict = "faster";
  return { base: spread(base), head: spread(head), ratio, ci, level, verdict, ratios };
}

/** "no change beyond noise" or "slower: +12.0% (99% CI +8.1% to +15.3%)". */
export function verdictText(c: Comparison): string {
  if (!Number.isFinite(c.ratio)) return "no figures";
  const pct = (r: number): string => `${r >= 1 ? "+" : "−"}${(Math.abs(r - 1) * 100).toFixed(1)}%`;
  const level = `${+(c.level * 100).toFixed(2)}% CI`;
  if (c.verdict === "no change beyond noise")
    return `no change beyond noise (${pct(c.ratio)}, ${level} ${pct(c.ci[0])} to ${pct(c.ci[1])})`;
  return `${c.verdict}: ${pct(c.ratio)} (${level} ${pct(c.ci[0])} to ${pct(c.ci[1])})`;
}
