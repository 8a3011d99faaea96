/**
 * The next Bitcoin halving, estimated (the halving page states these figures and how they are
 * used). Bitcoin halves its block subsidy every 210,000 blocks; when a block is mined is not
 * known in advance, so the date is projected from a known block and an average block time.
 * Framework-free and pure, so the page and its test share it.
 */

/** Blocks between two halvings (Bitcoin's consensus rule). */
export const HALVING_INTERVAL = 210_000;

/** The reference block: the fourth halving, block 840,000, mined 2024-04-20 00:09:27 UTC. */
export const REFERENCE_BLOCK = { height: 840_000, mts: Date.UTC(2024, 3, 20, 0, 9, 27) } as const;

/** The protocol's target block time, 10 minutes; the average the estimate assumes. */
export const BLOCK_TIME_MS = 600_000;

/** The subsidy of the first blocks, 50 BTC, halved at every halving. */
const FIRST_SUBSIDY = 50;

export interface HalvingEstimate {
  /** The block height estimated at `now`. */
  readonly height: number;
  /** The height the next halving happens at. */
  readonly halvingHeight: number;
  readonly blocksLeft: number;
  /** When that block is expected (epoch ms). */
  readonly mts: number;
  /** The block subsidy now and after the halving, in BTC. */
  readonly subsidy: number;
  readonly nextSubsidy: number;
}

export function estimateHalving(now: number): HalvingEstimate {
  const height = REFERENCE_BLOCK.height + Math.max(0, Math.floor((now - REFERENCE_BLOCK.mts) / BLOCK_TIME_MS));
  const era = Math.floor(height / HALVING_INTERVAL);
  const halvingHeight = (era + 1) * HALVING_INTERVAL;
  return {
    height,
    halvingHeight,
    blocksLeft: halvingHeight - height,
    mts: REFERENCE_BLOCK.mts + (halvingHeight - REFERENCE_BLOCK.height) * BLOCK_TIME_MS,
    subsidy: FIRST_SUBSIDY / 2 ** era,
    nextSubsidy: FIRST_SUBSIDY / 2 ** (era + 1),
  };
}

/** Whole days, hours, minutes and seconds until `target` (all zero once it has passed). */
export function countdownParts(target: number, now: number): readonly [number, number, number, number] {
  const s = Math.max(0, Math.floor((target - now) / 1000));
  return [Math.floor(s / 86_400), Math.floor((s % 86_400) / 3600), Math.floor((s % 3600) / 60), s % 60];
}
