export { derivStatusWidget, DerivStatusPanel, type StatusSource } from "./DerivStatusWidget";
