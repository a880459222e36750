import { diffLines } from 'diff';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codecById, listCodecs } from '../../src/core/formats/registry.js';
import { convertDocument, emptyDocument, lossesOf, parseDocumentText, readDocumentFile, serializeDocument } from '../../src/core/formats/document-file.js';
import { convert } from '../../src/core/formats/convert.js';
import { displayText, sentText, type MessageView } from '../../src/core/formats/model.js';
import { linkToolParts } from '../../src/core/views.js';
import { baselineAfterWrite, serializeConversation } from '../../src/core/formats/write.js';
import { parseConversationText } from '../../src/core/formats/read.js';
import type { Message } from '../../src/core/message.js';
import { FIXTURES } from '../helpers.js';
import { fixtureFiles } from '../support/fixture-files.js';
import { edgeString } from '../support/edge-arbitraries.js';

const FORMATS = join(FIXTURES, 'formats');

/** What each fixture is, as a reader of the public format would count it. */
const EXPECTED: Record<string, { codec: string; conversations: number; messages: number; other: number }> = {
  'aider/.aider.chat.history.md': { codec: 'aider-chat', conversations: 2, messages: 17, other: 0 },
  'anthropic/api_conversation_history.json': { codec: 'anthropic-messages', conversations: 1, messages: 5, other: 0 },
  'claude-ai/conversations.json': { codec: 'claude-ai-export', conversations: 2, messages: 4, other: 0 },
  'claude-code/cart-rewind-compact.jsonl': { codec: 'claude-code', conversations: 1, messages: 20, other: 4 },
  'claude-code/session.jsonl': { codec: 'claude-code', conversations: 1, messages: 11, other: 3 },
  'claude-code/subagents/agent-7f3a91c2.jsonl': { codec: 'claude-code', conversations: 1, messages: 3, other: 0 },
  'codex/rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl': { codec: 'codex-rollout', conversations: 1, messages: 10, other: 6 },
  'codex/legacy/sessions/2025/08/20/rollout-2025-08-20T07-41-05-3c2b1a09-8f7e-4d6c-b5a4-93827160f5e4.jsonl': { codec: 'codex-rollout', conversations: 1, messages: 8, other: 6 },
  'codex/history.jsonl': { codec: 'codex-history', conversations: 3, messages: 6, other: 0 },
  'codex/session_index.jsonl': { codec: 'codex-session-index', conversations: 1, messages: 3, other: 0 },
  'continue/sessions.json': { codec: 'continue-session-index', conversations: 1, messages: 2, other: 0 },
  'claude-code/history.jsonl': { codec: 'claude-code-history', conversations: 2, messages: 5, other: 0 },
  'copilot-cli/session-state/0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0/workspace.yaml': { codec: 'copilot-cli-workspace', conversations: 1, messages: 1, other: 0 },
  'gemini/tmp/3b9c0a1f2e4d/logs.json': { codec: 'gemini-cli-logs', conversations: 2, messages: 3, other: 0 },
  'opencode/prompt-history.jsonl': { codec: 'opencode-prompt-history', conversations: 1, messages: 3, other: 0 },
  'copilot-cli/events.jsonl': { codec: 'copilot-cli-events', conversations: 1, messages: 18, other: 21 },
  'llamafactory/mllm_demo.json': { codec: 'openai-chat-dataset', conversations: 3, messages: 10, other: 0 },
  'llamafactory/v1_sft.jsonl': { codec: 'llamafactory-v1', conversations: 2, messages: 7, other: 0 },
  'claude-code/task-subagent.jsonl': { codec: 'claude-code', conversations: 1, messages: 6, other: 0 },
  'claude-code/b7e2c9d4-1f3a-4c5e-9a8b-2d4f6e8a0c13.jsonl': { codec: 'claude-code', conversations: 1, messages: 4, other: 0 },
  'claude-code/b7e2c9d4-1f3a-4c5e-9a8b-2d4f6e8a0c13/subagents/agent-a3f9e1d2b7c40815.jsonl': { codec: 'claude-code', conversations: 1, messages: 4, other: 0 },
  'chatgpt/conversations.json': { codec: 'chatgpt-export', conversations: 2, messages: 15, other: 2 },
  'oasst/2023-04-12_oasst_ready.trees.jsonl': { codec: 'oasst-trees', conversations: 2, messages: 9, other: 0 },
  'langchain/history.json': { codec: 'langchain', conversations: 1, messages: 5, other: 0 },
  'gemini/session-2026-11-30T10-00-3f2a1b9c.json': { codec: 'gemini-cli', conversations: 1, messages: 6, other: 0 },
  'swe-agent/django__django-11099.traj': { codec: 'swe-agent-traj', conversations: 1, messages: 11, other: 4 },
  'swe-agent/pager-fix.traj.json': { codec: 'swe-agent-traj', conversations: 1, messages: 5, other: 0 },
  'cline/tasks/1764670000000/ui_messages.json': { codec: 'cline-ui-messages', conversations: 1, messages: 12, other: 5 },
  'cline/tasks/1765101600000/ui_messages.json': { codec: 'cline-ui-messages', conversations: 1, messages: 13, other: 20 },
  'sillytavern/Quartermaster - 2025-11-30@19h02m11s.jsonl': { codec: 'sillytavern-chat', conversations: 1, messages: 9, other: 1 },
  'gemini/chat-history.json': { codec: 'gemini-contents', conversations: 1, messages: 8, other: 0 },
  'gemini/session-2025-12-02T09-15-8c4d2e1f.jsonl': { codec: 'gemini-cli-jsonl', conversations: 1, messages: 7, other: 7 },
  'memory/MEMORY.md': { codec: 'swarms-memory', conversations: 1, messages: 2, other: 0 },
  'memory/pricing/MEMORY.md': { codec: 'swarms-memory', conversations: 1, messages: 4, other: 0 },
  'memory/empty/MEMORY.md': { codec: 'swarms-memory', conversations: 1, messages: 0, other: 0 },
  'opencode/session-export.json': { codec: 'opencode-export', conversations: 1, messages: 6, other: 0 },
  'openai/chat.json': { codec: 'openai-chat', conversations: 1, messages: 6, other: 0 },
  'openai/finetune.jsonl': { codec: 'openai-chat-jsonl', conversations: 3, messages: 10, other: 0 },
  'openai/request.json': { codec: 'openai-chat', conversations: 1, messages: 3, other: 0 },
  'sharegpt/dataset.json': { codec: 'sharegpt', conversations: 2, messages: 7, other: 0 },
  'sharegpt/dataset.jsonl': { codec: 'sharegpt-jsonl', conversations: 2, messages: 5, other: 0 },
  'sharegpt/preference.json': { codec: 'sharegpt', conversations: 1, messages: 3, other: 0 },
  'swarms/pricing_agent_state.json': { codec: 'swarms-json', conversations: 1, messages: 5, other: 0 },
  'swarms/agent_state.json': { codec: 'swarms-json', conversations: 1, messages: 3, other: 0 },
  'vscode-chat/chat.json': { codec: 'vscode-chat', conversations: 1, messages: 5, other: 0 },
  'vscode-chat/chatSessions/0b9a8f7e-6d5c-4b4a-3f2e-1d0c9b8a7f6e.json': { codec: 'vscode-chat', conversations: 1, messages: 2, other: 0 },
  'continue/3f1c9a2e-7b4d-4e8f-a1c2-5d6e7f8a9b0c.json': { codec: 'continue-session', conversations: 1, messages: 10, other: 0 },
  'inspect/2025-12-01T10-00-00_gsm8k_abc123.json': { codec: 'inspect-eval-json', conversations: 2, messages: 10, other: 2 },
  'atif/trajectory.json': { codec: 'atif-trajectory', conversations: 1, messages: 6, other: 0 },
  'openhands/trajectory.json': { codec: 'openhands-trajectory', conversations: 1, messages: 9, other: 5 },
  'open-webui/chat-export-1764670000.json': { codec: 'open-webui-export', conversations: 2, messages: 11, other: 0 },
  'grok/prod-grok-backend.json': { codec: 'grok-export', conversations: 2, messages: 9, other: 0 },
  'ai-studio/Bayesian network factorization.json': { codec: 'ai-studio-prompt', conversations: 1, messages: 6, other: 1 },
  'cline/cline_task_nov-30-2025_9-15-02-am.md': { codec: 'cline-task-md', conversations: 1, messages: 6, other: 0 },
  'copilot-cli/history-session-state/session_5d1f2e3a-9b8c-4d7e-a6f5-0e1d2c3b4a59_1759915816398.json': { codec: 'copilot-cli-session', conversations: 1, messages: 7, other: 4 },
  'copilot-cli/history-session-state/session_e4d3c2b1-a098-4f7e-8d6c-5b4a39281706_1760012400100.json': { codec: 'copilot-cli-session', conversations: 1, messages: 8, other: 0 },
  'otel/traces.json': { codec: 'otel-genai', conversations: 1, messages: 5, other: 2 },
  'otel/collector-export.jsonl': { codec: 'otel-genai', conversations: 1, messages: 5, other: 0 },
  'otel/span-attributes.json': { codec: 'otel-genai', conversations: 1, messages: 5, other: 0 },
  'otel/span-otlp.json': { codec: 'otel-genai', conversations: 1, messages: 3, other: 0 },
};

