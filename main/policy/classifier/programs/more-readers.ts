// More programs that only read (issue 22: fewer needless prompts), each with the options its manual
// documents as read-only. Options that write a file, run a program, change settings or reach another
// machine are judged by the rule (`!`) or left out, so they make the segment at least write.
import { SHELL_REACHABLE_EFFECTS } from '../../../../common/domain';
import { isUrl } from '../network/hosts';
import { found, operands, optionValues, tableFor, valuesOf } from '../args';
import { fetchesUrls, filledAtRunTime, writeValue, type Rule } from './helpers';
import { UNKNOWN_OUTPUT } from '../words';

const HELP = '-h --help -V --version';

/** Listing tools (ls-like, du-like): they read names, sizes, times and modes. */
const listers: Rule = {
  names: ['lsd', 'eza', 'exa', 'dust', 'duf'],
  base: 'read',
  effects: ['file_read'],
  what: 'lists files and their sizes',
  conventions: { reads: 'metadata' },
  options: {
    lsd: `${HELP} -a --all -A --almost-all --color= --icon= --icon-theme= -F --classify -l --long --ignore-config --config-file= -1 --oneline
      -R --recursive --human-readable --tree --depth= -d --directory-only --permission= --size= --total-size --date= -t --timesort
      -S --sizesort -X --extensionsort -G --gitsort -v --versionsort --sort= -U --no-sort -r --reverse --group-dirs= --group-directories-first
      --blocks= --classic --no-symlink -I: --ignore-glob= -i --inode -g --git -L --dereference --hyperlink= --header
      --truncate-owner-after= --truncate-owner-marker= --literal -N -Z --context`,
    eza: `--help -v --version -1 --oneline -l --long -G --grid -x --across -R --recurse -T --tree -F? --classify? --color? --colour?
      --color-scale? --colour-scale? --color-scale-mode= --icons? --no-icons --hyperlink -a --all -A --almost-all -d --list-dirs -L: --level=
      -r --reverse -s: --sort= --group-directories-first --group-directories-last -D --only-dirs -f --only-files -I: --ignore-glob= --git-ignore
      -b --binary -B --bytes -g --group -h --header -H --links -i --inode -m --modified -M --mounts -n --numeric -S --blocksize -t: --time=
      -u --accessed -U --created --changed --time-style= --total-size --no-permissions --no-filesize --no-user --no-time --git --no-git
      --git-repos --git-repos-no-status -@ --extended -Z --context -o --octal-permissions -w: --width= --absolute? --smart-group -X
      --dereference --no-quotes --follow-symlinks --show-symlinks --no-symlinks --stdin`,
    exa: `--help -v --version -1 --oneline -l --long -G --grid -x --across -R --recurse -T --tree -F --classify --color= --colour=
      --color-scale --colour-scale --icons -a --all -d --list-dirs -L: --level= -r --reverse -s: --sort= --group-directories-first
      -D --only-dirs -I: --ignore-glob= --git-ignore -b --binary -B --bytes -g --group -h --header -H --links -i --inode -m --modified
      -n --numeric -S --blocks -t: --time= -u --accessed -U --created --time-style= --no-permissions --no-filesize --no-user --no-time
      --git -@ --extended`,
    dust: `${HELP} -d: --depth= -T: --threads= -n: --number-of-lines= -p --full-paths -X: --ignore-directory= -I: --ignore-all-in-file=
      -L --dereference-links -x --limit-filesystem -s --apparent-size -r --reverse -c --no-colors -C --force-colors -b --no-percent-bars
      -B --bars-on-right -z: --min-size= -R --screen-reader --skip-total -f --filecount -i --ignore-hidden -v: --invert-filter= -e: --filter=
      -t --file-types -w: --terminal-width= -P --no-progress --print-errors -D --only-dir -F --only-file -o: --output-format= -S: --stack-size=
      -j --output-json -M: --mtime= -A: --atime= -y: --ctime= --files0-from= --collapse= -m: --filetime=`,
    // Go flags: one dash or two, never clustered.
    duf: `@single-dash -all -avail-threshold: -hide: -hide-fs: -hide-mp: -inodes -json -only: -only-fs: -only-mp: -output: -sort: -style: -theme:
      -usage-threshold: -warnings -width: -version -help -h`,
  },
  match: ['lsd -la', 'eza -l --git', 'exa --tree --level 2', 'dust -d 2 src', 'duf --only local'],
  notMatch: ['lsd --frob', 'dust ~/.ssh', 'eza ~/.aws'],
};

/** Finding files by name: fd lists names; -x and -X run a command for each result. */
const fd: Rule = {
  names: ['fd', 'fdfind'],
  base: 'read',
  effects: ['file_read'],
  what: 'finds files by name',
  readsArgs: false,
  checksOwnOptions: true,
  options: `${HELP} -H --hidden -I --no-ignore --no-ignore-vcs --no-ignore-parent --no-global-ignore-file -u --unrestricted -s --case-sensitive
    -i --ignore-case -g --glob --regex -F --fixed-strings --and= -a --absolute-path -l --list-details -L --follow -p --full-path -0 --print0
    -d: --max-depth= --min-depth= --exact-depth= --prune -t: --type= -e: --extension= -S: --size= --changed-within= --changed-before= --newer=
    --older= -o: --owner= --format= -E: --exclude= --ignore-file= -c: --color= --hyperlink? -j: --threads= --max-results= -1 -q --quiet
    --show-errors --base-directory= --path-separator= --search-path= --strip-cwd-prefix? --one-file-system !-x !--exec !-X !--exec-batch
    --batch-size=`,
  analyze(inv, a) {
    const argv = inv.argv;
    const exec = argv.findIndex((x) => ['-x', '--exec', '-X', '--exec-batch'].includes(x));
    // What follows -x (up to `;`) is the command run for each result; {} stands for a name found at run time.
    const own = exec === -1 ? inv : { ...inv, argv: argv.slice(0, exec), args: inv.args.slice(0, exec) };
    const scan = a.options(own, fd.options as string, 'fd');
    if (exec !== -1) {
      let end = exec + 1;
      while (end < argv.length && argv[end] !== ';') end++;
      a.raise('write', `fd ${argv[exec]} runs a command for each file it finds`, ['command_exec']);
      a.runArgv(inv.args.slice(exec + 1, end).map((w) => (/\{[^}]*\}/.test(w.value) ? filledAtRunTime(w, UNKNOWN_OUTPUT) : w)), `fd ${argv[exec]}`);
    }
    // fd PATTERN [PATH...]: the paths are listed (names only).
    for (const i of scan.operands.slice(1)) a.read(argv[i]!, inv.args[i]!.literal, inv.cwd, false, 'metadata');
    for (const p of valuesOf(scan, '--search-path', '--base-directory')) a.read(p, true, inv.cwd, false, 'metadata');
  },
  match: ['fd -e ts', 'fd "err" src', 'fd -H --no-ignore x'],
  notMatch: ['fd -x rm', 'fd x --exec-batch rm', 'fd x --exec rm', 'fd x -X rm', 'fd x ~/.ssh', 'fd --frob'],
};

/** Searching file contents. */
const searchers: Rule = {
  names: ['ugrep', 'pdfgrep'],
  base: 'read',
  effects: ['file_read'],
  what: 'searches files',
  readsArgs: false,
  // ugrep's --filter runs programs, --pager and --view start one, --save-config writes, --config reads
  // settings that may hold a filter, -Q starts an interactive screen that can open an editor: none listed.
  options: {
    ugrep: `${HELP} -E -F -G -P -Z? -e: -f: -N: --and= --andnot= --not= --bool -% -i -j -w -x -v -c -l -L -n -H -h -o -q -s -r -R -z -t: -g: -O: -M:
      -m: -A: -B: -C: -y -k -b -I -U -W -X -Y -+ -0 -. -a -d: -D: --fuzzy? --file-type= --glob= --iglob= --file-extension= --file-magic=
      --include= --exclude= --include-dir= --exclude-dir= --max-count= --any-line --column-number --byte-offset --ignore-binary --ignore-files?
      --hidden --color? --colour? --colors= --pretty? --sort? --stats? --tag? --binary --hexdump? --ignore-case --smart-case --word-regexp
      --line-regexp --count --files-with-matches --files-without-match --line-number --with-filename --no-filename --only-matching --quiet
      --silent --no-messages --recursive --dereference-recursive --decompress --zmax= --depth= --max-files= --format= --csv --json --xml --cpp
      --width? --heading --break --separator? --group-separator? --label= --null --encoding= --extended-regexp --fixed-strings --basic-regexp
      --perl-regexp --regexp= --file= --neg-regexp= --after-context= --before-context= --context= --invert-match --index? --ungroup --initial-tab
      --line-buffered --no-group-separator --only-line-number --replace= --files --match --range= --min-count= --min-steal= --cpu-count? --jobs=`,
    pdfgrep: `${HELP} -i --ignore-case -P --perl-regexp -H --with-filename -n --page-number -c --count -p --page-count -m: --max-count= -q
      --quiet -r --recursive -R --dereference-recursive --include= --exclude= --color= -C: --context= --password= -o --only-matching -Z --null
      --match-prefix-separator= --page-range= --unac -e: --regexp= -f: --file= -F --fixed-strings --warn-empty`,
  },
  analyze(inv, a) {
    const t = tableFor((searchers.options as Record<string, string>)[inv.name]!);
    const scan = a.options(inv, t, inv.name);
    const patternGiven = found(scan, '-e', '--regexp', '-f', '--file', '-N', '--neg-regexp', '--and', '--not', '--andnot');
    const files = patternGiven ? scan.operands : scan.operands.slice(1);
    const recursive = found(scan, '-r', '-R', '--recursive', '--dereference-recursive') || inv.name === 'ugrep';
    for (const i of files) a.read(inv.argv[i]!, inv.args[i]!.literal, inv.cwd, recursive);
    if (recursive && files.length === 0) a.read('.', true, inv.cwd, true);
    for (const f of valuesOf(scan, '-f', '--file')) a.read(f, true, inv.cwd);
  },
  match: ['ugrep -n TODO docs', 'pdfgrep -n x file.pdf'],
  notMatch: ['ugrep --filter="pdf:sh -c id" x', 'ugrep -Q', 'ugrep x ~/.ssh', 'pdfgrep --cache x a.pdf'],
};

