import { describe, expect, it } from 'vitest';
import { decidingSegment, splitSegments } from './segments';

describe('a command is split into the segments a person reads', () => {
  it.each([
    ['one command', 'git status', [{ text: 'git status', joiner: null }]],
    ['&& joins two', 'cd src && npm test', [{ text: 'cd src', joiner: '&&' }, { text: 'npm test', joiner: null }]],
    ['a pipe and a semicolon', 'ls | wc -l; echo done', [{ text: 'ls', joiner: '|' }, { text: 'wc -l', joiner: ';' }, { text: 'echo done', joiner: null }]],
    ['|| and background &', 'make || true & sleep 1', [{ text: 'make', joiner: '||' }, { text: 'true', joiner: '&' }, { text: 'sleep 1', joiner: null }]],
    ['a newline separates like ;', 'a\nb', [{ text: 'a', joiner: ';' }, { text: 'b', joiner: null }]],
    ['operators inside single quotes do not split', "echo 'a && b; c'", [{ text: "echo 'a && b; c'", joiner: null }]],
    ['operators inside double quotes do not split', 'echo "a | b"', [{ text: 'echo "a | b"', joiner: null }]],
    ['an escaped semicolon does not split', 'find . -exec rm {} \\;', [{ text: 'find . -exec rm {} \\;', joiner: null }]],
    ['a substitution is one piece', 'echo $(ls; pwd) && x', [{ text: 'echo $(ls; pwd)', joiner: '&&' }, { text: 'x', joiner: null }]],
    ['backticks are one piece', 'echo `a|b`', [{ text: 'echo `a|b`', joiner: null }]],
    ['2>&1 is a redirection, not a background operator', 'make 2>&1 | tee log', [{ text: 'make 2>&1', joiner: '|' }, { text: 'tee log', joiner: null }]],
    ['&> is a redirection', 'make &> log', [{ text: 'make &> log', joiner: null }]],
    ['a trailing operator is dropped', 'ls;', [{ text: 'ls', joiner: null }]],
  ])('%s', (_name, command, expected) => {
    expect(splitSegments(command)).toEqual(expected);
  });

  it.each([
    ['by its text', 'npm test; rm -rf build', { index: 0, text: 'rm -rf build' }, 1],
    ['by its index when the text differs', 'a && b', { index: 1, text: 'something else entirely' }, 1],
    ['none when the gate named none', 'a && b', null, null],
    ['none when the index is out of range and the text matches nothing', 'a', { index: 4, text: 'zzz' }, null],
  ])('the deciding segment is found %s', (_name, command, decided, expected) => {
    expect(decidingSegment(splitSegments(command), decided)).toEqual(expected);
  });
});
