// Known options of git's read paths (format in ../args.ts), from git's manual pages. A read subcommand
// without a table here accepts no option at all. Left out on purpose: -c/--config-env (configuration
// that can run code), --exec-path=DIR, --output (writes), --ext-diff/--textconv (run configured
// programs), git grep -O (opens a program), git help -w/-i (a browser, info), interpret-trailers
// --in-place, fsck --lost-found (writes), archive --remote/--exec.

/** Options before the subcommand; they end at the subcommand. */
export const GIT_GLOBAL = `@in-order --version --help -h -v -C: !-c: !--config-env= !--exec-path? --html-path --man-path --info-path -p --paginate -P
  --no-pager --git-dir= --work-tree= --namespace= --bare --no-replace-objects --no-lazy-fetch --no-optional-locks --no-advice
  --literal-pathspecs --glob-pathspecs --noglob-pathspecs --icase-pathspecs --list-cmds= --attr-source=`;

/** Options of the diff machinery, shared by log, show, diff and the plumbing that prints diffs. */
const DIFF = `-p -u -s -U: -W -z -R -a -b -w -M? -C? -B? -D -l: -S: -G: -O: -X? -NUM --patch --no-patch --unified= --output-indicator-new=
  --output-indicator-old= --output-indicator-context= --raw --patch-with-raw --indent-heuristic --no-indent-heuristic --minimal
  --patience --histogram --anchored= --diff-algorithm= --stat? --compact-summary --numstat --shortstat --dirstat? --cumulative
  --dirstat-by-file? --summary --patch-with-stat --name-only --name-status --submodule? --color? --no-color --color-moved?
  --no-color-moved --color-moved-ws= --no-color-moved-ws --word-diff? --word-diff-regex= --color-words? --no-renames
  --rename-empty --no-rename-empty --check --ws-error-highlight= --full-index --binary --abbrev? --break-rewrites?
  --find-renames? --find-copies? --find-copies-harder --irreversible-delete --diff-filter= --find-object= --pickaxe-all
  --pickaxe-regex --skip-to= --rotate-to= --relative? --no-relative --text --ignore-cr-at-eol --ignore-space-at-eol
  --ignore-space-change --ignore-all-space --ignore-blank-lines --ignore-matching-lines= --inter-hunk-context= --function-context
  --exit-code --quiet --no-ext-diff --no-textconv --ignore-submodules? --src-prefix= --dst-prefix= --no-prefix --default-prefix
  --line-prefix= --ita-invisible-in-index --ita-visible-in-index --cached --staged --merge-base --no-index --stat-width=
  --stat-name-width= --stat-count= --stat-graph-width= -1 -2 -3 -0 --base --ours --theirs -c --cc --combined-all-paths -m
  --diff-merges= --no-diff-merges --remerge-diff --dd -t -r --root --no-commit-id --always --stdin --pretty? --format=
  --oneline --encoding= --expand-tabs? --no-expand-tabs --notes? --no-notes --show-notes? --show-signature --relative-date
  --date= --parents --children --left-right --graph --show-linear-break? --decorate? --no-decorate --decorate-refs=
  --decorate-refs-exclude= --source --clear-decorations --mailmap --no-mailmap --use-mailmap --no-use-mailmap --full-diff
  --log-size --show-pulls -L: !--output= !--ext-diff !--textconv`;

