import { style } from "@vanilla-extract/css";
import { form as baseForm } from "./pages.css";

/** The report form: the page form's rhythm, wide enough for a description of a few paragraphs. */
export const form = style([baseForm, { maxWidth: 600 }]);
