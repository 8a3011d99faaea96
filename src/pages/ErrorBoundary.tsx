import { Component, type ErrorInfo, type ReactNode } from "react";
import { log } from "../ui/log";
import { ErrorPage } from "./ErrorPage";

interface State {
  readonly failed: boolean;
}

/** A page that throws while rendering shows the error page instead of a blank screen. */
export class ErrorBoundary extends Component<{ readonly children: ReactNode; readonly resetKey: string }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    log.error("page crashed", error, info.componentStack);
  }

  override componentDidUpdate(prev: { readonly resetKey: string }): void {
    // Navigating away from a crashed page gives the next page a fresh start.
    if (prev.resetKey !== this.props.resetKey && this.state.failed) this.setState({ failed: false });
  }

  override render(): ReactNode {
    return this.state.failed ? <ErrorPage /> : this.props.children;
  }
}
