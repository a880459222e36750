import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A Claude Code session (written here, in its shape) where one AWS secret is recognisable once only: as
 * `aws_secret_access_key = …` in a tool result's metadata (`toolUseResult`). The same value stands bare in the
 * title, in a prompt, in another tool's result and in a sub-agent's line, where no rule would know it. Every line
 * has the session's cwd under the home folder of `USER_NAME`, and a tool prints `USERNAME=…`.
 */
export const SECRET = 'Zq8vN3kLp0Xr7TbW2yHc5JmQ9sAe1UdFg4Vo6RiK';
export const USER_NAME = 'zoeharrow';
export const SESSION_ID = '5f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f';

export function writeKnownSecretFolder(dir: string): { session: string; notes: string } {
  const project = join(dir, `-home-${USER_NAME}-shop`);
  mkdirSync(project, { recursive: true });
  const cwd = `/home/${USER_NAME}/shop`;
  const base = { isSidechain: false, userType: 'external', cwd, sessionId: SESSION_ID, version: '2.1.0', gitBranch: 'main' };
  let n = 0;
  const uuid = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
  const lines: unknown[] = [{ type: 'summary', summary: `Rotate the key ${SECRET} before Friday`, leafUuid: '00000000-0000-4000-8000-000000000006' }];
  let parent: string | null = null;
  const push = (line: Record<string, unknown>) => {
    const id = uuid();
    lines.push({ parentUuid: parent, ...base, ...line, uuid: id, timestamp: `2026-12-01T10:00:0${n}.000Z` });
    parent = id;
    return id;
  };
  push({ type: 'user', message: { role: 'user', content: `The value ${SECRET} leaked in the chat, find where else it is used.` } });
  push({ type: 'assistant', message: { model: 'claude-sonnet-4-5', id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'aws configure list' } }], usage: { input_tokens: 10, output_tokens: 5 } }, requestId: 'req_1' });
  push({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'profile default, keys configured' }] }, toolUseResult: { stdout: `[default]\naws_secret_access_key = ${SECRET}\nregion = eu-west-1`, stderr: '', interrupted: false } });
  push({ type: 'assistant', message: { model: 'claude-sonnet-4-5', id: 'msg_2', type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_2', name: 'Bash', input: { command: 'env | grep -i user; grep -r key deploy/' } }], usage: { input_tokens: 10, output_tokens: 5 } }, requestId: 'req_2' });
  push({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: `USERNAME=${USER_NAME}\ndeploy/run.sh: KEY_VALUE ${SECRET}\n-rw-r--r-- 1 ${USER_NAME} staff 120 run.sh` }] } });
  const last = push({ type: 'assistant', message: { model: 'claude-sonnet-4-5', id: 'msg_3', type: 'message', role: 'assistant', content: [{ type: 'text', text: `It is in deploy/run.sh too (${SECRET}); rotate it in ${cwd}/deploy.` }], usage: { input_tokens: 10, output_tokens: 5 } }, requestId: 'req_3' });
  // A sub-agent's lines in the same file: on the threads `--thread all` shares.
  parent = last;
  push({ type: 'user', isSidechain: true, message: { role: 'user', content: `Check the CI settings for ${SECRET}` } });
  push({ type: 'assistant', isSidechain: true, message: { model: 'claude-haiku-4-5', id: 'msg_4', type: 'message', role: 'assistant', content: [{ type: 'text', text: `Not in CI. Home is /home/${USER_NAME}.` }], usage: { input_tokens: 1, output_tokens: 1 } }, requestId: 'req_4' });
  const session = join(project, `${SESSION_ID}.jsonl`);
  writeFileSync(session, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  // A file of the folder that holds the value bare only, listed before the session: a folder export learns the
  // value from the session after it has written this one.
  const notes = join(dir, '-aaa-notes.json');
  writeFileSync(notes, JSON.stringify([{ role: 'user', content: `keep ${SECRET} out of the wiki` }, { role: 'assistant', content: 'Noted.' }]));
  return { session, notes };
}

/** What must never be in a redacted output: the secret, and the user's name (the home folder's, as a word). */
export function leftIn(text: string): string[] {
  const found: string[] = [];
  if (text.includes(SECRET)) found.push('the secret');
  if (new RegExp(`\\b${USER_NAME}\\b`).test(text)) found.push('the user name');
  return found;
}
