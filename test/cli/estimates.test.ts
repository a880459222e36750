import { spawnSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, ROOT, SWARMS, tempDir } from '../helpers.js';

const BIN = join(ROOT, 'bin', 'conversation-inspector.mjs');
const STATE = tempDir();
const cli = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, XDG_STATE_HOME: STATE } });
const AGENTS = join(ROOT, 'examples', 'agents');
const CLAUDE = join(AGENTS, 'claude-code', 'cart-rewind-compact.jsonl');
const GEMINI = join(AGENTS, 'gemini', 'session-2026-11-30T10-00-3f2a1b9c.json');
const CODEX = join(AGENTS, 'codex', 'rollout-2026-11-21T09-30-00-0199a0b1-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl');

describe('token counts say when they are estimates', () => {
  it("a Claude session is counted for its own model, and says '≈' and which encoding stands in for it", () => {
    const json = JSON.parse(cli('show', CLAUDE, '--json').stdout);
    expect(json).toMatchObject({ model: 'claude-sonnet-4-5-20250929', encoding: 'o200k_base', approximate: true, encodingStandsIn: 'o200k_base stands in for claude-sonnet-4-5-20250929', modelSource: 'session' });
    const text = cli('show', CLAUDE).stdout;
    expect(text).toMatch(new RegExp(`, ≈ ${json.totalTokens.toLocaleString('en-US')} tokens \\(o200k_base stands in for claude-sonnet-4-5-20250929\\)\\n$`));
    // tokens: what the API reported leads, then the count made here, named an estimate.
    const tokens = cli('tokens', CLAUDE).stdout;
    expect(tokens.indexOf('Reported by the API')).toBeGreaterThanOrEqual(0);
    expect(tokens.indexOf('Reported by the API')).toBeLessThan(tokens.indexOf('Counted here: '));
    expect(tokens).toMatch(/^Counted here: \d+ messages?, ≈ [\d,]+ tokens? \(o200k_base stands in for claude-sonnet-4-5-20250929\)/m);
    expect(tokens).toMatch(/^ {2}prices: claude-sonnet-4-5-20250929 \(Claude Sonnet 4\.5\): https:\/\/platform\.claude\.com\/docs\/en\/about-claude\/pricing, read \d{4}-\d{2}-\d{2}$/m);
    const tj = JSON.parse(cli('tokens', CLAUDE, '--json').stdout);
    expect(tj).toMatchObject({ approximate: true, encodingStandsIn: 'o200k_base stands in for claude-sonnet-4-5-20250929' });
    expect(tj.reported.cost.sources[0]).toMatchObject({ label: 'Claude Sonnet 4.5', source: 'https://platform.claude.com/docs/en/about-claude/pricing' });
  }, 180_000);

  it('a Gemini session too; an OpenAI one is counted with its own encoding and no estimate; --model overrides', () => {
    expect(JSON.parse(cli('show', GEMINI, '--json').stdout)).toMatchObject({ model: 'gemini-2.5-pro', approximate: true, encodingStandsIn: 'o200k_base stands in for gemini-2.5-pro' });
    const codex = JSON.parse(cli('show', CODEX, '--json').stdout);
    expect(codex).toMatchObject({ model: 'gpt-5-codex', encoding: 'o200k_base', approximate: false, modelSource: 'session' });
    expect(codex.encodingStandsIn).toBeUndefined();
    expect(cli('show', CODEX).stdout).toMatch(/, [\d,]+ tokens? \(gpt-5-codex, o200k_base\)\n$/);
    const picked = JSON.parse(cli('show', CLAUDE, '--model', 'gpt-4o', '--json').stdout);
    expect(picked).toMatchObject({ model: 'gpt-4o', approximate: false, modelSource: 'option' });
    // A session shown since a compaction that holds no call yet: the model the rest of the file ran on.
    expect(JSON.parse(cli('show', join(FIXTURES, 'formats', 'claude-code', 'session.jsonl'), '--json').stdout)).toMatchObject({ model: 'claude-sonnet-4-5-20250929', approximate: true, modelSource: 'session' });
    // A file that names no model: the default, said so.
    expect(JSON.parse(cli('show', join(SWARMS, 'conversation_demo.json'), '--json').stdout)).toMatchObject({ model: 'gpt-5.4', approximate: false, modelSource: 'default' });
  }, 180_000);

  it('ls counts each file for its session\'s model as show does, and says which totals are estimates', () => {
    const dir = tempDir();
    cpSync(CLAUDE, join(dir, 'claude.jsonl'));
    cpSync(join(SWARMS, 'conversation_demo.json'), join(dir, 'demo.json'));
    const r = cli('ls', dir, '--json');
    const files = JSON.parse(r.stdout).files as Array<{ path: string; tokens: number; model?: string; approximate?: boolean; encodingStandsIn?: string }>;
    const claude = files.find((f) => f.path === 'claude.jsonl')!;
    expect(claude).toMatchObject({ model: 'claude-sonnet-4-5-20250929', approximate: true, encodingStandsIn: 'o200k_base stands in for claude-sonnet-4-5-20250929' });
    expect(claude.tokens).toBe(JSON.parse(cli('show', join(dir, 'claude.jsonl'), '--thread', 'all', '--json').stdout).totalTokens);
    expect(files.find((f) => f.path === 'demo.json')).toMatchObject({ model: 'gpt-5.4', approximate: false });
    expect(cli('ls', dir).stderr).toContain('note: 1 file is counted for a model whose tokenizer is not public (Claude, Gemini, …): o200k_base stands in, its TOKENS are estimates');
  }, 180_000);
});
