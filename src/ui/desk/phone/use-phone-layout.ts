/** Whether the desk shows its phone layout: a React adapter over `matchMedia(PHONE_QUERY)`. */
import { useSyncExternalStore } from "react";
import { PHONE_QUERY } from "./phone-tabs";

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(PHONE_QUERY);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

const matches = (): boolean => window.matchMedia(PHONE_QUERY).matches;
// Rendered outside a browser (prerender, Node tests): the desktop grid, the layout of most desks.
const onServer = (): boolean => false;

export function usePhoneLayout(): boolean {
  return useSyncExternalStore(subscribe, matches, onServer);
}