/** Digests and checksums: shasum (Perl's), rhash. */
const digests: Rule = {
  names: ['shasum', 'rhash'],
  base: 'read',
  effects: ['file_read'],
  what: 'computes checksums',
  conventions: { reads: 'digest' },
  options: {
    shasum: `-a: --algorithm= -b --binary -c --check -t --text -U --UNIVERSAL -0 --01 -s --status -q --quiet --ignore-missing -w --warn --strict
      --tag -z --zero -h --help -v --version`,
    // -o/--output and --log write files, -u/--update rewrites a hash file, -e renames files: not read.
    rhash: `${HELP} -c --check -k --check-embedded --missing= --unverified= -r --recursive --file-list= -m: --message= --follow --max-depth= -B
      --benchmark --speed --percents --path-separator= -q --accept= --exclude= -a --all -C --crc32 --crc32c --md4 -M --md5 -H --sha1 --sha224
      --sha256 --sha384 --sha512 --sha3-224 --sha3-256 --sha3-384 --sha3-512 --blake2s --blake2b --tiger --tth --btih --aich --ed2k --whirlpool
      --ripemd160 --gost12-256 --gost12-512 --has160 --snefru128 --snefru256 --edonr256 --edonr512 --bsd --sfv --simple --hex --base32 -b
      --base64 --printf= -p: --template= --head --list-hashes --uppercase --lowercase -v --verbose --brief --ignore-missing --skip-ok --gost-reverse`,
  },
  match: ['shasum -a 256 a.txt', 'rhash --sha1 notes.txt'],
  notMatch: ['rhash -o out.sfv x', 'rhash --update sums.sfv x', 'shasum ~/.ssh/id_rsa'],
};

/** Comparing files: difftastic and delta print; delta's --pager and --config are not listed. */
const differs: Rule = {
  names: ['difft', 'difftastic', 'delta'],
  base: 'read',
  effects: ['file_read'],
  what: 'compares files',
  options: {
    difft: `${HELP} --background= --byte-limit= --check-only --color= --context= --display= --exit-code --graph-limit= --ignore-comments
      --language= --list-languages --missing-as-empty --override= --parse-error-limit= --skip-unchanged --sort-paths --strip-cr= --syntax-highlight=
      --tab-width= --width=`,
    difftastic: `${HELP} --background= --check-only --color= --context= --display= --exit-code --ignore-comments --language= --list-languages
      --skip-unchanged --syntax-highlight= --tab-width= --width=`,
    delta: `${HELP} -n --line-numbers -s --side-by-side --no-gitconfig --hyperlinks --show-config --list-languages --list-syntax-themes
      --show-syntax-themes --show-themes --show-colors --light --dark --syntax-theme= --features= -w: --width= --tabs= --diff-highlight
      --diff-so-fancy --navigate --color-only --raw --keep-plus-minus-markers --paging= --file-style= --hunk-header-style= --word-diff-regex=
      --max-line-length= --wrap-max-lines= --line-numbers-left-format= --line-numbers-right-format= --relative-paths --true-color=`,
  },
  match: ['difft a.txt b.txt', 'delta -s old new'],
  notMatch: ['delta --pager="sh -c id" a b', 'difft a ~/.ssh/id_rsa'],
};

/** Process, user and system information. */
const sysInfo: Rule = {
  names: ['pstree', 'procs', 'pinky', 'lslogins', 'lsipc', 'iostat', 'mpstat', 'sar', 'acpi', 'upower', 'lsb_release', 'uuidgen', 'uuid', 'inxi', 'fastfetch', 'xwininfo', 'xprop', 'dircolors', 'finger', 'lastlog', 'fuser', 'nvidia-smi'],
  base: 'read',
  effects: ['file_read'],
  what: 'reports system state',
  options: {
    pstree: `-a -A -c -C: -g -G -h -H: -l -n -N: -p -s -S -t -T -u -U -V -Z --arguments --ascii --compact-not --color= --show-pgids --vt100
      --highlight-all --highlight-pid= --long --numeric-sort --ns-sort= --show-pids --show-parents --ns-changes --thread-names --hide-threads
      --uid-changes --unicode --version --security-context --help`,
    // --pager starts a program; --load-config reads settings: not listed.
    procs: `${HELP} -a --and -o --or -d --nand -r --nor -l --list -t --tree -w --watch --watch-interval= -i: --insert= --only= --sorta= --sortd=
      --color= --theme= --interval= --json --thread --no-header`,
    pinky: '-l -b -h -p -s -f -w -i -q --lookup --help --version',
    lslogins: `${HELP} -a --acc-expiration -c --colon-separate -e --export -f --failed -G --supp-groups -g: --groups= -L --last -l: --logins=
      -n --newline --noheadings --notruncate -o: --output= --output-all -p --pwd -r --raw -s --system-accs --time-format= -u --user-accs
      -y --shell -Z --context -J --json`,
    lsipc: `${HELP} -i: --id= -g --global -J --json -l --list -n --newline --noheadings --notruncate -o: --output= --output-all -b --bytes
      -c --creator -e --export -r --raw -t --time -P --numeric-perms -m --shmems -q --queues -s --semaphores -M --posix-shmems -Q --posix-mqueues
      -S --posix-semaphores --time-format= -y --shell`,
    iostat: '-c -d -h -k -m -N -p? -s -t -V -x -y -z -g: -H --dec= --human --pretty -j: -o: -f: +f: @plus --help',
    mpstat: '-A -n -P: -u -T -I: -o: -H --dec= -V --help',
    // -o saves the collected data to a file: judged.
    sar: '-A -B -b -C -d -F -H -h -I: -i: -j: -m: -n: -P: -p -q -r -S -s: -e: -t -u -V -v -W -w -y -z -f: --dev= --fs= --iface= --human --pretty --sadc !-o? --help',
    acpi: `-b -a -t -c -V -s -p -f -k -i -h -v --battery --ac-adapter --thermal --cooling --everything --show-empty --details --fahrenheit --kelvin
      --proc --sysfs --directory= -d: --help --version`,
    upower: '-e --enumerate -d --dump -w --wakeups -m --monitor --monitor-detail -i: --show-info= -v --version -h --help',
    lsb_release: '-v --version -i --id -d --description -r --release -c --codename -a --all -s --short -h --help',
    uuidgen: `${HELP} -r --random -t --time -m --md5 -s --sha1 -n: --namespace= -N: --name= -x --hex -C: --count= -6 --v6 -7 --v7`,
    // -o writes the identifiers to a file: judged.
    uuid: '-v: -m -n: -1 -F: -d !-o: -h',
    // -w/-W fetch the weather, -U updates inxi itself, --output writes a file: not listed.
    inxi: `${HELP} -A --audio -a --admin -b --basic -B --battery -C --cpu -d --disk-full? -D --disk -E --bluetooth -f --flags -F --full -G --graphics
      -i --ip -I --info -j --swap -J --usb -l --label -L --logical -m --memory --memory-modules --memory-short -M --machine -n --network-advanced
      -N --network -o --unmounted -p --partitions-full -P --partitions -r --repos -R --raid -s --sensors --slots -S --system -t? --processes?
      -u --uuid -v: --verbosity= -x --extra= -y: --width= -z --filter -Z --no-filter --expanded -c: --color= --recommends --tty -Y: --height=`,
    // --gen-config writes a configuration file: judged.
    // A configuration file can run commands (its Command module): --config is not listed.
    fastfetch: `-h --help -v --version -s: --structure= -l: --logo= --logo-type= --logo-width= --logo-height= --color= --color-keys=
      --color-title= --pipe? --stat? --list-modules --list-presets --list-logos --print-logos --list-config-paths --list-data-paths --format=
      --show-errors? --disable-linewrap? --hide-cursor? !--gen-config? !--gen-config-force?`,
    xwininfo: '@single-dash -help -id: -name: -root -int -children -tree -stats -bits -events -size -wm -shape -frame -all -english -metric -display: -version',
    // -set and -remove change a window's properties: judged.
    xprop: '@single-dash -help -grammar -id: -root -name: -frame -font: -display: -len: -notype -fs: -spy -f: -version !-set: !-remove:',
    dircolors: '-b --sh --bourne-shell -c --csh --c-shell -p --print-database --print-ls-colors --help --version',
    finger: '-s -l -p -m -o -h',
    // -C and -S change the lastlog records; -R works inside another root: not read.
    lastlog: '-b: --before= -h --help -t: --time= -u: --user= !-C !--clear !-S !--set',
    // -k signals (kills) the processes it finds: judged.
    fuser: '-a --all -i --interactive -I --inode -l --list-signals -m --mount -M --ismountpoint -n: --namespace= -s --silent -u --user -v --verbose -w --writeonly -4 -6 -V --version -NUM !-k !--kill',
    'nvidia-smi': `-h --help --version -q --query -i: --id= -L --list-gpus -x --xml-format -d: --display= -l: --loop= -lms: --query-gpu= --query-compute-apps=
      --query-accounted-apps= --query-retired-pages= --format= -u --unit -b --debug?`,
  },
  analyze(inv, a) {
    const argv = inv.argv;
    switch (inv.name) {
      case 'sar':
        argv.forEach((x, i) => {
          if (x !== '-o') return;
          a.raise('write', 'sar -o saves the data it collects to a file', ['file_write']);
          const next = argv[i + 1];
          if (next !== undefined && !/^\d/.test(next)) writeValue(inv, a, next);
        });
        return;
      case 'uuid':
        for (const o of argv.filter((_x, i) => argv[i - 1] === '-o')) {
          a.raise('write', 'uuid -o writes the identifiers to a file', ['file_write']);
          writeValue(inv, a, o);
        }
        return;
      case 'fastfetch':
        if (argv.some((x) => x.startsWith('--gen-config'))) a.raise('write', 'fastfetch --gen-config writes a configuration file', ['file_write']);
        return;
      case 'xprop':
        if (argv.includes('-set') || argv.includes('-remove')) a.raise('write', "xprop changes a window's properties", ['desktop_open']);
        return;
      case 'lastlog':
        if (argv.some((x) => ['-C', '--clear', '-S', '--set'].includes(x))) a.raise('destructive', 'lastlog changes the login records (it needs root)', ['destructive']);
        return;
      case 'fuser':
        if (argv.some((x) => x === '--kill' || /^-[a-zA-Z]*k/.test(x))) a.raise('write', 'fuser -k kills the processes it finds', ['command_exec']);
        return;
      case 'finger':
        if (argv.some((x) => !x.startsWith('-') && x.includes('@'))) a.raise('network', 'finger user@host asks another machine', ['network']);
        return;
      case 'nvidia-smi': {
        const sub = operands(argv, { short: 'idl', long: ['id', 'display', 'loop', 'query-gpu', 'format'] })[0];
        const verb = sub === undefined ? undefined : argv[sub];
        if (verb !== undefined && !['dmon', 'pmon', 'topo', 'nvlink', 'mig'].includes(verb)) a.raise('write', `nvidia-smi ${verb} may change the GPU's settings`, SHELL_REACHABLE_EFFECTS);
        if (verb === 'mig' && !argv.some((x) => ['-lgi', '-lci', '-lgip', '-lcip', '-h', '--help'].includes(x))) a.raise('write', 'nvidia-smi mig changes GPU instances', ['command_exec']);
        return;
      }
    }
  },
  match: ['pstree -p', 'procs --tree', 'lslogins -u', 'iostat -x', 'sar -u 1 3', 'acpi -b', 'upower -d', 'uuidgen -r', 'inxi -F', 'xprop -root', 'nvidia-smi -q', 'fuser -v docs'],
  notMatch: ['sar -o data.sa 1 3', 'uuid -o out.txt', 'xprop -root -remove FOO', 'fuser -k 8080/tcp', 'lastlog -C -u alice', 'procs --pager=less', 'nvidia-smi -pm 1', 'fastfetch --gen-config', 'lastlog --clear -u a', 'lastlog -S -u a', 'lastlog --set -u a', 'fuser --kill x', 'fastfetch --gen-config-force', 'xprop -set FOO 1', 'finger alice@example.com', 'inxi -w'],
};

