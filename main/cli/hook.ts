// `threshold hook …`: another agent's hook (judge a call, run a ticket) and setting it up in that agent's
// settings (install, uninstall). The hook itself usually starts from its own bundle (bin/hook-entry.js);
// this path runs the same code when that bundle is being rebuilt.
import type { CliIo } from './context';

export async function hookCli(argv: string[], io: CliIo): Promise<number> {
  if (argv[0] === 'install' || argv[0] === 'uninstall') return (await import('./hook-install')).installCli(argv, io);
  const { hookMain } = await import('../hooks/client');
  return hookMain(argv, { ...io, self: [process.execPath, process.argv[1] ?? 'threshold'] });
}
