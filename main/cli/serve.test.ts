// serve's test hook for the API key question's wait: it may only shorten it.
import { describe, expect, it } from 'vitest';
import { KEY_USE_TIMEOUT_ENV, KEY_USE_TIMEOUT_MS } from '../../common/desktop-channel';
import { keyUseTimeoutFrom } from './serve';

describe(`${KEY_USE_TIMEOUT_ENV}`, () => {
  it.each([
    { name: 'unset: two minutes', value: undefined, ms: KEY_USE_TIMEOUT_MS },
    { name: 'a shorter wait is taken', value: '3000', ms: 3000 },
    { name: 'a longer wait is ignored (the wait stays bounded)', value: '86400000', ms: KEY_USE_TIMEOUT_MS },
    { name: 'under 100 ms is ignored', value: '5', ms: KEY_USE_TIMEOUT_MS },
    { name: 'not a whole number is ignored', value: '2.5e3x', ms: KEY_USE_TIMEOUT_MS },
    { name: 'a fraction is ignored', value: '1500.5', ms: KEY_USE_TIMEOUT_MS },
    { name: 'a negative number is ignored', value: '-1', ms: KEY_USE_TIMEOUT_MS },
  ])('$name', ({ value, ms }) => {
    expect(keyUseTimeoutFrom(value === undefined ? {} : { [KEY_USE_TIMEOUT_ENV]: value })).toBe(ms);
  });
});
