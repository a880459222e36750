import type { Codec, ConversationDocument } from './codec.js';
import { normalizeRole, type MessageView, type NormalRole } from './model.js';

/**
 * Who speaks under a name the roles of the world do not know ("swarms_corp", "PricingAgent"): what the file
 * itself declares (a swarms Agent's `user_name` and `agent_name`, the conversation a MEMORY.md names), or what
 * the user set. Planners, filters and conversions all read a message's normal role, so a wrong guess here
 * gives a fine-tuning file with no user in it.
 */
export interface RoleDeclaration {
  /** The role as the file spells it. */
  role: string;
  normalRole: NormalRole;
  /** Where that comes from, in words ("user_name", "your setting"). */
  from: string;
}

/** A spelling as roles are compared: case kept, surrounding space and a trailing colon ("Human:") dropped. */
export const roleKey = (role: string) => role.trim().replace(/[:：]\s*$/, '').trim();

/** Declarations, the later ones (the user's) winning over the earlier (the file's). */
export function mergeRoles(...lists: ReadonlyArray<readonly RoleDeclaration[] | undefined>): RoleDeclaration[] {
  const by = new Map<string, RoleDeclaration>();
  for (const list of lists) for (const d of list ?? []) if (roleKey(d.role) !== '') by.set(roleKey(d.role), d);
  return [...by.values()];
}

/**
 * The codec as this file speaks: each view's normal role as declared. The same object for a file without
 * declarations; otherwise a codec of the same id whose views apply them.
 */
export function codecWithRoles(codec: Codec, roles: readonly RoleDeclaration[] | undefined): Codec {
  const base = (codec as Codec & { base?: Codec }).base ?? codec;
  if (!roles || roles.length === 0) return base;
  const map = new Map(roles.map((d) => [roleKey(d.role), d.normalRole] as const));
  const view = (record: unknown): MessageView => {
    const v = base.view(record);
    // A tool's result stays one whatever its speaker is called.
    if (v.normalRole === 'tool') return v;
    const n = map.get(roleKey(v.role));
    return n !== undefined && n !== v.normalRole ? { ...v, normalRole: n } : v;
  };
  return { ...base, view, base, roles } as Codec;
}

/** The declarations a codec applies (none for the plain codec). */
export function rolesOf(codec: Codec): readonly RoleDeclaration[] {
  return (codec as Codec & { roles?: RoleDeclaration[] }).roles ?? [];
}

/**
 * Every role a document's messages are spelled with that the standard names do not cover, with the normal
 * role they are read as and why: what the app shows, and lets the user change.
 */
export function roleMapping(codec: Codec, doc: ConversationDocument): RoleDeclaration[] {
  return mappingOfViews(
    codec,
    doc.conversations.flatMap((c) => c.records.map((r) => codec.view(r))),
  );
}

/** roleMapping, from views already made with `codec` (the app's skeleton has them). */
export function mappingOfViews(codec: Codec, views: readonly MessageView[]): RoleDeclaration[] {
  const declared = new Map(rolesOf(codec).map((d) => [roleKey(d.role), d] as const));
  const out = new Map<string, RoleDeclaration>();
  for (const v of views) {
    const key = roleKey(v.role);
    if (out.has(key) || key === '' || v.normalRole === 'tool') continue;
    const d = declared.get(key);
    if (d) out.set(key, { ...d, normalRole: v.normalRole });
    else if (normalizeRole(key) === 'other') out.set(key, { role: key, normalRole: v.normalRole, from: v.normalRole === 'other' ? 'not a role this tool knows' : 'a name that is no role: swarms writes agents under their own names' });
  }
  return [...out.values()];
}
