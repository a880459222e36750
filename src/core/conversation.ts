import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import {
  DEFAULT_TOKENIZER_MODEL,
  applyWrapperMetadata,
  checkContextLength,
  checkExportMethod,
  consoleLogger,
  defaultConversationsDir,
  randomConversationName,
  randomId,
  saveFilepathFor,
  type ConversationOptions,
  type ExportMethod,
  type Logger,
} from './conversation-options.js';
import { findConversationFile, listCachedConversations, listConversations, type ConversationListing } from './conversation-directory.js';
import { IndexError, ValueError } from './errors.js';
import { formatFromPath, readConversationFile, serializeConversation, stringifyJson, NEW_JSON_STYLE } from './formats/index.js';
import { baselineAfterWrite } from './formats/write.js';
import type { FileFormat, ParsedConversation } from './formats/types.js';
import { contentText, isPlainObject, orderedMessage, resolveIndex, type Message } from './message.js';
import { renderHistory, roleContentLine } from './render.js';
import { writeFileAtomicSync } from './storage/atomic-write.js';
import { MEMORY_PREAMBLE, appendMemory, archiveAndReseedMemory, ensureMemoryFile, readMemoryForSeed } from './storage/memory-md.js';
import { getTokenizer, type Tokenizer } from './tokenizer/index.js';
import { applyPlan } from './window/apply.js';
import { SkeletonCache, renderedTail } from './window/skeleton-cache.js';
import { dynamicWindow } from './window/strategies/dynamic-window.js';
import { truncate } from './window/strategies/truncate.js';
import { compactAllPlan } from './window/compaction.js';
import { FATE_CODE, type WindowPlan } from './window/types.js';

export interface CacheStats {
  hits: number;
  misses: number;
  cached_tokens: number;
  hit_rate: number;
}

export interface CategoryTokenCounts {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
}

interface AddFlags {
  /** Append to MEMORY.md (false for the seeded static context). */
  memory: boolean;
  autosave: boolean;
}

/**
 * A conversation history, as spec/conversation-api.md describes it (TypeScript names per DECISIONS.md).
 * Synchronous like the Python class: `add()` returns the stored message.
 */
export class Conversation {
  id: string;
  name: string;
  systemPrompt: string | undefined;
  timeEnabled: boolean;
  autosave: boolean;
  saveFilepath: string;
  loadFilepath: string | undefined;
  contextLength: number;
  rules: string | undefined;
  customRulesPrompt: string | undefined;
  user: string;
  saveAsYamlOn: boolean;
  saveAsJsonBool: boolean;
  tokenCount: boolean;
  messageIdOn: boolean;
  tokenizerModelName: string;
  conversationsDir: string;
  exportMethod: ExportMethod;
  dynamicContextWindow: boolean;
  cacheEnabled: boolean;
  outputMetadata: boolean;
  memoryMdPath: string | undefined;
  maxFileBytes: number | undefined;
  conversationHistory: Message[] = [];

  private readonly logger: Logger;
  /** The file the history was last read from or written to, for style-preserving saves. */
  private source: ParsedConversation | undefined;
  private cache: { key: string; value: string } | undefined;
  private cacheStats = { hits: 0, misses: 0, cachedTokens: 0 };
  private version = 0;
  private readonly skeletons = new SkeletonCache();