/** Structured data: viewers and converters that print (xsv, gron, jless, mlr without its DSL). */
const dataTools: Rule = {
  names: ['gron', 'jless', 'xsv', 'xmllint', 'ffprobe', 'pdffonts', 'glow', 'info', 'inotifywait'],
  base: 'read',
  effects: ['file_read'],
  what: 'reads structured data',
  readsArgs: false,
  options: {
    gron: '-u --ungron -c --colorize -m --monochrome -s --stream -k --insecure -j --json --no-sort -v --values --version -h --help',
    jless: `${HELP} -m: --mode= --no-line-numbers -n --line-numbers -r --relative-line-numbers --scrolloff= --json --yaml`,
    // -o/--output writes a file; index, partition and split write files: not read.
    xsv: `${HELP} -d: --delimiter= -n --no-headers -s: --select= -i --ignore-case -v --invert-match -j: --jobs= --no-case --left --right --full
      --cross --nulls -R --reverse -N --numeric --everything --mode --cardinality --median --quartiles --nulls-last -l: --limit= --asc -a --all
      -p --pad -t: --out-delimiter= --crlf --quote= --quote-always --escape= --ascii --start= --end= --len= -c: --condense= --separator=
      -w: --width= --intersect --flexible --random --seed= --uniq`,
    // --output writes; --shell opens xmllint's shell, which can write files: not listed.
    xmllint: `--version --xpath= --html --xmlout --format --noout --valid --dtdvalid= --dtdvalidfpi= --relaxng= --schema= --schematron= --nonet
      --noblanks --encode= --recover --noent --nocdata --nsclean --debug --dropdtd --c14n --c14n11 --exc-c14n --pretty= --nowarning --quiet
      --timing --repeat --insert --memory --loaddtd --dtdattr --postvalid --xinclude --noxincludenode --nofixup-base-uris --stream --walker --sax
      --sax1 --chkregister --auto --noenc --push --pushsmall --oldxml10 --catalogs --nocatalogs --huge --path= --load-trace --maxmem= !--output= !-o:`,
    // -o writes an output file and -report writes a report: judged.
    ffprobe: `@single-dash -loglevel: -v: -hide_banner -show_streams -show_format -show_entries: -show_packets -show_frames -show_data -show_error
      -show_programs -show_chapters -show_private_data -show_program_version -show_library_versions -show_versions -show_pixel_formats
      -count_frames -count_packets -select_streams: -of: -print_format: -output_format: -pretty -unit -prefix -byte_binary_prefix -sexagesimal
      -i: -f: -read_intervals: -bitexact -L -h -help -version -formats -codecs -decoders -encoders -protocols -pix_fmts -layouts -sample_fmts
      -filters -bsfs -buildconf -muxers -demuxers -devices -colors -analyzeduration: -probesize: -threads: -find_stream_info !-o: !-report`,
    pdffonts: '@single-dash -f: -l: -subst -loc -locPS -opw: -upw: -v -h -help --help',
    glow: `${HELP} -p -s: --style= -w: --width= -a --all -l --local -n --line-numbers --preserve-new-lines -t --tui --config=`,
    // --dribble records keystrokes to a file, -o writes nodes to a file, --restore replays keystrokes: not listed.
    info: `--help --version -a --all -k: --apropos= -d: --directory= -f: --file= --index-search= -n: --node= -O --show-options --usage
      --raw-escapes --no-raw-escapes -R --subnodes --strict-node-location -v: --variable= -w --where --location -x: --debug= --init-file=`,
    // -o writes the events to a file; -d runs as a daemon in the background: not read.
    inotifywait: `-h --help -m --monitor -r --recursive --fromfile= -s --syslog -q --quiet -qq --format= --timefmt= -c --csv -t: --timeout= -e: --event=
      --exclude= --excludei= --include= --includei= --no-dereference -P --no-newline`,
  },
  analyze(inv, a) {
    const table = tableFor((dataTools.options as Record<string, string>)[inv.name]!);
    const scan = a.options(inv, table, inv.name);
    let ops = scan.operands;
    if (inv.name === 'xsv') {
      const verb = ops.length ? inv.argv[ops[0]!]! : '';
      if (!['cat', 'count', 'fixlengths', 'flatten', 'fmt', 'frequency', 'headers', 'input', 'join', 'sample', 'reverse', 'search', 'select', 'slice', 'sort', 'stats', 'table'].includes(verb)) {
        a.raise('write', `xsv ${verb} writes files or is not a command the classifier knows`, ['file_write']);
      }
      ops = ops.slice(1);
    }
    if (fetchesUrls(inv, a, [...ops, ...valuesOf(scan, '--dtdvalid', '-i').map((v) => inv.argv.indexOf(v))].filter((i) => i >= 0))) return;
    // glow github.com/owner/repo fetches the repository's README.
    const forge = inv.name === 'glow' ? ops.find((i) => /^(github\.com|gitlab\.com)(\/|$)/i.test(inv.argv[i]!)) : undefined;
    if (forge !== undefined) return a.raise('network', `glow fetches the README of ${inv.argv[forge]}`, ['network']);
    for (const out of valuesOf(scan, '--output', '-o')) {
      a.raise('write', `${inv.name} writes its output to a file`, ['file_write']);
      writeValue(inv, a, out);
    }
    if (found(scan, '-report')) a.raise('write', 'ffprobe -report writes a report file', ['file_write']);
    const kind = inv.name === 'inotifywait' ? 'metadata' : 'content';
    for (const i of ops) a.read(inv.argv[i]!, inv.args[i]!.literal, inv.cwd, false, kind);
    for (const i of valuesOf(scan, '-i')) a.read(i, true, inv.cwd);
  },
  match: ['gron data.json', 'jless report.json', 'xsv headers a.csv', 'xmllint --format a.xml', 'ffprobe -show_streams in.mp4', 'pdffonts r.pdf', 'glow README.md', 'info coreutils', 'inotifywait -m src'],
  notMatch: ['xsv index a.csv', 'xsv select a -o out.csv', 'xmllint --output out.xml a.xml', 'xmllint -o out.xml a.xml', 'ffprobe -o out.txt a.mp4', 'ffprobe -report a.mp4', 'gron https://example.com/x.json', 'glow https://example.com/README.md', 'glow github.com/charmbracelet/glow', 'info -o out.txt ls', 'inotifywait -d -o log src', 'xmllint --shell a.xml'],
};

