import { style } from "@vanilla-extract/css";
import { vars } from "../../../theme/contract.css";
import { badge } from "./tables.css";

/** The near-liquidation flag: the danger colour and a word, never the colour alone. */
export const warningBadge = style([
  badge,
  { color: vars.color.danger, borderColor: vars.color.danger, fontWeight: 600, background: "transparent" },
]);

export const actions = style({ display: "inline-flex", gap: 4, whiteSpace: "nowrap" });
