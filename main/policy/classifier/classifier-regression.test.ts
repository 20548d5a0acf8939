// Every bypass that was ever fixed gets a line here, with the class (and hardline) it must keep.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Class } from '../../../common/domain';
import { TEST_PATHS } from '../../../test/support/policy';
import { classifyCommand, initClassifier } from './index';

beforeAll(async () => {
  await initClassifier();
});

const cases: { fixed: string; cmd: string; class: Class; hardline?: boolean; secret?: boolean }[] = [
  { fixed: 'a versioned program name (mkfs.ext4) skipped the device check', cmd: 'mkfs.ext4 /dev/sda1', class: 'destructive', hardline: true },
  { fixed: 'ssh -o ProxyCommand ran local code unseen', cmd: 'ssh -o ProxyCommand="rm -rf ~" host', class: 'destructive', hardline: true },
  { fixed: 'find / -exec rm was only a write', cmd: 'find / -exec rm -rf {} \\;', class: 'destructive', hardline: true, secret: true },
  { fixed: 'find -exec treated {} as a literal file name', cmd: 'find . -name "*.o" -exec rm {} +', class: 'write' },
  { fixed: 'tee to /dev/null counted as a write', cmd: 'echo hi | tee /dev/null', class: 'read' },
  { fixed: 'a workspace under /srv made every write destructive', cmd: 'touch notes.md', class: 'write' },
  { fixed: 'cat of a here-document piped to sh hid the code', cmd: 'cat <<EOF | sh\nrm -rf ~\nEOF', class: 'destructive', hardline: true },
  { fixed: 'brace expansion spelled the command', cmd: 'rm -rf /{etc,usr}', class: 'destructive' },
  { fixed: 'an empty variable turns rm -rf "$X"/ into rm -rf /', cmd: 'rm -rf "$BUILD_DIR"/', class: 'destructive' },
  { fixed: 'cd into a credential folder hid the read', cmd: 'cd ~/.aws && cat credentials', class: 'read', secret: true },
  { fixed: 'GNU long-option abbreviations hid sed --in-place', cmd: "sed --in-pl 's/a/b/' f", class: 'write' },
  { fixed: 'a substitution in an array subscript ran unseen', cmd: 'a[$(rm -rf ~)]=1', class: 'destructive', hardline: true },
  { fixed: 'alias hid the code it defines', cmd: 'alias ls="rm -rf ~"; ls', class: 'destructive', hardline: true },
];

describe('classifier regressions', () => {
  it.each(cases)('$fixed: `$cmd` stays $class', ({ cmd, class: cls, hardline, secret }) => {
    const c = classifyCommand(cmd, { ctx: TEST_PATHS });
    expect({ class: c.class, hardline: c.hardline, secret: c.effects.includes('secret_read') }).toEqual({ class: cls, hardline: hardline ?? false, secret: secret ?? false });
  });
});
