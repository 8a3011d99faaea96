import { useEffect, useId, useRef, type ReactNode } from "react";
import * as css from "./api-keys.css";

/**
 * A modal dialog on the native `<dialog>` (showModal: the page behind is inert, focus stays inside,
 * Escape closes — by `onClose`, so the owner's state stays the truth). Its content is mounted only
 * while it is open, so a secret shown in it leaves the DOM when it closes.
 */
export function Modal({
  open,
  title,
  onClose,
  children,
  testId,
}: {
  readonly open: boolean;
  readonly title: ReactNode;
  readonly onClose: () => void;
  readonly children: ReactNode;
  readonly testId?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className={css.dialog}
      aria-labelledby={titleId}
      data-testid={testId}
      onCancel={(e) => {
        // React hands a nested dialog's cancel (Escape) on to the dialogs around it: only this
        // dialog's own closes it.
        if (e.target !== e.currentTarget) return;
        e.preventDefault();
        onClose();
      }}
    >
      {open && (
        <>
          <h2 id={titleId} className={css.dialogTitle}>
            {title}
          </h2>
          <div className={css.dialogBody}>{children}</div>
        </>
      )}
    </dialog>
  );
}
