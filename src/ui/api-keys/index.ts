export * as apiKeysCss from "./api-keys.css";
export { KeyFormFields, SCOPE_LABELS } from "./KeyFormFields";
export { Modal } from "./Modal";
export {
  ApiKeysModel,
  emptyMatrix,
  MANAGE_NEEDS,
  missingPermissions,
  KEY_SCOPES,
  type CallError,
  type FormErrors,
  type KeyForm,
  type KeyView,
} from "./model";
