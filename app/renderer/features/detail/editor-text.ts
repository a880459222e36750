import { useDeferredValue, useMemo } from 'react';

/** Rows for a textarea showing `text`: its lines, within [min, max], counted without splitting it (12 MB drafts). */
export function textareaRows(text: string, min: number, max: number): number {
  let lines = 1;
  for (let at = text.indexOf('\n'); at !== -1 && lines < max; at = text.indexOf('\n', at + 1)) lines++;
  return Math.min(max, Math.max(min, lines + 1));
}

/**
 * Put on an editor's textarea as its ref: it opens with the caret at the end of the text, where a user goes on
 * typing. A module-level function, so React calls it once, when the textarea mounts.
 */
export function caretAtEnd(el: HTMLTextAreaElement | null): void {
  el?.setSelectionRange(el.value.length, el.value.length);
}

/** What is wrong with `text` as JSON for `check` (undefined: nothing). */
export function jsonError(text: string, check: (value: unknown) => string | undefined = () => undefined): string | undefined {
  try {
    return check(JSON.parse(text));
  } catch (e) {
    return (e as Error).message;
  }
}

/**
 * jsonError as the user types, checked on a deferred copy of the draft: typing in a record of many megabytes
 * does not wait for a parse per keystroke. Apply checks the draft itself again.
 */
export function useJsonError(text: string, check?: (value: unknown) => string | undefined, skip = false): string | undefined {
  const deferred = useDeferredValue(text);
  return useMemo(() => (skip ? undefined : jsonError(deferred, check)), [deferred, skip, check]);
}
