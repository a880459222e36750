/** Resolves after the event loop's next turn: a long job on the service's thread lets waiting requests in. */
export const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));
