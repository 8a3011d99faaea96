import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "../../theme/contract.css";

/** Written by PhoneDesk from `visualViewport.height` (the on-screen keyboard shrinks it). */
export const VIEWPORT_HEIGHT_PROPERTY = "--desk-phone-vh";

const TABS_HEIGHT = 44;

export const phone = style({ display: "flex", flexDirection: "column", gap: 6 });

export const tabs = style({
  // Stays at the top while the page scrolls to a panel: switching never means scrolling back up.
  position: "sticky",
  top: 0,
  zIndex: 3,
  display: "flex",
  overflowX: "auto",
  // The tabs scroll sideways when a locale's words do not fit; no bar under them on a phone.
  scrollbarWidth: "none",
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 6,
});

export const tab = style({
  flex: "1 0 auto",
  minHeight: TABS_HEIGHT,
  padding: "0 12px",
  border: "none",
  borderBottom: "2px solid transparent",
  background: "transparent",
  color: vars.color.textMuted,
  font: "inherit",
  fontSize: 14,
  fontWeight: 600,
  whiteSpace: "nowrap",
  cursor: "pointer",
  selectors: {
    '&[aria-selected="true"]': { color: vars.color.text, borderBottomColor: vars.color.accent },
    "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: -2 },
  },
});

export const panel = style({
  // What the visual viewport leaves under the sticky tabs; 100dvh before the first measure.
  height: `calc(var(${VIEWPORT_HEIGHT_PROPERTY}, 100dvh) - ${TABS_HEIGHT + 12}px)`,
  minHeight: 320,
  display: "flex",
  flexDirection: "column",
  overflow: "hidden",
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 6,
  // The widgets fill their container (height 100 %), as a grid cell gives them.
  selectors: { "&[hidden]": { display: "none" } },
});

globalStyle(`${panel} > *`, { flex: "1 1 auto", minHeight: 0 });

export const formPanel = style([panel, { minHeight: 200 }]);

// iOS zooms the page into any focused field under 16 px; the desktop form's 13 px would do that on
// every tap. Labels stay above their fields and visible while typing.
globalStyle(`${formPanel} input, ${formPanel} select, ${formPanel} textarea`, { fontSize: 16 });
globalStyle(`${formPanel} button`, { minHeight: 40 });
globalStyle(`${formPanel} label`, { fontSize: 13 });

export const stack = style({ display: "flex", flexDirection: "column", overflowY: "auto", gap: 6 });

export const stackItem = style({ flex: "0 0 auto", display: "flex", flexDirection: "column", minHeight: 0 });

export const stackTitle = style({
  margin: 0,
  padding: "6px 10px",
  fontSize: 13,
  fontWeight: 600,
  color: vars.color.textMuted,
  borderBottom: `1px solid ${vars.color.border}`,
  background: vars.color.surfaceRaised,
});

// Each account table keeps a table's height of its own; the panel scrolls between them.
export const stackBody = style({ height: 340, position: "relative" });
