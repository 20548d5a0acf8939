// Known options of the programs that only read, one table per program (format in ../args.ts), taken from
// their manuals (GNU coreutils, util-linux, procps-ng, binutils, findutils ...). An option left out on
// purpose is one that writes a file, runs a program or changes the system: `file -C` compiles a magic
// file, `dmesg -C` clears the kernel ring buffer, `ss -K` kills sockets, `lsof -D` writes a device cache,
// `less -o` writes a log, `man -P`/`-H` run a pager or a browser, `bat --pager` runs a program, `fzf
// --bind`/`--preview` run commands, `hash -p` rebinds a command name, `compgen -W/-C/-F` expand or run code.
// Leaving an option out costs a prompt; listing a dangerous one would be a bypass.

const INFO = '--help --version';

const LS = `${INFO} -a -A -b -B -c -C -d -D -f -F -g -G -h -H -i -I: -k -l -L -m -n -N -o -p -q -Q -r -R -s -S -t -T: -u -U -v -w: -x -X -Z -1
  --all --almost-all --author --escape --block-size= --ignore-backups --color? --colour? --directory --dired --classify? --file-type
  --format= --full-time --group-directories-first --no-group --human-readable --si --dereference-command-line
  --dereference-command-line-symlink-to-dir --hide= --hyperlink? --indicator-style= --inode --ignore= --kibibytes --dereference
  --numeric-uid-gid --literal --hide-control-chars --show-control-chars --quote-name --quoting-style= --reverse --recursive
  --size --sort= --time= --time-style= --tabsize= --width= --context --zero @all-read`;

const CHECKSUM = `${INFO} -b -c -t -z -w --binary --check --tag --text --zero --ignore-missing --quiet --status --strict --warn @all-read`;