/** The terminal: stty with no setting (or only size and speed) reports; any setting changes the terminal. */
const stty: Rule = {
  names: ['stty'],
  base: 'read',
  effects: [],
  what: 'reports terminal settings',
  readsArgs: false,
  options: '-a --all -g --save -F: --file= --help --version @data',
  analyze(inv, a) {
    const scan = a.options(inv, '-a --all -g --save -F: --file= --help --version', 'stty');
    const settings = scan.operands.map((i) => inv.argv[i]!).filter((x) => x !== 'size' && x !== 'speed');
    if (settings.length) a.raise('write', `stty ${settings.join(' ')} changes the terminal's settings`, ['command_exec']);
  },
  match: ['stty size', 'stty -a'],
  notMatch: ['stty raw', 'stty -echo', 'stty sane'],
};

/** busctl: listing and reading properties is read; calling methods and setting properties change things. */
const busctl: Rule = {
  names: ['busctl'],
  base: 'read',
  effects: [],
  what: 'inspects the D-Bus system',
  readsArgs: false,
  // -H and -M reach another machine or container: not listed.
  options: `${HELP} --address= --user --system --show-machine --unique --acquired --activatable --match= --size= --list -l --quiet -q --verbose
    --json= -j --expect-reply= --auto-start= --allow-interactive-authorization= --timeout= --augment-creds= --watch-bind= --destination= --full
    --no-pager --no-legend`,
  analyze(inv, a) {
    const ops = operands(inv.argv, { long: ['address', 'match', 'size', 'json', 'timeout', 'destination', 'expect-reply', 'auto-start'] });
    const verb = ops.length ? inv.argv[ops[0]!]! : 'list';
    if (!['list', 'status', 'monitor', 'capture', 'tree', 'introspect', 'get-property', 'help'].includes(verb)) a.raise('write', `busctl ${verb} acts on a service`, SHELL_REACHABLE_EFFECTS);
  },
  match: ['busctl', 'busctl tree org.freedesktop.DBus', 'busctl get-property a b c d'],
  notMatch: ['busctl call a b c d', 'busctl set-property a b c d s x', 'busctl -H host list'],
};


/** Reading the clipboard shows what was copied last, often a password: read, and a person decides (secret_read). */
const clipboard: Rule = {
  names: ['pbpaste', 'wl-paste', 'xclip', 'xsel', 'pbcopy', 'wl-copy'],
  base: 'read',
  effects: [],
  what: 'uses the clipboard',
  readsArgs: false,
  options: {
    pbpaste: '-help -pboard: -Prefer:',
    'wl-paste': `${HELP} -n --no-newline -l --list-types -p --primary -s: --seat= -t: --type= -w: --watch= @in-order`,
    xclip: '@single-dash -i -in -o -out -f -filter -r -rmlastnl -l: -loops: -d: -display: -h -help -selection: -se: -sel: -noutf8 -target: -t: -silent -quiet -verbose -version -sensitive',
    xsel: '-a --append -f --follow -z --zeroflush -i --input -o --output -c --clear -d --delete -p --primary -s --secondary -b --clipboard -k --keep -x --exchange --display= -t: --selectionTimeout= -n --nodetach -l: --logfile= -v --verbose --trim --help --version',
    pbcopy: '-help -pboard: -Prefer:',
    'wl-copy': `${HELP} -o --paste-once -f --foreground -n --trim-newline -c --clear -p --primary -r --regular -s: --seat= -t: --type= --sensitive`,
  },
  analyze(inv, a) {
    const argv = inv.argv;
    const pasting =
      inv.name === 'pbpaste' || (inv.name === 'wl-paste' && !argv.some((x) => x === '-w' || x.startsWith('--watch'))) ||
      (inv.name === 'xclip' && argv.some((x) => x === '-o' || x === '-out')) ||
      (inv.name === 'xsel' && argv.some((x) => x === '--output' || /^-[a-z]*o[a-z]*$/.test(x)));
    if (pasting) {
      if (!argv.some((x) => ['-l', '--list-types'].includes(x))) a.raise('read', `${inv.name} prints the clipboard, which may hold a password`, ['secret_read']);
      return;
    }
    // wl-paste --watch runs a command on every change; copying replaces what the user copied.
    if (inv.name === 'wl-paste') {
      a.raise('write', 'wl-paste --watch runs a command whenever the clipboard changes', SHELL_REACHABLE_EFFECTS);
      const w = argv.findIndex((x) => x === '-w' || x.startsWith('--watch'));
      if (w !== -1) a.runArgv(inv.args.slice(argv[w]!.includes('=') ? w : w + 1), 'wl-paste --watch');
      return;
    }
    a.raise('write', `${inv.name} replaces what is on the clipboard`, ['desktop_open']);
    for (const i of operands(argv)) a.read(argv[i]!, inv.args[i]!.literal, inv.cwd);
  },
  match: [],
  notMatch: ['pbpaste', 'wl-paste', 'xclip -o', 'xsel -ob', 'echo x | xclip', 'wl-copy hi', 'wl-paste --watch sh'],
};

/** Password managers: showing an entry decrypts a secret; changing the store writes. */
const passwordStores: Rule = {
  names: ['pass', 'gopass', 'passage'],
  base: 'read',
  effects: ['file_read'],
  what: 'manages a password store',
  readsArgs: false,
  checksOwnOptions: true,
  analyze(inv, a) {
    a.options(inv, '-c? --clip? -q? --qrcode? -o --password -O --only-password -n --no-newline -r: --revision= -y --yes -h --help --version --secret --issuer= --account= -f --force', inv.name);
    const ops = operands(inv.argv, { short: 'r', long: ['revision', 'issuer', 'account'] });
    const verb = ops.length ? inv.argv[ops[0]!]! : '';
    const SHOW = ['', 'show', 'ls', 'list', 'find', 'search', 'grep', 'otp', 'cat', 'tree'];
    if (SHOW.includes(verb) || (!['init', 'insert', 'add', 'new', 'create', 'edit', 'generate', 'rm', 'remove', 'delete', 'mv', 'move', 'cp', 'copy', 'git', 'sync', 'mounts', 'setup', 'config', 'version', 'help', 'audit', 'recipients', 'fsck', 'update', 'clone', 'import'].includes(verb) && !verb.startsWith('-'))) {
      // `pass NAME` shows NAME; `pass otp insert` changes the store.
      if (verb === 'otp' && ['insert', 'append', 'uri'].includes(inv.argv[ops[1]!] ?? '') && inv.argv[ops[1]!] !== 'uri') a.raise('write', `${inv.name} otp changes an entry of the password store`, ['file_write']);
      a.raise('read', `${inv.name} ${verb || 'lists'} reads the password store, a credential location`, ['secret_read']);
      return;
    }
    if (verb === 'version' || verb === 'help') return;
    if (verb === 'mounts' && ops.length === 1) return;
    // gopass mounts add NAME URL, gopass clone URL: the store is cloned.
    if (verb === 'git' || verb === 'sync' || verb === 'clone' || ops.some((i) => isUrl(inv.argv[i]!) || /^[\w.-]+@[\w.-]+:/.test(inv.argv[i]!))) a.raise('network', `${inv.name} ${verb} runs git on the password store`, ['network', 'secret_read']);
    a.raise('write', `${inv.name} ${verb} changes the password store`, ['file_write', 'secret_read']);
  },
  match: ['gopass version', 'gopass mounts'],
  notMatch: ['pass', 'pass show email/work', 'gopass show x', 'pass insert x', 'pass git push', 'pass otp insert x'],
};

/** getent DATABASE [KEY…]: looks entries up through NSS (files, and what nsswitch.conf names). */
const getent: Rule = {
  names: ['getent'],
  base: 'read',
  effects: ['file_read'],
  what: 'looks up users, groups, hosts and services',
  readsArgs: false,
  options: '-s: --service= -i --no-idn -A --no-addrconfig --help --usage -V --version',
  analyze(inv, a) {
    const ops = operands(inv.argv, { short: 's', long: ['service'] });
    const db = ops.length ? inv.argv[ops[0]!]! : '';
    // Host lookups with a key go to DNS; without one, getent hosts lists /etc/hosts.
    if (/^a?hosts(v4|v6)?$/.test(db) && ops.length > 1) a.raise('network', `getent ${db} resolves names through DNS`, ['network']);
    if (db === 'shadow' || db === 'gshadow') a.raise('read', `getent ${db} prints password hashes, a credential`, ['secret_read']);
  },
  match: ['getent passwd 1000', 'getent group staff', 'getent hosts', 'getent services'],
  notMatch: ['getent hosts example.com', 'getent ahostsv4 example.com', 'getent shadow', 'getent -s dns hosts x'],
};

