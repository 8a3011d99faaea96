export interface Progress {
  begin(what: string): void;
  advance(weight?: number): void;
  text(): string;
  end(): void;
}
export function formatDuration(ms: number): string;
export function createProgress(
  label: string,
  totalWeight: number,
  options?: { out?: NodeJS.WritableStream & { isTTY?: boolean }; now?: () => number; quiet?: boolean },
): Progress;
