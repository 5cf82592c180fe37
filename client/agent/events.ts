/** A tiny typed event emitter for the run handle. A throwing listener never breaks the run. */
export type Listener<T> = (payload: T) => void;

export interface Emitter<M> {
  on<E extends keyof M>(event: E, fn: Listener<M[E]>): () => void;
  emit<E extends keyof M>(event: E, payload: M[E]): void;
  count(event: keyof M): number;
}

export function createEmitter<M>(): Emitter<M> {
  const listeners = new Map<keyof M, Set<Listener<never>>>();
  return {
    on(event, fn) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(fn as Listener<never>);
      return () => void set!.delete(fn as Listener<never>);
    },
    emit(event, payload) {
      for (const fn of [...(listeners.get(event) ?? [])]) {
        try {
          (fn as Listener<typeof payload>)(payload);
        } catch (e) {
          console.error('pagehand: an event listener threw', e);
        }
      }
    },
    count: (event) => listeners.get(event)?.size ?? 0,
  };
}
