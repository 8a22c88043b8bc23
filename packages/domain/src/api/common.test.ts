import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeInput, isStorableText, pageQuery, storableText } from './common.ts';

describe('isStorableText', () => {
  it.each([
    ['plain text', 'Field visit', true],
    ['an empty text', '', true],
    ['a pair of surrogates (an emoji)', 'Trip 🚌', true],
    ['SQL, which parameters keep as text', "'; DROP TABLE users; --", true],
    ['a NUL byte', 'a\u0000b', false],
    ['a lone high surrogate', 'a\ud800', false],
    ['a lone low surrogate', '\udc00b', false],
    ['two high surrogates', '\ud83d\ud83d', false],
  ])('%s → %s', (_name, value, expected) => {
    expect(isStorableText(value)).toBe(expected);
  });

  it('accepts every well-formed text without NUL (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        expect(isStorableText(value)).toBe(!value.includes('\u0000'));
      }),
    );
  });
});

describe('storableText', () => {
  it('refuses NUL bytes with a message and chains with trim and lengths', () => {
    const name = storableText().trim().min(1).max(5);
    expect(name.parse('  ab ')).toBe('ab');
    expect(name.safeParse('a\u0000').error?.issues[0]?.message).toMatch(/NUL bytes/);
    expect(name.safeParse('abcdef').success).toBe(false);
  });

  it('guards the search of every list', () => {
    expect(pageQuery.safeParse({ search: 'x\u0000' }).success).toBe(false);
    expect(pageQuery.parse({ search: ' x ' }).search).toBe('x');
  });
});

describe('describeInput', () => {
  it.each([
    ['a short text', 'boss', '"boss"'],
    ['a long text', 'x'.repeat(100), `"${'x'.repeat(40)}…"`],
    ['a number', 12, '12'],
    ['null', null, 'null'],
    ['a list', [1], 'a list'],
    ['an object', { a: 1 }, 'an object'],
  ])('%s', (_name, input, expected) => {
    expect(describeInput(input)).toBe(expected);
  });

  it('names a 5,000-level array without overflowing the stack', () => {
    const deep = JSON.parse(`${'['.repeat(5000)}${']'.repeat(5000)}`) as unknown;
    expect(describeInput(deep)).toBe('a list');
  });
});