/** Options that choose and order commits (log, rev-list, shortlog, show-branch ...). */
const REVISIONS = `-n: -i -E -F -P --max-count= --skip= --since= --after= --until= --before= --since-as-filter= --author= --committer= --grep-reflog=
  --grep= --all-match --invert-grep --regexp-ignore-case --basic-regexp --extended-regexp --fixed-strings --perl-regexp
  --remove-empty --merges --no-merges --min-parents= --max-parents= --no-min-parents --no-max-parents --first-parent
  --exclude-first-parent-only --not --all --branches? --tags? --remotes? --glob= --exclude= --exclude-hidden= --reflog
  --alternate-refs --single-worktree --ignore-missing --bisect --cherry-mark --cherry-pick --left-only --right-only --cherry
  --walk-reflogs -g --merge --boundary --simplify-by-decoration --sparse --full-history --dense --simplify-merges --ancestry-path?
  --topo-order --date-order --author-date-order --reverse --no-walk? --do-walk --follow --count --objects --objects-edge
  --unpacked --object-names --no-object-names --filter= --no-filter --in-commit-order --timestamp --header --abbrev-commit
  --no-abbrev-commit --no-abbrev --full-history --show-origin --stdin --quiet --disk-usage? --missing=`;

const STATUS = `-s -b -u? -z --short --branch --show-stash --porcelain? --long --verbose -v --untracked-files? --ignore-submodules? --ignored?
  --no-renames --renames --find-renames? --column? --no-column --ahead-behind --no-ahead-behind --null`;

