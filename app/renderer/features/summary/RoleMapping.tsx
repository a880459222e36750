import { useEffect, useState } from 'react';
import type { RequestOutput, Skeleton } from '../../../shared/contract.js';
import { request } from '../../api/client.js';
import { useAppPick } from '../../store/index.js';

const NORMAL = ['user', 'assistant', 'system', 'tool', 'other'] as const;

/**
 * Who speaks under the names that are not roles (a swarms agent's own name, its user's), as the file declares
 * it or as guessed, and a choice to say otherwise: planners, filters and conversions read these roles.
 */
export function RoleMapping({ skeleton }: { skeleton: Skeleton }) {
  const { applyChange } = useAppPick('applyChange');
  const [error, setError] = useState<string | undefined>();
  const [mapping, setMapping] = useState<RequestOutput<'conversation:roles'>['roleMapping']>([]);
  // Asked again as the conversation changes (an added message may speak under a new name).
  useEffect(() => {
    let live = true;
    request('conversation:roles', { path: skeleton.path, conversation: skeleton.conversation }).then(
      (r) => live && setMapping(r.roleMapping),
      () => live && setMapping([]),
    );
    return () => {
      live = false;
    };
  }, [skeleton.path, skeleton.conversation, skeleton.roles]);
  if (mapping.length === 0) return null;
  const set = async (role: string, normalRole: (typeof NORMAL)[number] | null) => {
    try {
      const { delta, roleMapping } = await request('conversation:set-role', { path: skeleton.path, conversation: skeleton.conversation, role, normalRole });
      if (delta) await applyChange(delta);
      setMapping(roleMapping);
      setError(undefined);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <section className="role-mapping" aria-label="Who speaks under which name" data-testid="role-mapping">
      <h3>Roles</h3>
      <ul className="role-list">
        {mapping.map((d) => (
          <li key={d.role} data-role={d.role}>
            <span className="mono role-name" title={d.role}>
              {d.role}
            </span>
            <select aria-label={`${d.role} is read as`} value={d.normalRole} onChange={(e) => void set(d.role, e.target.value as (typeof NORMAL)[number])}>
              {NORMAL.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
            <span className="muted why">
              {d.from}
              {d.from === 'your setting' && (
                <>
                  {' · '}
                  <button className="link" onClick={() => void set(d.role, null)} title="Read it as the file says again">
                    as the file says
                  </button>
                </>
              )}
            </span>
          </li>
        ))}
      </ul>
      {error && <p className="error-text">{error}</p>}
    </section>
  );
}
