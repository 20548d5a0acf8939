// The tree a git index describes, computed here instead of by a `git write-tree` process: a snapshot
// then waits for one git process fewer. Only the small plain case is handled — at most
// MAX_ENTRIES_HERE entries, index version 2 or 3, SHA-1,
// every entry at stage 0 with an ordinary mode, no intent-to-add or skip-worktree entries, a checksum
// that matches; anything else returns null and the caller asks git. The trees are git's own objects
// (same bytes, so the same ids: ./index-tree.test.ts compares them with git's), written as
// loose objects where the store does not hold them yet. The index itself is only read.
import { createHash } from 'node:crypto';

/** A tree object to store: its id and its body (without the "tree <size>\0" header). */
export interface TreeObject {
  id: string;
  body: Buffer;
}

interface Entry {
  /** Path bytes as a latin1 string: one character per byte, so sorting and slicing stay byte-exact. */
  path: string;
  mode: string;
  id: Buffer;
}

const MODES = new Map([
  [0o100644, '100644'],
  [0o100755, '100755'],
  [0o120000, '120000'],
  [0o160000, '160000'],
]);

/**
 * Up to how many entries the tree is computed here. It costs about 4 µs an entry (every tree is hashed
 * again, where git reuses the index's cached trees) and blocks the daemon meanwhile: at 1,000 entries
 * that is about what starting `git write-tree` costs; at 10,000 it was 41 ms against git's 31.
 */
export const MAX_ENTRIES_HERE = 1_000;

/** The entries of an index file, or null when it is not the plain case this module handles (or too large to be worth it). */
export function readIndexEntries(buf: Buffer, maxEntries = MAX_ENTRIES_HERE): Entry[] | null {
  if (buf.length < 32 || buf.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = buf.readUInt32BE(4);
  if (version !== 2 && version !== 3) return null;
  if (buf.readUInt32BE(8) > maxEntries) return null;
  // The file ends in the SHA-1 of everything before it: a damaged or foreign file is left to git.
  const sum = createHash('sha1').update(buf.subarray(0, buf.length - 20)).digest();
  if (!sum.equals(buf.subarray(buf.length - 20))) return null;
  const count = buf.readUInt32BE(8);
  const entries: Entry[] = [];
  let p = 12;
  for (let i = 0; i < count; i++) {
    if (p + 62 > buf.length - 20) return null;
    const mode = MODES.get(buf.readUInt32BE(p + 24));
    const flags = buf.readUInt16BE(p + 60);
    const extended = (flags & 0x4000) !== 0;
    if (!mode || (flags & 0x3000) !== 0 || (extended && version < 3)) return null; // unknown mode, a conflict stage
    // Extended flags: intent-to-add (0x2000) and skip-worktree (0x4000) entries are not plain content.
    if (extended && (buf.readUInt16BE(p + 62) & 0x6000) !== 0) return null;
    const nameAt = p + 62 + (extended ? 2 : 0);
    let nameLength = flags & 0xfff;
    if (nameLength === 0xfff) nameLength = buf.indexOf(0, nameAt) - nameAt;
    if (nameLength <= 0 || nameAt + nameLength > buf.length - 20) return null;
    entries.push({ path: buf.toString('latin1', nameAt, nameAt + nameLength), mode, id: buf.subarray(p + 40, p + 60) });
    // Each entry is padded with 1 to 8 NUL bytes to a multiple of eight.
    p += (nameAt - p + nameLength + 8) & ~7;
  }
  return entries;
}

/** Git's order of tree entries: by name, a folder's name compared as if it ended in "/". */
function treeOrder(a: { name: string; dir: boolean }, b: { name: string; dir: boolean }): number {
  const x = a.dir ? `${a.name}/` : a.name;
  const y = b.dir ? `${b.name}/` : b.name;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Every tree of the entries (root last) with the root's id; entries must be the index's, sorted by path. */
export function treesOf(entries: readonly Entry[]): { root: string; trees: TreeObject[] } {
  const trees: TreeObject[] = [];
  const build = (list: readonly Entry[], prefix: number): Buffer => {
    const items: { name: string; dir: boolean; mode: string; id: Buffer }[] = [];
    for (let i = 0; i < list.length; ) {
      const e = list[i]!;
      const slash = e.path.indexOf('/', prefix);
      if (slash === -1) {
        items.push({ name: e.path.slice(prefix), dir: false, mode: e.mode, id: e.id });
        i++;
        continue;
      }
      // A folder: every following entry under the same name (the index keeps them together).
      const head = e.path.slice(0, slash + 1);
      let j = i + 1;
      while (j < list.length && list[j]!.path.startsWith(head)) j++;
      items.push({ name: e.path.slice(prefix, slash), dir: true, mode: '40000', id: build(list.slice(i, j), slash + 1) });
      i = j;
    }
    items.sort(treeOrder);
    const body = Buffer.concat(items.flatMap((it) => [Buffer.from(`${it.mode} ${it.name}\0`, 'latin1'), it.id]));
    const id = createHash('sha1').update(`tree ${body.length}\0`).update(body).digest();
    trees.push({ id: id.toString('hex'), body });
    return id;
  };
  const root = build(entries, 0).toString('hex');
  return { root, trees };
}
