import { style } from "@vanilla-extract/css";
import { vars } from "../theme/contract.css";

/*
 * Paper mode's one colour: a violet no live surface uses (the maintenance notice is amber, errors
 * red), the same in every theme. White on it is 7:1; the mode is also always said in words.
 */
const PAPER = "#6d28d9";
const PAPER_TEXT = "#ffffff";

export const banner = style({
  display: "flex",
  alignItems: "center",
  gap: 12,
  flexWrap: "wrap",
  padding: "6px 16px",
  background: PAPER,
  color: PAPER_TEXT,
  fontWeight: 500,
});

export const bannerText = style({ flex: "1 1 240px", minWidth: 0 });

export const badge = style({
  display: "inline-block",
  padding: "1px 8px",
  borderRadius: 4,
  border: `1px solid ${PAPER_TEXT}`,
  fontSize: 12,
  fontWeight: 700,
  letterSpacing: 0.6,
  textTransform: "uppercase",
  marginRight: 8,
});

export const bannerButton = style({
  background: PAPER_TEXT,
  color: PAPER,
  border: "none",
  borderRadius: 6,
  padding: "4px 12px",
  fontWeight: 600,
  cursor: "pointer",
  selectors: { "&:disabled": { opacity: 0.7, cursor: "default" } },
});

export const switchGroup = style({
  display: "inline-flex",
  border: `1px solid ${vars.color.border}`,
  borderRadius: 6,
  overflow: "hidden",
});

const segment = {
  border: "none",
  padding: "5px 10px",
  fontWeight: 600,
  cursor: "pointer",
  fontSize: 13,
} as const;

export const liveSegment = style({
  ...segment,
  background: "transparent",
  color: vars.color.text,
  selectors: {
    '&[aria-pressed="true"]': { background: vars.color.accent, color: vars.color.accentText, cursor: "default" },
  },
});

export const paperSegment = style({
  ...segment,
  background: "transparent",
  color: vars.color.text,
  selectors: {
    '&[aria-pressed="true"]': { background: PAPER, color: PAPER_TEXT, cursor: "default" },
  },
});

export const switchError = style({ color: vars.color.danger, fontSize: 13 });

export const actions = style({ display: "flex", gap: 8, flexWrap: "wrap", marginTop: 16 });
