import type { EventName, EventPayload } from '../../src-shared/ipc/channels';

export type CoreEventListener = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

/** Fans core events out to every connected window or socket. */
export function createEventHub() {
  const listeners = new Set<CoreEventListener>();
  return {
    emit<E extends EventName>(event: E, payload: EventPayload<E>) {
      for (const listener of listeners) listener(event, payload);
    },
    subscribe(listener: CoreEventListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
export type EventHub = ReturnType<typeof createEventHub>;