  constructor(options: ConversationOptions = {}) {
    this.logger = options.logger ?? consoleLogger;
    this.id = options.id ?? randomId();
    this.name = options.name ?? randomConversationName();
    this.systemPrompt = options.systemPrompt ?? undefined;
    this.timeEnabled = options.timeEnabled ?? false;
    this.autosave = options.autosave ?? false;
    this.contextLength = checkContextLength(options.contextLength);
    this.rules = options.rules ?? undefined;
    this.customRulesPrompt = options.customRulesPrompt ?? undefined;
    this.user = options.user ?? 'User';
    this.saveAsYamlOn = options.saveAsYamlOn ?? false;
    this.saveAsJsonBool = options.saveAsJsonBool ?? false;
    this.tokenCount = options.tokenCount ?? false;
    this.messageIdOn = options.messageIdOn ?? false;
    this.tokenizerModelName = options.tokenizerModelName ?? DEFAULT_TOKENIZER_MODEL;
    this.conversationsDir = defaultConversationsDir(options.conversationsDir);
    this.exportMethod = checkExportMethod(options.exportMethod);
    this.dynamicContextWindow = options.dynamicContextWindow ?? true;
    this.cacheEnabled = options.cacheEnabled ?? false;
    this.outputMetadata = options.outputMetadata ?? false;
    this.memoryMdPath = options.memoryMdPath ?? undefined;
    this.maxFileBytes = options.maxFileBytes;
    this.loadFilepath = options.loadFilepath ?? undefined;
    this.saveFilepath = saveFilepathFor(options.saveFilepath, this.name, this.conversationsDir, this.exportMethod);

    // 1. Resume: only a conversation the caller named (or gave a path) picks up its save file.
    const resumable = options.name !== undefined || options.saveFilepath !== undefined || options.loadFilepath !== undefined;
    let restored = false;
    if (resumable && existsSync(this.saveFilepath)) {
      // A file that cannot be parsed throws: starting empty and autosaving over it would destroy it.
      this.readFile(this.saveFilepath, formatFromPath(this.saveFilepath) ?? this.exportMethod);
      restored = this.conversationHistory.length > 0;
    }
    // 2. Seed the static context.
    if (!restored) {
      const seedFlags: AddFlags = { memory: false, autosave: true };
      if (this.systemPrompt) this.addWith('System', this.systemPrompt, undefined, undefined, seedFlags);
      if (this.rules) this.addWith(this.user, this.rules, undefined, undefined, seedFlags);
      if (this.customRulesPrompt) this.addWith(this.user, this.customRulesPrompt, undefined, undefined, seedFlags);
    }
    // 3. Persistent memory.
    if (this.memoryMdPath) {
      const prior = readMemoryForSeed(this.memoryMdPath);
      ensureMemoryFile(this.memoryMdPath, this.name);
      if (prior !== undefined) this.pushMessage({ role: 'System', content: MEMORY_PREAMBLE + prior });
    }
    // 4. Chat-format seed messages.
    if (options.messages) this.addMessages(options.messages);
  }

  // ---- tokens -------------------------------------------------------------------------------------

  /** The tokenizer of `tokenizerModelName` (an encoding name is accepted too). */
  get tokenizer(): Tokenizer {
    return getTokenizer(this.tokenizerModelName);
  }

  // ---- adding -------------------------------------------------------------------------------------

  add(role: string, content: unknown, metadata?: Record<string, unknown> | null, category?: string | null): Message {
    return this.addWith(role, content, metadata ?? undefined, category ?? undefined, { memory: true, autosave: true });
  }

  private addWith(role: string, content: unknown, metadata: Record<string, unknown> | undefined, category: string | undefined, flags: AddFlags): Message {
    const message = orderedMessage({
      role,
      content,
      timestamp: this.timeEnabled ? new Date().toISOString() : undefined,
      message_id: this.messageIdOn ? randomUUID() : undefined,
      category: category ?? undefined,
      metadata: metadata ?? undefined,
      token_count: this.tokenCount ? this.tokenizer.countContent(content) : undefined,
    });
    this.pushMessage(message);
    if (flags.memory && this.memoryMdPath) appendMemory(this.memoryMdPath, this.name, role, content);
    if (flags.autosave && this.autosave) this.export();
    return message;
  }

  private pushMessage(message: Message): void {
    this.conversationHistory.push(message);
    this.changed();
  }

  private changed(): void {
    this.version++;
    this.cache = undefined;
  }

  /** Chat-format messages; keys other than role and content go under `metadata`. */
  addMessages(messages: ReadonlyArray<Record<string, unknown>>): Message[] {
    if (!Array.isArray(messages)) throw new ValueError('addMessages expects a list of message objects');
    messages.forEach((m, i) => {
      if (!isPlainObject(m)) throw new ValueError(`message ${i} is not an object`);
      if (!('role' in m) || typeof m.role !== 'string') throw new ValueError(`message ${i} has no "role"`);
    });
    return messages.map((m) => {
      const { role, content, metadata, ...rest } = m;
      const merged: Record<string, unknown> = { ...(isPlainObject(metadata) ? metadata : {}), ...rest };
      const hasMeta = Object.keys(merged).length > 0 || isPlainObject(metadata);
      return this.add(role as string, content ?? '', hasMeta ? merged : undefined);
    });
  }

