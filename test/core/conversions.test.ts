import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convert } from '../../src/core/formats/convert.js';
import { parseDocumentText, readDocumentFile } from '../../src/core/formats/document-file.js';
import { listCodecs } from '../../src/core/formats/registry.js';
import { roleMapping } from '../../src/core/formats/roles.js';
import { FIXTURES } from '../helpers.js';
import { walkSession } from '../support/claude-code-walker.js';
import { openAiFineTuneErrors } from '../support/openai-finetune-check.js';
import type { Loose } from '../support/loose.js';

const F = (p: string) => join(FIXTURES, 'formats', p);
const jsonl = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Loose);

/** A swarms history as agents leave it: tool outputs logged as messages of their own, no call before them. */
const SWARMS_TOOL_LOG = JSON.stringify(
  [
    { role: 'System', content: 'You are a stock analyst.' },
    { role: 'Human', content: 'Price of NVDA?' },
    { role: 'tool', content: '{"symbol": "NVDA", "price": 181.2}' },
    { role: 'Stock-Analyst', content: 'NVDA trades at $181.20.' },
  ],
  null,
  4,
);

describe('conversions carry what the target needs', () => {
  it('ShareGPT tools schemas survive into ShareGPT JSONL, OpenAI fine-tuning and LLaMA-Factory v1', () => {
    const from = readDocumentFile(F('sharegpt/dataset.json'));
    const sharegpt = jsonl(convert(from, 'sharegpt-jsonl').text);
    expect(JSON.parse(sharegpt[1].tools)).toEqual([{ name: 'convert', description: 'Unit conversion', parameters: { type: 'object' } }]);
    const openai = jsonl(convert(from, 'openai-chat-jsonl').text);
    expect(openai[1].tools).toEqual([{ type: 'function', function: { name: 'convert', description: 'Unit conversion', parameters: { type: 'object' } } }]);
    expect(openai[0].tools).toBeUndefined();
    const v1 = jsonl(convert(from, 'llamafactory-v1').text);
    expect(JSON.parse(v1[1].tools)[0].name).toBe('convert');
  });

  it('a tool result with no call before it becomes a user message, said so, never `"tool_call_id": ""`', () => {
    const from = parseDocumentText(SWARMS_TOOL_LOG, 'history.json');
    const out = convert(from, 'openai-chat-jsonl');
    const messages = jsonl(out.text)[0].messages as Array<Record<string, unknown>>;
    expect(out.text).not.toContain('"tool_call_id":""');
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'user', 'assistant']);
    expect(out.notes.join('\n')).toMatch(/1 tool result with no call before them: written as user messages/);
    expect(out.problems).toEqual([]);
    expect(openAiFineTuneErrors(out.text)).toEqual([]);
  });

  it('into Claude Code: one parentUuid chain, a session id, cwd and version on every line; resumable', () => {
    const from = readDocumentFile(F('openai/chat.json'));
    const out = convert(from, 'claude-code', { cwd: '/home/dev/weather' });
    const lines = jsonl(out.text);
    expect(walkSession(out.text).errors).toEqual([]);
    expect(walkSession(out.text).path.length).toBe(lines.length);
    expect(new Set(lines.map((l) => l.sessionId)).size).toBe(1);
    expect(lines.every((l) => l.cwd === '/home/dev/weather' && typeof l.version === 'string')).toBe(true);
    expect(lines[0].parentUuid).toBeNull();
    expect(lines.slice(1).every((l, i) => l.parentUuid === lines[i].uuid)).toBe(true);
    expect(out.notes.join('\n')).toContain(`save it as ~/.claude/projects/-home-dev-weather/${lines[0].sessionId}.jsonl`);
  });

  it('into Codex: session_meta first, then items; every call answered; each message with its event', () => {
    const from = readDocumentFile(F('openai/chat.json'));
    const lines = jsonl(convert(from, 'codex-rollout', { cwd: '/w' }).text);
    expect(lines[0]).toMatchObject({ type: 'session_meta', payload: { cwd: '/w', instructions: null } });
    const calls = lines.filter((l) => l.payload?.type === 'function_call').map((l) => l.payload.call_id);
    const outputs = lines.filter((l) => l.payload?.type === 'function_call_output').map((l) => l.payload.call_id);
    expect(calls.length).toBeGreaterThan(0);
    expect(outputs).toEqual(calls);
    expect(lines.some((l) => l.type === 'event_msg' && l.payload.type === 'user_message')).toBe(true);
  });

  it('Codex encrypted reasoning stays a reasoning item in Codex, and is dropped (said so) elsewhere, never an empty message', () => {
    const rollout = readFileSync(F('codex/rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl'), 'utf8');
    const cut = rollout.replace('"type":"session_meta"', '"type":"session_meta"');
    const from = parseDocumentText(cut, 'rollout-x.jsonl');
    const claude = convert(from, 'claude-code', { cwd: '/w' });
    expect(jsonl(claude.text).some((l) => Array.isArray(l.message?.content) && l.message.content.length === 0)).toBe(false);
    expect(claude.notes.join('\n')).toMatch(/1 encrypted reasoning item/);
    const openai = convert(from, 'openai-chat');
    expect((JSON.parse(openai.text) as Array<{ content: unknown }>).some((m) => m.content === '' || (Array.isArray(m.content) && m.content.length === 0))).toBe(false);
  });

  it('LLaMA-Factory v1 parts are read: no "(empty)" turns, and a conversion writes their text', () => {
    const from = readDocumentFile(F('llamafactory/v1_sft.jsonl'));
    expect(from.codec.id).toBe('llamafactory-v1');
    const texts = from.doc.conversations.flatMap((c) => c.records.map((r) => from.codec.view(r).parts.length));
    expect(texts.every((n) => n > 0)).toBe(true);
    const sharegpt = JSON.parse(convert(from, 'sharegpt').text) as Array<{ conversations: Array<{ from: string; value: string }>; system?: string; tools?: string }>;
    expect(sharegpt[0].system).toBe('You are a careful assistant.');
    expect(sharegpt[0].conversations.map((t) => t.value)).toEqual(['Translate "good morning" into French.', 'Bonjour.']);
    expect(sharegpt[1].conversations.every((t) => t.value !== '')).toBe(true);
    expect(JSON.parse(sharegpt[1].tools!)[0].name).toBe('get_stock_price');
  });

  it('editing a v1 part writes its value, not a text key beside it', () => {
    const from = readDocumentFile(F('llamafactory/v1_sft.jsonl'));
    const edited = from.codec.withText(from.doc.conversations[0].records[2], 'Bonjour !') as { content: Array<Record<string, unknown>> };
    expect(edited.content).toEqual([{ type: 'text', value: 'Bonjour !' }]);
  });

  it('a JSON list of {messages, images} records opens as a dataset of conversations', () => {
    const from = readDocumentFile(F('llamafactory/mllm_demo.json'));
    expect(from.codec.id).toBe('openai-chat-dataset');
    expect(from.doc.conversations.map((c) => c.records.length)).toEqual([4, 4, 2]);
    const edited = from.doc.conversations.map((c) => c.records.slice());
    edited[1][1] = from.codec.withText(edited[1][1], 'He is Thomas Müller.');
    const text = from.codec.serialize(from.doc, edited);
    // The images stay with their conversation; only the edited message changed.
    expect(JSON.parse(text)[1].images).toEqual(['mllm_demo_data/2.jpg']);
    const before = readFileSync(F('llamafactory/mllm_demo.json'), 'utf8').split('\n');
    const after = text.split('\n');
    expect(after.filter((l, i) => l !== before[i]).length).toBe(1);
  });

  it('a swarms Agent’s user_name and agent_name decide who is the user and who the assistant', () => {
    for (const file of ['swarms/pricing_agent_state.json', 'memory/pricing/MEMORY.md']) {
      const from = readDocumentFile(F(file));
      const mapping = roleMapping(from.codec, from.doc);
      expect(mapping.find((d) => d.role === 'swarms_corp')?.normalRole, file).toBe('user');
      expect(mapping.find((d) => d.role === 'PricingAgent')?.normalRole, file).toBe('assistant');
      const roles = jsonl(convert(from, 'openai-chat-jsonl').text)[0].messages.map((m: { role: string }) => m.role);
      expect(roles.filter((r: string) => r === 'user').length, file).toBe(2);
      expect(roles.filter((r: string) => r === 'assistant').length, file).toBe(2);
    }
  });

  it('every fixture converted into every format passes the target’s own rules (or the conversion fails loudly)', () => {
    const names = ['anthropic/api_conversation_history.json', 'claude-code/cart-rewind-compact.jsonl', 'codex/rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl', 'openai/chat.json', 'sharegpt/dataset.json', 'swarms/pricing_agent_state.json', 'llamafactory/v1_sft.jsonl'];
    for (const name of names) {
      const from = readDocumentFile(F(name));
      for (const to of listCodecs().filter((c) => !c.readOnly)) {
        const out = convert(from, to.id, { cwd: '/w' });
        expect(out.problems, `${name} → ${to.id}`).toEqual([]);
        if (to.id === 'openai-chat-jsonl') expect(openAiFineTuneErrors(out.text), `${name} → ${to.id}: the fine-tuning checks`).toEqual([]);
        if (to.id === 'claude-code') expect(walkSession(out.text).errors, `${name} → claude-code`).toEqual([]);
      }
    }
  });
});
