export { ENCODINGS, isEncodingName, isKnownModel, resolveEncoding, type EncodingChoice, type EncodingName } from './encoding.js';
export { Tokenizer, getTokenizer, tokenizerFor, codePointBoundaries } from './tokenizer.js';
export { chatTokenEstimate } from './chat-estimate.js';
