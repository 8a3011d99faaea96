/**
 * The polite live region that tells screen-reader users a client-side navigation happened
 * ("Navigated to" + page title, docs/product-rules.md#navigation). Full page loads announce themselves; only
 * in-app navigations go through here.
 */
import { proxy } from "valtio";

export const announcement = proxy({ text: "", seq: 0 });

export function announce(text: string): void {
  // A changing sequence number lets the same text be announced twice in a row.
  announcement.text = text;
  announcement.seq++;
}