// The conversation files, as the listing finds them (a tool's sidecar beside one is not).
const all = fixtureFiles(FORMATS);

describe('every format fixture', () => {
  it('is listed here with what it holds', () => {
    expect(all.sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(all)('%s: detected, counted, and written back byte for byte', (name) => {
    const { codec, doc, bom } = readDocumentFile(join(FORMATS, name));
    const e = EXPECTED[name];
    expect(codec.id).toBe(e.codec);
    expect(doc.conversations.length).toBe(e.conversations);
    expect(doc.conversations.reduce((n, c) => n + c.records.length, 0)).toBe(e.messages);
    expect(doc.otherRecords).toBe(e.other);
    expect(serializeDocument(codec, doc, doc.conversations.map((c) => c.records), bom)).toBe(readFileSync(join(FORMATS, name), 'utf8'));
  });

  // A read-only format (a trace) is read and converted from, never edited.
  const editable = (n: string) => !codecById(EXPECTED[n].codec)?.readOnly;
  it.each(all.filter((n) => EXPECTED[n].messages > 0 && editable(n)))('%s: editing one message changes only that record', (name) => {
    const text = readFileSync(join(FORMATS, name), 'utf8');
    const { codec, doc } = parseDocumentText(text, name);
    const c = doc.conversations.findIndex((x) => x.records.some((r) => codec.withText(r, 'x') !== undefined));
    expect(c, 'some message of this fixture has editable text').toBeGreaterThanOrEqual(0);
    const records = doc.conversations.map((x) => x.records.slice());
    const k = records[c].findIndex((r) => codec.withText(r, 'x') !== undefined);
    const before = codec.rawText(doc, c, records[c][k]);
    records[c][k] = codec.withText(records[c][k], 'An edited message.\nWith a second line, "quotes" and é.');
    const out = serializeDocument(codec, doc, records);
    const again = parseDocumentText(out, name);
    expect(again.codec.id).toBe(codec.id);
    expect(displayText(codec.view(again.doc.conversations[c].records[k]))).toContain('An edited message.');
    // The bytes that changed all lie inside the edited record's own text in the file.
    expect(before, 'the record has its own text in the file').toBeDefined();
    const at = text.indexOf(before!);
    expect(at).toBeGreaterThanOrEqual(0);
    let prefix = 0;
    while (prefix < text.length && text[prefix] === out[prefix]) prefix++;
    let suffix = 0;
    while (suffix < text.length - prefix && text[text.length - 1 - suffix] === out[out.length - 1 - suffix]) suffix++;
    expect(prefix, 'nothing before the record changed').toBeGreaterThanOrEqual(at);
    expect(text.length - suffix, 'nothing after the record changed').toBeLessThanOrEqual(at + before!.length);
    // In a line-based file that is a one-line diff.
    if (codec.syntax === 'jsonl') expect(diffLines(text, out).filter((p) => p.removed).map((p) => p.count)).toEqual([1]);
    // Every other record reads back exactly as it was.
    doc.conversations.forEach((conv, ci) => conv.records.forEach((r, ri) => (ci === c && ri === k ? undefined : expect(again.doc.conversations[ci].records[ri]).toEqual(r))));
  });

  it.each(all.filter((n) => EXPECTED[n].messages > 1 && editable(n)))('%s: deleting a message and adding one keep every other record', (name) => {
    const text = readFileSync(join(FORMATS, name), 'utf8');
    const { codec, doc } = parseDocumentText(text, name);
    const records = doc.conversations.map((x) => x.records.slice());
    const removed = records[0].splice(1, 1)[0];
    const added = codec.fromView({ role: 'user', normalRole: 'user', parts: [{ kind: 'text', text: 'A new question?' }] }, records[0][0]);
    records[0].push(added);
    const out = serializeDocument(codec, doc, records);
    const again = parseDocumentText(out, name).doc;
    expect(again.conversations[0].records.length).toBe(doc.conversations[0].records.length);
    expect(again.otherRecords).toBe(doc.otherRecords);
    // Where the new message lands: at the end, or where the format keeps its kind of record.
    const expected = codec.order ? codec.order(records[0]) : records[0];
    expect(displayText(codec.view(again.conversations[0].records[expected.indexOf(added)]))).toBe('A new question?');
    // Untouched records keep their exact text in the file (but for the line a chained format relinks: the one
    // that hung from the deleted record now hangs from the record before it).
    const relinked = (r: unknown) => codec.linkFields !== undefined && (r as { parentUuid?: unknown }).parentUuid === (removed as { uuid?: unknown }).uuid;
    // A record that shares the deleted one's text in the file (a SillyTavern message and its swipes) changes with it.
    const sharing = (r: unknown) => codec.rawText(doc, 0, r) === codec.rawText(doc, 0, removed);
    for (const r of doc.conversations[0].records) if (r !== removed && !relinked(r) && !sharing(r)) expect(out).toContain(codec.rawText(doc, 0, r) ?? '');
  });
});

describe('what the views say', () => {
  const viewsOf = (name: string, c = 0): MessageView[] => {
    const { codec, doc } = readDocumentFile(join(FORMATS, name));
    return doc.conversations[c].records.map((r) => codec.view(r));
  };

  it('swarms agent state: legacy "System: " roles are system for planning and display, kept as spelled; an agent’s own name is an assistant', () => {
    const v = viewsOf('swarms/agent_state.json');
    expect(v.map((m) => [m.role, m.normalRole])).toEqual([['System: ', 'system'], ['Human:', 'user'], ['Research-Agent', 'assistant']]);
  });

  it('OpenAI: tool calls with names and arguments, results linked to their calls, image parts', () => {
    const v = viewsOf('openai/chat.json');
    expect(v[1].parts.map((p) => p.kind)).toEqual(['text', 'image']);
    expect(v[2].parts).toEqual([
      { kind: 'tool-call', id: 'call_9a', name: 'get_weather', arguments: '{"city": "Paris"}' },
      { kind: 'tool-call', id: 'call_9b', name: 'get_weather', arguments: '{"city": "Rome"}' },
    ]);
    expect(v[3].parts[0]).toMatchObject({ kind: 'tool-result', callId: 'call_9a' });
  });

  it('Anthropic (Cline): thinking, tool_use with its input as arguments, an error result', () => {
    const v = viewsOf('anthropic/api_conversation_history.json');
    expect(v[1].parts.map((p) => p.kind)).toEqual(['reasoning', 'text', 'tool-call']);
    expect(v[1].parts[2]).toEqual({ kind: 'tool-call', id: 'toolu_01A', name: 'read_file', arguments: '{"path":"src/report.ts"}' });
    expect(v[1].model).toBe('claude-sonnet-4-5');
    expect(v[4].parts[0]).toMatchObject({ kind: 'tool-result', callId: 'toolu_01B', isError: true });
  });

  it('Claude Code: sidechain, meta and compact-summary lines marked; usage keyed by message id', () => {
    const v = viewsOf('claude-code/session.jsonl');
    expect(v.filter((m) => m.sidechain).length).toBe(2);
    expect(v.filter((m) => m.meta).length).toBe(3);
    expect(v.filter((m) => m.summary).length).toBe(1);
    expect(v.filter((m) => m.compaction).map((m) => m.compaction)).toEqual([{ trigger: 'manual', preTokens: 18230 }]);
    expect(v[1].usage).toMatchObject({ output: 212, cacheRead: 11340, key: 'msg_01XYZ' });
    expect(v[2].usage?.key).toBe('msg_01XYZ');
    expect(v[3].parts[0]).toMatchObject({ kind: 'tool-result', callId: 'toolu_01Q' });
  });

  it('Codex: every response item type, with reported token counts on the turn they close', () => {
    const v = viewsOf('codex/rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl');
    expect(v.map((m) => m.role)).toEqual(['user', 'user', 'reasoning', 'function_call', 'function_call_output', 'custom_tool_call', 'custom_tool_call_output', 'assistant', 'compacted', 'local_shell_call']);
    expect(v[8]).toMatchObject({ normalRole: 'user', summary: true, parts: [{ kind: 'text', text: 'The user asked why --version printed nothing; the flag was disabled and is now enabled.' }] });
    expect(v[2].parts.map((p) => (p.kind === 'reasoning' ? (p.encrypted ? 'encrypted' : 'summary') : p.kind))).toEqual(['summary', 'encrypted']);
    // A call's usage is on the last item the model wrote (the function_call), not the tool's output.
    expect(v[3].usage).toMatchObject({ input: 8123, output: 410, reasoning: 256 });
    expect(v[4].usage).toBeUndefined();
    expect(v[7].usage).toMatchObject({ input: 8879, output: 110 });
    expect(sentText(v[5])).toContain('apply_patch\n*** Begin Patch');
  });

  it('Codex: a tool search is a call and its result (the tools found, as the model is sent them), not parts it does not know', () => {
    const lines = [
      { timestamp: 't', type: 'response_item', payload: { type: 'tool_search_call', id: 'tsc_1', call_id: 'call_s', status: 'completed', execution: 'client', arguments: { query: 'job status logs', limit: 8 } } },
      { timestamp: 't', type: 'response_item', payload: { type: 'tool_search_output', call_id: 'call_s', status: 'completed', execution: 'client', tools: [{ type: 'namespace', name: 'codex_app', tools: [{ type: 'function', name: 'automation_update', description: 'Create automations' }] }] } },
    ];
    const { codec, doc } = parseDocumentText(lines.map((l) => JSON.stringify(l)).join('\n') + '\n', 'rollout-x.jsonl', 'codex-rollout');
    const [call, found] = doc.conversations[0].records.map((r) => codec.view(r));
    expect(call).toMatchObject({ role: 'tool_search_call', normalRole: 'assistant', parts: [{ kind: 'tool-call', id: 'call_s', name: 'tool_search' }] });
    expect(JSON.parse((call.parts[0] as { arguments: string }).arguments)).toEqual({ query: 'job status logs', limit: 8 });
    expect(found).toMatchObject({ role: 'tool_search_output', normalRole: 'tool', parts: [{ kind: 'tool-result', callId: 'call_s' }] });
    expect(JSON.parse(sentText(found))).toEqual(lines[1].payload.tools);
  });

  it('ShareGPT: the system prompt, function_call and observation turns, chosen and rejected answers', () => {
    const d = viewsOf('sharegpt/dataset.json', 0);
    expect(d[0]).toMatchObject({ role: 'system', normalRole: 'system' });
    const t = viewsOf('sharegpt/dataset.json', 1);
    expect(t[1].parts[0]).toMatchObject({ kind: 'tool-call', name: 'convert' });
    expect(t[2].parts[0]).toMatchObject({ kind: 'tool-result' });
    const p = viewsOf('sharegpt/preference.json');
    expect(p.map((m) => m.category)).toEqual([undefined, 'chosen', 'rejected']);
  });

  it('LangChain: human/ai/tool types, tool_calls with args, reported usage', () => {
    const v = viewsOf('langchain/history.json');
    expect(v.map((m) => m.normalRole)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant']);
    expect(v[2].parts[0]).toEqual({ kind: 'tool-call', id: 'call_t1', name: 'search_trains', arguments: '{"from":"Lyon","to":"Turin","day":"Friday"}' });
    expect(v[2].usage).toMatchObject({ input: 120, output: 28 });
  });

  it('Claude.ai export: conversation names as titles, attachments as file parts', () => {
    const { doc, codec } = readDocumentFile(join(FORMATS, 'claude-ai/conversations.json'));
    expect(doc.conversations.map((c) => c.title)).toEqual(['Sourdough starter troubleshooting', 'Quick regex']);
    expect(codec.view(doc.conversations[1].records[0]).parts.map((p) => p.kind)).toEqual(['text', 'file']);
  });
});

describe('conversion between formats', () => {
  const targets = listCodecs().filter((c) => !c.readOnly).map((c) => c.id);
  it.each(all.filter((n) => EXPECTED[n].messages > 0))('%s converts into every format, keeping every message’s text, every tool call and every link', (name) => {
    const from = readDocumentFile(join(FORMATS, name));
    const callsOf = (views: readonly MessageView[]) =>
      views
        .flatMap((v) => v.parts)
        .filter((p) => p.kind === 'tool-call')
        .map((p) => {
          const c = p as { name: string; arguments: string };
          let args = c.arguments;
          try {
            const parsed = JSON.parse(args) as unknown;
            // A target that holds only objects wraps other arguments as {"input": …}.
            const inner = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) && Object.keys(parsed).length === 1 && 'input' in parsed ? (parsed as { input: unknown }).input : parsed;
            args = typeof inner === 'string' && inner !== parsed ? inner : JSON.stringify(inner);
          } catch {
            // not JSON: compared as text
          }
          return `${c.name}(${args})`;
        });
    for (const to of targets) {
      const target = codecById(to)!;
      let conversion;
      try {
        conversion = convert(from, to);
      } catch (e) {
        // Refused only where the target has no place for what the file holds: a fine-tuning example needs an
        // assistant message to learn from (a file of prompts alone has none).
        expect((e as Error).message, `${name} → ${to}`).toMatch(/nothing to write: no conversation of the file has an assistant message/);
        expect(from.doc.conversations.some((c) => c.records.some((r) => from.codec.view(r).normalRole === 'assistant')), `${name} → ${to}`).toBe(false);
        continue;
      }
      const out = conversion.text;
      // What the target's own tool needs holds in what is written: nothing left for it to refuse.
      expect(conversion.problems, `${name} → ${to}: valid for the target`).toEqual([]);
      const back = parseDocumentText(out, `x${target.extensions[0]}`, to);
      const keep = target.capabilities.conversations === 'many' ? from.doc.conversations : from.doc.conversations.slice(0, 1);
      expect(back.doc.conversations.length, `${name} → ${to}`).toBe(keep.length);
      keep.forEach((c, ci) => {
        const source = linkToolParts(c.records.map((r) => from.codec.view(r)));
        const result = linkToolParts(back.doc.conversations[ci].records.map((r) => back.codec.view(r)));
        // Every message's text, in order (a message may become several records).
        let at = 0;
        for (const v of source) {
          const text = displayText(v).trim();
          if (!text) continue;
          const line = text.split('\n')[0].trim();
          let found = at;
          while (found < result.length && !sentText(result[found]).includes(line)) found++;
          // A message is only ever missing when the conversion said it dropped it (ShareGPT's alternation).
          if (found === result.length) expect(conversion.notes.join('\n'), `${name} → ${to}: "${line.slice(0, 40)}" in order, or said dropped`).toMatch(/dropped/);
          else at = found;
        }
        if (!target.capabilities.toolCalls) return;
        expect(callsOf(result), `${name} → ${to}: tool calls`).toEqual(callsOf(source));
        // Every result that answered a call still answers one, by an id the target holds.
        const ids = new Set(result.flatMap((v) => v.parts).flatMap((p) => (p.kind === 'tool-call' && p.id ? [p.id] : [])));
        const linked = (views: readonly MessageView[]) => views.flatMap((v) => v.parts).filter((p) => p.kind === 'tool-result' && p.callId).length;
        for (const p of result.flatMap((v) => v.parts)) if (p.kind === 'tool-result' && p.callId) expect(ids.has(p.callId), `${name} → ${to}: result for ${p.callId}`).toBe(true);
        // Results are all kept, linked, unless the conversion said it dropped turns (ShareGPT's alternation).
        if (/dropped/.test(conversion.notes.join('\n'))) expect(linked(result)).toBeLessThanOrEqual(linked(source));
        else {
          // A call never answered gets a result that says so, where the target needs one (and the conversion says it).
          const added = result.flatMap((v) => v.parts).filter((p) => p.kind === 'tool-result' && p.text === '(no result was recorded)').length;
          if (added > 0) expect(conversion.notes.join('\n')).toMatch(/answered with "\(no result was recorded\)"/);
          expect(linked(result) - added, `${name} → ${to}: linked results`).toBe(linked(source));
        }
      });
    }
  });

  it('to its own format gives the same bytes', () => {
    for (const name of all) {
      const from = readDocumentFile(join(FORMATS, name));
      expect(convertDocument(from, from.codec.id)).toBe(readFileSync(join(FORMATS, name), 'utf8'));
    }
  });
});

describe('round trips of generated messages, per format (property)', () => {
  const message = fc.record({ role: fc.constantFrom('user', 'assistant', 'system'), text: edgeString.filter((s) => s.trim() !== '' && !s.includes('\u0000')) });
  it.each(listCodecs().filter((c) => !c.readOnly).map((c) => c.id))('%s', (id) => {
    const codec = codecById(id)!;
    fc.assert(
      fc.property(fc.array(message, { minLength: 1, maxLength: 6 }), (ms) => {
        const records = ms.map((m) => codec.fromView({ role: m.role, normalRole: m.role as 'user', parts: [{ kind: 'text', text: m.text }] }));
        const text = emptyDocument(codec, [records]);
        const parsed = parseDocumentText(text, `x${codec.extensions[0]}`, id);
        // Written back unchanged: the same bytes.
        expect(serializeDocument(parsed.codec, parsed.doc, parsed.doc.conversations.map((c) => c.records))).toBe(text);
        const texts = parsed.doc.conversations[0].records.map((r) => displayText(codec.view(r)));
        // MEMORY.md keeps content trimmed, as swarms writes it.
        expect(texts).toEqual(ms.map((m) => (id === 'swarms-memory' ? m.text.trim() : m.text)));
      }),
      { numRuns: 60, seed: 11 },
    );
  });
});

describe('a save that trusts records not to change in place (the app\'s) writes what the careful one writes (property)', () => {
  const message = fc.record({ role: fc.constantFrom('user', 'assistant', 'system'), text: edgeString.filter((s) => s.trim() !== '' && !s.includes('\u0000')) });
  it.each(listCodecs().filter((c) => !c.readOnly).map((c) => c.id))('%s', (id) => {
    const codec = codecById(id)!;
    fc.assert(
      fc.property(fc.array(message, { minLength: 2, maxLength: 6 }), edgeString, fc.nat(), fc.nat(), (ms, edit, at, gone) => {
        const made = ms.map((m) => codec.fromView({ role: m.role, normalRole: m.role as 'user', parts: [{ kind: 'text', text: m.text }] }));
        const text = emptyDocument(codec, [made]);
        const parsed = parseDocumentText(text, `x${codec.extensions[0]}`, id);
        const records = parsed.doc.conversations[0].records.slice();
        // New records: an edited text (edge-biased), a deleted one; the rest are the very objects read.
        const k = at % records.length;
        const edited = codec.withText(records[k], edit.includes('\u0000') ? 'x' : edit);
        if (edited !== undefined) records[k] = edited;
        if (records.length > 2) records.splice((k + 1 + (gone % (records.length - 1))) % records.length, 1);
        const attempt = (options?: { immutable: boolean }) => {
          try {
            return serializeDocument(parsed.codec, parsed.doc, [records], false, options);
          } catch (e) {
            // A text the writer cannot keep exactly is refused, never written changed: alike on both paths.
            return e as Error;
          }
        };
        const careful = attempt();
        const trusting = attempt({ immutable: true });
        if (careful instanceof Error || trusting instanceof Error) {
          expect(String(trusting)).toBe(String(careful));
          // Only MEMORY.md, which keeps content trimmed, may refuse a text (it cannot hold its outer blanks).
          expect(id).toBe('swarms-memory');
          return;
        }
        expect(trusting).toBe(careful);
        // An independent reader agrees where the syntax has one: the values written are the records.
        if (codec.syntax === 'json' && codec.id.startsWith('swarms')) expect(JSON.parse(trusting)).toEqual(JSON.parse(careful));
        // Unchanged records keep their own text, byte for byte (but for a chained format's line whose parent
        // was deleted: it now hangs from the line before).
        const removed = parsed.doc.conversations[0].records.filter((r) => !records.includes(r) && r !== records[k]);
        const relinked = (r: unknown) => codec.linkFields !== undefined && removed.some((x) => (x as { uuid?: unknown }).uuid === (r as { parentUuid?: unknown }).parentUuid);
        for (const r of records) if (r !== edited && !relinked(r)) expect(trusting).toContain(codec.rawText(parsed.doc, 0, r) ?? '');
      }),
      { numRuns: 60, seed: 23 },
    );
  });
});

describe('a swarms JSON save that reads back only what it wrote anew (property)', () => {
  const message = fc.record({ role: fc.constantFrom('user', 'assistant', 'System'), content: edgeString.filter((t) => !t.includes('\u0000')) });
  it('leaves the baseline a read of the file gives, and the next save writes what it would', () => {
    fc.assert(
      fc.property(fc.array(message, { minLength: 1, maxLength: 8 }), fc.constantFrom('list', 'wrapped', 'history'), fc.nat({ max: 4 }), edgeString, edgeString, fc.nat(), (ms, shape, indent, first, second, at) => {
        const root = shape === 'list' ? ms : shape === 'wrapped' ? { metadata: { name: 'x', note: first }, conversation_history: ms } : { history: ms, extra: [1, '2'] };
        const text = JSON.stringify(root, null, indent) + (indent ? '\n' : '');
        const parsed = parseConversationText(text, 'x.json', 'json');
        const target = (p: typeof parsed) => ({ format: 'json' as const, shape: p.shape, root: p.root, baseline: p.baseline, immutable: true });
        const edit = (list: Message[], i: number, content: string) => list.map((m, k) => (k === i % list.length ? { ...m, content } : m));
        const records = edit(parsed.messages, at, first.replaceAll('\u0000', ''));
        const written = serializeConversation(records, target(parsed));
        const trusted = baselineAfterWrite(written, 'x.json', 'json', records);
        const read = parseConversationText(written, 'x.json', 'json');
        expect(read.messages).toEqual(JSON.parse(JSON.stringify(records)));
        // An independent reader agrees: JSON.parse of the whole file holds the records where the shape keeps them.
        const whole = JSON.parse(written) as Record<string, unknown> | unknown[];
        expect(Array.isArray(whole) ? whole : whole[shape === 'wrapped' ? 'conversation_history' : 'history']).toEqual(JSON.parse(JSON.stringify(records)));
        // Messages not edited keep their own text, byte for byte.
        for (let k = 0; k < records.length; k++) if (records[k] === parsed.messages[k]) expect(written).toContain(text.slice(parsed.baseline.elements[k].start, parsed.baseline.elements[k].end));
        expect(trusted.shape).toBe(read.shape);
        expect(trusted.baseline.elements).toEqual(read.baseline.elements);
        expect(trusted.baseline.separator).toBe(read.baseline.separator);
        expect(trusted.baseline.jsonStyle).toEqual(read.baseline.jsonStyle);
        expect(trusted.messages).toEqual(read.messages);
        // And the save after it, from either baseline, is the same text.
        const next = edit(trusted.messages, at + 1, second.replaceAll('\u0000', ''));
        const nextRead = next.map((m, i) => (m === trusted.messages[i] ? read.messages[i] : m));
        expect(serializeConversation(next, target(trusted))).toBe(serializeConversation(nextRead, target(read)));
      }),
      { numRuns: 200, seed: 5 },
    );
  });
});

describe('conversions that split or link tool calls', () => {
  const parallel = JSON.stringify([
    { role: 'user', content: 'Weather in Kraków and Łódź?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_w1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Kraków"}' } },
        { id: 'call_w2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Łódź"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'call_w1', content: '{"temp":3}' },
    { role: 'tool', tool_call_id: 'call_w2', content: '{"temp":5}' },
    { role: 'assistant', content: 'Kraków 3 °C, Łódź 5 °C.' },
  ]);

  it.each(['codex-rollout', 'sharegpt', 'sharegpt-jsonl', 'anthropic-messages', 'langchain', 'swarms-json'])('two parallel calls into %s: both kept, each result answering its own', (to) => {
    const from = parseDocumentText(parallel, 'chat.json', 'openai-chat');
    const back = parseDocumentText(convertDocument(from, to), `x${codecById(to)!.extensions[0]}`, to);
    const views = linkToolParts(back.doc.conversations[0].records.map((r) => back.codec.view(r)));
    const parts = views.flatMap((v) => v.parts);
    const calls = parts.filter((p) => p.kind === 'tool-call') as Array<{ id: string; arguments: string }>;
    expect(calls.map((c) => JSON.parse(c.arguments).city)).toEqual(['Kraków', 'Łódź']);
    const results = parts.filter((p) => p.kind === 'tool-result') as Array<{ callId: string; text: string }>;
    expect(results.map((r) => [calls.findIndex((c) => c.id === r.callId), r.text])).toEqual([
      [0, '{"temp":3}'],
      [1, '{"temp":5}'],
    ]);
    expect(lossesOf(from, to).filter((l) => l.includes('tool'))).toEqual([]);
  });

  it('ShareGPT calls (no ids) into OpenAI: each tool message names the call it answers', () => {
    const dataset = JSON.stringify([{ conversations: [{ from: 'human', value: 'Rate?' }, { from: 'function_call', value: '{"name":"rate","arguments":{"pair":"EURPLN"}}' }, { from: 'observation', value: '4.31' }, { from: 'gpt', value: '4.31 PLN.' }] }]);
    const from = parseDocumentText(dataset, 'd.json', 'sharegpt');
    const lines = convertDocument(from, 'openai-chat-jsonl').trim().split('\n');
    const messages = JSON.parse(lines[0]).messages as Array<{ role: string; tool_calls?: Array<{ id: string }>; tool_call_id?: string }>;
    const call = messages.find((m) => m.tool_calls)!.tool_calls![0].id;
    expect(call).toBeTruthy();
    expect(messages.find((m) => m.role === 'tool')!.tool_call_id).toBe(call);
  });

  it('a ShareGPT preference pair into another format says the choice is lost', () => {
    const from = parseDocumentText(JSON.stringify([{ conversations: [{ from: 'human', value: 'Pick one' }], chosen: { from: 'gpt', value: 'A' }, rejected: { from: 'gpt', value: 'B' } }]), 'p.json', 'sharegpt');
    expect(lossesOf(from, 'openai-chat-jsonl').join('\n')).toContain('chosen');
    expect(lossesOf(from, 'sharegpt-jsonl').join('\n')).not.toContain('chosen');
  });

  it('Codex into Anthropic: tool inputs are objects, OpenAI’s encrypted reasoning is left out and said so', () => {
    const rollout = [
      { timestamp: 't', type: 'session_meta', payload: { id: 's', cwd: '/w' } },
      { timestamp: 't', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Fix it' }] } },
      { timestamp: 't', type: 'response_item', payload: { type: 'reasoning', summary: [{ type: 'summary_text', text: 'Looking' }], encrypted_content: 'gAAAAB-opaque' } },
      { timestamp: 't', type: 'response_item', payload: { type: 'custom_tool_call', call_id: 'c1', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch' } },
      { timestamp: 't', type: 'response_item', payload: { type: 'custom_tool_call_output', call_id: 'c1', output: 'Done' } },
    ]
      .map((l) => JSON.stringify(l))
      .join('\n');
    const from = parseDocumentText(rollout + '\n', 'rollout-x.jsonl', 'codex-rollout');
    const out = JSON.parse(convertDocument(from, 'anthropic-messages')) as Array<{ content: unknown }>;
    const blocks = out.flatMap((m) => (Array.isArray(m.content) ? m.content : [])) as Array<{ type: string; input?: unknown; data?: string }>;
    expect(blocks.find((b) => b.type === 'tool_use')!.input).toEqual({ input: '*** Begin Patch\n*** End Patch' });
    expect(blocks.some((b) => b.type === 'redacted_thinking' || b.type === 'thinking')).toBe(false);
    expect(lossesOf(from, 'anthropic-messages').join('\n')).toMatch(/another provider/);
  });
});

describe('JSONL an agent is still writing', () => {
  const done = [
    { type: 'user', uuid: 'u1', sessionId: 's', timestamp: '2026-11-20T10:00:00Z', message: { role: 'user', content: 'Fix the date test' } },
    { type: 'assistant', uuid: 'a1', parentUuid: 'u1', sessionId: 's', timestamp: '2026-11-20T10:00:02Z', message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'On it.' }] } },
  ]
    .map((l) => JSON.stringify(l) + '\n')
    .join('');
  const partial = '{"type":"assistant","uuid":"a2","message":{"role":"assistant","content":[{"type":"text","text":"Half wri';

  it('reads every complete line, keeps the unfinished last one as it is, and writes it back untouched after an edit', () => {
    const text = done + partial;
    const opened = parseDocumentText(text, 'session.jsonl');
    expect(opened.codec.id).toBe('claude-code');
    expect(opened.doc.conversations[0].records).toHaveLength(2);
    expect(serializeDocument(opened.codec, opened.doc, opened.doc.conversations.map((c) => c.records))).toBe(text);
    const edited = opened.doc.conversations[0].records.map((r, i) => (i === 0 ? opened.codec.withText(r, 'Fix the date test, please') : r));
    const saved = serializeDocument(opened.codec, opened.doc, [edited]);
    expect(saved.endsWith('\n' + partial)).toBe(true);
    expect(saved.split('\n')[0]).toContain('Fix the date test, please');
  });

  it('a bad line that is not the last is an error in words, with its line and column', () => {
    expect(() => parseDocumentText(partial + '\n' + done, 'session.jsonl', 'claude-code')).toThrow(/session\.jsonl:1:\d+: invalid JSON on line 1: (unterminated string|the line ends before its JSON does)$/);
    expect(() => parseDocumentText(done + '{"type": "user", "x": [1,}\n', 'session.jsonl', 'claude-code')).toThrow(/invalid JSON on line 3: expected a value/);
  });
});
