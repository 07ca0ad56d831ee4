/**
 * What a container keeps between invocations (a runtime: a pool, a service, a deliverer), opened
 * on the FIRST invocation rather than at the container's start, so a bad variable is answered and
 * logged instead of failing the start, and reused by every later one.
 *
 * An opening that fails is not kept: the NEXT invocation tries again. An operator who fixes the
 * function's environment gets new containers anyway, and a database that was briefly unreachable
 * is reached on the next invocation rather than never. Concurrent first invocations (the local
 * runner can send them) share one opening.
 */
export interface RuntimeHolder<T> {
  /** The runtime, opened now if it is not yet (or its last opening failed). */
  get(): Promise<T>;
  /** Closes what is open (tests and the local runner; Lambda itself just freezes the process). */
  close(): Promise<void>;
}

export function holdRuntime<T extends { close(): Promise<void> }>(open: () => Promise<T>): RuntimeHolder<T> {
  let opening: Promise<T> | undefined;
  let opened: T | undefined;
  return {
    get: () => {
      opening ??= open().then(
        (value) => {
          opened = value;
          return value;
        },
        (error: unknown) => {
          opening = undefined;
          throw error;
        },
      );
      return opening;
    },
    close: async () => {
      // An opening that failed has nothing to close; the invocation that waited for it logged why.
      const current = opened ?? (await opening?.catch(() => undefined));
      opened = undefined;
      opening = undefined;
      await current?.close();
    },
  };
}
