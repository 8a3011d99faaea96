/**
 * The `filter` of a socket `auth` (docs/protocol.md#auth-options): which account traffic reaches that socket.
 * Families and the channel-0 types each covers (server/README.md lists the same):
 *
 * - `trading` — orders `os on ou oc`, positions `ps pn pu pc`, own trades `te tu`, margin info
 *   `miu`; `trading-tSYMBOL` narrows them to one pair (a `miu` "base" record, which is for the whole
 *   account, goes with any trading filter).
 * - `funding` — offers `fos fon fou foc`, credits `fcs fcn fcu fcc`, loans `fls fln flu flc`, own
 *   funding trades `fte ftu`, funding info `fiu`; `funding-fSYMBOL` narrows them to one currency.
 * - `wallet` — `ws wu`; `wallet-TYPE-CCY` (e.g. `wallet-exchange-BTC`) narrows them to one wallet.
 * - `balance` — `bu`.
 * - `notify` — notifications `n`.
 * - `algo` — algorithmic orders, which this exchange does not have: accepted, covers nothing.
 *
 * No filter, an empty one, or one with no entry this server knows: everything. Snapshots (`os`,
 * `ps`, `ws`, `fos`, `fcs`, `fls`) keep the frame and drop the records outside a narrowed filter.
 */

/** family → null (the whole family) or the symbols / wallets it is narrowed to. */
export type AccountFilter = ReadonlyMap<string, ReadonlySet<string> | null>;

const FAMILIES = ["trading", "funding", "wallet", "balance", "notify", "algo"] as const;

/** Channel-0 type → [family, index of the symbol (or wallet type) in its record, or -1: none]. */
const TYPES: Readonly<Record<string, readonly [string, number]>> = {
  ...Object.fromEntries(["os", "on", "ou", "oc"].map((t) => [t, ["trading", 3] as const])),
  ...Object.fromEntries(["ps", "pn", "pu", "pc"].map((t) => [t, ["trading", 0] as const])),
  ...Object.fromEntries(["te", "tu"].map((t) => [t, ["trading", 1] as const])),
  miu: ["trading", 1],
  ...Object.fromEntries(
    ["fos", "fon", "fou", "foc", "fcs", "fcn", "fcu", "fcc", "fls", "fln", "flu", "flc", "fte", "ftu", "fiu"].map(
      (t) => [t, ["funding", 1] as const],
    ),
  ),
  ws: ["wallet", 0],
  wu: ["wallet", 0],
  bu: ["balance", -1],
  n: ["notify", -1],
};

const SNAPSHOTS = new Set(["os", "ps", "ws", "fos", "fcs", "fls"]);

/** The filter an `auth` asks for, or null for everything. */
export function parseAccountFilter(raw: unknown): AccountFilter | null {
  if (!Array.isArray(raw)) return null;
  const out = new Map<string, Set<string> | null>();
  for (const entry of raw) {
    if (typeof entry !== "string") continue;
    const dash = entry.indexOf("-");
    const family = dash < 0 ? entry : entry.slice(0, dash);
    if (!(FAMILIES as readonly string[]).includes(family)) continue;
    if (dash < 0 || family === "balance" || family === "notify" || family === "algo") {
      out.set(family, null);
      continue;
    }
    const narrowed = out.get(family);
    if (narrowed === null) continue;
    (narrowed ?? out.set(family, new Set()).get(family))?.add(entry.slice(dash + 1));
  }
  return out.size > 0 ? out : null;
}

/** The key a record is narrowed by: its symbol, or `TYPE-CCY` for a wallet; null: account-wide. */
function recordKey(type: string, record: unknown, index: number): string | null {
  if (!Array.isArray(record)) return null;
  if (type === "ws" || type === "wu") return `${String(record[0])}-${String(record[1])}`;
  // Margin and funding info are ["sym", SYMBOL, …] or the account-wide ["base", …].
  if ((type === "miu" || type === "fiu") && record[0] !== "sym") return null;
  const key: unknown = record[index];
  return typeof key === "string" ? key : null;
}

/** The frame's payload as this filter lets it through (a snapshot narrowed), or undefined: not sent. */
export function filterAccountFrame(filter: AccountFilter | null, type: string, payload: unknown): unknown {
  if (filter === null) return payload;
  const known = TYPES[type];
  if (!known) return undefined;
  const [family, index] = known;
  if (!filter.has(family)) return undefined;
  const only = filter.get(family);
  if (!only) return payload;
  const passes = (record: unknown): boolean => {
    const key = recordKey(type, record, index);
    return key === null || only.has(key);
  };
  if (SNAPSHOTS.has(type)) return Array.isArray(payload) ? payload.filter(passes) : payload;
  return passes(payload) ? payload : undefined;
}