/** Tables by program name. */
export const READER_OPTIONS: Readonly<Record<string, string>> = {
  ls: LS,
  dir: LS,
  vdir: LS,
  tac: `${INFO} -b -r -s: --before --regex --separator= @all-read`,
  nl: `${INFO} -b: -d: -f: -h: -i: -l: -n: -p -s: -v: -w: --body-numbering= --section-delimiter= --footer-numbering= --header-numbering=
    --line-increment= --join-blank-lines= --number-format= --no-renumber --number-separator= --starting-line-number= --number-width= @all-read`,
  head: `${INFO} -c: -n: -q -v -z -NUM --bytes= --lines= --quiet --silent --verbose --zero-terminated @all-read`,
  tail: `${INFO} -c: -f -F -n: -q -s: -v -z -NUM --bytes= --follow? --lines= --max-unchanged-stats= --pid= --quiet --retry --silent
    --sleep-interval= --verbose --zero-terminated @all-read`,
  wc: `${INFO} -c -m -l -L -w --bytes --chars --lines --files0-from= --max-line-length --words --total= @all-read`,
  cut: `${INFO} -b: -c: -d: -f: -n -s -z --bytes= --characters= --delimiter= --fields= --complement --only-delimited --output-delimiter=
    --zero-terminated @all-read`,
  paste: `${INFO} -d: -s -z --delimiters= --serial --zero-terminated @all-read`,
  join: `${INFO} -a: -e: -i -j: -o: -t: -v: -1: -2: -z --check-order --nocheck-order --header --ignore-case --zero-terminated @all-read`,
  comm: `${INFO} -1 -2 -3 -z --check-order --nocheck-order --output-delimiter= --total --zero-terminated @all-read`,
  cmp: `${INFO} -b -i: -l -n: -s -v --print-bytes --ignore-initial= --verbose --bytes= --quiet --silent @all-read`,
  file: `${INFO} -b -c -d -e: -E -f: -F: -h -i -k -l -L -m: -n -N -P: -r -s -S -v -z -Z -0 --brief --checking-printout --exclude=
    --exclude-quiet= --extension --files-from= --separator= --dereference --no-dereference --mime --mime-type --mime-encoding
    --keep-going --list --magic-file= --no-buffer --no-pad --parameter= --raw --special-files --no-sandbox --uncompress
    --uncompress-noreport --print0`,
  stat: `${INFO} -L -f -c: -t --dereference --file-system --format= --printf= --terse --cached= @all-read`,
  du: `${INFO} -0 -a -A -B: -b -c -D -d: -H -h -k -L -l -m -P -S -s -t: -x -X: --null --all --apparent-size --block-size= --bytes
    --total --dereference-args --max-depth= --files0-from= --inodes --human-readable --si --count-links --dereference
    --no-dereference --separate-dirs --summarize --threshold= --time? --time-style= --exclude-from= --exclude= --one-file-system @all-read`,
  df: `${INFO} -a -B: -h -H -i -k -l -P -t: -T -x: -v --all --block-size= --human-readable --si --inodes --local --no-sync --output?
    --portability --print-type --sync --total --type= --exclude-type= @all-read`,
  od: `${INFO} -A: -j: -N: -S? -t: -v -w? -a -b -c -d -f -i -l -o -s -x --address-radix= --endian= --skip-bytes= --read-bytes= --strings?
    --format= --output-duplicates --width? --traditional @all-read`,
  hexdump: `${INFO} -b -c -C -d -e: -f: -L? -n: -o -s: -v -x -h -V --one-byte-octal --one-byte-char --canonical --two-bytes-decimal --format=
    --format-file= --color? --length= --two-bytes-octal --skip= --no-squeezing --two-bytes-hex @all-read`,
  strings: `${INFO} -a -d -f -n: -t: -e: -w -o -s: -U: -T: -NUM --all --data --print-file-name --bytes= --radix= --encoding=
    --include-all-whitespace --output-separator= --unicode= --target= @all-read`,
  md5sum: CHECKSUM,
  sha1sum: CHECKSUM,
  sha224sum: CHECKSUM,
  sha256sum: CHECKSUM,
  sha384sum: CHECKSUM,
  sha512sum: CHECKSUM,
  b2sum: `${CHECKSUM} -l: --length=`,
  cksum: `${CHECKSUM} -a: -l: --algorithm= --base64 --length= --raw --untagged --debug`,
  sum: `${INFO} -r -s --sysv @all-read`,
  column: `${INFO} -t -s: -o: -c: -x -n -N: -l: -R: -H: -O: -E: -d -e -J -r: -T: -W: -i: -p: -L -h -V --table --separator= --output-separator=
    --output-width= --fillrows --table-columns= --table-right= --table-hide= --table-order= --table-noextreme= --table-noheadings
    --table-header-repeat --json --table-name= --table-wrap= --table-truncate= --keep-empty-lines --tree= --tree-id= --tree-parent=
    --use-spaces= @all-read`,
  fold: `${INFO} -b -s -w: -NUM --bytes --characters --spaces --width= @all-read`,
  fmt: `${INFO} -c -p: -s -t -u -w: -g: -NUM --crown-margin --prefix= --split-only --tagged-paragraph --uniform-spacing --width= --goal= @all-read`,
  rev: `${INFO} -h -V -0 --zero @all-read`,
  tr: `${INFO} -c -C -d -s -t --complement --delete --squeeze-repeats --truncate-set1 @all-read`,
  look: `${INFO} -a -b -d -f -t: -h -V --alternative --alphanum --ignore-case --terminate= @all-read`,
  numfmt: `${INFO} -d: -z --debug --delimiter= --field= --format= --from= --from-unit= --grouping --header? --invalid= --padding= --round=
    --suffix= --unit-separator= --to= --to-unit= --zero-terminated @all-read`,
  expand: `${INFO} -i -t: -NUM --initial --tabs= @all-read`,
  unexpand: `${INFO} -a -t: -NUM --all --first-only --tabs= @all-read`,
  pr: `${INFO} -NUM -a -c -d -D: -e? -F -f -h: -i? -J -l: -m -n? -N: -o: -r -s? -S? -t -T -v -w: -W: --across --show-control-chars
    --double-space --date-format= --expand-tabs? --form-feed --header= --output-tabs? --join-lines --length= --merge --number-lines?
    --first-line-number= --indent= --no-file-warnings --separator? --sep-string? --omit-header --omit-pagination --show-nonprinting
    --width= --page-width= --pages= --columns= @all-read`,
  tsort: `${INFO} @all-read`,
  lsblk: `${INFO} -a -b -d -D -e: -f -h -i -I: -J -l -m -M -n -o: -O -p -P -r -s -S -t -T? -u -w: -x: -y -z -E: -V --all --bytes --nodeps
    --discard --exclude= --fs --include= --ascii --json --list --merge --perms --noheadings --output= --output-all --paths --pairs --raw
    --inverse --scsi --topology --tree? --width= --sort= --dedup= --zoned --nvme --virtio --list-columns --sysroot= @all-read`,
  lscpu: `${INFO} -a -b -c -e? -p? -s: -x -y -J -B -C? -h -V --all --online --offline --caches? --extended? --parse? --sysroot= --hex
    --physical --json --bytes --output-all @all-read`,
  lsusb: `${INFO} -v -s: -d: -D: -t -V -h --verbose --tree @all-read`,
  lspci: `${INFO} -m -t -v -k -x -b -D -P -n -q -s: -d: -i: -A: -M -G -h`,
  lsmod: `${INFO} @all-read`,
  lsof: `${INFO} -h -a -b -C -K -l -n -N -O -P -R -t -U -v -V -X -w -c: -d: -e: -g? -i? -k: -L? -m: -o? -p: -r? -s? -S? -T? -u: -E -M
    +c: +d: +D: +L +r? +w +E +M`,
  ps: `${INFO} @bundle=auxfwejlsvmrSTcnhXZLgGkO -A -a -d -e -g: -N -T -r -x -C: -G: -p: -q: -s: -t: -u: -U: -c -f -F -j -l -o: -O: -y -L -M -Z
    -H -w -m -V --sort= --forest --no-headers --headers --pid= --ppid= --user= --group= --sid= --tty= --cols= --columns= --width=
    --lines= --rows= --format= --cumulative --context --deselect --info --quick-pid= --Group= --User= @all-read`,
  pgrep: `${INFO} -d: -l -a -v -w -c -f -g: -G: -i -n -o -O: -P: -s: -t: -u: -U: -x -F: -L -r: -A -h -V --delimiter= --list-name --list-full
    --inverse --lightweight --count --full --pgroup= --group= --ignore-case --newest --oldest --older= --parent= --session=
    --terminal= --euid= --uid= --exact --pidfile= --logpidfile --runstates= --ignore-ancestors --cgroup= --ns= --nslist= --env= @all-read`,
  pidof: `${INFO} -s -c -n -x -z -d: -o: -q -h -V @all-read`,
  free: `${INFO} -b -k -m -g -h -w -c: -s: -t -v -l -L -V --bytes --kilo --mega --giga --tera --peta --kibi --mebi --gibi --tebi --pebi
    --human --si --lohi --line --total --committed --seconds= --count= --wide @all-read`,
  uptime: `${INFO} -p -s -r -c -h -V --pretty --since --raw --container @all-read`,
  w: `${INFO} -h -u -s -f -o -i -p -n -V --no-header --no-current --short --from --old-style --ip-addr --pids --no-truncat @all-read`,
  who: `${INFO} -a -b -d -H -l -m -p -q -r -s -t -T -u -w --all --boot --dead --heading --ips --login --lookup --process --count
    --runlevel --short --time --mesg --message --writable --users @all-read`,
  last: `${INFO} -a -d -f: -F -i -n: -R -s: -t: -p: -w -x -NUM -h -V --hostlast --dns --file= --fulltimes --ip --limit= --nohostname
    --since= --until= --present= --fullnames --system --time-format= @all-read`,
  users: `${INFO} @all-read`,
  vmstat: `${INFO} -a -f -m -n -s -d -D -p: -S: -t -w -y -h -V --active --forks --slabs --one-header --stats --disk --disk-sum
    --partition= --unit= --timestamp --wide --no-first @all-read`,
  nproc: `${INFO} --all --ignore= @all-read`,
  getconf: `${INFO} -a -v: @all-read`,
  locale: `${INFO} -a -m -v -c -k --all-locales --charmaps --verbose --category-name --keyword-name @all-read`,
  printenv: `${INFO} -0 --null @all-read`,
  tty: `${INFO} -s --silent --quiet @all-read`,
  groups: `${INFO} @all-read`,
  logname: `${INFO} @all-read`,
  arch: `${INFO} @all-read`,
  whoami: `${INFO} @all-read`,
  uname: `${INFO} -a -s -n -r -v -m -p -i -o --all --kernel-name --nodename --kernel-release --kernel-version --machine --processor
    --hardware-platform --operating-system @all-read`,
  id: `${INFO} -a -Z -g -G -n -r -u -z --context --group --groups --name --real --user --zero @all-read`,
  jq: `${INFO} -n -r -j -a -s -c -C -M -S -e -f: -L: -R -b -h -V --arg --argjson --slurpfile --rawfile --args --jsonargs --tab --indent=
    --stream --stream-errors --seq --null-input --raw-input --raw-output --raw-output0 --join-output --ascii-output --slurp
    --compact-output --color-output --monochrome-output --sort-keys --exit-status --from-file= --unbuffered --binary @all-read`,
  bat: `${INFO} -A -p -l: -H: -r: -n -f -m: -d -P -L -s -u -h -V --show-all --plain --language= --highlight-line= --file-name= --diff
    --diff-context= --tabs= --wrap= --terminal-width= --number --color= --italic-text= --decorations= --force-colorization --style=
    --line-range= --list-languages --list-themes --theme= --squeeze-blank --squeeze-limit= --strip-ansi= --nonprintable-notation=
    --binary= --map-syntax= --ignored-suffix= --unbuffered --no-config --no-custom-assets --paging=`,
  nm: `${INFO} -a -A -B -C -D -e -f: -g -h -j -l -n -o -p -P -r -s -S -t: -u -U -V -X: --debug-syms --print-file-name --demangle?
    --no-demangle --dynamic --defined-only --format= --extern-only --line-numbers --numeric-sort --no-sort --portability
    --reverse-sort --print-armap --size-sort --special-syms --synthetic --radix= --undefined-only --target= --with-symbol-versions
    --without-symbol-versions`,
  objdump: `${INFO} -a -d -D -f -h -p -r -R -s -S -t -T -x -g -e -G -C -l -F -z -w -b: -m: -M: -j: -H -V --archive-headers --disassemble?
    --disassemble-all --file-headers --section-headers --headers --private-headers --reloc --dynamic-reloc --full-contents --source
    --visualize-jumps? --disassembler-color= --no-show-raw-insn --show-raw-insn --no-addresses --prefix-addresses --insn-width= --disassembler-options=
    --syms --dynamic-syms --all-headers --debugging --dwarf? --demangle? --line-numbers --file-offsets --wide --start-address=
    --stop-address= --prefix-addresses --show-raw-insn --no-show-raw-insn --insn-width= --section= --architecture= --target=
    --disassembler-options= --visualize-jumps? --no-addresses --special-syms --inlines --source-comment? --prefix= --prefix-strip=
    --disassemble-zeroes --stabs --private= --info --endian=`,
  readelf: `${INFO} -a -h -l -S -g -t -e -s -n -r -u -d -V -A -c -D -I -W -x: -p: -R: -z -w? -H -v --all --file-header --program-headers
    --segments --section-headers --sections --section-groups --section-details --headers --syms --symbols --dyn-syms --lto-syms
    --notes --relocs --unwind --dynamic --version-info --arch-specific --archive-index --use-dynamic --histogram --wide --hex-dump=
    --string-dump= --relocated-dump= --decompress --debug-dump? --demangle? @all-read`,
  size: `${INFO} -A -B -G -o -d -x -t -V -h --format= --radix= --totals --common --target= @all-read`,
  zdump: `${INFO} -v -V -c: -t: -i @all-read`,
  namei: `${INFO} -l -m -n -o -v -x -Z -h -V --long --modes --nosymlinks --owners --vertical --mountpoints --context @all-read`,
  findmnt: `${INFO} -A -a -b -c -D -d: -e -f -F: -i -J -k -l -M: -m -n -N: -O: -o: -P -R -r -S: -s -T: -t: -U -u -v -w: -x -y -h -V --all
    --ascii --bytes --canonicalize --df --direction= --evaluate --first-only --fstab --invert --json --kernel --list --mountpoint=
    --mtab --noheadings --task= --options= --output= --output-all --pairs --poll? --real --pseudo --raw --source= --submounts
    --target= --types= --timeout= --uniq --notruncate --verify --verbose --tab-file= --nocanonicalize --shadow --id= --uniq-id=`,
  // -H/--human pages the output through less: not listed (nor -C/-c/-D/-E/-n, which change the ring buffer or console).
  dmesg: `${INFO} -T -k -l: -f: -x -w -W -L? -t -r -S -u -d -e -P -F: -h -V --ctime --kernel --level= --facility= --decode
    --follow --follow-new --color? --notime --raw --syslog --userspace --show-delta --reltime --nopager --time-format= --since=
    --until= --force-prefix --json --file=`,
  top: `-b -c -d: -e: -E: -H -i -n: -o: -O -p: -s -S -u: -U: -w? -1 -h -v`,
  ss: `${INFO} -h -V -H -n -r -a -l -o -e -m -p -T -i -s -E -Z -z -N: -b -4 -6 -0 -t -S -u -d -w -x -M -f: -A: -F: -O --numeric --resolve
    --all --listening --options --extended --memory --processes --threads --info --tos --cgroup --summary --events --context
    --contexts --net= --bpf --ipv4 --ipv6 --packet --tcp --sctp --udp --dccp --raw --unix --vsock --xdp --family= --query= --socket=
    --filter= --no-header --oneline --tipcinfo --mptcp --inet-sockopt --bpf-maps --bpf-map-id=`,
  netstat: `${INFO} -a -c -e -g -i -l -n -o -p -r -s -t -u -w -x -A: -C -F -M -N -v -W -Z -h -V --all --continuous --extend --groups
    --interfaces? --listening --numeric --numeric-hosts --numeric-ports --numeric-users --timers --program --route --statistics --tcp
    --udp --raw --unix --protocol= --verbose --wide --masquerade @all-read`,
  lsattr: `-R -V -a -d -l -p -v @all-read`,
  getfacl: `${INFO} -a -d -c -e -E -s -R -L -P -t -n -p -v -h --access --default --omit-header --all-effective --no-effective --skip-base
    --recursive --logical --physical --tabular --numeric --absolute-names --one-file-system @all-read`,
  tput: `-T: -S -V -x @all-read`,
  clear: `-T: -V -x @all-read`,
  sensors: `${INFO} -A -u -j -f -c: -h -v --no-adapter --fahrenheit --config-file= --bus-list`,
  'fc-list': `${INFO} -v -b -f: -q -V -h --verbose --brief --format= --quiet @all-read`,
  xxhsum: `${INFO} -H? -c -q -b -V -h --check --quiet --status --strict --warn --tag --little-endian --binary @all-read`,
  tokei: `${INFO} -e: -f -h -i: -l -o: -s: -t: -V -v -C -c: --exclude= --files --hidden --no-ignore --no-ignore-parent --no-ignore-dot
    --no-ignore-vcs --output= --sort= --types= --compact --columns= --verbose --num-format= --input= --languages`,
  less: `${INFO} @plus -N -n -S -R -r -F -X -i -I -M -m -e -E -q -Q -s -w -W -g -G -J -a -c -f -L -u -U -V -~ -p: -x: -z: -h: -j: -y: -b: -P:
    --LINE-NUMBERS --line-numbers --chop-long-lines --RAW-CONTROL-CHARS --raw-control-chars --quit-if-one-screen --no-init
    --ignore-case --IGNORE-CASE --LONG-PROMPT --long-prompt --quit-at-eof --QUIT-AT-EOF --quiet --QUIET --silent --squeeze-blank-lines
    --tabs= --window= --pattern= --no-lessopen --mouse --status-column --HILITE-UNREAD --hilite-unread --hilite-search --HILITE-SEARCH
    --clear-screen --CLEAR-SCREEN --force --underline-special --UNDERLINE-SPECIAL --tilde --shift= --jump-target= --max-back-scroll=
    --buffers= --incsearch --use-color --wordwrap`,
  more: `${INFO} @plus -d -l -f -p -c -u -s -e -n: -NUM -h -V --silent --logical --no-pause --print-over --clean-print --squeeze --plain
    --exit-on-eof --lines=`,
  man: `${INFO} -a -f -k -K -w -W -l -L: -M: -m: -S: -s: -e: -i -I -u -7 -E: -R: -t -T? -Z -h -V --all --whatis --apropos
    --global-apropos --where --path --location --where-cat --location-cat --local-file --locale= --manpath= --systems= --sections=
    --extension= --ignore-case --match-case --regex --wildcard --names-only --no-hyphenation --no-justification --nh --nj --ascii
    --encoding= --recode= --troff --troff-device? --ditroff --usage --no-subpages --debug --default`,
  whatis: `${INFO} -d -v -r -w -e -l -s: -m: -M: -L: -h -V --debug --verbose --regex --wildcard --exact --long --sections= --section=
    --systems= --manpath= --locale= --usage`,
  apropos: `${INFO} -d -v -r -w -e -a -l -s: -m: -M: -L: -h -V --debug --verbose --regex --wildcard --exact --and --long --sections=
    --section= --systems= --manpath= --locale= --usage`,
  fzf: `${INFO} @plus -f: -q: -e -i +i +s -m -0 -1 -d: -n: --filter= --query= --exact --no-sort --tac --multi --no-multi --select-1
    --exit-0 --print0 --read0 --ansi --delimiter= --nth= --with-nth= --tiebreak= --layout= --reverse --height= --border? --prompt=
    --header= --no-mouse --cycle --info= --print-query --sync --literal --algo= --scheme=`,
  shellcheck: `${INFO} -a -C? -i: -e: -f: -o: -P: -s: -S: -V -W: -x -h --check-sourced --color? --include= --exclude= --extended-analysis=
    --format= --list-optional --norc --enable= --source-path= --shell= --severity= --wiki-link-count= --external-sources`,
  hadolint: `${INFO} -c: -f: -t: -V -v -h --config= --format= --ignore= --no-fail --no-color --failure-threshold= --strict-labels
    --trusted-registry= --verbose --require-label= --file-path-in-report=`,
  yamllint: `${INFO} -c: -d: -f: -s -v -h --strict --no-warnings --list-files --config-file= --config-data= --format=`,
  pdfinfo: `@single-dash -f: -l: -box -meta -custom -js -struct -struct-text -isodates -rawdates -dests -url -enc: -listenc -opw: -upw:
    -v -h -help --help`,
  locate: `${INFO} -A -b -c -d: -e -L -h -i -l: -m -P -0 -S -q -r: -w -N -V --all --basename --count --database= --existing --follow
    --ignore-case --limit= --mmap --nofollow --null --statistics --quiet --regexp= --regex --wholename --literal @all-read`,
  whereis: `-b -m -s -u -B: -M: -S: -f -l -g -h -V @all-read`,
  which: `${INFO} -a -s -v -V -i --all --skip-dot --skip-tilde --show-dot --show-tilde --tty-only --read-alias --skip-alias
    --read-functions --skip-functions @all-read`,
  type: '@in-order -a -f -p -P -t @all-read',
  hash: '-r -t -l -d',
  help: '-d -m -s @all-read',
  cal: `${INFO} -1 -3 -A: -B: -b -C -c? -d: -e -h -H: -J -j -M -m: -N -o -p -S -s: -w -y -Y -n: -v -V --one --three --months= --before=
    --after= --sunday --monday --julian --reform= --iso --year --twelve --week? --color? --span --vertical --columns= @all-read`,
  factor: `${INFO} -h --exponents @all-read`,
  units: `${INFO} -f: -m -q -s -t -v -c -1 -o: -e -V -h -u: --file= --minus --quiet --silent --strict --terse --verbose --compact
    --one-line --output-format= --exponential --units=`,
};

