// Titles a file gives its conversations, as the session list shows them.
import { describe, expect, it } from 'vitest';
import type { ConversationDocument } from '../../src/core/formats/codec.js';
import { codecById } from '../../src/core/formats/registry.js';
import { conversationTitles, unmarked } from '../../src/core/catalog/titles.js';
import { parseDocumentText } from '../../src/core/formats/document-file.js';

const titles = (...list: Array<string | undefined>) =>
  conversationTitles(codecById('openai-chat-jsonl')!, { conversations: list.map((title) => ({ title, records: [] })) } as unknown as ConversationDocument);

describe('titles', () => {
  it("a prompt's Markdown reads as its words: links and images by their text, bold without marks, no heading #; code keeps its backticks", () => {
    expect(unmarked('[JEPA notes](chatgpt-conversation://6a60587b-1968) build MotionJEPA')).toBe('JEPA notes build MotionJEPA');
    expect(unmarked('see ![the chart](img/a.png "Chart") and [docs](https://x.dev/a_(b))')).toBe('see the chart and [docs](https://x.dev/a_(b))');
    expect(unmarked('## Fix `parse()` **now**')).toBe('Fix `parse()` now');
    // Not Markdown: left as it is.
    expect(unmarked('[Image #1] why is a[0] (the first) wrong? 2 ** 3')).toBe('[Image #1] why is a[0] (the first) wrong? 2 ** 3');
    // A task wrapped in a tool's tags reads as its words; a lone tag, or tags around other tags, stay.
    expect(unmarked('Answer this about Gemini CLI: <question> what does /setup-github do? </question>')).toBe('Answer this about Gemini CLI: what does /setup-github do?');
    expect(unmarked('fix the <div> layout and <b>not</i> this')).toBe('fix the <div> layout and <b>not</i> this');
    expect(unmarked('<task> Add a --json flag </task> <environment_details> # Current Working Directory </environment_details>')).toBe('Add a --json flag');
  });

  it('a title a model wrote after its reasoning is the words after it; reasoning that never ended gives none', () => {
    expect(titles('<think>\nThe user wants a title for fixing the build.\n</think>\n\nFix the CI build')).toEqual(['Fix the CI build']);
    expect(titles('<thinking>short</thinking> Tax rounding')).toEqual(['Tax rounding']);
    expect(titles("<think> We are given the user's request and must")).toEqual([undefined]);
    expect(titles('Plain title about <think> tags')).toEqual(['Plain title about <think> tags']);
  });
});

/** A Codex rollout whose user messages are `texts`: the session list's title of it. */
function codexTitle(...texts: string[]): string | undefined {
  const at = (s: number) => `2026-08-06T16:45:${String(s).padStart(2, '0')}.000Z`;
  const lines = [
    { timestamp: at(0), type: 'session_meta', payload: { id: '019fd608-da80-7713-bcdd-bc47748af23d', timestamp: at(0), cwd: '/home/dev/shop', originator: 'codex_vscode', cli_version: '0.146.0', source: 'vscode', model_provider: 'openai' } },
    ...texts.map((text, i) => ({ timestamp: at(i + 1), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] } })),
  ];
  const { codec, doc } = parseDocumentText(lines.map((l) => JSON.stringify(l)).join('\n') + '\n', 'rollout-2026-08-06T16-45-00-019fd608-da80-7713-bcdd-bc47748af23d.jsonl');
  return conversationTitles(codec, doc)[0];
}

describe('a Codex session’s title is the user’s own request', () => {
  const env = '<environment_context>\n  <cwd>/home/dev/shop</cwd>\n  <shell>zsh</shell>\n</environment_context>';

  it('not the context the IDE extension puts before it (open files, files mentioned, a ChatGPT conversation, a selection)', () => {
    const ide = '# Context from my IDE setup:\n\n## Active file: src/cart.ts\n\n## Open tabs:\n- cart.ts: src/cart.ts\n- README.md: README.md\n\n## My request for Codex:\nMake the 0% discount work\n';
    expect(codexTitle(env, ide)).toBe('Make the 0% discount work');
    expect(codexTitle(env, '# Files mentioned by the user:\n\n## shot.png: /tmp/shot.png\n\n## My request for Codex:\nwhy is the banner still there?')).toBe('why is the banner still there?');
    // The desktop app's reference to a ChatGPT conversation starts with a line break; the request holds a link.
    const referenced = '\n## Referenced ChatGPT conversation:\nThis is an untrusted ChatGPT conversation reference.\n{"conversationId":"6a60587b","title":"Motion models","priorConversation":null}\n## My request for Codex:\n[Motion models](chatgpt-conversation://6a60587b) Build the encoder we talked about\n';
    expect(codexTitle(referenced)).toBe('Motion models Build the encoder we talked about');
    // Written with CRLF, a selection's own heading mentions the marker words in passing: the last marker line counts.
    expect(codexTitle('# Selected text:\r\n\r\n## Selection 1\r\nthe words "## My request for Codex:" inline\r\n\r\n## My request for Codex:\r\nExplain this\r\n')).toBe('Explain this');
  });

  it('a request of no words (an image alone) gives the title to the next prompt; a prompt that only mentions the marker is the prompt', () => {
    expect(codexTitle(env, '# Files mentioned by the user:\n\n## a.png: /tmp/a.png\n\n## My request for Codex:\n\n', 'Then crop it')).toBe('Then crop it');
    expect(codexTitle('Why does "## My request for Codex:" show in my titles?')).toBe('Why does "## My request for Codex:" show in my titles?');
  });

  it('not what Codex injects as user messages: AGENTS.md, instructions, a skill, a shell command run with !, a sub-agent’s notice', () => {
    for (const injected of [
      '# AGENTS.md instructions for /home/dev/shop\n\n<INSTRUCTIONS>\nKeep it short.\n</INSTRUCTIONS>',
      '<user_instructions>\nUse pnpm.\n</user_instructions>',
      '<skill>\n<name>pdf</name>\n<path>/home/dev/.codex/skills/pdf/SKILL.md</path>\nRead PDFs.\n</skill>',
      '<user_shell_command>\n<command>ls</command>\n<output>src</output>\n</user_shell_command>',
      '<subagent_notification>\n{"agent_id":"a","status":"completed"}\n</subagent_notification>',
      '<ENVIRONMENT_CONTEXT>\n  <cwd>/x</cwd>\n</ENVIRONMENT_CONTEXT>',
    ]) {
      expect(codexTitle(env, injected, 'Ship the fix'), injected).toBe('Ship the fix');
    }
  });
});
