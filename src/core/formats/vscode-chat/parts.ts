import { isPlainObject } from '../../message.js';
import type { Part } from '../model.js';

/**
 * The parts of a VS Code chat response (`requests[i].response`), as VS Code's `ChatModel.toExport` writes them:
 * a markdown string is written as its `IMarkdownString` (`{value, supportThemeIcons, …}`, no `kind`; newer
 * builds may write `{kind: "markdownContent", content}`), a file tree as its bare data, and every other part
 * as it is, with its `kind`. What a part means here follows `AbstractResponse.partsToRepr` (the text VS Code
 * copies a response as): markdown and inline references run together as one text, other parts stand apart.
 */

type Loose = Record<string, unknown>;

/** The copilot-chat result metadata of the request a response belongs to: tool calls as the model made them, and their results. */
export interface ResponseContext {
  /** `result.metadata.toolCallRounds[].toolCalls[]`: `{id, name, arguments}` (the id with copilot-chat's `__vscode-N` suffix). */
  calls: Array<{ id: string; name: string; arguments: string }>;
  /** `result.metadata.toolCallResults`: LanguageModelToolResult by call id. */
  results: Record<string, unknown>;
}

/** An `IMarkdownString` or a plain string, as text. */
export function markdownText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (isPlainObject(v) && typeof v.value === 'string') return v.value;
  return undefined;
}

/** A URI as VS Code serialises it (`{$mid, scheme, path, fsPath?, …}`), a string, or a `Location` (`{uri, range}`). */
export function uriText(u: unknown): string | undefined {
  if (typeof u === 'string') return u;
  if (!isPlainObject(u)) return undefined;
  if (isPlainObject(u.uri)) {
    const base = uriText(u.uri);
    const r = isPlainObject(u.range) ? u.range : undefined;
    return base !== undefined && r && typeof r.startLineNumber === 'number' ? `${base}:${r.startLineNumber}${typeof r.endLineNumber === 'number' && r.endLineNumber !== r.startLineNumber ? `-${r.endLineNumber}` : ''}` : base;
  }
  if (typeof u.path !== 'string') return undefined;
  const scheme = typeof u.scheme === 'string' ? u.scheme : 'file';
  if (scheme === 'file') return typeof u.fsPath === 'string' ? u.fsPath : u.path;
  return `${scheme}://${typeof u.authority === 'string' ? u.authority : ''}${u.path}`;
}

const basename = (p: string) => p.replace(/[/\\]+$/, '').split(/[/\\]/).pop() ?? p;

/** An inline reference as VS Code's text of a response spells it: a symbol's name in backticks, a link, a file's base name. */
function inlineReferenceText(part: Loose): string {
  if (typeof part.name === 'string' && part.name !== '') return part.name;
  const ref = part.inlineReference;
  if (isPlainObject(ref) && !isPlainObject(ref.uri) && typeof ref.name === 'string') return '`' + ref.name + '`';
  const target = isPlainObject(ref) && isPlainObject(ref.uri) ? ref.uri : ref;
  const scheme = isPlainObject(target) && typeof target.scheme === 'string' ? target.scheme : 'file';
  const text = uriText(target) ?? '';
  return scheme === 'http' || scheme === 'https' ? text : basename(text);
}

/** The kind of a response part: `markdownContent` for a bare markdown string, `treeData` for other kindless data. */
export function partKind(part: unknown): string {
  if (!isPlainObject(part)) return typeof part === 'string' ? 'markdownContent' : 'unknown';
  if (typeof part.kind === 'string') return part.kind;
  return typeof part.value === 'string' ? 'markdownContent' : 'treeData';
}

/** The text of a markdown part, either shape. */
export function markdownPartText(part: unknown): string | undefined {
  if (typeof part === 'string') return part;
  if (!isPlainObject(part)) return undefined;
  if (typeof part.kind !== 'string') return typeof part.value === 'string' ? part.value : undefined;
  if (part.kind === 'markdownContent' || part.kind === 'markdownVuln') return markdownText(part.content) ?? markdownText(part);
  return undefined;
}

