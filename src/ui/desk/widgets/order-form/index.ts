export { appOrderFormDeps, OrderForm, OrderFormPanel, orderFormWidget } from "./OrderForm";
export type { OrderFormDeps, OrderFormPanelProps } from "./OrderForm";
export { focusOrderForm } from "./focus";
export {
  buildOrderRequest,
  exchangeType,
  ORDER_KINDS,
  type OrderFormValues,
  type OrderKind,
  type TradeContext,
} from "./order-model";
export { validateOrder, type Issue, type IssueCode, type Validation, type ValidationEnv } from "./validate";