export const GIT_READ_OPTIONS: Readonly<Record<string, string>> = {
  'verify-pack': '-v --verbose -s --stat-only --object-format=',
  'show-index': '--object-format=',
  'check-mailmap': '--mailmap-file= --mailmap-blob= --stdin',
  'hash-object': '-t: --stdin --stdin-paths --path= --no-filters --literally',
  'fast-export': `--all --progress= --signed-tags= --tag-of-filtered-object= --fake-missing-tagger --use-done-feature --no-data --full-tree
    --anonymize --anonymize-map= --reference-excluded-parents --show-original-ids --reencode= --mark-tags --refspec= ${'--branches? --tags? --remotes?'}`,
  'symbolic-ref': '-q --quiet --short --no-recurse --recurse',
  rerere: '',
  lfs: '',
  bisect: '',
  difftool: '--tool-help',
  mergetool: '--tool-help',
  clean: '-n --dry-run -d -f --force -q --quiet -e: --exclude= -x -X -i --interactive',
  prune: '-n --dry-run -v --verbose --progress --expire=',
  status: STATUS,
  log: `${DIFF} ${REVISIONS}`,
  whatchanged: `${DIFF} ${REVISIONS}`,
  show: `${DIFF} ${REVISIONS}`,
  diff: DIFF,
  'diff-tree': `${DIFF} ${REVISIONS}`,
  'diff-index': DIFF,
  'diff-files': DIFF,
  'rev-list': `${REVISIONS} --pretty? --format= --oneline --graph --parents --children --left-right --date=`,
  shortlog: `${REVISIONS} -s -n -e -c -w? --summary --numbered --email --format= --group= --committer`,
  cherry: '-v --abbrev?',
  'range-diff': `${DIFF} --creation-factor= --no-dual-color --left-only --right-only`,
  'rev-parse': `--parseopt --sq-quote --keep-dashdash --stop-at-non-option --stuck-long --revs-only --no-revs --flags --no-flags --default=
    --prefix= --verify -q --quiet --sq --short? --not --abbrev-ref? --symbolic --symbolic-full-name --all --branches? --tags? --remotes?
    --glob= --exclude= --exclude-hidden= --disambiguate= --local-env-vars --path-format= --git-dir --git-common-dir --resolve-git-dir=
    --git-path= --show-toplevel --show-superproject-working-tree --shared-index-path --absolute-git-dir --is-inside-git-dir
    --is-inside-work-tree --is-bare-repository --is-shallow-repository --show-cdup --show-prefix --show-object-format? --show-ref-format
    --since= --after= --until= --before= --end-of-options`,
  'ls-files': `-c -d -m -o -i -s -u -k -z -t -v -f -x: -X: --cached --deleted --modified --others --ignored --stage --unmerged --killed
    --directory --no-empty-directory --eol --deduplicate --exclude= --exclude-from= --exclude-per-directory= --exclude-standard
    --error-unmatch --with-tree= --full-name --recurse-submodules --abbrev? --debug --sparse --format=`,
  'ls-tree': '-d -r -t -l -z --long --name-only --name-status --object-only --full-name --full-tree --abbrev? --format=',
  'cat-file': '-t -s -e -p --textconv? --filters --path= --batch? --batch-check? --batch-command? --batch-all-objects --buffer --unordered --allow-unknown-type --follow-symlinks -Z --mailmap --no-mailmap --use-mailmap --no-use-mailmap',
  describe: '--dirty? --broken? --all --tags --contains --abbrev= --candidates= --exact-match --debug --long --match= --exclude= --always --first-parent',
  blame: `-b -c -l -t -S: -p -e -w -s -f -n -M? -C? -L: --root --show-stats --score-debug --show-name --show-number --show-email --incremental
    --porcelain --line-porcelain --reverse= --first-parent --encoding= --contents= --date= --progress --no-progress --ignore-rev=
    --ignore-revs-file= --color-lines --color-by-age --abbrev? --minimal`,
  annotate: '-b -c -l -t -S: -p -e -w -s -f -n -M? -C? -L: --root --show-stats --porcelain --encoding= --date= --contents=',
  'name-rev': '--tags --refs= --exclude= --all --annotate-stdin --name-only --no-undefined --always',
  'merge-base': '-a --all --octopus --independent --is-ancestor --fork-point',
  'show-ref': '--head --heads --branches --tags -d --dereference -s --hash? --verify --abbrev? -q --quiet --exclude-existing? --exists',
  'for-each-ref': '--count= --sort= --format= --color? --shell --perl --python --tcl --points-at= --merged? --no-merged? --contains? --no-contains? --ignore-case --omit-empty --exclude= --stdin --include-root-refs',
  'count-objects': '-v -H --verbose --human-readable',
  fsck: '--unreachable --dangling --no-dangling --root --tags --cache --no-reflogs --full --no-full --connectivity-only --strict --verbose --name-objects --progress --no-progress --references --no-references',
  version: '--build-options',
  help: '-a -g -m --all --guides --man --verbose --config --no-external-commands --no-aliases --user-interfaces --developer-interfaces',
  var: '-l',
  'check-ignore': '-q -v -n -z --quiet --verbose --stdin --non-matching --no-index',
  'check-attr': '-a -z --all --cached --stdin --source=',
  'check-ref-format': '--normalize --allow-onelevel --no-allow-onelevel --refspec-pattern --branch',
  grep: `-e: -f: -i -I -w -v -h -H -l -L -n -c -o -q -z -a -r -E -F -G -P -W -p -NUM -A: -B: -C: -m: --cached --untracked --no-index
    --no-exclude-standard --exclude-standard --recurse-submodules --text --no-textconv --ignore-case --word-regexp --invert-match
    --full-name --extended-regexp --basic-regexp --perl-regexp --fixed-strings --line-number --column --files-with-matches
    --name-only --files-without-match --count --color? --no-color --break --heading --show-function --function-context --threads=
    --and --or --not --all-match --quiet --null --only-matching --max-depth= --max-count= --after-context= --before-context=
    --context= !-O? !--open-files-in-pager?`,
  'verify-commit': '-v --verbose --raw',
  'verify-tag': '-v --verbose --raw --format=',
  'show-branch': '-a -r --all --remotes --topo-order --date-order --current --color? --no-color --sparse --more= --list --merge-base --independent --no-name --sha1-name --topics -g --reflog?',
  'get-tar-commit-id': '',
  column: '--command= --mode= --raw-mode= --width= --indent= --nl= --padding=',
  'patch-id': '--stable --unstable --verbatim',
  branch: `-a -r -l -v -vv -i --all --remotes --list --verbose --contains? --no-contains? --merged? --no-merged? --points-at= --format= --sort=
    --column? --no-column --color? --no-color --abbrev? --no-abbrev --show-current --ignore-case --omit-empty -q --quiet`,
  tag: '-l -n? -i --list --contains? --no-contains? --merged? --no-merged? --points-at= --format= --sort= --column? --no-column --color? --ignore-case --omit-empty -v --verify',
  remote: '-v --verbose',
  config: `-l -z !-e !--edit --list --get --get-all --get-regexp --get-urlmatch --get-color --get-colorbool --show-origin --show-scope --name-only
    --null --global --system --local --worktree -f: --file= --blob= --type= --default= --bool --int --bool-or-int --path --expiry-date
    --includes --no-includes --fixed-value --all --regexp --url= --value=`,
  stash: '-p --patch --stat --name-only --name-status --include-untracked -u --only-untracked',
  worktree: '--porcelain -v --verbose -z --expire=',
  notes: '--ref=',
  reflog: `${REVISIONS} --date= --format= --pretty? --oneline`,
  bundle: '-q --quiet',
  submodule: '--cached --recursive -n --summary-limit= --files',
  archive: '--format= -l --list -v --verbose --prefix= --add-file= --add-virtual-file= --worktree-attributes --mtime= -0 -1 -2 -3 -4 -5 -6 -7 -8 -9',
  'format-patch': `${DIFF} ${REVISIONS} --stdout --numbered --no-numbered --start-number= --subject-prefix= --rfc --signoff --no-signature --cover-letter --base= --progress --zero-commit --thread?`,
};

