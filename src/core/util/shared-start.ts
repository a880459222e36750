/** A start of titles this long (or longer) says little a narrow line has room for: it gives way to the rest. */
export const SHARED_START = 12;

/**
 * How many characters every title starts with, up to the end of a whole word that each title continues past
 * (or ends at); 0 when that is shorter than SHARED_START or there are fewer than two titles.
 */
export function sharedStart(titles: readonly string[]): number {
  if (titles.length < 2) return 0;
  let shared = titles[0];
  for (const t of titles) {
    let k = 0;
    while (k < shared.length && k < t.length && shared[k] === t[k]) k++;
    shared = shared.slice(0, k);
  }
  let cut = shared.length;
  while (cut > 0 && !titles.every((t) => t.length === cut || /\s/.test(t[cut]))) cut--;
  while (cut > 0 && /\s/.test(shared[cut - 1])) cut--;
  return cut < SHARED_START ? 0 : cut;
}

/**
 * Titles as a narrow list shows them: the whole words every title starts with left out ("… 2025-03-16 09:12"
 * for "aider chat started at 2025-03-16 09:12") when they are long enough to fill the line, a title that is
 * nothing but them kept whole.
 */
export function distinctTitles(titles: readonly string[]): string[] {
  const cut = sharedStart(titles);
  if (cut === 0) return titles.slice();
  return titles.map((t) => (t.slice(cut).trim() === '' ? t : `… ${t.slice(cut).trim()}`));
}