/** The decompressing cat-likes (zcat, bzcat, xzcat, zstdcat, lz4cat) share one table: they only print. */
export const DECODER_CAT_OPTIONS = `${INFO} -f -q -v -l -s -S: -T: -M: -F: -D: -Q -h -V -L --force --quiet --verbose --list --suffix= --format=
  --threads= --memlimit= --single-stream --ignore-check --small @all-read`;

export const GREP_OPTIONS = `${INFO} -E -F -G -P -e: -f: -i -y -v -w -x -c -L -l -m: -o -q -s -b -H -h -n -T -Z -z -A: -B: -C: -NUM -a -D: -d: -I -r -R -U
  -V --no-ignore-case --color? --colour? --label= --binary-files= --exclude= --exclude-from= --exclude-dir= --include= --line-buffered
  --null-data --extended-regexp --fixed-strings --basic-regexp --perl-regexp --regexp= --file= --ignore-case --invert-match
  --word-regexp --line-regexp --count --files-without-match --files-with-matches --max-count= --only-matching --quiet --silent
  --no-messages --byte-offset --with-filename --no-filename --line-number --initial-tab --null --after-context= --before-context=
  --context= --text --devices= --directories= --recursive --dereference-recursive --binary @all-read`;

/** ack 3 (its manual): --pager and --ackrc (which can name a pager) run programs, --output evaluates an expression: not listed. */
export const ACK_OPTIONS = `${INFO} -i --ignore-case -S --smart-case -I --no-ignore-case -v --invert-match -w --word-regexp -Q --literal --range-start=
  --range-end= --range-invert -l --files-with-matches -L --files-without-matches -o --passthru --match= -m: --max-count= -1 -H --with-filename
  -h --no-filename -c --count --column --no-column -A: --after-context= -B: --before-context= -C? --context? --print0 -s --files-from= -x
  --show-types -f -g: --sort-files --ignore-ack-rc --ignore-dir= --noignore-dir= --ignore-directory= --noignore-directory= --ignore-file=
  -r -R --recurse -n --no-recurse --follow --nofollow -t: --type= -T: --type-add= --type-set= --type-del= --color --nocolor --colour --nocolour
  --color-filename= --color-match= --color-colno= --color-lineno= --flush --group --nogroup --heading --noheading --break --nobreak --env --noenv
  --help-types --help-colors --help-rgb-colors --thpppt --bar --cathy --filter --nofilter -k --known-types --nopager --dump`;

