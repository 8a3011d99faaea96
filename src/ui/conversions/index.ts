/**
 * Currency conversions and the currency-agreement dialog (docs/product-rules.md#conversions): the
 * calls (`api.ts`), the dialog's framework-free model (`model.ts`) and the dialogs.
 */
export { ConversionDialog, isConvertibleWallet, type ConversionStart } from "./ConversionDialog";
export { rowAction as convertRowAction } from "./conversions.css";
