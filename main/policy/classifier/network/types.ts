// What a network program does with the network, as the level `full` and the egress proxy need to know:
// whether it only downloads, and from which hosts.

/** One host a command reaches, or the admission that the classifier cannot know it. */
export type HostTarget = { host: string; port: number } | { host: null; why: string };

export interface NetworkUse {
  /**
   * download: only fetches (its requests carry nothing local but the names of what it fetches);
   * upload: sends local data or changes something remote (push, publish, POST, a remote command);
   * connect: an interactive or raw connection whose traffic the classifier cannot judge.
   */
  kind: 'download' | 'upload' | 'connect';
  hosts: HostTarget[];
  /** Shown on the card: "git push sends commits to github.com". */
  reason: string;
}

/**
 * Reads a small text file (a configuration file the classifier consults to learn a host), or null when
 * it does not exist or cannot be read. Injected, so the classifier itself does no I/O; it is only called
 * for commands that reach the network.
 */
export type ReadText = (absolutePath: string) => string | null;

export function describeHost(t: HostTarget): string {
  if (t.host === null) return `an unknown host (${t.why})`;
  return t.port === 443 || t.port === 80 ? t.host : `${t.host}:${t.port}`;
}
