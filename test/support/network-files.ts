// A fixed machine's network configuration for policy tests: the files the classifier consults to learn
// hosts (git remotes, registries, ssh aliases), served from memory at TEST_PATHS' locations.
import { DEFAULT_ALLOW_HOSTS, hostAllowed } from '../../common/hosts';
import type { ReadText } from '../../main/policy/classifier';
import type { HostPredicate } from '../../main/policy/evaluate';

export const TEST_NETWORK_FILES: Readonly<Record<string, string>> = {
  '/home/user/project/.git/config': `[core]
\trepositoryformatversion = 0
[remote "origin"]
\turl = https://github.com/acme/app.git
\tfetch = +refs/heads/*:refs/remotes/origin/*
[remote "mirror"]
\turl = git@gitlab.example.com:acme/app.git
[remote "fork"]
\turl = gh:someone/app.git
\tpushurl = https://push.example.net/app.git
[branch "main"]
\tremote = origin
`,
  '/home/user/.gitconfig': `[user]
\tname = Someone
[url "https://github.com/"]
\tinsteadOf = gh:
[url "ssh://git@evil.example.org/"]
\tpushInsteadOf = https://push.example.net/
`,
  '/home/user/.ssh/config': `Host box
  HostName box.example.com
  Port 2222
Host hop
  HostName inner.example.com
  ProxyJump bastion.example.com
Host *.corp
  Port 2200
`,
  '/home/user/project/sub/.npmrc': 'registry=https://npm.internal.example/\n@acme:registry=https://npm.pkg.github.com/\n',
};

export const testReadText: ReadText = (path) => TEST_NETWORK_FILES[path] ?? null;

/** The default allowlist, as the runtime fills the predicate from `[network] allow_hosts`. */
export const defaultHostAllowed: HostPredicate = (host, port) => hostAllowed(host, port, DEFAULT_ALLOW_HOSTS);