/** qalc: a calculator. Expressions are computed; its commands (save, set, exrates …) change settings or fetch rates. */
const QALC_COMMANDS = new Set(['save', 'store', 'variable', 'function', 'delete', 'assume', 'base', 'rpn', 'set', 'mode', 'exrates', 'quit', 'exit',
  'keep', 'unkeep', 'stack', 'swap', 'rotate', 'copy', 'clear', 'pop', 'unit', 'definitions', 'saveDefinitions', 'MC', 'MS', 'M+', 'M-', 'MR', 'MRC']);
const qalc: Rule = {
  names: ['qalc'],
  base: 'read',
  effects: [],
  what: 'computes expressions',
  readsArgs: false,
  options: `-h --help -v --version -t --terse -b: --base= -c --color? -m: --time= --set= --defaults -l --list? --list-functions? --list-units?
    --list-variables? --list-prefixes? --list-dataset? !-e !--exrates !-f: !--file= -i --interactive -n --nodefs !-s: !--set=`,
  analyze(inv, a) {
    const argv = inv.argv;
    if (argv.some((x) => x === '-e' || x === '--exrates' || x.toLowerCase() === 'exrates')) a.raise('network', 'qalc -e downloads exchange rates', ['network', 'file_write']);
    for (const f of optionValues(argv, 'f', ['file'])) {
      a.raise('write', 'qalc -f runs the commands of a file (they can save settings and definitions)', ['file_write']);
      a.read(f, true, inv.cwd);
    }
    if (argv.some((x, i) => x === '-s' || x === '--set' || x.startsWith('--set=') || (i === 0 || !argv[i - 1]!.startsWith('-')) && QALC_COMMANDS.has(x.split(/\s/)[0]!))) {
      a.raise('write', 'qalc commands and -s change its settings or definitions, which it saves', ['file_write']);
    }
  },
  match: ['qalc 66+99', 'qalc 5 m to ft', 'qalc --list-functions', 'qalc -t "sqrt(2)"'],
  notMatch: ['qalc -e', 'qalc --exrates', 'qalc exrates', 'qalc -f cmds.txt', 'qalc --file cmds.txt', 'qalc --set "precision 20" 1', 'qalc save x 5', 'qalc "set precision 20"', 'qalc -s "decimal comma on" 1'],
};

/** pv: a pipe viewer. It copies its files (or standard input) to standard output, showing progress. */
const pv: Rule = {
  names: ['pv'],
  base: 'read',
  effects: ['file_read'],
  what: 'copies data to its output, showing progress',
  // -P/--pidfile and -U/--store-and-forward write files, -R/--remote changes another pv: not listed.
  options: `-h --help -V --version -p --progress -t --timer -e --eta -I --fineta -r --rate -a --average-rate -b --bytes -8 --bits -T --buffer-percent
    -A: --last-written= -F: --format= -n --numeric -q --quiet -c --cursor -W --wait -D: --delay-start= -s: --size= -g --gauge -l --line-mode -0 --null
    -i: --interval= -m: --average-rate-window= -w: --width= -H: --height= -N: --name= -f --force -L: --rate-limit= -B: --buffer-size= -C --no-splice
    -E --skip-errors -Z: --error-skip-block= -S --stop-at-size -Y --sync -K --direct-io -X --discard -d: --watchfd=`,
  match: ['pv notes.txt', 'pv -d 4242', 'pv -L 1K -S big.iso'],
  notMatch: ['pv -P pid.txt notes.txt', 'pv ~/.ssh/id_rsa'],
};

/** most: a pager. +N and +/TEXT start at a line or a match. */
const most: Rule = {
  names: ['most'],
  base: 'read',
  effects: ['file_read'],
  what: 'pages through files',
  checksOwnOptions: true,
  analyze(inv, a) {
    const keep = inv.argv.map((x, i) => (/^\+(\d+|\/.*)$/.test(x) ? -1 : i)).filter((i) => i !== -1);
    a.options({ ...inv, argv: keep.map((i) => inv.argv[i]!), args: keep.map((i) => inv.args[i]!) }, '@plus -1 -b -C -c -d -k -M -s -t? -u -v -w -z', 'most');
  },
  match: ['most notes.txt', 'most notes.txt +/hello', 'most +10 a.txt b.txt'],
  notMatch: ['most +frob notes.txt', 'most ~/.aws/credentials'],
};

/** mutool (MuPDF): info, show, pages and draw without -o print; the other tools write files or run scripts. */
const MUTOOL_READ: Readonly<Record<string, string>> = {
  info: '-p: -F -I -M -P -S -X',
  show: '-p: -b -e -g -r',
  pages: '-p:',
  draw: `-p: !-o: -F: -R: -r: -w: -h: -f -B: -M: -W: -H: -S: -X -a -c: -e: -G: -I -s: -A: -l: -D -i -L -P -N -O: -y: -T: -t: -q -m`,
};
const mutool: Rule = {
  names: ['mutool'],
  base: 'read',
  effects: ['file_read'],
  what: 'inspects and converts PDF files',
  checksOwnOptions: true,
  analyze(inv, a) {
    const verb = inv.argv[0] ?? '';
    const table = Object.hasOwn(MUTOOL_READ, verb) ? MUTOOL_READ[verb]! : null;
    if (!table) return a.raise('write', `mutool ${verb} writes files or runs a script`, SHELL_REACHABLE_EFFECTS);
    const scan = a.options(inv, table, `mutool ${verb}`, 1);
    for (const o of valuesOf(scan, '-o')) {
      a.raise('write', `mutool ${verb} -o writes files`, ['file_write']);
      writeValue(inv, a, o);
    }
  },
  match: ['mutool info input.pdf', 'mutool show input.pdf outline', 'mutool draw -F txt input.pdf 2'],
  notMatch: ['mutool draw -o out.png input.pdf', 'mutool run script.js', 'mutool extract input.pdf', 'mutool draw --frob in.pdf'],
};

/**
 * xmlstarlet: sel, fo, el, c14n, ls, esc, unesc, pyx, p2x and val print to standard output; ed does too
 * unless -L/--inplace. tr runs an XSLT stylesheet, which can write files (exsl:document): write.
 */
const XMLSTARLET_READ = new Set(['sel', 'select', 'fo', 'format', 'el', 'elements', 'c14n', 'ls', 'esc', 'escape', 'unesc', 'unescape', 'pyx', 'xmln', 'p2x', 'depyx', 'val', 'validate', 'ed', 'edit']);
const xmlstarlet: Rule = {
  names: ['xmlstarlet', 'xml'],
  base: 'read',
  effects: ['file_read'],
  what: 'queries and edits XML',
  checksOwnOptions: true,
  analyze(inv, a) {
    const argv = inv.argv;
    const at = argv.findIndex((x) => !x.startsWith('-'));
    a.options({ ...inv, argv: argv.slice(0, at === -1 ? argv.length : at), args: inv.args.slice(0, at === -1 ? argv.length : at) }, '-q -C --doc-namespace --no-doc-namespace --version --help', 'xmlstarlet');
    if (at === -1) return;
    const verb = argv[at]!;
    if (!XMLSTARLET_READ.has(verb)) return a.raise('write', `xmlstarlet ${verb} writes files or runs a stylesheet`, SHELL_REACHABLE_EFFECTS);
    if (argv.includes('--net')) a.raise('network', 'xmlstarlet --net fetches DTDs and schemas from the network', ['network']);
    if ((verb === 'ed' || verb === 'edit') && argv.some((x) => x === '-L' || x === '--inplace')) {
      a.raise('write', 'xmlstarlet ed --inplace rewrites the files', ['file_write']);
      for (const i of operands(argv.slice(at + 1)).map((k) => k + at + 1)) if (/\.(xml|svg|xhtml|html|xsd|xsl|xslt|plist|config|csproj)$/i.test(argv[i]!)) a.write(argv[i]!, inv.args[i]!.literal, inv.cwd);
    }
  },
  match: ['xmlstarlet format report.xml', 'xmlstarlet sel -t -v //x a.xml', 'xmlstarlet ed -u //x -v 1 a.xml'],
  notMatch: ['xmlstarlet ed -L -u //x -v 1 a.xml', 'xmlstarlet tr style.xsl a.xml', 'xmlstarlet val --net a.xml'],
};

/**
 * Miller (mlr): main flags, then verbs chained with `then`, then files. Its DSL (put, filter) can run
 * commands (system, exec) and write files (tee >, emit >, print >, dump >): such an expression, a DSL
 * file (-f, -s, --load, --mload), --prepipe and -I (in place) are not read; nor are the tee, split and case verbs.
 */
const MLR_VALUED = new Set(['--from', '--ifs', '--ofs', '--fs', '--ips', '--ops', '--ps', '--irs', '--ors', '--rs', '--nr-progress-mod', '--records-per-batch',
  '--ofmt', '--fflatsep', '--jflatsep', '--oflatsep', '--iflatsep', '--flatsep', '--tz', '-n', '--nidx-fs', '--repifs', '--implicit-pprint-header']);
