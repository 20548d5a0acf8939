// open_path cards: the facts the gate observed (real path, application, type), carried in the approval's preview.

/** The facts open_path's preview carries, one "name: value" a line (main/agent/tools.ts previewOpen). */
export function openFacts(preview: string | null): { realPath: string | null; application: string | null; mime: string | null } {
  const get = (name: string) => (preview ?? '').split('\n').find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2) ?? null;
  return { realPath: get('real path'), application: get('application'), mime: get('type') };
}
