import { describe, expect, it } from 'vitest';
import { bareHostTarget, remoteSpec, urlTarget } from './hosts';

describe('urlTarget', () => {
  it.each([
    { url: 'https://registry.npmjs.org/react', want: { host: 'registry.npmjs.org', port: 443 } },
    { url: 'http://Example.COM./x', want: { host: 'example.com', port: 80 } },
    { url: 'https://user:pw@github.com:8443/x', want: { host: 'github.com', port: 8443 } },
    { url: 'ssh://git@github.com/acme/app.git', want: { host: 'github.com', port: 22 } },
    { url: 'git://example.org/repo', want: { host: 'example.org', port: 9418 } },
    { url: 'https://[::1]:8080/', want: { host: '::1', port: 8080 } },
    { url: 'file:///etc/passwd', want: null },
    { url: 'not a url', want: null },
    { url: 'https://user@evil.example@github.com/', want: { host: null, why: "the URL's host can be read more than one way: https://user@evil.example@github.com/" } },
    { url: 'https://github.com\\@evil.example/', want: { host: null, why: "the URL's host can be read more than one way: https://github.com\\@evil.example/" } },
    { url: 'https://{a,b}.example/', want: { host: null, why: "the URL's host can be read more than one way: https://{a,b}.example/" } },
    { url: 'https://[a-z].example/', want: { host: null, why: "the URL's host is malformed: https://[a-z].example/" } },
    { url: 'https://github.com:99999/', want: { host: null, why: "the URL's port is not known: https://github.com:99999/" } },
    { url: 'https:///x', want: { host: null, why: 'the URL names no host: https:///x' } },
    { url: 'weird://host/x', want: { host: null, why: "the URL's port is not known: weird://host/x" } },
  ])('$url', ({ url, want }) => {
    expect(urlTarget(url)).toEqual(want);
  });

  it('a bare host defaults to http', () => {
    expect(bareHostTarget('example.com/path')).toEqual({ host: 'example.com', port: 80 });
  });
});

describe('remoteSpec', () => {
  it.each([
    { text: 'https://github.com/a/b.git', want: { kind: 'url', scheme: 'https', target: { host: 'github.com', port: 443 } } },
    { text: 'git@github.com:a/b.git', want: { kind: 'ssh', user: 'git', host: 'github.com' } },
    { text: 'box:repo.git', want: { kind: 'ssh', user: null, host: 'box' } },
    { text: 'host::module/path', want: { kind: 'rsync-daemon', host: 'host' } },
    { text: '../other', want: { kind: 'local' } },
    { text: 'dir/with:colon', want: { kind: 'local' } },
    { text: '/srv/repo.git', want: { kind: 'local' } },
    { text: 'file:///srv/repo.git', want: { kind: 'local' } },
    { text: 'repo', want: { kind: 'local' } },
  ])('$text', ({ text, want }) => {
    expect(remoteSpec(text)).toEqual(want);
  });
});
