/**
 * The calls a message answers itself and the results whose calls it holds (a tool part that is call and result
 * in one, as OpenCode and Copilot write them): those are linked in place, not to another message (the message
 * skeleton knows one result per message, so a second call in it would read as unanswered).
 */
export function ownPairs(parts: ReadonlyArray<{ kind: string; id?: string; callId?: string }>): { answered: Set<string>; called: Set<string> } {
  const calls = new Set<string>();
  const results = new Set<string>();
  for (const p of parts) {
    if (p.kind === 'tool-call' && p.id) calls.add(p.id);
    else if (p.kind === 'tool-result' && p.callId) results.add(p.callId);
  }
  return { answered: new Set([...calls].filter((id) => results.has(id))), called: new Set([...results].filter((id) => calls.has(id))) };
}