/** Text in a LanguageModelToolResult's parts: text parts' `value`, prompt-tsx trees' text leaves. */
function toolResultText(result: unknown): string | undefined {
  const content = isPlainObject(result) ? result.content : result;
  if (!Array.isArray(content)) return undefined;
  const leaves = (node: unknown, out: string[]): void => {
    if (Array.isArray(node)) for (const n of node) leaves(n, out);
    else if (isPlainObject(node)) {
      if (typeof node.text === 'string') out.push(node.text);
      if (node.children !== undefined) leaves(node.children, out);
      if (node.node !== undefined) leaves(node.node, out);
    }
  };
  const texts = content.map((c) => {
    if (typeof c === 'string') return c;
    if (!isPlainObject(c)) return '';
    if (typeof c.value === 'string') return c.value;
    const out: string[] = [];
    leaves(c.value, out);
    return out.join('');
  });
  return texts.join('\n');
}

const stripInternalId = (id: string) => id.replace(/__vscode-\d+$/, '');

/** The model's call a tool invocation ran, by id (copilot-chat appends `__vscode-N` to the model's id). */
function callById(ctx: ResponseContext | undefined, invocation: unknown): ResponseContext['calls'][number] | undefined {
  if (!ctx || !isPlainObject(invocation) || typeof invocation.toolCallId !== 'string' || invocation.toolCallId === '') return undefined;
  const id = invocation.toolCallId;
  return ctx.calls.find((c) => c.id === id) ?? ctx.calls.find((c) => stripInternalId(c.id) === stripInternalId(id));
}

/** What a terminal, input or sub-agent tool's data says it was given. */
function specificArguments(data: unknown): string | undefined {
  if (!isPlainObject(data)) return undefined;
  if (data.kind === 'terminal' && isPlainObject(data.commandLine)) {
    const c = data.commandLine;
    const command = [c.userEdited, c.toolEdited, c.original].find((x) => typeof x === 'string');
    return command === undefined ? undefined : JSON.stringify({ command });
  }
  if (data.kind === 'input' && data.rawInput !== undefined) return JSON.stringify(data.rawInput);
  if (data.kind === 'subagent' && typeof data.prompt === 'string') return JSON.stringify({ prompt: data.prompt });
  return undefined;
}

/** A tool's result as `resultDetails` keeps it: an MCP-style `{input, output: [{type: "embed", value, isText}]}`, or the files it touched. */
function detailsResult(details: unknown): { text: string; isError?: boolean } | undefined {
  if (Array.isArray(details)) {
    const refs = details.map(uriText).filter((s): s is string => s !== undefined);
    return refs.length > 0 ? { text: refs.join('\n') } : undefined;
  }
  if (!isPlainObject(details)) return undefined;
  const isError = details.isError === true || undefined;
  if (typeof details.output === 'string') return { text: details.output, isError };
  // No output at all: the call was not answered (a result of nothing has an empty text part).
  if (!Array.isArray(details.output) || details.output.length === 0) return undefined;
  const texts = details.output.flatMap((o) => {
    if (!isPlainObject(o)) return [];
    if (o.type === 'ref') return [uriText(o.uri) ?? ''];
    const textual = o.isText === true || (typeof o.mimeType === 'string' && o.mimeType.startsWith('text/'));
    return typeof o.value === 'string' && textual ? [o.value] : [];
  });
  return { text: texts.join('\n'), isError };
}

