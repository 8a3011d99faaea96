import { describe, expect, it } from "vitest";
import { interceptTarget, type AnchorFacts, type ClickFacts, type LocationFacts } from "./links";

const here: LocationFacts = { origin: "https://desk.example", pathname: "/about", search: "" };
const click: ClickFacts = {
  button: 0,
  metaKey: false,
  ctrlKey: false,
  shiftKey: false,
  altKey: false,
  defaultPrevented: false,
};
const anchor = (href: string | null, extra: Partial<AnchorFacts> = {}): AnchorFacts => ({
  href,
  target: "",
  hasDownload: false,
  rel: "",
  ...extra,
});

describe("link interception", () => {
  it("handles a plain internal link in the app", () => {
    expect(interceptTarget(click, anchor("https://desk.example/features?x=1#a"), here)).toBe("/features?x=1#a");
    expect(interceptTarget(click, anchor("/features"), here)).toBe("/features");
    expect(interceptTarget(click, anchor("https://desk.example/index.html"), here)).toBe("/index.html");
  });

  it.each([
    ["meta", { metaKey: true }],
    ["ctrl", { ctrlKey: true }],
    ["shift", { shiftKey: true }],
    ["alt", { altKey: true }],
    ["middle button", { button: 1 }],
    ["already handled", { defaultPrevented: true }],
  ])("leaves a %s click to the browser", (_name, extra) => {
    expect(interceptTarget({ ...click, ...extra }, anchor("/features"), here)).toBeNull();
  });

  it("leaves downloads, other targets, rel=external and anchors without href to the browser", () => {
    expect(interceptTarget(click, anchor("/report", { hasDownload: true }), here)).toBeNull();
    expect(interceptTarget(click, anchor("/features", { target: "_blank" }), here)).toBeNull();
    expect(interceptTarget(click, anchor("/features", { target: "other" }), here)).toBeNull();
    expect(interceptTarget(click, anchor("/features", { target: "_self" }), here)).toBe("/features");
    expect(interceptTarget(click, anchor("/features", { rel: "noopener external" }), here)).toBeNull();
    expect(interceptTarget(click, anchor(null), here)).toBeNull();
  });

  it("leaves other hosts, other schemes and other ports to the browser", () => {
    expect(interceptTarget(click, anchor("https://other.example/features"), here)).toBeNull();
    expect(interceptTarget(click, anchor("http://desk.example/features"), here)).toBeNull();
    expect(interceptTarget(click, anchor("https://desk.example:8443/features"), here)).toBeNull();
    expect(interceptTarget(click, anchor("mailto:support@desk.example"), here)).toBeNull();
  });

  it("leaves file-like paths to the browser", () => {
    expect(interceptTarget(click, anchor("/docs/terms.pdf"), here)).toBeNull();
    expect(interceptTarget(click, anchor("/sitemap.xml"), here)).toBeNull();
    expect(interceptTarget(click, anchor("/assets/app.js"), here)).toBeNull();
  });

  it("leaves same-page hashes to the browser but handles a hash on another page", () => {
    expect(interceptTarget(click, anchor("/about#team"), here)).toBeNull();
    expect(interceptTarget(click, anchor("/features#team"), here)).toBe("/features#team");
    expect(interceptTarget(click, anchor("/about?tab=2#team"), here)).toBe("/about?tab=2#team");
  });
});
