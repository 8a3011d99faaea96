/**
 * Auth state (docs/product-rules.md#auth-state): authToken, fetching, inited, tokenInvalid. A user is logged in when
 * the token is non-empty, or, in this tab only, while an API-key session is signed in (`apiKey`, the
 * key's public id; see src/ui/session/README.md). The token lives in localStorage so every tab shares
 * it; the storage event keeps tabs in step (a logout in one tab logs out all). The session lifecycle
 * (renewal, forced logout) is src/ui/session.
 */
import { proxy } from "valtio";

export const AUTH_TOKEN_KEY = "auth_token";

export interface AuthState {
  authToken: string;
  fetching: boolean;
  inited: boolean;
  tokenInvalid: boolean;
  /** The signed-in API key's public id, "" otherwise; never stored (the secret lives in the worker). */
  apiKey: string;
}

export const auth: AuthState = proxy({
  authToken: "",
  fetching: false,
  inited: false,
  tokenInvalid: false,
  apiKey: "",
});

export function isLoggedIn(state: Pick<AuthState, "authToken"> & Partial<Pick<AuthState, "apiKey">>): boolean {
  return state.authToken !== "" || (state.apiKey ?? "") !== "";
}

function readToken(storage: Storage | undefined): string {
  try {
    return storage?.getItem(AUTH_TOKEN_KEY) ?? "";
  } catch {
    return "";
  }
}

export function initAuth(win: Window): () => void {
  auth.authToken = readToken(win.localStorage);
  auth.inited = true;
  const onStorage = (e: StorageEvent): void => {
    if (e.key === AUTH_TOKEN_KEY || e.key === null) auth.authToken = readToken(win.localStorage);
  };
  win.addEventListener("storage", onStorage);
  return () => win.removeEventListener("storage", onStorage);
}

export function storeToken(win: Window, token: string): void {
  auth.authToken = token;
  auth.tokenInvalid = false;
  try {
    if (token === "") win.localStorage.removeItem(AUTH_TOKEN_KEY);
    else win.localStorage.setItem(AUTH_TOKEN_KEY, token);
  } catch {
    // Private mode without storage: the session lasts for this tab only.
  }
}
