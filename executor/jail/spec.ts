// What a jail looks like, decided before anything runs. The Linux (bubblewrap) and macOS (Seatbelt)
// builders turn the same spec into their own form.
import type { JailClass } from '../types';
import type { HomeView } from './home-view';

export interface JailSpec {
  class: JailClass;
  workspace: string;
  cwd: string;
  home: string;
  /** Writable besides the workspace (granted paths); ignored for the read class. */
  extraWritable: string[];
  /** Existing folders to hide: the home folder's dot-entries, credential folders (an empty tmpfs over each). */
  hiddenDirs: string[];
  /** Existing files to hide (the unreadable placeholder over each: reading one fails). */
  hiddenFiles: string[];
  /** Hidden files that read as empty instead (/dev/null over each): start-up configs programs fail without. */
  emptiedFiles: string[];
  /** An empty file with no permissions: the placeholder over hidden files. */
  unreadableFile: string;
  /** Paths inside the workspace that stay read-only even when it is writable (git hooks, .envrc, …). */
  readOnlyInWorkspace: string[];
  /** Such paths that do not exist yet: covered by an empty read-only placeholder so they cannot be created. */
  absentProtected: { path: string; dir: boolean }[];
  /** Outside-jail code paths the user allowed to be written (the macOS profile protects the others at any depth, and must leave these out). */
  grantedCodePaths?: string[];
  /** The scrubbed environment. */
  env: Record<string, string>;
  /** An empty regular file: the read-only placeholder over protected files that do not exist yet. */
  emptyFile: string;
  /**
   * The home folder rendered on one tmpfs (Linux): its hidden entries as empty folders and unreadable
   * files instead of a mount each. Absent where the mounts per entry stay (see home-view.ts). The
   * hidden lists above stay complete either way (the macOS profile and the denial messages use them).
   */
  homeView?: HomeView;
  /** File descriptor of a seccomp program to load, if any. */
  seccompFd?: number;
}