/**
 * An extension's form that only reads: the options it may carry (args.ts format), what its operands
 * may be, and the options without which it writes (git changelog writes History.md unless --list).
 */
export interface GitExtensionRead {
  /** Shown on the card after `git NAME`: "lists commits since a date (git-extras)". */
  what: string;
  options: string;
  /** How many operands (after the verb, if any) it may have: a number, or any. */
  max: number | 'any';
  /** The first operand must be one of these. */
  verbs?: readonly string[];
  /** One of these options must be present. */
  need?: readonly string[];
  /** Words after `--` go to git log: only these options may stand there. */
  logArgs?: RegExp;
}

/**
 * Third-party git commands (git-extras, git-fame, git-cliff, git-imerge, git-bug, git-annex, git-secret,
 * git-standup …) in the forms their manuals document as only printing. git runs `git-NAME` from PATH before
 * it looks for an alias, so only a configured alias of that name could run instead, when the extension
 * is not installed: that is configuration, like core.pager for git log (docs/policy.md, "What the
 * classifier does not promise"); the jail holds it, and writing an alias is a capability change.
 */
export const GIT_EXTENSION_READS: Readonly<Record<string, GitExtensionRead>> = {
  alias: { what: 'lists aliases (git-extras)', options: '--global --local', max: 1 },
  authors: { what: 'lists the authors (git-extras; without --list it writes AUTHORS)', options: '-l --list --no-email', need: ['-l', '--list'], max: 0 },
  brv: { what: 'lists branches by date (git-extras)', options: '-r --reverse', max: 0 },
  bulk: { what: 'lists its workspaces (git-extras)', options: '--listall', need: ['--listall'], max: 0 },
  changelog: {
    what: 'prints the commits since a tag (git-extras; without --list it writes the changelog file)',
    options: '-l --list -x --stdout -t: --tag= -s: --start-tag= -f: --final-tag= --start-commit= --final-commit= -n --no-merges -m --merges-only',
    need: ['-l', '--list', '-x', '--stdout'],
    max: 0,
  },
  // -o/--output and -p/--prepend write, -i/--init writes cliff.toml, -c/-w/-r point it at other configurations, the
  // --github-*, --gitlab-*, --gitea-*, --bitbucket-* options reach a forge: not listed.
  cliff: {
    what: 'prints a changelog (git-cliff)',
    options: `-v --verbose -h --help -V --version --include-path= --exclude-path= --tag-pattern= --with-commit= --skip-commit= -t: --tag= --bump?
      --bumped-version -b: --body= -l --latest --current -u --unreleased --topo-order --no-exec -x --context -s: --strip= --sort= --use-branch-tags`,
    max: 1,
  },
  'commits-since': { what: 'lists commits since a date (git-extras)', options: '', max: 'any' },
  contrib: { what: "lists an author's commits (git-extras)", options: '', max: 1 },
  count: { what: 'counts commits (git-extras)', options: '--all', max: 0 },
  delta: { what: 'lists files that differ from a branch (git-extras)', options: '', max: 2 },
  effort: {
    what: 'counts commits per file (git-extras)',
    options: '--above=',
    max: 'any',
    logArgs: /^(--(author|committer|since|until|after|before|grep)=.+|--(all|branches|no-merges|first-parent))$/,
  },
  // --manpath writes man pages: not listed.
  fame: {
    what: 'counts lines per author (git-fame)',
    options: `-h --help -v --version --branch= --since= --until= --cost= --loc= -R --recurse --excl= --incl= -n --no-regex -s --silent-progress
      --warn-binary -e --show-email --enum -t --bytype -w --ignore-whitespace -M -C --sort= -r: --ignore-rev= --ignore-revs-file= --format=`,
    max: 'any',
  },
  gui: { what: 'opens the blame or file browser window (git gui)', options: '--line=', max: 'any', verbs: ['blame', 'browser'] },
  guilt: { what: 'shows how blame changed between revisions (git-guilt)', options: '-e --email -w --ignore-whitespace -d --debug -h --help', max: 2 },
  ignore: { what: 'shows the ignore patterns (git-extras; with patterns it adds them)', options: '-l --local -g --global -p --private', max: 0 },
  imerge: { what: 'prints the state of an incremental merge (git-imerge)', options: '--commits --frontier --color --no-color --name=', max: 0, verbs: ['diagram', 'list'] },
  info: { what: 'prints the repository information (git-extras)', options: '-c --no-config', max: 0 },
  'local-commits': { what: 'lists commits not pushed yet (git-extras)', options: '', max: 0 },
  locked: { what: 'lists locked files (git-extras)', options: '', max: 0 },
  missing: { what: 'lists commits that one branch has and the other does not (git-extras)', options: '', max: 2 },
  root: { what: 'prints the top folder of the repository (git-extras)', options: '-r --relative', max: 0 },
  secret: { what: 'lists who can read the secrets and which files are secret (git-secret)', options: '-l -h', max: 0, verbs: ['whoknows', 'list', 'usage'] },
  'show-merged-branches': { what: 'lists merged branches (git-extras)', options: '', max: 0 },
  'show-tree': { what: 'prints the commit tree (git-extras)', options: '', max: 0 },
  'show-unmerged-branches': { what: 'lists branches not merged (git-extras)', options: '', max: 0 },
  // -f fetches first: not listed.
  standup: { what: 'lists recent commits (git-standup)', options: '-a: -w: -m: -d: -u: -D: -h -g -L -B: -s -r -c -R', max: 0 },
  summary: { what: 'summarises the repository (git-extras)', options: '--line --dedup-by-email --no-merges --output-style=', max: 1 },
  bug: {
    what: 'lists or shows bugs stored in the repository (git-bug)',
    options: '-s: --status= -a: --author= -p: --participant= -A: --actor= -l: --label= -t: --title= -n: --no= -b: --by= -d: --direction= -f: --format= --metadata= -h --help',
    max: 'any',
    verbs: ['ls', 'show', 'ls-id', 'ls-label', 'label'],
  },
  annex: { what: 'prints what git-annex knows locally (git-annex)', options: '--json --fast -q --quiet', max: 'any', verbs: ['status', 'help', 'version', 'info', 'whereis', 'list', 'find'] },
  extras: { what: 'prints its version or help (git-extras)', options: '-v --version -h --help', need: ['-v', '--version', '-h', '--help'], max: 0 },
};
