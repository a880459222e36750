import type { Message } from '../message.js';
import { SUMMARY_INSTRUCTIONS, transcript } from './transcript.js';
import { SummarizerError, type SummarizeOptions, type Summarizer } from './types.js';

export interface OpenAICompatibleOptions {
  /** e.g. https://api.openai.com/v1, http://localhost:11434/v1 (Ollama), http://localhost:8080/v1 (llama.cpp). */
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs?: number;
  instructions?: string;
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? flat.slice(0, 199) + '…' : flat;
}

/** Chat-completions client: works with OpenAI, Ollama, llama.cpp server, vLLM and anything speaking that protocol. */
export class OpenAICompatibleSummarizer implements Summarizer {
  readonly name: string;
  private readonly options: OpenAICompatibleOptions;

  constructor(options: OpenAICompatibleOptions) {
    if (!/^https?:\/\//.test(options.baseUrl)) throw new SummarizerError('http', `the base URL must start with http:// or https://, not ${JSON.stringify(options.baseUrl)}`);
    this.options = options;
    this.name = `${options.model} at ${options.baseUrl}`;
  }

  async summarize(messages: readonly Message[], options: SummarizeOptions = {}): Promise<string> {
    const { baseUrl, apiKey, model, timeoutMs = 60_000, instructions = SUMMARY_INSTRUCTIONS } = this.options;
    const url = baseUrl.replace(/\/+$/, '') + '/chat/completions';
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
        body: JSON.stringify({
          model,
          temperature: 0,
          messages: [
            { role: 'system', content: instructions },
            { role: 'user', content: transcript(messages) },
          ],
        }),
        signal,
      });
    } catch (e) {
      if (timeout.aborted) throw new SummarizerError('timeout', `the summary request to ${url} timed out after ${Math.round(timeoutMs / 1000)} s`);
      if (options.signal?.aborted) throw new SummarizerError('cancelled', 'the summary request was cancelled');
      throw new SummarizerError('network', `could not reach ${url}: ${(e as Error).cause instanceof Error ? ((e as Error).cause as Error).message : (e as Error).message}`);
    }
    let body: string;
    try {
      body = await response.text();
    } catch {
      if (timeout.aborted) throw new SummarizerError('timeout', `the summary request to ${url} timed out after ${Math.round(timeoutMs / 1000)} s`);
      throw new SummarizerError('network', `the connection to ${url} broke while reading the reply`);
    }
    if (response.status === 401 || response.status === 403) {
      throw new SummarizerError('auth', `${url} refused the API key (HTTP ${response.status}): check the key in settings`);
    }
    if (!response.ok) throw new SummarizerError('http', `${url} answered HTTP ${response.status}: ${snippet(body) || response.statusText}`);
    let reply: unknown;
    try {
      reply = JSON.parse(body);
    } catch {
      throw new SummarizerError('malformed', `${url} did not answer with JSON: ${snippet(body)}`);
    }
    const content = (reply as { choices?: Array<{ message?: { content?: unknown } }> })?.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw new SummarizerError('malformed', `${url} answered without choices[0].message.content`);
    if (content.trim().length === 0) throw new SummarizerError('empty', `${model} returned an empty summary`);
    return content.trim();
  }
}