export const AG_OPTIONS = `${INFO} --filename-pattern= -a -A: -B: -C: -c -f -F -g: -G: -H -i -l -L -m: -n -o -p: -Q -r -R -s -S -t -u -U -v -w -z -0 -W: --color --nocolor
  --column --heading --noheading --hidden --ignore= --ignore-dir= --literal --nogroup --group --silent --stats --vimgrep --count
  --depth= --files-with-matches --files-without-matches --follow --ignore-case --smart-case --case-sensitive --max-count=
  --print-long-lines --only-matching --search-zip --unrestricted --word-regexp --skip-vcs-ignores --all-types --one-device
  --context= --after= --before= --filename --nofilename --list-file-types --numbers --nonumbers --break --nobreak --print0 --null
  --width= --multiline --nomultiline --all-text --path-to-ignore=`;

export const RG_OPTIONS = `${INFO} -A: -B: -C: -a -b -c -e: -E: -f: -F -g: -H -i -I -j: -l -L -m: -M: -n -N -o -p -q -r: -s -S -t: -T: -u -U -v -V -w -x -z -0 -h
  --after-context= --before-context= --context= --text --byte-offset --count --count-matches --color= --colors= --column --no-column
  --context-separator= --no-context-separator --debug --trace --dfa-size-limit= --encoding= --engine= --field-context-separator=
  --field-match-separator= --files --files-with-matches --files-without-match --fixed-strings --follow --no-follow --glob=
  --glob-case-insensitive --heading --no-heading --hidden --no-hidden --iglob= --ignore-case --ignore-file= --ignore-file-case-insensitive
  --include-zero --invert-match --json --no-json --line-buffered --line-number --no-line-number --line-regexp --max-columns=
  --max-columns-preview --max-count= --max-depth= --max-filesize= --mmap --no-mmap --multiline --multiline-dotall --no-config
  --no-ignore --no-ignore-dot --no-ignore-exclude --no-ignore-files --no-ignore-global --no-ignore-parent --no-ignore-vcs
  --no-messages --null --null-data --one-file-system --only-matching --passthru --passthrough -. --path-separator= --pcre2 --no-pcre2 !--pre= --no-pre
  --pre-glob= --pretty --quiet --regex-size-limit= --regexp= --replace= --search-zip --no-search-zip --smart-case --case-sensitive
  --sort= --sortr= --stats --stop-on-nonmatch --threads= --trim --type= --type-not= --type-add= --type-clear= --type-list --unrestricted
  --vimgrep --with-filename --no-filename --word-regexp --crlf --no-crlf --auto-hybrid-regex --binary --no-binary --block-buffered
  --no-block-buffered --pcre2-version --hyperlink-format= --no-unicode`;
