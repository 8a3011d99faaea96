/**
 * A modal on the native <dialog>: focus is trapped and restored by the browser, Escape closes it,
 * and the backdrop is the top layer's, so no z-index fights with the grid.
 */
import { useEffect, useRef, type ReactNode } from "react";
import * as css from "./desk.css";

export function Modal(props: {
  readonly open: boolean;
  readonly title: string;
  readonly onClose: () => void;
  readonly children: ReactNode;
  readonly testId?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const { open, onClose } = props;
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (open && !el.open) el.showModal();
    if (!open && el.open) el.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className={css.dialog}
      aria-label={props.title}
      data-testid={props.testId}
      onClose={onClose}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      {open && (
        <>
          <h2 className={css.dialogTitle}>{props.title}</h2>
          {props.children}
        </>
      )}
    </dialog>
  );
}
