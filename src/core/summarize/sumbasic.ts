/**
 * SumBasic (Nenkova & Vanderwende 2005, "The impact of frequency on summarization"): the probability of each
 * content word over the text, a sentence weighed by the mean probability of its words, and once a sentence is
 * chosen the probabilities of its words squared, so that the next choice tells something not yet told.
 */

/** Function words and chat courtesies: they say nothing of what a conversation was about. */
const STOPWORDS = new Set(
  (
    "a about above after again against all also am an and any are as at be because been before being below between both but by can cannot could " +
    "did do does doing down during each few for from further had has have having he her here hers herself him himself his how i if in into is it " +
    "its itself just me more most my myself no nor not now of off on once only or other our ours ourselves out over own same she should so some " +
    "such than that the their theirs them themselves then there these they this those through to too under until up very was we were what when " +
    "where which while who whom why will with would you your yours yourself yourselves let let's i'm i'll i've i'd you're you'll you've you'd " +
    "we're we'll we've it's that's there's here's what's don't doesn't didn't isn't aren't wasn't weren't won't can't couldn't shouldn't " +
    "wouldn't haven't hasn't hadn't us one get got go going like also still already yet ok okay yes yeah sure please thanks thank hi hello " +
    "well right really maybe may might must shall"
  ).split(' '),
);

/** A word: letters and digits (any script), joined by ' . _ - / inside it, so `client.ts`, `fetch_user`, `don't` are one word each. */
const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*(?:['’._\-/][\p{L}\p{N}][\p{L}\p{M}\p{N}]*)*/gu;

/** The distinct content words of a sentence, lower-cased, in order of first use. */
export function contentWords(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(WORD)) {
    const w = m[0].toLowerCase().replace(/’/g, "'");
    if (STOPWORDS.has(w) || (w.length < 2 && !/\p{N}/u.test(w))) continue;
    out.add(w);
  }
  return [...out];
}

/**
 * SumBasic's word probabilities over some sentences, and their update when a sentence is told. A word's count
 * may be weighted by how specific it is to these sentences (`specificity`, e.g. an inverse document frequency
 * over the parts of a long range): chatter said in every part then weighs little anywhere.
 */
export class WordProbabilities {
  private readonly p = new Map<string, number>();

  /** `told`: how many times each word was told already (elsewhere in the summary); each time squares it. */
  constructor(sentences: Iterable<readonly string[]>, told?: ReadonlyMap<string, number>, specificity?: (word: string) => number) {
    let total = 0;
    for (const words of sentences) {
      for (const w of words) {
        const c = specificity ? specificity(w) : 1;
        this.p.set(w, (this.p.get(w) ?? 0) + c);
        total += c;
      }
    }
    for (const [w, c] of this.p) this.p.set(w, (c / total) ** 2 ** Math.min(told?.get(w) ?? 0, 8));
  }

  /** The mean probability of the words; a sentence without content words ("no", "~") weighs next to nothing. */
  weight(words: readonly string[]): number {
    if (words.length === 0) return 1e-12;
    let sum = 0;
    for (const w of words) sum += this.p.get(w) ?? 0;
    return sum / words.length || 1e-12;
  }

  /** A sentence was chosen: its words' probabilities are squared (SumBasic's update against redundancy). */
  tell(words: readonly string[]): void {
    for (const w of words) {
      const p = this.p.get(w);
      if (p !== undefined) this.p.set(w, p * p);
    }
  }
}
