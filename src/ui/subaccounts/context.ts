/**
 * The sub-account context kept in browser storage (docs/product-rules.md#sub-accounts): which
 * account of the group this browser acts as, and whether that context is read-only. The token
 * itself lives where every session token lives (src/ui/auth.ts); this says what it is for the
 * header and the pages. A change of the selection reloads every tab (docs/product-rules.md#session-and-token).
 */
export const CONTEXT_KEY = "subaccount_context";

export interface AccountContext {
  /** The account acted as. */
  readonly id: number;
  readonly username: string;
  readonly masterId: number;
  readonly readOnly: boolean;
}

export function loadContext(win: Window): AccountContext | null {
  let raw: string | null;
  try {
    raw = win.localStorage.getItem(CONTEXT_KEY);
  } catch {
    return null;
  }
  if (raw === null) return null;
  try {
    const v = JSON.parse(raw) as Record<string, unknown>;
    if (
      typeof v["id"] === "number" &&
      typeof v["username"] === "string" &&
      typeof v["masterId"] === "number" &&
      typeof v["readOnly"] === "boolean"
    )
      return { id: v["id"], username: v["username"], masterId: v["masterId"], readOnly: v["readOnly"] };
  } catch {
    // A damaged entry is no context.
  }
  return null;
}

/** Stores the context switched to (null: back to the master). */
export function saveContext(win: Window, context: AccountContext | null): void {
  try {
    if (context === null) win.localStorage.removeItem(CONTEXT_KEY);
    else win.localStorage.setItem(CONTEXT_KEY, JSON.stringify(context));
  } catch {
    // Without storage the header cannot say it; the exchange still acts as the token's account.
  }
}

/**
 * The context that holds for the signed-in user `userId`: the stored one when it is that
 * account's (a stale entry — another login, an ended context — counts as none).
 */
export function contextFor(win: Window, userId: number | null): AccountContext | null {
  const c = loadContext(win);
  return c !== null && c.id === userId ? c : null;
}

/** Another tab switched accounts: this one reloads too, so no page shows one account's data as another's. */
export function watchContext(win: Window): () => void {
  const onStorage = (e: StorageEvent): void => {
    if (e.key === CONTEXT_KEY) win.location.reload();
  };
  win.addEventListener("storage", onStorage);
  return () => win.removeEventListener("storage", onStorage);
}