const MLR_FLAG = /^--?((i|o|io)?(csv|tsv|json|jsonl|ljson|nidx|dkvp|xtab|pprint|markdown|md|usv|asv|csvlite|tsvlite)|[ctjlnxpmd]2[ctjlnxpmdb]|c2p|icsv|ojson|jvstack|no-jvstack|jlistwrap|no-jlistwrap|jvquoteall|barred|right|key-color|no-color|M|C|implicit-csv-header|headerless-csv-output|hi|ho|allow-ragged-csv-input|ragged|lazy-quotes|quote-all|quote-original|no-auto-flatten|no-auto-unflatten|infer-none|infer-int-as-float|infer-octal|S|A|O|records-per-batch|no-fflatsep|xvright|no-hash-records|fs-regex|ps-regex|version|help|h)$/;
const MLR_VERBS = new Set(['altkv', 'bar', 'bootstrap', 'cat', 'count', 'count-distinct', 'count-similar', 'cut', 'decimate', 'fill-down', 'fill-empty', 'flatten', 'format-values',
  'fraction', 'grep', 'group-by', 'group-like', 'having-fields', 'head', 'histogram', 'json-parse', 'json-stringify', 'join', 'label', 'latin1-to-utf8', 'least-frequent',
  'merge-fields', 'most-frequent', 'nest', 'nothing', 'regularize', 'rename', 'reorder', 'repeat', 'reshape', 'sec2gmt', 'sec2gmtdate', 'seqgen', 'shuffle', 'skip-trivial-records',
  'sort', 'sort-within-records', 'sort-within-records-values', 'sparsify', 'stats1', 'stats2', 'step', 'summary', 'tac', 'tail', 'template', 'top', 'unflatten', 'uniq',
  'unspace', 'unsparsify', 'utf8-to-latin1', 'put', 'filter', 'gap', 'fill-empty', 'sec2str', 'split-lines', 'ssub', 'sub', 'gsub']);
