// Walks the bash syntax tree and turns every command that can run into a judged Segment. Anything it
// does not recognise fails closed: an unknown node is at least write and flagged; an unknown program
// can reach every effect; code computed at run time is dynamic.
import type { SyntaxNode as Node } from './syntax';
import { CLASSES, FLAGS, SHELL_REACHABLE_EFFECTS, classRank, maxClass, type Class, type Effect, type Flag } from '../../../common/domain';
import {
  containsCredentialLocation,
  globCouldReachCredential,
  globMatchesOnlySecretNames,
  globReachesCredentialLocation,
  isHarmlessDevice,
  isOutsideJailCodePath,
  isProtectedWriteTarget,
  isRawDevice,
  resolvePath,
  secretReadReason,
  type PathContext,
} from '../paths';
import { parseAndCopyShell } from './parser';
import { containsError, plainTree, TooDeepError } from './syntax';
import { lookupProgram, normaliseProgramName, type ProgramEntry } from './programs';
import { SHELLS } from './programs/interpreters';
import type { Analysis, Classification, Invocation, ProgramConventions, ProgramRule, Producer, ReadKind, RedirectInfo, Segment } from './types';
import { conventionsOf, inertInvocation, readKindOf, stdioOperand, STDIO_OPERAND } from './conventions';
import { CREDENTIAL_SYSTEM_PATHS } from '../../../common/credential-locations';
import { findObfuscation, isSuspiciousName, lookalikeSkeleton } from './unicode';
import { arithmeticRisks, loopVariablesFromData, mayHoldArithmetic, printsANumber } from './arithmetic';
import { collectSubstitutions, evaluateWord, expandBraces, expansionRisks, mayBeOption, NO_OUTPUT, UNKNOWN_OUTPUT, type Word } from './words';
import { isCodeVariable, isDangerousVariable } from './env-vars';
import { scanOptions, tableFor, type OptionTable, type ScannedOptions } from './args';
import { NetworkFiles } from './network/config-files';
import { exfiltrationSource, networkEnvironment, socketUse } from './network/exfiltration';
import type { NetworkUse, ReadText } from './network/types';

const MAX_DEPTH = 8;

/** How deeply the syntax tree may nest before the command is refused as too deep to analyse. */
export const MAX_TREE_DEPTH = 400;
/** Longest command the classifier analyses; longer ones ask (memory stays bounded). */
export const MAX_COMMAND_LENGTH = 256 * 1024;

const STATEMENT_CONTAINERS = new Set(['program', 'list', 'compound_statement', 'do_group', 'else_clause', 'elif_clause']);
const EXPRESSION_NODES = new Set([
  'binary_expression', 'unary_expression', 'ternary_expression', 'postfix_expression', 'parenthesized_expression',
  'number', 'variable_name', 'word', 'string', 'raw_string', 'simple_expansion', 'expansion', 'concatenation',
  'arithmetic_expansion', 'test_operator', 'subscript', 'regex', 'extglob_pattern', 'ansi_c_string', 'special_variable_name',
  'translated_string', 'brace_expression', 'command_substitution', 'process_substitution',
]);

export interface AnalyzeOptions {
  ctx: PathContext;
  /** Directory the command starts in; the workspace when not given. */
  cwd?: string;
  /** Reads the configuration files that name remotes and registries; without it such hosts are unknown. */
  readText?: ReadText;
}

interface Scope {
  cwd: string | null;
  via: string[];
  depth: number;
}

/** The effects of a raise that names none (one shared list: raise only reads it). */
const NO_EFFECTS: readonly Effect[] = Object.freeze([]);

class Draft {
  text: string;
  argv: string[] = [];
  assignments: string[] = [];
  program: string | null = null;
  cls: Class = 'read';
  /** In the order first raised (the Segment lists them so). */
  effects: Effect[] = ['command_exec'];
  reasons: string[] = [];
  via: string[];
  literal = true;
  substitution = false;
  dynamic = false;
  redirects: RedirectInfo[] = [];
  writes: string[] = [];
  unknownWrites = false;
  hardline = false;
  /** A redirection connects it to a network socket (/dev/tcp, /dev/udp). */
  socket = false;
  network: NetworkUse[] = [];

  constructor(text: string, via: string[]) {
    this.text = text;
    this.via = via;
  }

  /** The last reason given at the segment's class, and the first that made it read a secret. */
  private decisive: string | null = null;
  private secretReason: string | null = null;

  raise(cls: Class, reason: string, effects: readonly Effect[] = NO_EFFECTS): void {
    const raised = maxClass(this.cls, cls);
    // The last reason given at the segment's class: the path, option or program that put it there.
    if (reason && cls === raised) this.decisive = reason;
    this.cls = raised;
    // Indexed: effects come as shared frozen lists and as fresh ones, and for-of over such a mix
    // allocates an iterator and a result object per element even in optimised code.
    for (let i = 0; i < effects.length; i++) if (!this.effects.includes(effects[i]!)) this.effects.push(effects[i]!);
    if (reason && this.secretReason === null && effects.includes('secret_read')) this.secretReason = reason;
    if (reason && !this.reasons.includes(reason)) this.reasons.push(reason);
  }

  toSegment(): Segment {
    // The reason that made it ask comes last, where the card and `evaluate` take it from: the path read
    // as a secret (a floor), else the option, path or program that raised the class.
    const chosen = this.cls !== 'destructive' && this.secretReason !== null ? this.secretReason : this.decisive;
    const reasons = chosen !== null && this.reasons[this.reasons.length - 1] !== chosen ? [...this.reasons.filter((r) => r !== chosen), chosen] : this.reasons;
    return {
      text: this.text,
      argv: this.argv,
      assignments: this.assignments,
      program: this.program,
      class: this.cls,
      effects: this.effects,
      reasons,
      via: this.via,
      literal: this.literal,
      substitution: this.substitution,
      dynamic: this.dynamic,
      redirects: this.redirects,
      writes: this.writes,
      unknownWrites: this.unknownWrites,
      hardline: this.hardline,
      network: this.network,
    };
  }
}

export class ShellAnalyzer {
  private readonly drafts: Draft[] = [];
  /** The flags raised, one bit each (FLAG_BIT): no Set to make for every command. */
  private flagBits = 0;
  private readonly topReasons: string[] = [];
  private functions: Set<string> | null = null;
  /** @internal */
  readonly ctx: PathContext;
  /** What each substitution printed, by node id, for judging code built from it. */
  private substitutionOutputs: Map<number, Producer> | null = null;
  /** @internal The files that name remotes and registries (nothing is read unless a network program asks). */
  readonly files: NetworkFiles;
  /** A variable set anywhere in the command that can change where network programs connect. */
  private networkEnv: string | null = null;
  /** Variables set anywhere in the command to a value only the run knows, and where it came from. */
  private runtimeValued: Map<string, string> | null = null;
  /**
   * Literal values variables are given anywhere in the command (`f=/etc/shadow`, `for f in a b`): a path
   * written through such a variable (`cat "$f"`) is judged with each of them. Only ever makes a judgement
   * stricter: the word stays computed at run time for everything else.
   */
  private literalValues: Map<string, string[]> | null = null;

  constructor(opts: AnalyzeOptions) {
    this.ctx = opts.ctx;
    this.files = new NetworkFiles(opts.readText ?? null, opts.ctx.home);
  }

  static classify(source: string, opts: AnalyzeOptions): Classification {
    const analyzer = new ShellAnalyzer(opts);
    const scope: Scope = { cwd: opts.cwd ?? opts.ctx.workspace, via: [], depth: 0 };
    if (source.length > MAX_COMMAND_LENGTH) {
      // Refused before parsing: the cost of analysing grows with the text, and no real command is this long.
      analyzer.refuse(scope, `too long to analyse: the command is ${source.length} characters, the limit is ${MAX_COMMAND_LENGTH}`);
    } else {
      try {
        analyzer.analyzeSource(source, scope, null);
      } catch (e) {
        // The depth limit keeps every recursive walk shallow; a stack overflow is the backstop, never a crash.
        if (e instanceof TooDeepError) analyzer.refuse(scope, `too deeply nested to analyse: the syntax nests deeper than ${e.limit} levels`);
        else if (e instanceof RangeError) analyzer.refuse(scope, 'too deeply nested to analyse: the analysis ran out of stack');
        // Any other failure is a classifier defect: the command still gets a decision, and it asks.
        else analyzer.refuse(scope, `not analysed: the classifier failed on this command (${e instanceof Error ? e.message : String(e)})`);
      }
    }
    return analyzer.result();
  }

  /** A command the classifier will not analyse: write, every effect, and it asks (flagged as a parse error). */
  private refuse(scope: Scope, reason: string): void {
    this.drafts.length = 0;
    const d = this.newDraft('(not analysed)', scope);
    this.reachEverything(d, reason);
    this.flag('parse_error', reason);
  }

