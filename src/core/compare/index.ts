export { compareSessions, wordsOf, CHANGED_SIMILARITY, type CompareMessage, type CompareRow, type Comparison, type CompareOptions, type RowKind, type SideFigures, type TurnFigures } from './compare.js';
export { compareSide, compareText, isPrompt, callUsages } from './side.js';
export { wordDiff, wordsOf as wordTokens, similarity, type Range, type WordDiff } from './words.js';
export { alignSequences, type Run } from './align.js';
