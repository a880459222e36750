import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Message } from '../src/core/index.js';

/**
 * Text that real people and tools wrote: the prose of every Markdown file inside node_modules (READMEs,
 * changelogs, docs) and fragments of its JavaScript and TypeScript sources. A generator over a fixed word
 * list lets any cache memorise its vocabulary; this does not.
 */
export interface Corpus {
  prose: string[];
  code: string[];
  bytes: number;
}

let cached: Corpus | undefined;

function walk(dir: string, depth: number, out: string[]): void {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return;
  }
  for (const name of names) {
    const full = join(dir, name);
    let st;
    try {
      st = statSync(full);
    } catch {
      continue;
    }
    if (st.isDirectory()) {
      if (depth < 6 && name !== '.bin' && name !== 'test' && name !== 'fixtures') walk(full, depth + 1, out);
    } else if (st.size > 256 && st.size < 400_000 && /\.(md|markdown|js|mjs|cjs|ts)$/i.test(name) && !/\.min\.js$|\.d\.ts$/.test(name)) out.push(full);
  }
}

export function loadCorpus(root = join(import.meta.dirname, '..', 'node_modules')): Corpus {
  if (cached) return cached;
  const files: string[] = [];
  walk(root, 0, files);
  const prose: string[] = [];
  const code: string[] = [];
  const seen = new Set<string>();
  let bytes = 0;
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    // Rank tables and bundled data are not text anyone writes.
    if (/[A-Za-z0-9+/]{400}/.test(text)) continue;
    if (/\.(md|markdown)$/i.test(file)) {
      for (const para of text.split(/\n\s*\n/)) {
        const p = para.trim();
        if (p.length >= 40 && p.length <= 6000 && !seen.has(p)) {
          seen.add(p);
          prose.push(p);
          bytes += p.length;
        }
      }
    } else {
      const lines = text.split('\n');
      for (let i = 0; i + 8 < lines.length && code.length < 200_000; i += 24) {
        const chunk = lines.slice(i, i + 8 + (i % 32)).join('\n');
        if (chunk.trim().length >= 40 && chunk.length <= 6000 && !seen.has(chunk)) {
          seen.add(chunk);
          code.push(chunk);
          bytes += chunk.length;
        }
      }
    }
  }
  if (prose.length < 1000 || code.length < 1000) throw new Error(`too little text in ${root} for a realistic corpus (${prose.length} paragraphs, ${code.length} code fragments)`);
  cached = { prose, code, bytes };
  return cached;
}

/**
 * A deterministic history of `n` messages drawn from the corpus: users ask in a paragraph, assistants answer
 * in one to four with a code block now and then, and about one message in eight is a tool call or its
 * result (source code, search hits). No two messages repeat by construction beyond what the corpus repeats.
 */
export function realisticHistory(n: number, seed = 7): Message[] {
  const { prose, code } = loadCorpus();
  // mulberry32: an LCG in doubles loses its low bits past 2^53 and cycles after a few thousand picks.
  let s = seed >>> 0;
  const rand = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let r = Math.imul(s ^ (s >>> 15), 1 | s);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)];
  const out: Message[] = [{ role: 'system', content: 'You are a coding agent working in a large TypeScript repository. Be precise.', timestamp: '2026-11-02T09:00:00.000000' }];
  let t = Date.parse('2026-11-02T09:00:00Z');
  for (let i = 1; i < n; i++) {
    t += 1000 + Math.floor(rand() * 9000);
    const timestamp = new Date(t).toISOString();
    const kind = rand();
    if (kind < 0.06) {
      out.push({ role: 'assistant', content: '', timestamp, metadata: { tool_calls: [{ id: `call_${i}`, type: 'function', function: { name: pick(['read_file', 'grep', 'run_tests', 'edit_file']), arguments: JSON.stringify({ path: `src/${pick(prose).slice(0, 12).replace(/\W+/g, '_')}.ts`, query: pick(prose).slice(0, 40) }) } }] } });
    } else if (kind < 0.12) {
      out.push({ role: 'tool', content: rand() < 0.7 ? pick(code) : { hits: Math.floor(rand() * 500), first: pick(prose).slice(0, 200) }, timestamp, metadata: { tool_call_id: `call_${i - 1}` } });
    } else if (kind < 0.45) {
      // A paragraph and a sentence of another: the corpus has fewer paragraphs than a long history has turns.
      const aside = pick(prose).split(/(?<=[.!?])\s+/)[0];
      out.push({ role: 'user', content: `${pick(prose)}\n\n${aside}`, timestamp, category: 'input' });
    } else {
      const paragraphs = 1 + Math.floor(rand() * 3);
      const body = Array.from({ length: paragraphs }, () => (rand() < 0.25 ? '```ts\n' + pick(code) + '\n```' : pick(prose)));
      out.push({ role: 'assistant', content: body.join('\n\n'), timestamp, category: 'output' });
    }
  }
  return out;
}

/** The plain texts of a history's messages, the way a counter sees them. */
export function textsOf(messages: readonly Message[]): string[] {
  return messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
}