  addMultiple(roles: readonly string[], contents: readonly unknown[]): Message[] {
    if (roles.length !== contents.length) {
      throw new ValueError(`roles and contents differ in length (${roles.length} vs ${contents.length})`);
    }
    return roles.map((role, i) => this.add(role, contents[i]));
  }

  addMultipleMessages(roles: readonly string[], contents: readonly unknown[]): Message[] {
    return this.addMultiple(roles, contents);
  }

  /** Appends message objects as they are: no timestamps, ids, counts, MEMORY.md writes or autosave. */
  batchAdd(messages: readonly Message[]): void {
    for (const m of messages) this.conversationHistory.push(m);
    this.changed();
  }

  addToolOutputToAgent(role: string, toolOutput: unknown): Message {
    return this.add(role, toolOutput);
  }

  // ---- reading and changing messages -------------------------------------------------------------

  query(index: number): Message | null {
    const i = resolveIndex(index, this.conversationHistory.length);
    return i === -1 ? null : this.conversationHistory[i];
  }

  delete(index: number): void {
    const i = resolveIndex(index, this.conversationHistory.length);
    if (i === -1) throw new IndexError(`message index ${index} is out of range (${this.conversationHistory.length} messages)`);
    this.conversationHistory.splice(i, 1);
    this.changed();
  }

  update(index: number, role: string, content: unknown): void {
    const i = resolveIndex(index, this.conversationHistory.length);
    if (i === -1) {
      this.logger.warn(`update: message index ${index} is out of range (${this.conversationHistory.length} messages)`);
      return;
    }
    const message = this.conversationHistory[i];
    message.role = role;
    message.content = content;
    if (message.token_count !== undefined || this.tokenCount) message.token_count = this.tokenizer.countContent(content);
    this.changed();
  }

  clear(): void {
    this.conversationHistory = [];
    this.changed();
  }

  search(keyword: string): Message[] {
    return this.conversationHistory.filter((m) => contentText(m.content).includes(keyword));
  }

  searchKeywordInConversation(keyword: string): Message[] {
    return this.conversationHistory.filter((m) => typeof m.content === 'string' && m.content.includes(keyword));
  }

  countMessagesByRole(): Record<string, number> {
    const counts: Record<string, number> = { system: 0, user: 0, assistant: 0, function: 0 };
    for (const m of this.conversationHistory) counts[m.role] = (counts[m.role] ?? 0) + 1;
    return counts;
  }

  getVisibleMessages(agent: string | { agentName: string }, turn: number): Message[] {
    const agentName = typeof agent === 'string' ? agent : agent?.agentName;
    if (typeof agentName !== 'string') throw new ValueError('getVisibleMessages: agent must be a name or an object with agentName');
    return this.conversationHistory.filter((m, i) => {
      if (!('turn' in m) || !('visible_to' in m)) {
        throw new ValueError(`getVisibleMessages: message ${i} has no ${'turn' in m ? '"visible_to"' : '"turn"'} key`);
      }
      const visible = m.visible_to;
      const canSee = visible === 'all' || (Array.isArray(visible) ? visible.includes(agentName) : visible === agentName);
      return (m.turn as number) < turn && canSee;
    });
  }

  exportAndCountCategories(): CategoryTokenCounts {
    let input = 0;
    let output = 0;
    for (const m of this.conversationHistory) {
      if (m.category === 'input') input += this.tokenizer.countContent(m.content);
      else if (m.category === 'output') output += this.tokenizer.countContent(m.content);
    }
    return { input_tokens: input, output_tokens: output, total_tokens: input + output };
  }

  // ---- rendering ----------------------------------------------------------------------------------

  returnHistoryAsString(): string {
    const key = `${this.version}:${this.conversationHistory.length}:${this.dynamicContextWindow}:${this.contextLength}:${this.tokenizerModelName}`;
    if (this.cacheEnabled && this.cache?.key === key) {
      this.cacheStats.hits++;
      return this.cache.value;
    }
    const value = this.dynamicContextWindow ? this.dynamicAutoChunking() : renderHistory(this.conversationHistory);
    if (this.cacheEnabled) {
      this.cacheStats.misses++;
      this.cacheStats.cachedTokens = this.tokenizer.count(value);
      this.cache = { key, value };
    }
    return value;
  }

  getStr(): string {
    return this.returnHistoryAsString();
  }

