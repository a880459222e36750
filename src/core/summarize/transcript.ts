import type { Message } from '../message.js';
import { roleContentLine } from '../render.js';

/** The messages as a plain `role: content` transcript for a summarising model. */
export function transcript(messages: readonly Message[]): string {
  return messages.map(roleContentLine).join('\n\n');
}

export const SUMMARY_INSTRUCTIONS =
  'Summarise the conversation below for an agent that will continue it without seeing it. Keep decisions, facts, names, numbers, open tasks and commitments; drop pleasantries. Write plain prose or short bullet points, under 300 words.';
