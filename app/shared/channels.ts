/**
 * The channel names alone, without zod: the sandboxed preload can require nothing but `electron` (and a few
 * Node shims), so it allowlists from this list. contract.ts checks at compile time that it names exactly
 * the requests and events it defines.
 */
export const REQUEST_NAMES = [
  'app:info',
  'dir:list',
  'conversation:open',
  'conversation:update',
  'conversation:peek',
  'conversation:locate',
  'conversation:rows',
  'conversation:message',
  'conversation:views',
  'conversation:calls',
  'conversation:times',
  'conversation:turns',
  'conversation:search',
  'search:query',
  'search:snippets',
  'catalog:sessions',
  'catalog:usage',
  'tokens:count',
  'tokens:text',
  'window:preview',
  'window:cut',
  'edit:apply',
  'edit:undo',
  'edit:redo',
  'edit:state',
  'edit:save',
  'edit:save-as',
  'edit:cancel-save',
  'edit:revert',
  'edit:export',
  'secrets:list',
  'secrets:dismiss',
  'secrets:redact',
  'share:export',
  'share:export-folder',
  'compare:sessions',
  'history:list',
  'history:restore',
  'history:diff',
  'edit:compare',
  'edit:merge-preview',
  'conversation:set-role',
  'conversation:roles',
  'conversation:path',
  'conversation:reveal',
  'conversation:links',
  'conversation:outline',
  'edit:merge',
  'window:compact',
  'settings:set-api-key',
  'settings:api-key-status',
  'settings:get',
  'settings:set',
  'folder:recent',
  'folder:browse',
  'folder:open',
  'folder:pick',
] as const;

/**
 * Which folders are open is the shell's (Electron main, or the server), not the document service's: opening
 * one replaces the service. These requests never reach it.
 */
export const FOLDER_REQUEST_NAMES = ['folder:recent', 'folder:browse', 'folder:open', 'folder:pick'] as const;
export type FolderRequestName = (typeof FOLDER_REQUEST_NAMES)[number];

export const EVENT_NAMES = ['dir:details', 'dir:changed', 'conversation:changed', 'tokens:partial', 'tokens:progress', 'command:run', 'search:progress', 'catalog:progress', 'folder:opened', 'save:progress'] as const;

export type RequestName = (typeof REQUEST_NAMES)[number];
export type EventName = (typeof EVENT_NAMES)[number];

export const REQUEST_CHANNEL = 'inspector:request';
export const eventChannel = (event: EventName) => `inspector:event:${event}`;