  /** @internal */
  flag(flag: Flag, reason: string): void {
    this.flagBits |= FLAG_BIT[flag];
    if (reason && !this.topReasons.includes(reason)) this.topReasons.push(reason);
  }

  /** Parses and walks one piece of shell code (the whole command, or code carried by bash -c / eval). */
  /** @internal */
  analyzeSource(source: string, scope: Scope, carrier: Draft | null, stdin: Producer = NO_OUTPUT): Producer {
    const obfuscation = findObfuscation(source);
    for (let i = 0; i < obfuscation.length; i++) this.flag('obfuscation', `obfuscation: the command ${obfuscation[i]}`);
    if (scope.depth > MAX_DEPTH) {
      const d = this.newDraft(source, scope);
      this.reachEverything(d, 'code nested too deeply to analyse');
      return UNKNOWN_OUTPUT;
    }
    if (source.trim() === '') return NO_OUTPUT;
    const plain = plainShortcut ? plainTree(source) : null;
    const root = plain ?? parseAndCopy(source);
    // A plain line's tree has no ERROR or missing node (syntax.test.ts holds it to the parser's).
    const hasError = plain === null && containsError(root);
    {
      if (hasError) {
        this.flag('parse_error', 'parse error: the command is not valid bash, so what it runs cannot be known');
        if (carrier) this.reachEverything(carrier, 'carries code that does not parse');
        // tree-sitter-bash cannot parse a brace expansion in command position ({rm,-rf,/}); bash runs it.
        const expanded = expandBraceWords(source);
        if (expanded !== source) this.analyzeSource(expanded, { ...scope, via: [...scope.via, 'brace expansion'], depth: scope.depth + 1 }, carrier);
      }
      const out = this.walk(root, scope, stdin);
      this.judgeArithmetic(root, source, scope);
      return out;
    }
  }