  /** The rendered history trimmed from the front to `contextLength` tokens, whatever dynamicContextWindow says. */
  dynamicAutoChunking(): string {
    const skeleton = this.skeletons.skeleton(this.conversationHistory, this.tokenizer);
    const plan = dynamicWindow.plan(skeleton, { contextLength: this.contextLength, boundary: 'text' });
    return renderedTail(skeleton, plan.renderedStart ?? 0);
  }

  /** The window plan the trimming methods follow: the same planners the inspector previews with. */
  planWindow(strategy: 'dynamic-context-window' | 'truncate'): WindowPlan {
    const skeleton = this.skeletons.skeleton(this.conversationHistory, this.tokenizer);
    return strategy === 'truncate'
      ? truncate.plan(skeleton, { contextLength: this.contextLength })
      : dynamicWindow.plan(skeleton, { contextLength: this.contextLength, boundary: 'text' });
  }

  getCacheStats(): CacheStats {
    const { hits, misses, cachedTokens } = this.cacheStats;
    const total = hits + misses;
    return { hits, misses, cached_tokens: cachedTokens, hit_rate: total === 0 ? 0 : hits / total };
  }

  getLastMessageAsString(): string {
    const last = this.conversationHistory[this.conversationHistory.length - 1];
    return last ? roleContentLine(last) : '';
  }

  getFinalMessage(): string {
    return this.getLastMessageAsString();
  }

  getFinalMessageContent(): unknown {
    const last = this.conversationHistory[this.conversationHistory.length - 1];
    return last ? last.content : null;
  }

  returnMessagesAsList(): Array<{ role: string; content: unknown }> {
    return this.conversationHistory.map((m) => ({ role: m.role, content: m.content }));
  }

  returnMessagesAsDictionary(): Array<{ role: string; content: unknown }> {
    return this.returnMessagesAsList();
  }

  returnMessagesAsStrings(): string[] {
    return this.conversationHistory.map(roleContentLine);
  }

  returnJson(): string {
    return stringifyJson(this.returnMessagesAsList(), NEW_JSON_STYLE);
  }

  returnAllExceptFirst(): Message[] {
    const first = this.conversationHistory[0];
    return this.conversationHistory.slice(first?.role === 'System' ? 2 : 1);
  }

  returnAllExceptFirstString(): string {
    return this.returnAllExceptFirst()
      .map((m) => contentText(m.content))
      .join('\n');
  }

  returnListFinal(): unknown[] {
    return [this.getFinalMessageContent()];
  }

  returnDictFinal(): [unknown, unknown] {
    const content = this.getFinalMessageContent();
    return [content, content];
  }

  /** The history list itself, as the spec documents (not a dict). */
  toDict(): Message[] {
    return this.conversationHistory;
  }

  toList(): Message[] {
    return this.conversationHistory;
  }

  toJson(): string {
    return stringifyJson(this.conversationHistory, NEW_JSON_STYLE);
  }

  toYaml(): string {
    return serializeConversation(this.conversationHistory, { format: 'yaml' });
  }

  // ---- trimming -----------------------------------------------------------------------------------

  /**
   * Keeps messages from the start while their (recounted) tokens fit `contextLength`; the crossing message
   * is cut at a sentence boundary when possible, later messages are dropped.
   */
  truncateMemoryWithTokenizer(): void {
    const plan = this.planWindow('truncate');
    this.conversationHistory = applyPlan(this.conversationHistory, plan, { measure: this.tokenizer, countTokens: this.tokenCount });
    this.changed();
  }

  /** Replaces the history with the static context and one summary message (MEMORY.md archived first). */
  compact(summary: string, summaryRole = 'System'): void {
    if (this.memoryMdPath) archiveAndReseedMemory(this.memoryMdPath, this.name);
    const statics: Array<[string, string]> = [];
    if (this.systemPrompt) statics.push(['System', this.systemPrompt]);
    if (this.rules) statics.push([this.user, this.rules]);
    if (this.customRulesPrompt) statics.push([this.user, this.customRulesPrompt]);
    const history = this.conversationHistory;
    const inPlace = statics.every(([role, content], i) => history[i]?.role === role && history[i]?.content === content);
    if (inPlace) {
      // The summarizing planner decides what survives: the static prefix, kept as it is (timestamps, ids).
      const skeleton = this.skeletons.skeleton(history, this.tokenizer, statics.length);
      const plan = compactAllPlan(skeleton);
      this.conversationHistory = history.filter((_, i) => plan.fates[i] === FATE_CODE.kept);
      this.changed();
    } else {
      // The history does not start with the current static context: it is rebuilt from the options.
      this.conversationHistory = [];
      this.changed();
      for (const [role, content] of statics) this.addWith(role, content, undefined, undefined, { memory: false, autosave: false });
    }
    this.add(summaryRole, summary);
  }

