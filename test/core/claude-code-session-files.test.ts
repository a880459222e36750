import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentIdOfFile, danglingParentOf, parentSessionOf, readAgentHead, runOfAgent, subagentFolderOf, taskRunsOf } from '../../src/core/formats/claude-code/session-files.js';
import { FIXTURES } from '../helpers.js';

const SID = 'b7e2c9d4-1f3a-4c5e-9a8b-2d4f6e8a0c13';
const DIR = join(FIXTURES, 'formats', 'claude-code');
const lines = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);

describe('a Claude Code session spread over files (2.1: sub-agents in <session>/subagents/)', () => {
  const session = join(DIR, `${SID}.jsonl`);
  const agent = join(DIR, SID, 'subagents', 'agent-a3f9e1d2b7c40815.jsonl');

  it('the session’s sub-agent folder, and a sub-agent file’s session, by their names', () => {
    expect(subagentFolderOf(session)).toBe(join(DIR, SID, 'subagents'));
    expect(parentSessionOf(agent)).toBe(session);
    expect(agentIdOfFile(agent)).toBe('a3f9e1d2b7c40815');
    expect(parentSessionOf(session)).toBeUndefined();
  });

  it('the Task call that ran an agent: by the agent id its result names, else by its prompt', () => {
    const runs = taskRunsOf(lines(session));
    expect(runs).toEqual([{ callId: 'toolu_01Agent', prompt: 'List every function in src/ that computes tax or rounds money, with file and line.', agentId: 'a3f9e1d2b7c40815' }]);
    const head = readAgentHead(readFileSync(agent, 'utf8'));
    expect(head).toMatchObject({ agentId: 'a3f9e1d2b7c40815', sessionId: SID });
    expect(runOfAgent(runs, head, undefined)?.callId).toBe('toolu_01Agent');
    // Without toolUseResult: the "agentId: …" line Claude Code ends the result with.
    const bare = lines(session).map((l) => {
      const { toolUseResult: _drop, ...rest } = l;
      return rest;
    });
    expect(taskRunsOf(bare)[0].agentId).toBe('a3f9e1d2b7c40815');
    // Neither: the prompt, whitespace aside.
    const unnamed = [{ callId: 'c1', prompt: '  List every function in src/ that computes tax\nor rounds money, with file and line. ' }];
    expect(runOfAgent(unnamed, { prompt: head.prompt }, undefined)?.callId).toBe('c1');
    expect(runOfAgent(unnamed, { prompt: 'something else' }, undefined)).toBeUndefined();
  });

  it('a head cut mid-line reads the lines before it', () => {
    const text = readFileSync(agent, 'utf8');
    expect(readAgentHead(text.slice(0, text.indexOf('\n') + 40)).prompt).toContain('List every function');
  });

  it('a file resumed from another names the message it goes on from; a whole file names none', () => {
    expect(danglingParentOf(lines(session))).toBeUndefined();
    expect(danglingParentOf(lines(join(DIR, 'cart-rewind-compact.jsonl')))).toBeUndefined();
    const resumed = [{ uuid: 'x2', parentUuid: 'elsewhere-1', type: 'user' }, { uuid: 'x3', parentUuid: 'x2', type: 'assistant' }];
    expect(danglingParentOf(resumed)).toBe('elsewhere-1');
    expect(danglingParentOf([{ uuid: 'b', parentUuid: null, logicalParentUuid: 'gone', type: 'system', subtype: 'compact_boundary' }])).toBe('gone');
  });
});
