import { roleHue } from './roles.js';

/** A role as the file spells it, coloured by its normalised role ("System: " looks like system). */
export function RoleChip({ role, normal }: { role: string; normal?: string }) {
  const hueOf = normal && normal !== 'other' ? normal : role;
  return (
    <span className="role-chip" style={{ ['--hue' as string]: roleHue(hueOf) }} title={normal && normal !== role ? `${role} (${normal})` : role}>
      {role}
    </span>
  );
}
