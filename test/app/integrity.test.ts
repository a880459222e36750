import { describe, expect, it } from 'vitest';
import { applyEdit, type Message } from '../../src/core/index.js';
import { withPartners } from '../../app/renderer/store/editing.js';

const list: Message[] = ['s', 'u', 'call', 'r1', 'r2', 'a', 'b'].map((c) => ({ role: 'x', content: c }));
const contents = (cmd: ReturnType<typeof withPartners>) => applyEdit(list, cmd as never).messages.map((m) => m.content);

describe('tool-call integrity choices', () => {
  it('delete with or without the partners', () => {
    expect(contents(withPartners({ indexes: [2], partners: [3, 4] }, true))).toEqual(['s', 'u', 'a', 'b']);
    expect(contents(withPartners({ indexes: [2], partners: [3, 4] }, false))).toEqual(['s', 'u', 'r1', 'r2', 'a', 'b']);
  });

  it('moving a call takes its results along to the same place', () => {
    // The user dragged the call to just before 'b' (index 5 among the others once it is out).
    expect(contents(withPartners({ indexes: [2], partners: [3, 4], moveTo: 5 }, true))).toEqual(['s', 'u', 'a', 'call', 'r1', 'r2', 'b']);
    expect(contents(withPartners({ indexes: [2], partners: [3, 4], moveTo: 0 }, true))).toEqual(['call', 'r1', 'r2', 's', 'u', 'a', 'b']);
    expect(contents(withPartners({ indexes: [2], partners: [3, 4], moveTo: 5 }, false))).toEqual(['s', 'u', 'r1', 'r2', 'a', 'call', 'b']);
  });
});
