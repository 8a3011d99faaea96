/**
 * The newest view of a stream, kept outside React (HOUSE-STYLE 7): the subscription callback stores
 * it and notifies painters, which write the DOM or a canvas directly. Nothing re-renders per view.
 */
export class ViewBox<V> {
  #view: V | null = null;
  readonly #listeners = new Set<(view: V | null) => void>();

  get view(): V | null {
    return this.#view;
  }

  set(view: V | null): void {
    this.#view = view;
    for (const l of this.#listeners) l(view);
  }

  subscribe(listener: (view: V | null) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