  /**
   * Arithmetic over data the run decides can run code (arithmetic.ts). After the walk, so every variable
   * the command sets is known, wherever it is set; skipped when the text cannot hold arithmetic.
   */
  private judgeArithmetic(root: Node, source: string, scope: Scope): void {
    if (!mayHoldArithmetic(source)) return;
    const loops = /\bfor\b/.test(source) ? loopVariablesFromData(root) : null;
    if (!this.runtimeValued?.size && !loops?.size && !/\$\(|`/.test(source)) return;
    const origin = (name: string) => this.runtimeValued?.get(name) ?? loops?.get(name) ?? null;
    const risks = arithmeticRisks(root, origin);
    if (risks.length === 0) return;
    const d = this.newDraft(source, scope);
    for (const why of risks) d.raise('write', why, SHELL_REACHABLE_EFFECTS);
  }

  private newDraft(text: string, scope: Scope): Draft {
    const d = new Draft(text, scope.via);
    this.drafts.push(d);
    return d;
  }

  /** @internal */
  reachEverything(d: Draft, reason: string): void {
    d.raise('write', reason, SHELL_REACHABLE_EFFECTS);
  }

  // ── statements ──────────────────────────────────────────────────────────────────────────────

  /** Walks a statement; returns what it writes to standard output. `stdin` feeds its first command. */
  private walk(node: Node, scope: Scope, stdin: Producer): Producer {
    const type = node.type;
    if (STATEMENT_CONTAINERS.has(type)) return this.walkSequence(node, scope, stdin);
    switch (type) {
      case 'command':
        return this.walkCommand(node, scope, stdin, []);
      case 'redirected_statement':
        return this.walkRedirected(node, scope, stdin);
      case 'pipeline':
        return this.walkPipeline(node, scope, stdin);
      case 'subshell':
        return this.walkSequence(node, { ...scope }, stdin);
      case 'negated_command':
        return this.walkSequence(node, scope, stdin);
      case 'function_definition':
        this.walkFunction(node, scope);
        return NO_OUTPUT;
      case 'if_statement':
      case 'while_statement':
      case 'for_statement':
      case 'c_style_for_statement':
      case 'case_statement':
      case 'case_item':
        return this.walkControl(node, scope);
      case 'variable_assignment':
      case 'variable_assignments':
        this.walkAssignmentStatement(node, scope);
        return NO_OUTPUT;
      case 'declaration_command':
      case 'unset_command':
        this.walkDeclaration(node, scope);
        // declare -p, export -p and readonly print the shell's variables.
        return node.type === 'declaration_command' ? UNKNOWN_OUTPUT : NO_OUTPUT;
      case 'test_command':
        this.walkTest(node, scope);
        return NO_OUTPUT;
      case 'comment':
        return NO_OUTPUT;
      case 'ERROR':
        this.flag('parse_error', 'parse error: the command is not valid bash, so what it runs cannot be known');
        return this.walkSequence(node, scope, stdin);
      default:
        if (EXPRESSION_NODES.has(type)) {
          this.walkExpression(node, scope);
          return UNKNOWN_OUTPUT;
        }
        return this.unknownNode(node, scope);
    }
  }

  private unknownNode(node: Node, scope: Scope): Producer {
    this.flag('unknown_syntax', `unknown syntax: "${node.type}" is not a construct the classifier knows`);
    const d = this.newDraft(node.text, scope);
    this.reachEverything(d, `contains ${node.type}, which the classifier does not know`);
    return UNKNOWN_OUTPUT;
  }

  private walkSequence(node: Node, scope: Scope, stdin: Producer): Producer {
    let out: Producer = NO_OUTPUT;
    let first = true;
    for (const child of node.type === 'list' ? flattenList(node) : node.children) {
      if (!child.isNamed) {
        if (child.type === '&') this.flag('background', 'background: part of the command keeps running in the background');
        if (child.isMissing) this.flag('parse_error', 'parse error: the command is incomplete');
        // `ls ;; pwd`: a case terminator outside a case is a syntax error bash refuses (tree-sitter accepts it).
        if (child.type === ';;' || child.type === ';&' || child.type === ';;&') this.flag('parse_error', `parse error: "${child.type}" outside a case statement is not valid bash`);
        continue;
      }
      if (child.isMissing) {
        this.flag('parse_error', 'parse error: the command is incomplete');
        continue;
      }
      const p = this.walk(child, scope, first ? stdin : NO_OUTPUT);
      first = false;
      out = combineOutputs(out, p);
    }
    return out;
  }

  private walkPipeline(node: Node, scope: Scope, stdin: Producer): Producer {
    let flowing: Producer = stdin;
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i)!;
      if (!child.isNamed) continue;
      // Each stage of a pipeline runs in a subshell: cd inside one does not move the next.
      flowing = this.walk(child, { ...scope }, flowing);
    }
    return flowing;
  }

  private walkRedirected(node: Node, scope: Scope, stdin: Producer): Producer {
    const body = node.childForFieldName('body');
    const redirects: Node[] = [];
    for (let i = 0; i < node.childCount; i++) {
      const c = node.child(i)!;
      if (c.isNamed && c !== body && c.id !== body?.id) redirects.push(c);
    }
    if (body?.type === 'command') return this.walkCommand(body, scope, stdin, redirects, node.text);
    // Redirections on a compound statement: judge the targets in a segment of their own.
    const out = body ? this.walk(body, scope, stdin) : NO_OUTPUT;
    const d = this.newDraft(node.text, scope);
    d.program = null;
    const fed = this.applyRedirects(d, redirects, scope);
    // `{ ls; } > f x`: bash refuses a word after the redirection of a compound command.
    if (fed.extraArgs.length) this.flag('parse_error', 'parse error: a word follows the redirection of a compound command');
    if (d.reasons.length === 0) d.raise('read', 'redirects the output of a compound command');
    return this.walkContinuations(fed.continuations, scope, out);
  }

  private walkFunction(node: Node, scope: Scope): void {
    const name = node.childForFieldName('name')?.text ?? '';
    (this.functions ??= new Set()).add(name);
    const body = node.childForFieldName('body');
    if (body && isForkBomb(name, body)) {
      const d = this.newDraft(node.text, scope);
      d.program = name;
      d.raise('destructive', `fork bomb: function ${name} calls itself in a pipeline or in the background`);
      d.hardline = true;
      this.flag('hardline', '');
    }
    if (body) this.walk(body, { ...scope, via: [...scope.via, `function ${name}`] }, NO_OUTPUT);
  }

  private walkControl(node: Node, scope: Scope): Producer {
    if (node.type === 'for_statement') this.rememberLoopValues(node);
    let out: Producer = NO_OUTPUT;
    for (let i = 0; i < node.childCount; i++) {
      const c = node.child(i)!;
      if (!c.isNamed) {
        if (c.type === '&') this.flag('background', 'background: part of the command keeps running in the background');
        continue;
      }
      const field = fieldOf(node, i);
      if (field === 'variable' || field === 'value' || c.type === 'word' || EXPRESSION_NODES.has(c.type)) {
        if (c.type !== 'variable_name') this.walkExpression(c, scope);
        continue;
      }
      out = combineOutputs(out, this.walk(c, scope, NO_OUTPUT));
    }
    return out;
  }

  /** Expressions (arithmetic, for-lists, case values, test operands) run only their substitutions. */
  private walkExpression(node: Node, scope: Scope): void {
    const risks = expansionRisks(node);
    if (risks.length) {
      const d = this.newDraft(node.text, scope);
      for (const why of risks) d.raise('write', why, SHELL_REACHABLE_EFFECTS);
    }
    const holder = { substitutions: [] as Node[] };
    if (node.type === 'command_substitution' || node.type === 'process_substitution') holder.substitutions.push(node);
    else collectSubstitutions(node, holder);
    for (const s of holder.substitutions) {
      this.flag('substitution', 'substitution: part of the command runs another command to compute a value');
      this.walkSubstitution(s, scope);
    }
    this.checkUnknownWordNodes(node);
  }

  private checkUnknownWordNodes(node: Node): void {
    const stack: Node[] = [node];
    while (stack.length) {
      const n = stack.pop()!;
      if (n.type === 'command_substitution' || n.type === 'process_substitution') continue;
      if (n.type === 'ERROR' || n.isMissing) this.flag('parse_error', 'parse error: the command is not valid bash, so what it runs cannot be known');
      for (const c of n.namedChildren) if (c) stack.push(c);
    }
  }

  private walkSubstitution(node: Node, scope: Scope): Producer {
    const via = node.type === 'process_substitution' ? (node.text.startsWith('>') ? '>(...)' : '<(...)') : '$(...)';
    let out: Producer = NO_OUTPUT;
    const inner = { ...scope, via: [...scope.via, via] };
    for (const c of node.namedChildren) if (c) out = combineOutputs(out, this.walk(c, inner, NO_OUTPUT));
    return out;
  }

  private walkAssignmentStatement(node: Node, scope: Scope): void {
    const d = this.newDraft(node.text, scope);
    const assignments = node.type === 'variable_assignments' ? node.namedChildren.filter(Boolean) as Node[] : [node];
    for (const a of assignments) this.judgeAssignment(d, a, scope, true);
    if (d.reasons.length === 0) d.raise('read', 'sets a shell variable');
  }

  private walkDeclaration(node: Node, scope: Scope): void {
    const d = this.newDraft(node.text, scope);
    const keyword = node.child(0)?.text ?? 'declare';
    d.program = keyword;
    d.argv = [keyword];
    for (const c of node.namedChildren) {
      if (!c) continue;
      if (c.type === 'variable_assignment') this.judgeAssignment(d, c, scope, true);
      else {
        const w = this.evalWord(c, d, scope);
        d.argv.push(w.value);
      }
    }
    if (d.reasons.length === 0) d.raise('read', `${keyword} declares shell variables`);
  }

  private walkTest(node: Node, scope: Scope): void {
    const d = this.newDraft(node.text, scope);
    d.program = '[[';
    d.raise('read', 'tests a condition');
    this.walkExpression(node, scope);
    if (containsSubstitution(node)) d.substitution = true;
  }

  private judgeAssignment(d: Draft, node: Node, scope: Scope, standalone: boolean): void {
    const nameNode = node.childForFieldName('name');
    const name = nameNode?.type === 'subscript' ? (nameNode.childForFieldName('name')?.text ?? '') : (nameNode?.text ?? node.text.split('=')[0] ?? '');
    // a[$(cmd)]=1: an array subscript is evaluated, substitutions included.
    if (nameNode && nameNode.type !== 'variable_name') {
      if (containsSubstitution(nameNode)) {
        d.substitution = true;
        d.literal = false;
        this.walkExpression(nameNode, scope);
      }
      for (const why of expansionRisks(nameNode)) d.raise('write', why, SHELL_REACHABLE_EFFECTS);
    }
    const value = node.childForFieldName('value');
    let word: Word | null = null;
    if (value) {
      word = this.evalWord(value, d, scope);
      if (!word.literal) d.literal = false;
    }
    if (!standalone) d.assignments.push(`${node.childForFieldName('name')?.text ?? name}${node.text.includes('+=') ? '+=' : '='}${word?.value ?? ''}`);
    this.judgeVariable(d, name, word, scope, standalone ? 'assigns' : 'runs with');
  }

  /**
   * Judges setting one variable: code variables (PAGER, GIT_SSH_COMMAND) have their code judged, and any
   * variable that changes which program or code runs makes the segment write. `name` may carry a
   * subscript (printf -v 'a[i]', read 'BASH_CMDS[ls]').
   * @internal
   */
  judgeVariable(d: Draft, rawName: string, word: Word | null, scope: Scope, how: 'assigns' | 'runs with' | 'sets'): void {
    const bracket = rawName.indexOf('[');
    const name = bracket === -1 ? rawName : rawName.slice(0, bracket);
    if (bracket !== -1 && !/^\[(\d+|[@*])\]$/.test(rawName.slice(bracket))) {
      d.raise('write', `the array subscript in ${rawName} is evaluated as arithmetic, which can run code`, SHELL_REACHABLE_EFFECTS);
    }
    if (!/^[A-Za-z_]\w*$/.test(name)) {
      d.raise('write', `${how === 'sets' ? 'sets' : 'assigns'} the variable "${rawName}", whose name is only known at run time`, SHELL_REACHABLE_EFFECTS);
      this.networkEnv ??= rawName;
      return;
    }
    if (this.networkEnv === null && networkEnvironment(name)) this.networkEnv = name;
    if (word?.literal) this.rememberValue(name, word.value);
    const from = runtimeOrigin(word, this.runtimeValued);
    if (from) (this.runtimeValued ??= new Map()).set(name, from);
    if (isCodeVariable(name) && word) {
      // PAGER='…', GIT_SSH_COMMAND='…': the value is a command that later runs through a shell.
      const inner: Scope = { cwd: scope.cwd, via: [...scope.via, `${name}=`], depth: scope.depth + 1 };
      if (word.literal) this.analyzeSource(word.value.replace(/^\|/, '').replace(/%s/g, 'FILE'), inner, d);
      else this.runComputedCode(d, word, `${name}=`);
    }
    if (isDangerousVariable(name)) {
      d.raise(
        'write',
        how === 'assigns'
          ? `assigns ${name}, which changes what later commands run`
          : how === 'sets'
            ? `sets ${name}, which changes what later commands run`
            : `runs with ${name} set, which changes which program or code runs`,
        SHELL_REACHABLE_EFFECTS,
      );
    }
  }


  /** @internal Remembers a literal value a variable is given (at most a few per name). */
  rememberValue(name: string, value: string): void {
    const values = (this.literalValues ??= new Map()).get(name);
    if (!values) this.literalValues.set(name, [value]);
    else if (values.length < 8 && !values.includes(value)) values.push(value);
  }

  /** `for f in /etc/shadow notes.txt`: each literal word of the list is a value of f. */
  private rememberLoopValues(node: Node): void {
    const name = node.childForFieldName('variable')?.text;
    if (!name) return;
    for (let i = 0; i < node.childCount; i++) {
      if (fieldOf(node, i) !== 'value') continue;
      const w = evaluateWord(node.child(i)!, { home: this.ctx.home });
      if (w.literal) for (const v of w.value.split(/\s+/)) if (v) this.rememberValue(name, v);
    }
  }

  /**
   * The values a word computed at run time can take when it only expands variables the command itself
   * gives literal values (`"$f"`, `${dir}/key.pem`); null when anything else is computed.
   */
  private valuesOf(raw: string): string[] | null {
    if (this.literalValues === null || !raw.includes('$') || /[`(]|\$\(/.test(raw)) return null;
    let out = [''];
    const re = /\$\{([A-Za-z_]\w*)\}|\$([A-Za-z_]\w*)/g;
    let last = 0;
    for (let m = re.exec(raw); m; m = re.exec(raw)) {
      const values = this.literalValues.get(m[1] ?? m[2]!);
      if (!values) return null;
      const before = raw.slice(last, m.index);
      const next: string[] = [];
      for (const prefix of out) for (const v of values) if (next.length < 16) next.push(prefix + before + v);
      out = next;
      last = m.index + m[0].length;
    }
    const rest = raw.slice(last);
    if (rest.includes('$')) return null;
    return out.map((o) => o + rest);
  }

  // ── words ───────────────────────────────────────────────────────────────────────────────────

  /** Evaluates a word; any substitution inside runs first, as commands of its own. */
  private evalWord(node: Node, d: Draft, scope: Scope, producers?: Producer[]): Word {
    const w = evaluateWord(node, { home: this.ctx.home });
    if (w.risks) for (const why of w.risks) d.raise('write', why, SHELL_REACHABLE_EFFECTS);
    // 'a[$(cmd)]' as text runs cmd wherever bash later evaluates it as arithmetic ($((x)), [[ x -eq 1 ]], let).
    if (w.literal && SUBSCRIPT_WITH_CODE.test(w.value)) {
      d.raise('write', `${w.source} holds an array subscript with a command substitution, which runs if bash evaluates it as arithmetic`, SHELL_REACHABLE_EFFECTS);
    }
    if (w.unknown.length) {
      for (const t of w.unknown) {
        if (t === 'ERROR') this.flag('parse_error', 'parse error: the command is not valid bash, so what it runs cannot be known');
        else this.flag('unknown_syntax', `unknown syntax: "${t}" is not a construct the classifier knows`);
      }
      this.reachEverything(d, `contains syntax the classifier does not know (${w.unknown.join(', ')})`);
    }
    if (w.substitutions.length) {
      d.substitution = true;
      this.flag('substitution', 'substitution: part of the command runs another command to compute a value');
      for (const s of w.substitutions) {
        const p = this.walkSubstitution(s, scope);
        (this.substitutionOutputs ??= new Map()).set(s.id, p);
        producers?.push(p);
      }
    }
    return w;
  }

  // ── commands ────────────────────────────────────────────────────────────────────────────────

  private walkCommand(node: Node, scope: Scope, stdin: Producer, outerRedirects: Node[], text?: string): Producer {
    const d = this.newDraft(text ?? node.text, scope);
    const redirects: Node[] = [];
    const assignments: Node[] = [];
    let nameNode: Node | null = null;
    // Room for every child (the arguments are most of them), filled up to argCount: a list pushed to
    // from empty would reserve 17 places at its first push.
    const argNodes = new Array<Node>(node.childCount);
    let argCount = 0;
    for (let i = 0; i < node.childCount; i++) {
      const c = node.child(i)!;
      if (!c.isNamed) continue;
      const field = fieldOf(node, i);
      if (field === 'name') nameNode = c;
      else if (field === 'redirect' || c.type.endsWith('_redirect')) redirects.push(c);
      else if (c.type === 'variable_assignment' && !nameNode) assignments.push(c);
      else if (field === 'argument' || nameNode) argNodes[argCount++] = c;
      else if (c.type === 'subscript' || c.type === 'variable_assignment') assignments.push(c);
      else argNodes[argCount++] = c;
    }
    for (let i = 0; i < assignments.length; i++) this.judgeAssignment(d, assignments[i]!, scope, false);

    // Redirections decide what stdin is and what else the command writes.
    const fed = this.applyRedirects(d, outerRedirects.length === 0 ? redirects : [...redirects, ...outerRedirects], scope);
    const input = fed.stdin ?? stdin;

    if (!nameNode) {
      if (d.reasons.length === 0) d.raise('read', 'sets shell variables');
      return this.walkContinuations(fed.continuations, scope, NO_OUTPUT);
    }
    const nameProducers: Producer[] = [];
    const nameWord = this.evalWord(nameNode, d, scope, nameProducers);
    // Arrays of their final length: a pushed-to empty array takes room for 17 elements at its first push.
    const count = argCount + fed.extraArgs.length;
    const args = new Array<Word>(count);
    const argv = new Array<string>(count + 1);
    argv[0] = nameWord.value;
    let literal = nameWord.literal;
    for (let i = 0; i < count; i++) {
      const w = this.evalWord(i < argCount ? argNodes[i]! : fed.extraArgs[i - argCount]!, d, scope);
      args[i] = w;
      argv[i + 1] = w.value;
      if (!w.literal) literal = false;
    }
    d.argv = argv;
    if (!literal) d.literal = false;

    let out: Producer;
    if (!nameWord.literal) {
      this.markDynamicProgram(d, nameWord, nameProducers);
      if (input.kind === 'remote' || input.kind === 'decoded') {
        d.raise('destructive', `runs a program only known at run time (${nameWord.source}) on ${input.kind === 'remote' ? 'downloaded' : 'decoded'} input, which may be a shell`, SHELL_REACHABLE_EFFECTS);
      }
      out = UNKNOWN_OUTPUT;
    } else {
      out = this.runInvocation(d, nameWord.value, args, scope, input);
    }
    // Output sent to /dev/tcp is the reason the card shows, not what the program itself does.
    // (judgeWrite records the socket in d.network before it gives that reason.)
    const sent = d.network.length === 0 ? -1 : d.reasons.findIndex((r) => r.startsWith('sends output to the network socket'));
    if (sent !== -1 && sent !== d.reasons.length - 1) d.reasons.push(...d.reasons.splice(sent, 1));
    if (d.socket && d.program !== null && INTERPRETER_NAMES.has(lookupProgram(d.program)?.name ?? d.program)) {
      d.raise('destructive', `${d.program} is connected to a network socket: a remote shell`, SHELL_REACHABLE_EFFECTS);
    }
    return this.walkContinuations(fed.continuations, scope, out);
  }

  /** @internal */
  markDynamicProgram(d: Draft, w: Word, producers: Producer[]): void {
    d.dynamic = true;
    this.flag('dynamic', 'dynamic: the program or code to run is only known at run time');
    if (producers.some((p) => p.kind === 'remote')) {
      d.raise('destructive', 'runs a program named by content downloaded at run time', SHELL_REACHABLE_EFFECTS);
    } else if (producers.some((p) => p.kind === 'decoded')) {
      d.raise('destructive', 'runs a program named by a decoded payload', SHELL_REACHABLE_EFFECTS);
    } else {
      this.reachEverything(d, `the program "${w.source}" is computed at run time, so it can do anything`);
    }
  }

  /**
   * Applies a program rule to one invocation, into draft d; a network program fed local data (a pipe,
   * a redirection, a here-document, a substitution or xargs input) is destructive: exfiltration's shape.
   * @internal
   */
  runInvocation(d: Draft, rawName: string, args: Word[], scope: Scope, stdin: Producer): Producer {
    const before = d.network.length;
    const out = this.applyRule(d, rawName, args, scope, stdin);
    if (d.network.length > before) {
      const source = exfiltrationSource(stdin, args, d.redirects, (id) => this.substitutionOutputs?.get(id));
      if (source) d.raise('destructive', `${source} feeds ${normaliseProgramName(rawName, scope.cwd).name}, which sends it over the network: the shape of exfiltration`, ['destructive', 'network']);
    }
    return out;
  }

  private applyRule(d: Draft, rawName: string, args: Word[], scope: Scope, stdin: Producer): Producer {
    const normalised = normaliseProgramName(rawName, scope.cwd);
    if (d.program === null) d.program = this.ctx.caseInsensitiveNames ? normalised.name.toLowerCase() : normalised.name;
    const expanded = expandArgs(args);
    const argv = expanded.map((w) => w.value);
    if (isSuspiciousName(rawName)) {
      this.flag('obfuscation', `obfuscation: the program name "${rawName}" contains characters that are not plain ASCII`);
      const imitated = lookalikeSkeleton(normalised.name);
      const ascii = imitated !== rawName && /^[\x21-\x7E]+$/.test(imitated);
      this.reachEverything(d, `runs "${rawName}", whose name imitates ${ascii ? imitated : 'a program'}`);
      // Judged as what it imitates as well: `rм -rf ~` is at least what `rm -rf ~` is.
      const known = ascii ? lookupProgram(this.ctx.caseInsensitiveNames ? imitated.toLowerCase() : imitated) : undefined;
      if (known?.analyze) known.analyze({ name: known.name, rawName, args: expanded, argv, cwd: scope.cwd, stdin }, new RuleAnalysis(this, d, scope, entryConventions(known)));
      return UNKNOWN_OUTPUT;
    }
    const trusted = normalised.trusted;
    // Where the filesystem ignores case (macOS), `RM` and `Git` run rm and git.
    const name = this.ctx.caseInsensitiveNames ? normalised.name.toLowerCase() : normalised.name;
    if (!trusted) {
      // ./bin/pip may be anything, so it can reach every effect; if its name is a program we know,
      // what that program would do counts too (.venv/bin/pip install is at least network).
      this.reachEverything(d, `runs ${rawName}, a program outside the system's program directories`);
      this.scanReads(d, expanded, argv, scope, 'content');
      const known = lookupProgram(name);
      if (!known?.analyze) return UNKNOWN_OUTPUT;
      const analysis = new RuleAnalysis(this, d, scope, entryConventions(known));
      known.analyze({ name: known.name, rawName, args: expanded, argv, cwd: scope.cwd, stdin }, analysis);
      return analysis.produced ?? UNKNOWN_OUTPUT;
    }
    if (this.functions?.has(name)) {
      d.raise('read', `calls the function ${name} defined in this command`);
      return UNKNOWN_OUTPUT;
    }
    const found = lookupProgram(name);
    if (!found) {
      this.reachEverything(d, `${name} is not a program the classifier knows, so it is not provably read-only`);
      if (looksNonPosix(name, argv)) this.flag('non_posix', `non-POSIX: ${name} looks like a PowerShell or cmd.exe command, which is not analysed`);
      this.scanReads(d, expanded, argv, scope, 'content');
      this.urlOperands(d, name, argv, expanded);
      return UNKNOWN_OUTPUT;
    }
    const inv: Invocation = { name: found.name, rawName, args: expanded, argv, cwd: scope.cwd, stdin };
    const conventions = entryConventions(found);
    // The shared conventions come first: `bash -n script.sh`, `apt-get -s install x`, `git --version`.
    const inert = inertInvocation(inv, conventions);
    if (inert) {
      d.raise('read', `${name} ${inert.what}`);
      for (const i of inert.reads) if (expanded[i]) this.judgeRead(d, argv[i]!, expanded[i]!.literal, scope.cwd, false, expanded[i]!.glob, 'content', stdioOperand(conventions));
      return UNKNOWN_OUTPUT;
    }
    d.raise(found.base, name === found.name ? found.baseReason : `${name} ${found.rule.what}`, found.effects);
    if (found.readsArgs !== false) this.scanReads(d, expanded, argv, scope, readKindOf(conventions), stdioOperand(conventions));
    const table = entryTable(found);
    if (table) this.checkOptions(d, inv, table, found.name, 0);
    if (found.analyze === null) return passThrough(found.name, argv, stdin);
    const analysis = new RuleAnalysis(this, d, scope, conventions);
    found.analyze(inv, analysis);
    if (analysis.produced) return analysis.produced;
    return passThrough(found.name, argv, stdin);
  }

  /**
   * Reads an invocation's arguments against the options its rule knows. An unknown option, or a word
   * only known at run time (a variable, a substitution, a glob) where an option may stand, makes the
   * segment at least write: only fully known options keep a program read-only.
   * @internal
   */
  checkOptions(d: Draft, inv: Invocation, table: OptionTable, label: string, start: number): ScannedOptions {
    const scan = scanOptions(inv.argv, table, start);
    for (const u of scan.unknown) d.raise('write', `${label}: unknown option ${u}, so it is not provably read-only`, SHELL_REACHABLE_EFFECTS);
    if (table.allRead || table.data) return scan;
    const end = scan.optionPositions.find((i) => inv.argv[i] === '--') ?? inv.argv.length;
    const last = table.inOrder ? Math.min(end - 1, scan.operands[0] ?? end - 1) : end - 1;
    for (let i = start; i <= last; i++) {
      const w = inv.args[i];
      if (w && mayBeOption(w)) d.raise('write', `${label}: ${w.source} is only known at run time and could be an option`, SHELL_REACHABLE_EFFECTS);
    }
    return scan;
  }

  /** Default read judgement: every operand that names a file is checked against credential locations. */
  private scanReads(d: Draft, words: Word[], argv: string[], scope: Scope, kind: ReadKind, stdio = true): void {
    for (let i = 0; i < argv.length; i++) {
      const w = words[i]!;
      let v = argv[i]!;
      if (!w.literal) {
        // `f=/etc/shadow; cat "$f"`: judged with the values the command gives the variable.
        if (!v.startsWith('-')) this.judgeRead(d, v, false, scope.cwd, false, w.glob, kind, stdio);
        continue;
      }
      if (v.startsWith('-')) {
        const eq = v.indexOf('=');
        if (eq === -1) continue;
        v = v.slice(eq + 1);
      }
      const assignment = v.includes('=') ? /^[A-Za-z_][\w.-]*=(.*)$/.exec(v) : null;
      if (assignment) v = assignment[1]!;
      this.judgeRead(d, v, true, scope.cwd, false, w.glob, kind, stdio);
    }
  }

  /**
   * An unknown program given a URL reaches the network to fetch it (`firefox https://…`, `glow
   * https://…/README.md`): at least network, so it does not run unasked where only writes may.
   */
  private urlOperands(d: Draft, name: string, argv: string[], words: Word[]): void {
    for (let i = 0; i < argv.length; i++) {
      const v = argv[i]!.replace(/^--?[\w-]+=/, '');
      if (words[i]!.literal && /^(https?|ftps?|wss?):\/\/[^/\s]/i.test(v)) {
        d.raise('network', `${name} is given the URL ${clipText(v)}, so it reaches the network`, ['network']);
        return;
      }
    }
  }

  /**
   * Judges one read. Content reads ask for credential locations, paths hidden from commands, names that
   * say they hold a secret, and globs that can match any of them. Metadata reads (names, sizes, times) ask
   * only for a path inside a credential or hidden location, named or globbed. Digests ask where content
   * reads ask for a named path, and for a glob only when every name it can match says it is a secret.
   * @internal
   */
  judgeRead(d: Draft, raw: string, literal: boolean, cwd: string | null, recursive: boolean, glob = false, kind: ReadKind = 'content', stdio = true): void {
    if (raw === '') return;
    if (!literal) {
      for (const v of this.valuesOf(raw) ?? []) this.judgeRead(d, v, true, cwd, recursive, /[*?[]/.test(v), kind, stdio);
      if (mentionsSystemCredential(raw)) d.raise('read', `reads ${raw}, which names a credential location`, ['secret_read', 'file_read']);
      return;
    }
    if (stdio && raw === STDIO_OPERAND) return;
    const abs = resolvePath(raw, cwd, this.ctx);
    if (abs === null) return;
    const verb = kind === 'metadata' ? 'reads the names and sizes under' : kind === 'digest' ? 'computes a digest of' : 'reads';
    if (glob || /[*?[]/.test(raw)) {
      const why = globReachesCredentialLocation(abs, this.ctx)
        ? 'which can match a credential location or a path hidden from commands'
        : kind === 'content' && globCouldReachCredential(abs, this.ctx)
          ? 'which can match a credential location'
          : kind === 'digest' && globMatchesOnlySecretNames(abs, [this.ctx.workspace, this.ctx.home])
            ? 'whose every match is named as a secret'
            : null;
      if (why) d.raise('read', `${verb} ${raw}, ${why}`, ['secret_read']);
      return;
    }
    const secret = secretReadReason(abs, this.ctx, kind === 'metadata' ? NOT_BY_NAME : BY_NAME);
    if (secret !== null) d.raise('read', `${verb} ${tildify(abs, this.ctx)}, ${secret}`, ['secret_read', 'file_read']);
    else if (recursive && kind !== 'metadata' && containsCredentialLocation(abs, this.ctx))
      d.raise('read', `reads ${tildify(abs, this.ctx)} recursively, which holds credential locations`, ['secret_read', 'file_read']);
    // The name, size and mode of a device (stat /dev/sda, findmnt /dev/sdb1) expose none of what is on it.
    else if (isRawDevice(abs) && kind !== 'metadata') d.raise('read', `${verb} the raw device ${abs}, which exposes every file on it`, ['secret_read', 'file_read']);
  }

  /** @internal */
  judgeWrite(d: Draft, raw: string, literal: boolean, cwd: string | null, what = 'writes', stdio = true): void {
    if (!literal) {
      d.unknownWrites = true;
      d.raise('write', `${what} a path computed at run time (${raw})`, ['file_write']);
      // `f=~/.bashrc; echo x >> "$f"`: each value the command gives the variable is judged as well.
      for (const v of this.valuesOf(raw) ?? []) {
        const abs = resolvePath(v, cwd, this.ctx);
        if (abs !== null && (isRawDevice(abs) || isProtectedWriteTarget(abs, this.ctx))) d.raise('destructive', `${what} ${tildify(abs, this.ctx)} (through ${raw}), a system, credential or start-up location`, ['file_write', 'destructive']);
      }
      return;
    }
    if (stdio && raw === STDIO_OPERAND) return;
    if (raw.startsWith('/dev/tcp/') || raw.startsWith('/dev/udp/')) {
      d.network.push(socketUse(raw, 'upload'));
      d.raise('destructive', `sends output to the network socket ${raw}: the shape of exfiltration`, ['network', 'destructive']);
      return;
    }
    const abs = resolvePath(raw, cwd, this.ctx);
    if (abs === null) {
      d.unknownWrites = true;
      d.raise('write', `${what} ${raw} relative to a directory known only at run time`, ['file_write']);
      return;
    }
    if (isHarmlessDevice(abs)) return;
    if (isRawDevice(abs)) {
      d.raise('destructive', `${what} the raw device ${abs}, destroying what is on it`, ['file_write', 'destructive']);
      d.hardline = true;
      return;
    }
    if (isProtectedWriteTarget(abs, this.ctx)) {
      d.raise('destructive', `${what} ${tildify(abs, this.ctx)}, a system, credential or start-up location`, ['file_write', 'destructive']);
      d.writes.push(abs);
      return;
    }
    if (isOutsideJailCodePath(abs, this.ctx)) {
      d.raise('write', `${what} ${tildify(abs, this.ctx)}, whose code later runs outside the jail`, ['file_write', 'capability_change']);
      d.writes.push(abs);
      return;
    }
    d.raise('write', `${what} ${tildify(abs, this.ctx)}`, ['file_write']);
    d.writes.push(abs);
  }

  /**
   * Judges the redirections of a command. tree-sitter-bash attaches the words that follow a redirection
   * to it (`git < in.txt push --force` gives the redirect three destinations); bash passes them to the
   * command: they are returned as `extraArgs`, in order, and judged as the command's arguments.
   */
  private applyRedirects(d: Draft, nodes: Node[], scope: Scope): { stdin?: Producer; continuations: readonly Node[]; extraArgs: readonly Node[] } {
    // Most commands have none: one shared answer (its lists are only read).
    if (nodes.length === 0) return NO_REDIRECTS;
    let stdin: Producer | undefined;
    const continuations: Node[] = [];
    const extraArgs: Node[] = [];
    for (const r of nodes) {
      if (r.type === 'file_redirect') stdin = this.applyFileRedirect(d, r, scope, extraArgs) ?? stdin;
      else if (r.type === 'herestring_redirect') {
        const value = r.namedChildren.find((c) => c && c.type !== 'file_descriptor');
        if (value) {
          const w = this.evalWord(value, d, scope);
          stdin = w.literal ? { kind: 'literal', text: w.value } : this.strongestOutput(w);
          d.redirects.push({ op: '<<<', target: w.value, literal: w.literal });
        }
      } else if (r.type === 'heredoc_redirect') {
        const result = this.applyHeredoc(d, r, scope, extraArgs);
        stdin = result.stdin;
        continuations.push(...result.continuations);
      } else {
        this.unknownNode(r, scope);
      }
    }
    return { stdin, continuations, extraArgs };
  }

  /** What the substitutions inside a word printed, the most dangerous first; unknown when none is worse. */
  private strongestOutput(w: Word): Producer {
    let out: Producer = UNKNOWN_OUTPUT;
    for (const s of w.substitutions) {
      const p = this.substitutionOutputs?.get(s.id);
      if (p && (p.kind === 'remote' || p.kind === 'decoded') && out.kind !== 'remote') out = p;
    }
    return out;
  }

  /** Judges one file redirection; returns what it feeds to standard input, if it does. */
  private applyFileRedirect(d: Draft, r: Node, scope: Scope, extraArgs: Node[]): Producer | undefined {
    let stdin: Producer | undefined;
    let op = '';
    const dests: Node[] = [];
    let fd: string | null = null;
    for (let i = 0; i < r.childCount; i++) {
      const c = r.child(i)!;
      const field = fieldOf(r, i);
      if (!c.isNamed) op = c.type;
      else if (field === 'descriptor' || c.type === 'file_descriptor') fd = c.text;
      else if (c.type === 'ERROR') this.flag('parse_error', 'parse error: the command is not valid bash, so what it runs cannot be known');
      else dests.push(c);
    }
    // Only the first word is the target; the rest are the command's arguments (see applyRedirects).
    extraArgs.push(...dests.slice(1));
    for (const destNode of dests.slice(0, 1)) {
      const w = this.evalWord(destNode, d, scope);
      const target = w.value;
      // fd duplication and closing (2>&1, >&2, 2>&-) touch no file.
      if ((op === '>&' || op === '<&' || op === '>&-' || op === '<&-') && /^(\d+|-)?$/.test(target)) continue;
      if (op === '>&-' || op === '<&-') continue;
      const abs = w.literal ? resolvePath(target, scope.cwd, this.ctx) : null;
      d.redirects.push({ op, target: abs ?? target, literal: w.literal });
      if (abs !== null && isHarmlessDevice(abs)) continue;
      this.flag('redirection', 'redirection: the command reads or writes a file through a redirection');
      const socket = target.startsWith('/dev/tcp/') || target.startsWith('/dev/udp/');
      if (socket) d.socket = true;
      const feedsStdin = (op === '<' || op === '<&') && (fd === null || fd === '0');
      if (op === '<' || op === '<&') {
        if (socket) {
          d.network.push(socketUse(target, 'connect'));
          d.raise('network', `opens a network connection through ${target}`, ['network']);
        }
        else this.judgeRead(d, target, w.literal, scope.cwd, false, w.glob, 'content', false);
        // `bash < <(curl …)` and `sh < /dev/tcp/…` feed the command what the network sends.
        if (feedsStdin) stdin = socket ? { kind: 'remote' } : w.substitutions.length ? this.strongestOutput(w) : UNKNOWN_OUTPUT;
        continue;
      }
      this.judgeWrite(d, target, w.literal, scope.cwd, 'redirects output to', false);
    }
    return stdin;
  }

  private applyHeredoc(d: Draft, r: Node, scope: Scope, extraArgs: Node[]): { stdin: Producer; continuations: Node[] } {
    let quoted = false;
    let body: Node | null = null;
    const nested: Node[] = [];
    const continuations: Node[] = [];
    for (const c of r.namedChildren) {
      if (!c) continue;
      if (c.type === 'heredoc_start') quoted = /['"\\]/.test(c.text);
      else if (c.type === 'heredoc_body') body = c;
      else if (c.type === 'heredoc_end') continue;
      else if (c.type.endsWith('_redirect')) nested.push(c);
      // `cat <<EOF -A x`: words after the start delimiter are arguments of the command.
      else if (r.fieldNameForChild(r.children.indexOf(c)) === 'argument') extraArgs.push(c);
      else continuations.push(c);
    }
    let stdin: Producer = { kind: 'literal', text: body?.text ?? '' };
    if (body && !quoted) {
      // An unquoted here-document expands $(...) in the outer shell before the command reads it.
      const holder = { substitutions: [] as Node[] };
      collectSubstitutions(body, holder);
      for (const s of holder.substitutions) {
        d.substitution = true;
        this.flag('substitution', 'substitution: part of the command runs another command to compute a value');
        const p = this.walkSubstitution(s, scope);
        if (p.kind === 'remote' || p.kind === 'decoded') stdin = p;
      }
      const expands = holder.substitutions.length > 0 || body.namedChildren.some((c) => c?.type === 'expansion' || c?.type === 'simple_expansion');
      if (expands) d.literal = false;
    }
    d.redirects.push({ op: '<<', target: '(here-document)', literal: !quoted ? d.literal : true });
    const inner = this.applyRedirects(d, nested, scope);
    continuations.push(...inner.continuations);
    extraArgs.push(...inner.extraArgs);
    return { stdin, continuations };
  }

  // ── the Analysis handed to program rules ──────────────────────────────────────────────────────

  /** @internal */
  runComputedCode(d: Draft, code: Word, via: string): void {
    const producers = code.substitutions.map((s) => this.substitutionOutputs?.get(s.id) ?? UNKNOWN_OUTPUT);
    if (code.origin) producers.push(code.origin);
    if (producers.some((p) => p.kind === 'remote')) {
      d.raise('destructive', `${via} runs code downloaded at run time`, SHELL_REACHABLE_EFFECTS);
      return;
    }
    if (producers.some((p) => p.kind === 'decoded')) {
      d.raise('destructive', `${via} runs a decoded payload`, SHELL_REACHABLE_EFFECTS);
      return;
    }
    // "$(echo 'rm -rf ~')" or <(echo …): the code is the literal text a command prints.
    const only = code.substitutions.length === 1 && producers.length === 1 ? producers[0]! : null;
    const whole = code.source.replace(/^"(.*)"$/s, '$1') === code.substitutions[0]?.text;
    if (only?.kind === 'literal' && whole) {
      d.raise('read', `${via} runs the text printed by ${code.source}`);
      this.analyzeSource(only.text, { cwd: null, via: [...d.via, via], depth: d.via.length + 1 }, d);
      return;
    }
    d.dynamic = true;
    this.flag('dynamic', 'dynamic: the program or code to run is only known at run time');
    this.reachEverything(d, `${via} runs code computed at run time (${code.source}), so it can do anything`);
  }

  /** @internal */
  runStdin(d: Draft, stdin: Producer, via: string, scope: Scope, isShell: boolean): void {
    switch (stdin.kind) {
      case 'remote':
        d.raise('destructive', `${via} runs content downloaded by an earlier command`, SHELL_REACHABLE_EFFECTS);
        return;
      case 'decoded':
        d.raise('destructive', `${via} runs a decoded payload from an earlier command`, SHELL_REACHABLE_EFFECTS);
        return;
      case 'literal':
        if (isShell) this.analyzeSource(stdin.text, { cwd: scope.cwd, via: [...scope.via, via], depth: scope.depth + 1 }, d);
        else {
          this.reachEverything(d, `${via} runs code the classifier cannot analyse`);
          if (mentionsCredential(stdin.text)) d.raise('read', `${via} code names a credential location`, ['secret_read']);
        }
        return;
      case 'unknown':
        d.dynamic = true;
        this.flag('dynamic', 'dynamic: the program or code to run is only known at run time');
        this.reachEverything(d, `${via} runs code from its input, which is only known at run time`);
        return;
      case 'none':
        this.reachEverything(d, `${via} starts an interactive interpreter`);
    }
  }

  // ── result ──────────────────────────────────────────────────────────────────────────────────

  private result(): Classification {
    if (this.networkEnv !== null) {
      const why = `the command sets ${this.networkEnv}, which can change where network programs connect`;
      for (const d of this.drafts) for (const u of d.network) u.hosts.push({ host: null, why });
    }
    const segments = this.drafts.map((d) => d.toSegment());
    let cls: Class = 'read';
    let hardline = false;
    const effects: Effect[] = [];
    for (const s of segments) {
      cls = maxClass(cls, s.class);
      if (s.hardline) hardline = true;
      for (const e of s.effects) if (!effects.includes(e)) effects.push(e);
    }
    if (hardline) this.flagBits |= FLAG_BIT.hardline;
    const bits = this.flagBits;
    const failClosed = (bits & FAIL_CLOSED_BITS) !== 0;
    if (failClosed && classRank(cls) < classRank('write')) cls = 'write';
    if (failClosed) for (const e of SHELL_REACHABLE_EFFECTS) if (!effects.includes(e)) effects.push(e);
    if (segments.length === 0) cls = failClosed ? 'write' : 'read';
    const reasons: string[] = [];
    // Segments in order of class, most severe first, and in command order within a class (a stable sort).
    if (segments.length === 1) addReasons(reasons, segments[0]!);
    else for (let rank = CLASSES.length - 1; rank >= 0; rank--) for (const s of segments) if (classRank(s.class) === rank) addReasons(reasons, s);
    for (const r of this.topReasons) if (!reasons.includes(r)) reasons.push(r);
    return {
      class: cls,
      hardline,
      flags: bits === 0 ? [] : flagsOf(bits),
      segments,
      reasons,
      effects,
    };
  }

  /**
   * `cat <<EOF | sh` parses with the rest of the line inside the heredoc node. A continuation that starts
   * with | receives the output of the command the here-document fed; anything else runs after it.
   */
  private walkContinuations(nodes: readonly Node[], scope: Scope, fed: Producer): Producer {
    let out = fed;
    // Indexed: most commands pass NO_REDIRECTS' frozen empty list, and for-of over it allocates an iterator.
    for (let k = 0; k < nodes.length; k++) {
      const node = nodes[k]!;
      if (node.type === 'pipeline' && node.child(0)?.type.startsWith('|')) {
        let flowing = fed;
        for (let i = 0; i < node.childCount; i++) {
          const c = node.child(i)!;
          if (c.isNamed) flowing = this.walk(c, { ...scope }, flowing);
        }
        out = flowing;
      } else out = this.walk(node, scope, NO_OUTPUT);
    }
    return out;
  }
}

/** The Analysis a program rule works through: it judges into one draft segment. */
class RuleAnalysis implements Analysis {
  produced: Producer | null = null;
  readonly ctx: PathContext;
  readonly files: NetworkFiles;

  constructor(
    private readonly analyzer: ShellAnalyzer,
    private readonly d: Draft,
    private readonly scope: Scope,
    private readonly conventions: ProgramConventions = {},
  ) {
    this.ctx = analyzer.ctx;
    this.files = analyzer.files;
  }

  network(use: NetworkUse): void {
    // Every host is a value or the admission that it is unknown, whatever a rule's helper returned.
    this.d.network.push({ ...use, hosts: use.hosts.map((h) => (h && typeof h === 'object' ? h : { host: null, why: 'the classifier could not read this host' })) });
  }

  raise(cls: Class, reason: string, effects: readonly Effect[] = NO_EFFECTS): void {
    this.d.raise(cls, reason, effects);
  }
  addEffects(effects: readonly Effect[]): void {
    for (let i = 0; i < effects.length; i++) if (!this.d.effects.includes(effects[i]!)) this.d.effects.push(effects[i]!);
  }
  markDynamic(reason: string): void {
    this.d.dynamic = true;
    this.analyzer.flag('dynamic', 'dynamic: the program or code to run is only known at run time');
    this.analyzer.reachEverything(this.d, reason);
  }
  markHardline(reason: string): void {
    this.d.raise('destructive', reason, ['destructive']);
    this.d.hardline = true;
  }
  flag(flag: Flag, reason: string): void {
    this.analyzer.flag(flag, reason);
  }
  write(raw: string, literal: boolean, cwd: string | null, what?: string): void {
    this.analyzer.judgeWrite(this.d, raw, literal, cwd, what, stdioOperand(this.conventions));
  }
  read(raw: string, literal: boolean, cwd: string | null, recursive = false, kind?: ReadKind): void {
    this.analyzer.judgeRead(this.d, raw, literal, cwd, recursive, /[*?[]/.test(raw) && literal, kind ?? readKindOf(this.conventions), stdioOperand(this.conventions));
  }
  runArgv(args: Word[], via: string, stdin?: Producer): void {
    if (args.length === 0) return;
    const nameWord = args[0]!;
    if (!nameWord.literal) {
      this.analyzer.markDynamicProgram(this.d, nameWord, []);
      return;
    }
    const inner: Scope = { cwd: this.scope.cwd, via: [...this.scope.via, via], depth: this.scope.depth };
    this.produced = this.analyzer.runInvocation(this.d, nameWord.value, args.slice(1), inner, stdin ?? NO_OUTPUT);
  }
  runCode(code: Word | string, via: string, stdin?: Producer): void {
    const inner: Scope = { cwd: this.scope.cwd, via: [...this.scope.via, via], depth: this.scope.depth + 1 };
    if (typeof code === 'string') this.analyzer.analyzeSource(code, inner, this.d, stdin);
    else if (code.literal) this.analyzer.analyzeSource(code.value, inner, this.d, stdin);
    else this.analyzer.runComputedCode(this.d, code, via);
  }
  runStdinAsShell(stdin: Producer, via: string): void {
    this.analyzer.runStdin(this.d, stdin, via, this.scope, true);
  }
  runForeignCode(code: string | null, via: string, stdin?: Producer): void {
    this.analyzer.reachEverything(this.d, `${via} runs code the classifier cannot analyse`);
    if (code !== null && mentionsCredential(code)) this.d.raise('read', `${via} code names a credential location`, ['secret_read']);
    if (stdin) this.analyzer.runStdin(this.d, stdin, via, this.scope, false);
  }
  setCwd(dir: string | null): void {
    this.scope.cwd = dir;
  }
  produce(p: Producer): void {
    this.produced = p;
  }
  options(inv: Invocation, table: OptionTable | string, label: string, start = 0): ScannedOptions {
    return this.analyzer.checkOptions(this.d, inv, tableFor(table), label, start);
  }
  assign(name: string, value: Word): void {
    this.analyzer.judgeVariable(this.d, name, value, this.scope, 'runs with');
  }
}

/** The conventions of a program's rule for its name, kept on its entry. */
function entryConventions(e: ProgramEntry): ProgramConventions {
  return (e.conventions ??= conventionsOf(e.rule, e.name));
}

/** The option table applyRule checks a program's arguments against (none when its rule checks its own), kept on its entry. */
function entryTable(e: ProgramEntry): OptionTable | null {
  if (e.table === undefined) e.table = e.rule.checksOwnOptions ? null : optionTableOf(e.rule, e.name);
  return e.table;
}

/** The option table a rule declares for one of its programs, compiled. */
export function optionTableOf(rule: ProgramRule, name: string): OptionTable | null {
  const o = rule.options;
  if (o === undefined) return null;
  if (typeof o === 'string') return tableFor(o);
  const text = o[name] ?? o['*'];
  return text === undefined ? null : tableFor(text);
}



const WINDOWS_COMMANDS = new Set(['del', 'erase', 'rd', 'copy', 'xcopy', 'robocopy', 'ren', 'attrib', 'icacls', 'cacls', 'takeown', 'reg', 'sc', 'schtasks', 'netsh', 'wmic', 'cls', 'iex', 'iwr', 'irm', 'certutil', 'bitsadmin', 'mshta', 'rundll32', 'regsvr32', 'bcdedit', 'diskpart', 'vssadmin', 'format', 'setx', 'taskkill', 'tasklist', 'shutdown.exe', 'dir']);

/** PowerShell cmdlets (Verb-Noun), cmd.exe builtins with /switches, or C:\ paths. */
function looksNonPosix(name: string, argv: string[]): boolean {
  if (/^[A-Z][a-z]+-[A-Z][A-Za-z]+$/.test(name) || /\.(exe|bat|cmd|ps1)$/i.test(name)) return true;
  if (argv.some((a) => /^[A-Za-z]:[\\/]/.test(a))) return true;
  return WINDOWS_COMMANDS.has(name.toLowerCase()) && (argv.length === 0 || argv.some((a) => /^\/[A-Za-z?]{1,2}$/.test(a)));
}

/** Shells and interpreters: connected to a socket, they are a remote shell. */
export const INTERPRETER_NAMES: ReadonlySet<string> = new Set([...SHELLS, 'python', 'python2', 'python3', 'perl', 'ruby', 'php', 'node', 'nodejs', 'lua', 'tclsh', 'awk', 'gawk', 'busybox']);

/** Filters that pass their input through: a download piped through them is still a download. */
const PASS_THROUGH = new Set(['cat', 'tee', 'head', 'tail', 'sed', 'tr', 'awk', 'grep', 'cut', 'sort', 'uniq', 'rev', 'tac', 'dd', 'pv', 'stdbuf']);
/** Filters whose first operand is their script or pattern, not a file. */
const SCRIPT_FIRST = new Set(['sed', 'awk', 'grep']);

/**
 * What a filter sends on when its input came from the network or a decoder: that same input, and — when
 * it also reads files (`sort data.csv`, `dd if=…`, `grep x notes.txt`) — local data mixed in, which the
 * exfiltration check counts (`curl … | sort data.csv | curl -d @- …`).
 */
function passThrough(name: string, argv: readonly string[], stdin: Producer): Producer {
  if ((stdin.kind !== 'remote' && stdin.kind !== 'decoded') || !PASS_THROUGH.has(name)) return UNKNOWN_OUTPUT;
  if (name === 'tee' || name === 'tr' || name === 'stdbuf') return stdin;
  const files = name === 'dd' ? argv.filter((a) => a.startsWith('if=') && a !== 'if=/dev/stdin').length : argv.filter((a) => a !== '-' && !a.startsWith('-')).length - (SCRIPT_FIRST.has(name) ? 1 : 0);
  return files > 0 ? { kind: stdin.kind, withLocal: true } : stdin;
}

/** How much a producer's output can carry; of two outputs, the weightier one stands for both. */
const OUTPUT_RANK: Record<Producer['kind'], number> = { none: 0, literal: 1, unknown: 2, decoded: 3, remote: 4 };

function combineOutputs(a: Producer, b: Producer): Producer {
  if (a.kind === 'literal' && b.kind === 'literal') return { kind: 'literal', text: a.text + b.text };
  // Without destructuring a pair: this runs for every statement, often before the function is optimised.
  const aFirst = OUTPUT_RANK[a.kind] >= OUTPUT_RANK[b.kind];
  const high = aFirst ? a : b;
  const low = aFirst ? b : a;
  // The higher rank names the stream (remote code piped to a shell), but local output in it still
  // counts for exfiltration: `ls; curl x | …` must not hide the ls behind the download.
  if ((high.kind === 'remote' || high.kind === 'decoded') && (low.kind === 'unknown' || ('withLocal' in low && low.withLocal))) return { kind: high.kind, withLocal: true };
  return high;
}

/** secretReadReason's options for a metadata read (names and sizes: not judged by the file's name), and for any other. */
const NOT_BY_NAME = Object.freeze({ byName: false });
const BY_NAME = Object.freeze({});

/** applyRedirects of no redirection: nothing fed to standard input, no continuation, no extra argument. */
const NO_REDIRECTS: { stdin?: Producer; continuations: readonly Node[]; extraArgs: readonly Node[] } = Object.freeze({ continuations: Object.freeze([]), extraArgs: Object.freeze([]) });

/** Text that is an array subscript holding a command substitution: a[$(cmd)], a[`cmd`]. */
const SUBSCRIPT_WITH_CODE = /\[[^\]]*(\$\(|`)/;

/** The children of a left-nested list (a && b || c), in order, without recursion. */
function flattenList(node: Node): Node[] {
  const out: Node[] = [];
  const stack: Node[] = [node];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type !== 'list') {
      out.push(n);
      continue;
    }
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return out;
}

let plainShortcut = true;

/** @internal Tests turn the plain-command shortcut off to compare every classification with the parser's. */
export function setPlainCommandShortcut(on: boolean): void {
  plainShortcut = on;
}

function parseAndCopy(source: string): Node {
  return parseAndCopyShell(source, MAX_TREE_DEPTH);
}

function fieldOf(parent: Node, index: number): string | null {
  return parent.fieldNameForChild(index);
}

/** The words after brace expansion: `args` itself when no word expands (no rule changes the array it is given). */
function expandArgs(args: Word[]): Word[] {
  let out: Word[] | null = null;
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    if (w.literal && w.value.includes('{') && /[,.]/.test(w.value) && w.source.includes('{') && !/^['"]/.test(w.source)) {
      const values = expandBraces(w.value);
      if (values.length > 1) {
        out ??= args.slice(0, i);
        for (const v of values) out.push({ ...w, value: v });
        continue;
      }
    }
    out?.push(w);
  }
  return out ?? args;
}

/** Replaces whitespace-separated words like {rm,-rf,/} by their brace expansion. */
function expandBraceWords(source: string): string {
  return source.replace(/(^|[\s;&|(])(\{[^\s{}'"]*,[^\s'"]*\})(?=$|[\s;&|)])/g, (_m, lead: string, word: string) => lead + expandBraces(word).join(' '));
}

function containsSubstitution(node: Node): boolean {
  const holder = { substitutions: [] as Node[] };
  collectSubstitutions(node, holder);
  return holder.substitutions.length > 0;
}

function isForkBomb(name: string, body: Node): boolean {
  const stack: Node[] = [body];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'command' && n.childForFieldName('name')?.text === name) {
      const parent = n.parent;
      if (parent?.type === 'pipeline') return true;
      let next = n.nextSibling;
      while (next && !next.isNamed) {
        if (next.type === '&') return true;
        next = next.nextSibling;
      }
      if (parent) {
        for (let i = 0; i < parent.childCount; i++) if (parent.child(i)?.type === '&') return true;
      }
    }
    for (const c of n.namedChildren) if (c) stack.push(c);
  }
  return false;
}

const CREDENTIAL_MENTION = /(\.ssh\b|\.gnupg\b|\.aws\b|\.netrc\b|\.git-credentials|\.config\/gh\b|\.kube\/config|id_rsa|id_ed25519|id_ecdsa|\.env\b|\.pgpass|\.docker\/config\.json|Keychains|\.password-store)/;
/** The system credential files by name, as they would appear in code (`open('/etc/shadow')`). */
const SYSTEM_CREDENTIAL_MENTION = new RegExp(`(${CREDENTIAL_SYSTEM_PATHS.map((p) => p.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')).join('|')})(?![\\w.-])`);
function mentionsCredential(code: string): boolean {
  return CREDENTIAL_MENTION.test(code) || mentionsSystemCredential(code);
}
function mentionsSystemCredential(code: string): boolean {
  return code.includes('/etc/') || code.includes('/var/') || code.includes('/root/') || code.includes('/private/') ? SYSTEM_CREDENTIAL_MENTION.test(code) : false;
}

function clipText(s: string): string {
  return s.length > 60 ? s.slice(0, 59) + '…' : s;
}

function tildify(abs: string, ctx: PathContext): string {
  if (abs === ctx.home) return '~';
  return abs.startsWith(ctx.home + '/') ? '~' + abs.slice(ctx.home.length) : abs;
}

/**
 * Adds a segment's reasons not yet listed. Module functions rather than closures in the per-command
 * path: tsx (the bench, the tests, the CLI in development) keeps function names, which costs a
 * defineProperty for every closure it creates.
 */
function addReasons(reasons: string[], s: Segment): void {
  for (const r of s.reasons) if (!reasons.includes(r)) reasons.push(r);
}

const FLAG_ORDER: Flag[] = ['parse_error', 'unknown_syntax', 'substitution', 'redirection', 'background', 'obfuscation', 'hardline', 'dynamic', 'non_posix'];

/** One bit per flag the domain knows. */
const FLAG_BIT = Object.fromEntries(FLAGS.map((f, i) => [f, 1 << i])) as Record<Flag, number>;
/** Flags that make a command at least write with every effect a shell reaches. */
const FAIL_CLOSED_BITS = FLAG_BIT.parse_error | FLAG_BIT.unknown_syntax | FLAG_BIT.obfuscation;

/** The flags of a bit set, in FLAG_ORDER. */
function flagsOf(bits: number): Flag[] {
  const out: Flag[] = [];
  for (const f of FLAG_ORDER) if ((bits & FLAG_BIT[f]) !== 0) out.push(f);
  return out;
}

/** Where a variable's new value comes from when only the run knows it (read, a substitution, such a variable). */
function runtimeOrigin(word: Word | null, known: ReadonlyMap<string, string> | null): string | null {
  if (!word) return null;
  // programs/read.ts gives a variable that read, getopts, printf -v or wait -p sets this unknown Word.
  if (!word.literal && word.source.startsWith('(set by ')) return word.source.slice(1, -1);
  if (word.substitutions.length) return printsANumber(word.source) ? null : `set from ${word.source}`;
  if (known !== null && known.size > 0) for (const m of word.source.matchAll(/\$\{?([A-Za-z_]\w*)/g)) if (known.has(m[1]!)) return `set from ${word.source}`;
  return null;
}
