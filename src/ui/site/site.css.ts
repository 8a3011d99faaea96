/**
 * The look of the public site's content pages (about, policies, guides, live pages' prose): one
 * column of readable width, with the table of contents beside it on wide screens and above it on
 * phones. Sizes follow src/pages/pages.css.ts so these pages sit beside the older ones unnoticed.
 */
import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "../theme/contract.css";

const WIDE = "screen and (min-width: 1024px)";
const PHONE = "screen and (max-width: 560px)";

export const page = style({
  display: "grid",
  gridTemplateColumns: "minmax(0, 1fr)",
  gridTemplateAreas: '"head" "toc" "body"',
  columnGap: 48,
  padding: "24px 0 40px",
  "@media": {
    [WIDE]: {
      gridTemplateColumns: "minmax(0, 760px) 220px",
      gridTemplateAreas: '"head toc" "body toc"',
      gridTemplateRows: "auto 1fr",
      justifyContent: "space-between",
    },
  },
});
/** A page without a table of contents keeps the single readable column. */
export const pageNoToc = style([
  page,
  { "@media": { [WIDE]: { gridTemplateColumns: "minmax(0, 760px)", gridTemplateAreas: '"head" "body"' } } },
]);
export const body = style({ minWidth: 0, gridArea: "body" });
export const header = style({ marginBottom: 24, gridArea: "head", minWidth: 0 });
export const h1 = style({
  fontSize: 34,
  lineHeight: 1.15,
  margin: "0 0 16px",
  overflowWrap: "anywhere",
  "@media": { [PHONE]: { fontSize: 28 } },
});
export const lead = style({ fontSize: 17, lineHeight: 1.5, color: vars.color.textMuted, margin: "0 0 20px" });
export const actions = style({ display: "flex", gap: 12, flexWrap: "wrap", alignItems: "center" });

export const section = style({ marginTop: 32 });
export const h2 = style({
  fontSize: 22,
  lineHeight: 1.25,
  margin: "0 0 10px",
  // The sticky header must not cover a heading reached through its anchor.
  scrollMarginTop: 72,
});

/** Running text: paragraphs and lists inside a section. */
export const prose = style({ lineHeight: 1.6 });
globalStyle(`${prose} p`, { margin: "0 0 12px" });
globalStyle(`${prose} ul, ${prose} ol`, { margin: "0 0 12px", paddingInlineStart: 22 });
globalStyle(`${prose} li`, { marginBottom: 6 });
globalStyle(`${prose} a`, { color: vars.color.accent });

export const toc = style({
  gridArea: "toc",
  fontSize: 14,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 10,
  padding: "12px 14px",
  margin: "0 0 8px",
  background: vars.color.surface,
  alignSelf: "start",
  // On phones it sits between the lead and the first section; on wide screens it stays in view beside the text.
  "@media": { [WIDE]: { position: "sticky", top: 80, margin: 0 } },
});
export const tocTitle = style({ fontSize: 14, margin: "0 0 8px", color: vars.color.textMuted });
export const tocList = style({ listStyle: "none", margin: 0, padding: 0, display: "grid", gap: 6 });
export const tocLink = style({
  color: vars.color.text,
  textDecoration: "none",
  selectors: { "&:hover": { textDecoration: "underline" } },
});

export const grid = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fit, minmax(220px, 1fr))",
  gap: 16,
  margin: "12px 0",
});
export const card = style({
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 10,
  padding: 16,
  minWidth: 0,
});
export const cardList = style([grid, { listStyle: "none", padding: 0 }]);
// Inside a section's running text the list indent would otherwise apply to the cards too.
globalStyle(`${prose} ${cardList}`, { paddingInlineStart: 0 });
export const cardTitle = style({ margin: "0 0 6px", fontSize: 16 });
export const muted = style({ color: vars.color.textMuted });

export const callout = style({
  border: `1px solid ${vars.color.accent}`,
  background: vars.color.surfaceRaised,
  padding: "12px 14px",
  borderRadius: 8,
  margin: "12px 0",
});
export const calloutWarning = style([callout, { borderColor: vars.color.warning }]);

export const faq = style({ display: "grid", gap: 8, margin: "12px 0" });
export const faqItem = style({
  border: `1px solid ${vars.color.border}`,
  borderRadius: 8,
  background: vars.color.surface,
});
export const faqQuestion = style({
  cursor: "pointer",
  padding: "12px 14px",
  fontWeight: 600,
  listStylePosition: "inside",
});
export const faqAnswer = style([prose, { padding: "0 14px 12px" }]);

export const facts = style({
  display: "grid",
  gridTemplateColumns: "minmax(120px, max-content) 1fr",
  gap: "8px 16px",
  margin: "12px 0",
  "@media": { [PHONE]: { gridTemplateColumns: "1fr" } },
});
export const factTerm = style({ color: vars.color.textMuted, fontWeight: 600 });
export const factValue = style({ margin: 0, overflowWrap: "anywhere" });

export const related = style({ marginTop: 40, paddingTop: 20, borderTop: `1px solid ${vars.color.border}` });
export const relatedList = style([grid, { listStyle: "none", padding: 0 }]);
export const relatedLink = style([
  card,
  {
    display: "block",
    textDecoration: "none",
    color: vars.color.text,
    selectors: { "&:hover": { borderColor: vars.color.accent } },
  },
]);
export const relatedDescription = style({ display: "block", color: vars.color.textMuted, fontSize: 14, marginTop: 4 });
