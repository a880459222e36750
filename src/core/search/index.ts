export { forEachWord, queryTerms, textMatches, wordsOf, MAX_WORD } from './words.js';
export { Dictionary } from './dictionary.js';
export { buildSegment, type Segment, type SegmentSource, type SearchableMessage } from './segment.js';
export { SearchIndex, comparePaths, type KeptIndex, type IndexAnswer, type IndexHit, type IndexQuery } from './search-index.js';
export { bestTermMatch, firstRegexMatch, firstTermMatch, termMatches, snippetAround, type Snippet } from './snippet.js';
export { searchableMessages } from './searchable.js';
export { matcherOf, readableSnippet, searchDocument, searchTree, type Matcher, type SearchHit, type SearchOptions, type TreeSearch } from './scan.js';
