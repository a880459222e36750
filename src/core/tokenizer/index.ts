export { ENCODINGS, isEncodingName, isKnownModel, resolveEncoding, type EncodingChoice, type EncodingName } from './encoding.js';
export { Tokenizer, getTokenizer, tokenizerFor, codePointBoundaries, keepCountsIn, type PersistentCounts } from './tokenizer.js';
export { CountCache } from './count-cache.js';
export { chatTokenEstimate } from './chat-estimate.js';
