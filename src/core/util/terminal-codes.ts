/**
 * A terminal's control sequences (ECMA-48 CSI: colours, bold, cursor moves; OSC: titles, links) as a tool's
 * captured output keeps them (Claude Code's `<local-command-stdout>`): a terminal draws them, a page would show
 * their bytes ("⎕[1mSonnet⎕[22m"). Shown without them; the file keeps them.
 */
// eslint-disable-next-line no-control-regex
const SEQUENCES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u009b[0-?]*[ -/]*[@-~]/g;

export function withoutTerminalCodes(text: string): string {
  return text.includes('\u001b') || text.includes('\u009b') ? text.replace(SEQUENCES, '') : text;
}
