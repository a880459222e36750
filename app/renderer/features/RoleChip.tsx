import { roleHue } from './roles.js';

export function RoleChip({ role }: { role: string }) {
  return (
    <span className="role-chip" style={{ ['--hue' as string]: roleHue(role) }} title={role}>
      {role}
    </span>
  );
}
