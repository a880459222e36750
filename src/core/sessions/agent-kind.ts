/** What a Claude Code agent file's id says started it: `acompact-…` the compaction helper, `aside_question-…` a side question. */
export function claudeAgentKind(agentId: string): string {
  const word = /^a([a-z_]+)-/.exec(agentId)?.[1];
  if (!word) return 'sub-agent';
  if (word === 'compact') return 'compaction';
  return word.replace(/_/g, ' ');
}
