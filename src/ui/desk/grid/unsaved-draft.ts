/**
 * Whether a layout edit session holds changes the saved layouts lack, for the leave-page block
 * (docs/product-rules.md#unsaved-changes): a layout being created is unsaved until saved; an edited
 * one only once its widgets or name differ from the saved copy (opening the editor and looking
 * around is not a change).
 */
import type { GridLayout } from "./layout";

export function hasUnsavedDraft(state: {
  readonly mode: "CREATING" | "EDITING" | null;
  readonly draft: GridLayout | null;
  readonly layouts: readonly GridLayout[];
}): boolean {
  const draft = state.draft;
  if (state.mode === null || draft === null) return false;
  if (state.mode === "CREATING") return true;
  const saved = state.layouts.find((l) => l.id === draft.id);
  return (
    saved === undefined || saved.name !== draft.name || JSON.stringify(saved.items) !== JSON.stringify(draft.items)
  );
}
