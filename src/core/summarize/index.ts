export { SummarizerError, type Summarizer, type SummarizeOptions, type SummarizerErrorCode } from './types.js';
export { OpenAICompatibleSummarizer, type OpenAICompatibleOptions } from './openai.js';
export { ExtractiveSummarizer, TextSummarizer, defaultSummaryBudget, type ExtractiveOptions } from './offline.js';
export { summaryItemOf, summaryItemOfView, type SummaryItem } from './summary-items.js';
export { summariesForPlan } from './summarize-plan.js';
export { transcript, SUMMARY_INSTRUCTIONS } from './transcript.js';
export { summarizerFrom, type SummarizerChoice, type SummarizerContext } from './summarizer-from.js';
