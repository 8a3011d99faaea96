import { style } from "@vanilla-extract/css";

export { muted, success } from "../ui/account/account-page.css";

/** One column no wider than the page: the form and the table never widen it past a phone's width. */
export const page = style({ display: "grid", gap: 16, maxWidth: 1100, width: "100%", minWidth: 0 });