/** A serialised tool invocation as a call, and its result where the file keeps one. */
function invocationParts(inv: Loose, ctx: ResponseContext | undefined, call: ResponseContext['calls'][number] | undefined): Part[] {
  const id = typeof inv.toolCallId === 'string' ? inv.toolCallId : undefined;
  const details = isPlainObject(inv.resultDetails) ? inv.resultDetails : undefined;
  const args = call?.arguments ?? (typeof details?.input === 'string' ? details.input : undefined) ?? specificArguments(inv.toolSpecificData) ?? '';
  const parts: Part[] = [{ kind: 'tool-call', id, name: typeof inv.toolId === 'string' ? inv.toolId : (call?.name ?? ''), arguments: args }];
  const fromMetadata = call && ctx ? toolResultText(ctx.results[call.id]) : undefined;
  const fromDetails = detailsResult(inv.resultDetails);
  const sub = isPlainObject(inv.toolSpecificData) && inv.toolSpecificData.kind === 'subagent' && typeof inv.toolSpecificData.result === 'string' ? inv.toolSpecificData.result : undefined;
  const text = fromMetadata ?? fromDetails?.text ?? sub;
  if (text !== undefined) parts.push({ kind: 'tool-result', callId: id, text, ...(fromDetails?.isError ? { isError: true } : {}) });
  return parts;
}

/** Kinds VS Code keeps for its own bookkeeping, shown as nothing (the stream's undo points, a tool about to stream, progress lines). */
const CONTROL = new Set(['undoStop', 'prepareToolInvocation', 'progressMessage', 'progressTask', 'progressTaskSerialized', 'command', 'mcpServersStarting', 'codeCitation', 'reference', 'usedContext']);

/** A response's parts as message parts; a kind this reader does not know is an unknown part with its JSON. */
export function responseParts(response: readonly unknown[], ctx: ResponseContext | undefined): Part[] {
  const parts: Part[] = [];
  let run: string[] | undefined;
  const flush = () => {
    if (run && run.join('') !== '') parts.push({ kind: 'text', text: run.join('') });
    run = undefined;
  };
  const invocations = response.filter((p) => isPlainObject(p) && (p.kind === 'toolInvocationSerialized' || p.kind === 'toolInvocation'));
  // Ids that never meet (a participant's own): the rounds' calls in order, when they are as many as the invocations.
  const positional = ctx !== undefined && ctx.calls.length === invocations.length && invocations.every((p) => callById(ctx, p) === undefined);
  for (const p of response) {
    const kind = partKind(p);
    const md = markdownPartText(p);
    if (md !== undefined) {
      (run ??= []).push(md);
      continue;
    }
    const part = p as Loose;
    if (kind === 'inlineReference') {
      (run ??= []).push(inlineReferenceText(part));
      continue;
    }
    if (CONTROL.has(kind)) continue;
    flush();
    switch (kind) {
      case 'thinking': {
        const text = Array.isArray(part.value) ? part.value.filter((s) => typeof s === 'string').join('') : typeof part.value === 'string' ? part.value : '';
        // An empty thinking part closes the one before it (VS Code shows nothing for it).
        if (text !== '') parts.push({ kind: 'reasoning', text });
        break;
      }
      case 'toolInvocationSerialized':
      case 'toolInvocation':
        for (const q of invocationParts(part, ctx, callById(ctx, part) ?? (positional ? ctx?.calls[invocations.indexOf(p)] : undefined))) parts.push(q);
        break;
      case 'textEditGroup':
      case 'notebookEditGroup':
      case 'codeblockUri': {
        // A code block's file (codeblockUri) right after the edits to that file says it again: shown once.
        const ref = uriText(part.uri);
        const last = parts[parts.length - 1];
        if (ref !== undefined && !(kind === 'codeblockUri' && last?.kind === 'file' && last.ref === ref)) parts.push({ kind: 'file', ref });
        break;
      }
      case 'warning':
        parts.push({ kind: 'text', text: markdownText(part.content) ?? '' });
        break;
      case 'confirmation':
        parts.push({ kind: 'text', text: [part.title, markdownText(part.message)].filter((s) => typeof s === 'string' && s !== '').join('\n') });
        break;
      default:
        parts.push({ kind: 'unknown', type: kind, text: JSON.stringify(p) ?? '' });
    }
  }
  flush();
  return parts;
}
