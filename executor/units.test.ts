import { describe, expect, it } from 'vitest';
import { detectViolations } from './denial';
import { scrubEnv } from './env';
import { HeadTailBuffer } from './output';
import { buildSeccompFilter } from './seccomp';

describe('scrubEnv', () => {
  const env = { PATH: '/bin', HOME: '/h', LANG: 'C', LC_ALL: 'C', TERM: 'xterm', AWS_SECRET_ACCESS_KEY: 'x', GITHUB_TOKEN: 't', OPENAI_API_KEY: 'sk', DB_PASSWORD: 'p', EDITOR: 'vim', MY_VAR: '1' };
  it('keeps the allowlist and drops the rest', () => {
    expect(scrubEnv(env)).toEqual({ PATH: '/bin', HOME: '/h', LANG: 'C', LC_ALL: 'C', TERM: 'xterm', TMPDIR: '/tmp' });
  });
  it('passes a name the user allows, even one that looks secret, but never a provider key', () => {
    expect(scrubEnv(env, ['MY_VAR', 'GITHUB_TOKEN', 'OPENAI_API_KEY'])).toMatchObject({ MY_VAR: '1', GITHUB_TOKEN: 't' });
    expect(scrubEnv(env, ['OPENAI_API_KEY'])).not.toHaveProperty('OPENAI_API_KEY');
  });
});

describe('HeadTailBuffer', () => {
  it('keeps everything under the cap', () => {
    const b = new HeadTailBuffer(100);
    b.push(Buffer.from('hello\n'));
    expect(b.result()).toEqual({ text: 'hello\n', bytes: 6, truncated: false, binary: false });
  });
  it('keeps head and tail with a marker of what was omitted', () => {
    const b = new HeadTailBuffer(20);
    for (let i = 0; i < 100; i++) b.push(Buffer.from(String(i % 10)));
    const r = b.result();
    expect(r).toEqual({ text: '0123456789\n… 80 bytes omitted …\n0123456789', bytes: 100, truncated: true, binary: false });
  });
  it('handles one chunk larger than the cap', () => {
    const b = new HeadTailBuffer(10);
    b.push(Buffer.from('abcdefghijklmnopqrstuvwxyz'));
    expect(b.result().text).toBe('abcde\n… 16 bytes omitted …\nvwxyz');
  });
  it('reports binary output as binary', () => {
    const b = new HeadTailBuffer(100);
    b.push(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2]));
    expect(b.result()).toMatchObject({ binary: true, text: '(binary output, 7 bytes)' });
  });
});

describe('seccomp filter', () => {
  it('is built for x64 and arm64 as whole BPF instructions', () => {
    for (const cpu of ['x64', 'arm64']) expect(buildSeccompFilter(cpu)!.length % 8).toBe(0);
    expect(buildSeccompFilter('mips')).toBeNull();
  });
});

describe('detectViolations', () => {
  it.each([
    { line: "touch: cannot touch '/etc/x': Read-only file system", kind: 'write_denied', target: '/etc/x' },
    { line: 'bash: line 1: .git/hooks/pre-commit: Read-only file system', kind: 'write_denied', target: '/w/.git/hooks/pre-commit' },
    { line: "mkdir: cannot create directory ‘/opt/new’: Read-only file system", kind: 'write_denied', target: '/opt/new' },
    { line: "OSError: [Errno 30] Read-only file system: '/usr/local/lib/x'", kind: 'write_denied', target: '/usr/local/lib/x' },
    { line: "Error: EROFS: read-only file system, open '/home/u/.npm/_cacache/x'", kind: 'write_denied', target: '/home/u/.npm/_cacache/x' },
    { line: 'curl: (6) Could not resolve host: example.com', kind: 'network_denied', target: 'example.com' },
    { line: 'fatal: unable to access: Temporary failure in name resolution', kind: 'network_denied', target: 'the network' },
  ])('$line', ({ line, kind, target }) => {
    expect(detectViolations(line, { class: 'write', cwd: '/w' })).toEqual([{ kind, target, evidence: line }]);
  });
  // macOS: Seatbelt refuses reads of hidden paths and writes outside the writable ones alike with EPERM.
  const hidden = { dirs: ['/Users/u/.ssh'], files: ['/w/.env'] };
  it.each([
    { line: "touch: /Users/u/Documents/x: Operation not permitted", kind: 'write_denied', target: '/Users/u/Documents/x' },
    { line: 'bash: line 1: .git/hooks/pre-commit: Operation not permitted', kind: 'write_denied', target: '/w/.git/hooks/pre-commit' },
    { line: "PermissionError: [Errno 1] Operation not permitted: '/usr/local/lib/x'", kind: 'write_denied', target: '/usr/local/lib/x' },
    { line: 'cat: /Users/u/.ssh/id_ed25519: Operation not permitted', kind: 'read_denied', target: '/Users/u/.ssh/id_ed25519' },
    { line: 'cat: .env: Operation not permitted', kind: 'read_denied', target: '/w/.env' },
    { line: "Error: EPERM: operation not permitted, open '/w/.env'", kind: 'read_denied', target: '/w/.env' },
  ])('macOS: $line', ({ line, kind, target }) => {
    expect(detectViolations(line, { class: 'write', cwd: '/w', hidden, eperm: true })).toEqual([{ kind, target, evidence: line }]);
  });
  it('an EPERM on Linux is not taken for the jail (there it refuses with EROFS)', () => {
    expect(detectViolations('touch: /x: Operation not permitted', { class: 'write', cwd: '/w' })).toEqual([]);
  });
  it('calls a name lookup in a network-class jail a jail denial too: there is no DNS there, only the egress proxy', () => {
    expect(detectViolations('curl: (6) Could not resolve host: x.dev', { class: 'network', cwd: '/w' })).toEqual([{ kind: 'network_denied', target: 'x.dev', evidence: 'curl: (6) Could not resolve host: x.dev' }]);
  });
});