  // ---- files --------------------------------------------------------------------------------------

  private readFile(path: string, format: FileFormat): void {
    const parsed = readConversationFile(path, { format, maxFileBytes: this.maxFileBytes });
    // Parsed completely before anything changes: a failed load leaves the history as it was.
    this.conversationHistory = parsed.messages;
    this.source = parsed;
    this.changed();
    const metadata = parsed.root?.metadata;
    if (isPlainObject(metadata)) applyWrapperMetadata(this as unknown as Record<string, unknown>, metadata);
  }

  private writeFile(format: FileFormat): void {
    const path = this.saveFilepath;
    // Saving the file the history came from keeps its style; export() always writes a bare list.
    const baseline = this.source && resolve(this.source.file) === resolve(path) && this.source.format === format ? this.source.baseline : undefined;
    const text = serializeConversation(this.conversationHistory, { format, shape: 'list', baseline });
    writeFileAtomicSync(path, text);
    try {
      this.source = baselineAfterWrite(text, path, format, this.conversationHistory);
    } catch {
      this.source = undefined;
    }
  }

  /** With force=false and autosave off, a save only warns (the spec's export, saveAsJson, saveAsYaml). */
  private save(method: string, force: boolean, format: FileFormat): void {
    if (!force && !this.autosave) {
      this.logger.warn(`${method} skipped: autosave is off and force is false`);
      return;
    }
    this.writeFile(format);
  }

  export(force = true): void {
    this.save('export', force, this.exportMethod);
  }

  saveAsJson(force = true): void {
    this.save('saveAsJson', force, 'json');
  }

  saveAsYaml(force = true): void {
    this.save('saveAsYaml', force, 'yaml');
  }

  /** A missing file only warns and changes nothing, whatever its extension. */
  private exists(method: string, filename: string): boolean {
    if (existsSync(filename)) return true;
    this.logger.warn(`${method}: no such file: ${filename}`);
    return false;
  }

  /** Replaces the history with a file's, choosing the parser by extension. */
  load(filename: string): void {
    if (!this.exists('load', filename)) return;
    const format = formatFromPath(filename);
    if (!format) throw new ValueError(`load: unsupported file type "${extname(filename)}" (expected .json, .yaml or .yml): ${filename}`);
    this.readFile(filename, format);
  }

  loadFromJson(filename: string): void {
    if (this.exists('loadFromJson', filename)) this.readFile(filename, 'json');
  }

  loadFromYaml(filename: string): void {
    if (this.exists('loadFromYaml', filename)) this.readFile(filename, 'yaml');
  }

  /** A `.json` name saves to `saveFilepath` (as the spec documents); any other name gets `role: content` lines. */
  exportConversation(filename: string): void {
    if (extname(filename).toLowerCase() === '.json') {
      this.saveAsJson();
      return;
    }
    writeFileAtomicSync(filename, this.conversationHistory.map((m) => roleContentLine(m) + '\n').join(''));
  }

  importConversation(filename: string): void {
    this.loadFromJson(filename);
  }

  // ---- directories --------------------------------------------------------------------------------

  static loadConversation(name: string, conversationsDir?: string, loadFilepath?: string): Conversation {
    const path = loadFilepath ?? findConversationFile(name, defaultConversationsDir(conversationsDir));
    const conversation = new Conversation({ name, conversationsDir });
    if (path !== undefined) {
      conversation.loadFilepath = path;
      conversation.readFile(path, formatFromPath(path) ?? sniffFormat(path));
    }
    return conversation;
  }

  static listConversations(conversationsDir?: string): ConversationListing[] {
    return listConversations(defaultConversationsDir(conversationsDir));
  }

  static listCachedConversations(conversationsDir?: string): string[] {
    return listCachedConversations(defaultConversationsDir(conversationsDir));
  }
}

/** A file without a known extension: JSON when it starts like JSON, YAML otherwise. */
function sniffFormat(path: string): FileFormat {
  const head = readFileSync(path, 'utf8').trimStart();
  return head.startsWith('[') || head.startsWith('{') ? 'json' : 'yaml';
}
