/**
 * Wires the navigation rules into the document: client-side handling of internal link clicks and
 * prefetch of visible links. The rules themselves are pure (src/ui/routing); this is the DOM glue.
 */
import { matchRoute, type Parser } from "wouter";
import { navigate } from "wouter/use-browser-location";
import { appScheduler } from "../ui/scheduler";
import { interceptTarget } from "../ui/routing/links";
import { mayLeaveFor } from "../ui/shell/leave-guard";
import { normalizePath } from "../ui/routing/paths";
import { prefetchAllowed, PrefetchQueue } from "../ui/routing/prefetch";
import { pageDataFor } from "./page-host";
import type { RouteDef } from "./routes";

export function installLinkInterception(doc: Document): () => void {
  const onClick = (e: MouseEvent): void => {
    const el = e.target instanceof Element ? e.target.closest("a") : null;
    if (!el) return;
    const loc = doc.defaultView?.location;
    if (!loc) return;
    const to = interceptTarget(
      e,
      {
        href: el.hasAttribute("href") ? el.href : null,
        target: el.target,
        hasDownload: el.hasAttribute("download"),
        rel: el.rel,
      },
      { origin: loc.origin, pathname: loc.pathname, search: loc.search },
    );
    if (to === null) return;
    e.preventDefault();
    // Unsaved changes on the page: the question first (LeaveDialog goes on when told to).
    if (!mayLeaveFor(to)) return;
    navigate(to);
    const hash = new URL(to, loc.origin).hash;
    if (hash) doc.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
    else doc.defaultView?.scrollTo(0, 0);
  };
  doc.addEventListener("click", onClick);
  return () => doc.removeEventListener("click", onClick);
}

interface NetworkInformationLike {
  readonly effectiveType?: string;
  readonly saveData?: boolean;
}

/** Watches links as they scroll into view and prefetches their pages in batches. */
export function installPrefetch(doc: Document, routes: readonly RouteDef[], parser: Parser): () => void {
  const nav = doc.defaultView?.navigator;
  const conn = (nav as (Navigator & { connection?: NetworkInformationLike }) | undefined)?.connection;
  if (
    !nav ||
    !prefetchAllowed({ effectiveType: conn?.effectiveType, saveData: conn?.saveData, userAgent: nav.userAgent })
  ) {
    return () => {};
  }
  const origin = doc.defaultView?.location.origin ?? "";
  const timers = appScheduler.child();
  const queue = new PrefetchQueue((path) => {
    const def = routes.find((r) => matchRoute(parser, r.path, path)[0]);
    if (!def) return;
    void def.load().catch(() => undefined);
    if (def.pageData) void pageDataFor(path);
  }, timers);
  queue.markLoaded(normalizePath(doc.defaultView?.location.pathname ?? "/"));
  const io = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting || !(entry.target instanceof HTMLAnchorElement)) continue;
      io.unobserve(entry.target);
      const url = new URL(entry.target.href, origin);
      if (url.origin === origin) queue.add(normalizePath(url.pathname));
    }
  });
  const observeAll = (): void => {
    for (const a of doc.querySelectorAll("a[href]")) io.observe(a);
  };
  observeAll();
  const mo = new MutationObserver(observeAll);
  mo.observe(doc.body, { childList: true, subtree: true });
  queue.start();
  return () => {
    mo.disconnect();
    io.disconnect();
    queue.stop();
    timers.dispose();
  };
}
