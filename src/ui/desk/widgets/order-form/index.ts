export { OrderFormPanel, orderFormWidget } from "./OrderForm";
export type { OrderFormDeps } from "./OrderForm";
export { focusOrderForm } from "./focus";
