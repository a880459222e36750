export { compareSessions, wordsOf, CHANGED_SIMILARITY, type CompareMessage, type CompareRow, type Comparison, type CompareOptions, type RowKind, type SideFigures, type TurnFigures } from './compare.js';
export { compareSide, compareText, callGroups, isPrompt, type SideOptions } from './side.js';
export { wordDiff, wordPieces, wordsOf as wordTokens, similarity, type Range, type WordDiff, type WordPiece } from './words.js';
export { alignSequences, type Run } from './align.js';