const MLR_DSL_DANGER = /\b(system|exec|os_type|hostname)\s*\(|\b(tee|emit1?|emitp|emitf|print|printn|eprint|eprintn|dump|edump)\s*(>|>>|\|)/;
const mlr: Rule = {
  names: ['mlr'],
  base: 'read',
  effects: ['file_read'],
  what: 'processes CSV, TSV and JSON records',
  readsArgs: false,
  checksOwnOptions: true,
  analyze(inv, a) {
    const argv = inv.argv;
    let i = 0;
    for (; i < argv.length && argv[i]!.startsWith('-'); i++) {
      const flag = argv[i]!;
      if (MLR_VALUED.has(flag)) {
        if (flag === '--from') a.read(argv[i + 1] ?? '', inv.args[i + 1]?.literal ?? false, inv.cwd);
        i++;
      } else if (!MLR_FLAG.test(flag)) return a.raise('write', `mlr ${flag} is not an option the classifier knows as read-only (--prepipe runs a command, -I rewrites files, --load loads code)`, SHELL_REACHABLE_EFFECTS);
      if (!inv.args[i]!.literal) return a.raise('write', `mlr: ${inv.args[i]!.source} is only known at run time`, SHELL_REACHABLE_EFFECTS);
    }
    // Verbs chained with `then`; each starts a segment.
    let verb: string | null = null;
    for (; i < argv.length; i++) {
      const w = argv[i]!;
      if (!inv.args[i]!.literal) return a.raise('write', `mlr: ${inv.args[i]!.source} is only known at run time`, SHELL_REACHABLE_EFFECTS);
      if (w === 'then') { verb = null; continue; }
      if (verb === null) {
        if (!MLR_VERBS.has(w)) return a.raise('write', `mlr ${w} writes files or is not a verb the classifier knows`, SHELL_REACHABLE_EFFECTS);
        verb = w;
        continue;
      }
      const dsl = verb === 'put' || verb === 'filter';
      if ((dsl && (w === '-f' || w === '-s' || w === '--load' || w === '--mload')) || MLR_DSL_DANGER.test(w)) return a.raise('write', 'mlr put/filter can run commands and write files: this expression or DSL file is not provably read-only', SHELL_REACHABLE_EFFECTS);
      if (!w.startsWith('-')) a.read(w, true, inv.cwd);
    }
  },
  match: ['mlr --icsv --opprint cat example.csv', 'mlr --icsv --ojson put \'$z = $x . $y\' a.csv', 'mlr --c2p sort -f a then head -n 2 a.csv'],
  notMatch: ['mlr --prepipe gunzip --csv cat a.csv.gz', 'mlr -I --csv cat a.csv', 'mlr --csv put \'system("id")\' a.csv', 'mlr --csv put \'tee > "x.csv", $*\' a.csv',
    'mlr --csv tee out.csv a.csv', 'mlr --csv put -f evil.mlr a.csv'],
};

/** calc (arbitrary precision): its help pages read; its language can run commands (system()) and open files. */
const calc: Rule = {
  names: ['calc'],
  base: 'read',
  effects: [],
  what: 'prints its help',
  checksOwnOptions: true,
  analyze(inv, a) {
    if (inv.argv[0] === 'help' && inv.argv.length <= 2 && inv.args.every((w) => w.literal)) return;
    a.raise('write', 'calc runs a language that can run commands (system) and open files', SHELL_REACHABLE_EFFECTS);
  },
  match: ['calc help', 'calc help intro'],
  notMatch: ['calc 1+1', "calc 'system(\"id\")'"],
};

/** xdotool: its get and search commands only look; every other command types, clicks or moves windows. */
const XDOTOOL_READ = new Set(['search', 'getactivewindow', 'getwindowfocus', 'getwindowname', 'getwindowpid', 'getwindowgeometry', 'getwindowclassname', 'getmouselocation',
  'getdisplaygeometry', 'get_desktop', 'get_num_desktops', 'get_desktop_for_window', 'get_desktop_viewport', 'version', 'help']);
const XDOTOOL_ACTS = new Set(['key', 'keydown', 'keyup', 'type', 'mousemove', 'mousemove_relative', 'click', 'mousedown', 'mouseup', 'behave', 'behave_screen_edge', 'windowactivate',
  'windowfocus', 'windowmap', 'windowminimize', 'windowraise', 'windowreparent', 'windowkill', 'windowclose', 'windowquit', 'windowunmap', 'windowsize', 'windowmove', 'windowstate',
  'set_window', 'set_desktop', 'set_desktop_for_window', 'set_num_desktops', 'set_desktop_viewport', 'exec', 'sleep', 'selectwindow']);
const xdotool: Rule = {
  names: ['xdotool'],
  base: 'read',
  effects: [],
  what: 'inspects windows',
  checksOwnOptions: true,
  analyze(inv, a) {
    const argv = inv.argv;
    if (XDOTOOL_READ.has(argv[0] ?? '') && inv.args.every((w) => w.literal) && !argv.some((x) => XDOTOOL_ACTS.has(x))) return;
    a.raise('write', 'xdotool types, clicks or moves windows on the desktop (or runs a script of such commands)', ['desktop_open', 'command_exec']);
  },
  match: ['xdotool search --onlyvisible --name firefox', 'xdotool getactivewindow'],
  notMatch: ['xdotool key ctrl+t', 'xdotool search --name x windowactivate', 'xdotool script.xdo'],
};

/** gio: list, info, tree and cat read; trash --list lists the trash; the rest copy, move, delete, mount or open. */
const gio: Rule = {
  names: ['gio'],
  base: 'read',
  effects: ['file_read'],
  what: 'works with files through GIO',
  readsArgs: false,
  checksOwnOptions: true,
  analyze(inv, a) {
    const argv = inv.argv;
    const verb = argv[0] ?? '';
    const rest = inv.args.slice(1);
    const files = operands(argv.slice(1), { short: 'a', long: ['attributes'] }).map((k) => k + 1);
    if (fetchesUrls(inv, a, files.filter((k) => !/^file:/i.test(argv[k]!)))) return;
    const reads: Record<string, [string, 'metadata' | 'content']> = { list: ['-a: --attributes= -h --hidden -l --long -d --print-display-names -u --print-uris -n --nofollow-symlinks', 'metadata'],
      info: ['-w --query-writable -f --filesystem -a: --attributes= -n --nofollow-symlinks', 'metadata'], tree: ['-h --hidden -l --follow-symlinks', 'metadata'], cat: ['', 'content'] };
    if (Object.hasOwn(reads, verb)) {
      const [table, kind] = reads[verb]!;
      a.options({ ...inv, argv: argv.slice(1), args: rest }, table, `gio ${verb}`);
      for (const k of files) a.read(argv[k]!, inv.args[k]!.literal, inv.cwd, false, kind);
      return;
    }
    if ((verb === 'trash' && argv.length === 2 && argv[1] === '--list') || (verb === 'mime' && files.length <= 1) || ((verb === 'version' || verb === 'help') && argv.length <= 2)) return;
    if (verb === 'open' || verb === 'launch') return a.raise('write', `gio ${verb} opens files or links with the desktop's default application (use the open_path tool instead)`, ['desktop_open', 'command_exec']);
    if (verb === 'mount') a.raise('network', 'gio mount can mount a remote location', ['network']);
    a.raise('write', `gio ${verb} copies, moves, deletes or changes files`, ['file_write', 'file_delete']);
  },
  match: ['gio list src', 'gio info notes.txt', 'gio trash --list', 'gio cat notes.txt'],
  notMatch: ['gio open notes.txt', 'gio trash notes.txt', 'gio copy a b', 'gio list smb://host/share', 'gio info ~/.ssh/id_rsa', 'gio list --frob src'],
};

/**
 * Formatters and linters that print unless told to write: ruff, gofmt, shfmt, clang-format, biome, and the
 * bundlers esbuild and swc when they print to standard output. They read configuration files of their own
 * (pyproject.toml, .clang-format, biome.json, .swcrc), which set style and rules and run no code; their
 * caches (.ruff_cache) are written as they go, as git writes its index. What writes the sources or an
 * output file is judged; every other option is unknown, hence write.
 */
interface FormatterSpec {
  /** Options allowed on the printing forms (args.ts format), per subcommand ('' when there is none). */
  reads: Readonly<Record<string, string>>;
  /** Options that make it write the files it is given, or an output file (their value). */
  writes: readonly string[];
  /** Option values that are output files. */
  outputs?: readonly string[];
  /** Allowed option patterns beside the table (esbuild's --define:K=V, biome's --javascript-formatter-…). */
  pattern?: RegExp;
  /** Subcommands that write unless one of these options is given (ruff format without --check or --diff). */
  need?: Readonly<Record<string, readonly string[]>>;
}
const RUFF_COMMON = '--config= --isolated -q --quiet -v --verbose -s --silent -n --no-cache --cache-dir= --preview --no-preview --target-version= --line-length= --exclude= --extend-exclude= --force-exclude --no-force-exclude --respect-gitignore --no-respect-gitignore --stdin-filename= --extension= -h --help';
const FORMATTERS: Readonly<Record<string, FormatterSpec>> = {
  ruff: {
    reads: {
      check: `${RUFF_COMMON} --select= --extend-select= --ignore= --extend-ignore= --per-file-ignores= --extend-per-file-ignores= --fixable= --extend-fixable= --unfixable=
        --show-fixes --no-show-fixes --diff -w --watch --statistics --output-format= -e --exit-zero --exit-non-zero-on-fix --show-settings --show-files --ignore-noqa
        --dummy-variable-rgx= --no-fix --unsafe-fixes --no-unsafe-fixes`,
      format: `${RUFF_COMMON} --check --diff --range=`,
      rule: '--all --output-format= -h --help', config: '--output-format= -h --help', linter: '--output-format= -h --help', version: '--output-format= -h --help', help: '',
    },
    writes: ['--fix', '--fix-only', '--add-noqa', '-o', '--output-file'],
    outputs: ['-o', '--output-file'],
    need: { format: ['--check', '--diff'] },
  },
  gofmt: { reads: { '': '-l -d -s -e -r: -h' }, writes: ['-w', '-cpuprofile'], outputs: ['-cpuprofile'] },
  shfmt: {
    reads: { '': `-l --list? -d --diff -s --simplify -i: --indent= -bn --binary-next-line -ci --case-indent -sr --space-redirects -kp --keep-padding -fn --func-next-line
      -mn --minify -ln: --language-dialect= -p --posix -f --find --to-json -tojson --from-json --filename= --apply-ignore -h --help --version` },
    writes: ['-w', '--write'],
  },
  'clang-format': {
    reads: { '': `--style= -style= --dry-run -n --Werror --assume-filename= --lines= --offset= --length= --sort-includes --output-replacements-xml --dump-config
      --fallback-style= --ferror-limit= --verbose --qualifier-alignment= --files= --help --version -h` },
    writes: ['-i'],
  },
  biome: {
    reads: Object.fromEntries(['check', 'lint', 'format', 'ci', 'explain', 'rage', 'version', 'search'].map((v) => [v, `--config-path= --max-diagnostics= --diagnostic-level= --reporter= --colors= --verbose
      --skip-errors --no-errors-on-unmatched --error-on-warnings --only= --skip= --staged --changed --since= --stdin-file-path= --log-level= --log-kind= -h --help`])),
    writes: ['--write', '--fix', '--apply', '--apply-unsafe', '--unsafe'],
    pattern: /^--(javascript|json|css|graphql|html|grit|formatter|linter|assist|organize-imports|vcs|files|indent|line|bracket|attribute|quote|jsx|trailing|semicolons|arrow|expand)[a-z-]*(=.*)?$/,
  },
  esbuild: {
    reads: { '': '--bundle --minify --splitting --keep-names --preserve-symlinks --ignore-annotations --allow-overwrite --version --help -h' },
    writes: ['--outfile', '--outdir', '--metafile', '--serve', '--watch', '--servedir', '--write'],
    outputs: ['--outfile', '--outdir', '--metafile'],
    pattern: /^--(sourcemap(=\w+)?|(minify|jsx)-[a-z-]+(=.+)?|(target|platform|format|jsx|main-fields|conditions|charset|legal-comments|log-level|log-limit|color|tree-shaking|packages|global-name|line-limit|tsconfig|resolve-extensions|public-path|mangle-props|sources-content|source-root|sourcefile|analyze|outbase)(=.+)?|(define|loader|external|supported|pure|drop|banner|footer|inject|alias|log-override):.+)$/,
  },
  swc: {
    reads: { '': `-w --watch --config-file= --env-name= --no-swcrc --ignore= --only= -q --quiet -s? --source-maps? --source-map-target= --source-file-name= --source-root=
      --extensions= --strip-leading-paths --include-dotfiles --sync --log-watch-compilation -C: --config= -f: --filename= -V --version -h --help` },
    writes: ['-o', '--out-file', '-d', '--out-dir'],
    outputs: ['-o', '--out-file', '-d', '--out-dir'],
  },
};
const formatters: Rule = {
  names: Object.keys(FORMATTERS),
  base: 'read',
  effects: ['file_read'],
  what: 'checks or formats code, printing the result',
  readsArgs: false,
  conventions: { byName: { ruff: { info: ['-V', '-h'] }, biome: { info: ['-V', '-h'] }, swc: { info: ['-V', '-h'] }, shfmt: { info: ['-h'] }, '*': {} } },
  checksOwnOptions: true,
  analyze(inv, a) {
    const spec = FORMATTERS[inv.name]!;
    const argv = inv.argv;
    const verb = spec.reads[''] === undefined ? (argv[0] ?? '') : '';
    const table = Object.hasOwn(spec.reads, verb) ? spec.reads[verb]! : null;
    if (table === null) return a.raise('write', `${inv.name} ${verb} changes files or is not a subcommand the classifier knows`, SHELL_REACHABLE_EFFECTS);
    const start = verb ? 1 : 0;
    // Writing: in place (-w, -i, --fix, --write) or to an output file.
    let writing = argv.findIndex((x) => spec.writes.includes(x.split('=')[0]!));
    const need = spec.need?.[verb];
    if (writing === -1 && need && !argv.some((x) => need.includes(x))) writing = 0;
    if (writing !== -1) {
      a.raise('write', `${inv.name} ${argv[writing]!.split('=')[0]} writes files`, ['file_write']);
      const out = spec.outputs?.includes(argv[writing]!.split('=')[0]!) ? (argv[writing]!.includes('=') ? argv[writing]!.split('=').slice(1).join('=') : argv[writing + 1]) : undefined;
      if (out !== undefined) a.write(out, true, inv.cwd);
      else if (spec.outputs === undefined || !spec.outputs.includes(argv[writing]!.split('=')[0]!)) for (const i of operands(argv.slice(start)).map((k) => k + start)) a.write(argv[i]!, inv.args[i]!.literal, inv.cwd);
      return;
    }
    const keep = argv.map((_x, i) => i).filter((i) => i >= start && !(spec.pattern && spec.pattern.test(argv[i]!)));
    const scan = a.options({ ...inv, argv: keep.map((i) => argv[i]!), args: keep.map((i) => inv.args[i]!) }, table, verb ? `${inv.name} ${verb}` : inv.name);
    for (const k of scan.operands) a.read(argv[keep[k]!]!, inv.args[keep[k]!]!.literal, inv.cwd);
  },
  match: ['ruff check src', 'ruff format --check', 'gofmt -l src', 'shfmt -d a.sh', 'clang-format --style LLVM a.c', 'biome check src', 'esbuild --bundle a.js', 'swc a.js'],
  notMatch: ['ruff check --fix src', 'ruff format src', 'gofmt -w a.go', 'shfmt -w a.sh', 'clang-format -i a.c', 'biome check --write src', 'esbuild --bundle a.js --outfile=out.js',
    'swc a.js -o out.js', 'ruff check --frob', 'esbuild --bundle a.js --serve', 'gofmt ~/.ssh/id_rsa', 'ruff check -o ~/.bashrc'],
};

/** exiftool FILE…: prints metadata. Writing tags (-TAG=value), -o, -w and the rest of its editing options are not read. */
const EXIFTOOL_FLAGS = new Set(['-a', '-u', '-S', '-j', '-json', '-X', '-csv', '-n', '-e', '-ee', '-H', '-l', '-q', '-r', '-f', '-m', '-T', '-t', '-D', '-ver', '-list', '-listw', '-listx',
  '-b', '-short', '-long', '-veryShort', '-duplicates', '-unknown', '-sort', '-struct', '-scanForXMP', '-help', '-fast', '-fast2', '-g', '-G', '-s', '-s2', '-s3', '-v',
  ...[0, 1, 2, 3, 4, 5, 6, 7].flatMap((n) => [`-g${n}`, `-G${n}`, `-v${n}`])]);
const EXIFTOOL_VALUED = new Set(['-charset', '-lang', '-d', '-c', '-p', '-ext']);
const exiftool: Rule = {
  names: ['exiftool'],
  base: 'read',
  effects: ['file_read'],
  what: 'prints file metadata',
  readsArgs: false,
  checksOwnOptions: true,
  analyze(inv, a) {
    const argv = inv.argv;
    for (let i = 0; i < argv.length; i++) {
      const x = argv[i]!;
      if (!inv.args[i]!.literal) return a.raise('write', `exiftool: ${inv.args[i]!.source} is only known at run time`, SHELL_REACHABLE_EFFECTS);
      if (EXIFTOOL_VALUED.has(x)) { i++; continue; }
      if (x.startsWith('-') && !EXIFTOOL_FLAGS.has(x)) return a.raise('write', `exiftool ${x} writes tags or files, or is not an option the classifier knows as read-only`, ['file_write']);
      if (!x.startsWith('-')) a.read(x, true, inv.cwd);
    }
  },
  match: ['exiftool notes.txt', 'exiftool -a -G1 photo.jpg'],
  notMatch: ['exiftool -Artist=me photo.jpg', 'exiftool "-gps*=" photo.jpg', 'exiftool -o out.jpg photo.jpg', 'exiftool -overwrite_original -all= photo.jpg', 'exiftool ~/.ssh/id_rsa'],
};

/** fontconfig's queries. fc-cache writes the font cache (only its info options read). */
const fontconfig: Rule = {
  names: ['fc-match', 'fc-query', 'fc-pattern', 'fc-scan', 'fc-cat', 'fc-conflist', 'fc-cache'],
  conventions: { info: ['-V', '-h'] },
  base: 'read',
  effects: ['file_read'],
  what: 'queries the fonts',
  options: { 'fc-match': '-s --sort -a --all -f: --format= -b --brief -V -h --help --version',
    'fc-query': '-i: --index= -b --brief -f: --format= -V -h', 'fc-pattern': '-c --config -d --default -f: --format= -V -h', 'fc-scan': '-b --brief -f: --format= -V -h', 'fc-cat': '-r --recurse -v --verbose -V -h',
    'fc-conflist': '-V -h', 'fc-cache': '-V --version -h --help' },
  analyze(inv, a) {
    if (inv.name === 'fc-cache') a.raise('write', 'fc-cache rebuilds the font cache', ['file_write']);
  },
  match: ['fc-match -s "DejaVu Serif"', 'fc-query font.ttf'],
  notMatch: ['fc-cache -f', 'fc-match --frob'],
};

/** Process monitors: htop --readonly cannot kill or renice; btop and htop otherwise can, from their interface. */
const monitors: Rule = {
  names: ['htop', 'btop'],
  conventions: { byName: { htop: { info: ['-h', '-V'] }, btop: { info: ['-h', '-v'] } } },
  base: 'read',
  effects: [],
  what: 'shows processes',
  checksOwnOptions: true,
  analyze(inv, a) {
    if (inv.name === 'htop' && inv.argv.includes('--readonly')) return void a.options(inv, '--readonly -C --no-color -d: --delay= -F: --filter= -H --highlight-changes? -M --no-mouse -p: --pid= -s: --sort-key= -t --tree -u? --user? -U --no-unicode --no-meters --no-function-bar', 'htop');
    a.raise('write', `${inv.name} can kill and renice processes from its interface`, ['command_exec']);
  },
  match: ['htop --readonly', 'htop --readonly -t'],
  notMatch: ['htop', 'btop', 'htop --readonly --frob'],
};

/** ssh-add -l and -L list the agent's keys; adding, deleting and locking change the agent. */
const sshAdd: Rule = {
  names: ['ssh-add'],
  base: 'read',
  effects: [],
  what: 'lists the keys of the SSH agent',
  readsArgs: false,
  checksOwnOptions: true,
  analyze(inv, a) {
    const argv = inv.argv;
    if (argv.length >= 1 && argv.every((x) => ['-l', '-L', '-v', '-q', '-E', 'md5', 'sha256'].includes(x)) && argv.some((x) => x === '-l' || x === '-L')) return;
    a.raise('write', 'ssh-add adds, deletes or locks keys in the SSH agent', ['file_write', 'secret_read']);
    for (const i of operands(argv, { short: 'EeSstH' })) a.read(argv[i]!, inv.args[i]!.literal, inv.cwd);
    if (operands(argv, { short: 'EeSstH' }).length === 0 && !argv.some((x) => /^-[dDxXe]/.test(x))) a.read('~/.ssh/id_rsa', true, inv.cwd);
  },
  match: ['ssh-add -l', 'ssh-add -L', 'ssh-add -l -E sha256'],
  notMatch: ['ssh-add', 'ssh-add -D', 'ssh-add ~/.ssh/id_ed25519'],
};

/**
 * sqlite3 DB 'SQL': a query that only reads (SELECT, EXPLAIN, read-only PRAGMA) with no dot-command and
 * none of the shell's functions that write files, open an editor or load code (writefile, edit,
 * load_extension, readfile, fts3_tokenizer). Anything else, or no SQL (an interactive shell), writes.
 */
const SQLITE_READ_SQL = /^\s*(select|explain|with|values|pragma\s+(table_info|table_xinfo|index_list|index_info|foreign_key_list|database_list|compile_options|user_version|schema_version|page_count|page_size|integrity_check|quick_check|function_list|collation_list)\b)/i;
const SQLITE_DANGER = /\b(writefile|edit|load_extension|readfile|fts3_tokenizer|lines|shell|system)\s*\(|\battach\b|\binsert\b|\bupdate\b|\bdelete\b|\bdrop\b|\bcreate\b|\balter\b|\breplace\b|\bvacuum\b|\breindex\b|\banalyze\b|^\s*pragma\b[^(]*=|;\s*\S/i;
const sqlite3: Rule = {
  names: ['sqlite3', 'sqlite'],
  conventions: { info: ['-version', '-help', '--version', '--help'] },
  base: 'read',
  effects: ['file_read'],
  what: 'queries a SQLite database',
  readsArgs: false,
  checksOwnOptions: true,
  analyze(inv, a) {
    const table = `-readonly -json -csv -column -box -table -markdown -header -noheader -line -list -html -separator: -newline: -nullvalue: -bail -batch -ascii -tabs -quote -safe
      -nofollow -mmap: -echo -stats -version -help -A: -memtrace`;
    const scan = a.options(inv, `@single-dash ${table}`, 'sqlite3');
    const ops = scan.operands;
    const sql = ops.length >= 2 ? inv.argv[ops[1]!]! : null;
    if (ops.length >= 1) a.read(inv.argv[ops[0]!]!, inv.args[ops[0]!]!.literal, inv.cwd);
    if (sql === null || ops.length > 2 || !inv.args[ops[1]!]!.literal || !SQLITE_READ_SQL.test(sql) || SQLITE_DANGER.test(sql.replace(/;\s*$/, '').replace(/'[^']*'/g, "''")) || sql.trimStart().startsWith('.')) {
      a.raise('write', sql === null ? 'sqlite3 with no SQL starts its shell, which can run commands (.shell, .system)' : 'sqlite3 runs SQL that is not provably read-only', SHELL_REACHABLE_EFFECTS);
    }
  },
  match: ["sqlite3 db.sqlite3 'SELECT * FROM t;'", "sqlite3 -json db.sqlite3 'PRAGMA table_info(t)'"],
  notMatch: ['sqlite3 db.sqlite3', "sqlite3 db.sqlite3 'DELETE FROM t'", "sqlite3 db.sqlite3 \"SELECT writefile('x', 1)\"", "sqlite3 db.sqlite3 '.shell id'",
    "sqlite3 db.sqlite3 \"SELECT load_extension('./x')\"", "sqlite3 db.sqlite3 'SELECT 1; DROP TABLE t'", "sqlite3 -cmd '.shell id' db.sqlite3 'SELECT 1'", "sqlite3 db 'ATTACH \"x\" AS y'"],
};

/** gdu (disk usage): -n (non-interactive) or -r (read-only) prints sizes; its interactive mode can delete. */
const gdu: Rule = {
  names: ['gdu', 'gdu-go'],
  conventions: { info: ['-h', '-v'] },
  base: 'read',
  effects: ['file_read'],
  what: 'shows disk usage',
  readsArgs: false,
  checksOwnOptions: true,
  analyze(inv, a) {
    const argv = inv.argv;
    if (!argv.some((x) => ['-n', '--non-interactive', '-r', '--read-only', '-d', '--show-disks', '-p', '--no-progress'].includes(x))) a.raise('write', 'gdu in its interactive mode can delete files', ['file_delete']);
    const scan = a.options(inv, `-n --non-interactive -p --no-progress -r --read-only -d --show-disks -a --show-apparent-size -c --no-color -x --no-cross -H --no-hidden -i: --ignore-dirs=
      -I: --ignore-dirs-pattern= -s --summarize -t: --top= -C --show-item-count -M --show-mtime -B --show-relative-size --max-cores= --no-delete --no-spawn-shell -L --follow-symlinks`, 'gdu');
    for (const i of scan.operands) a.read(argv[i]!, inv.args[i]!.literal, inv.cwd, true, 'metadata');
  },
  match: ['gdu -n src', 'gdu --non-interactive --no-progress src'],
  notMatch: ['gdu src', 'gdu -n -o out.json src', 'gdu -n ~/.ssh'],
};

export const moreReaderRules: Rule[] = [exiftool, fontconfig, monitors, sshAdd, sqlite3, gdu, formatters, pv, most, mutool, xmlstarlet, mlr, calc, xdotool, gio, getent, qalc, listers, fd, searchers, digests, differs, sysInfo, dataTools, stty, busctl, clipboard, passwordStores];
