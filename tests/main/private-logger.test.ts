import { describe, expect, it } from 'vitest';
import type { Logger } from '../../src-main/core/ports';
import { privateLogger } from '../../src-main/core/vault/private-logger';
import { AppFailure, reason } from '../../src-shared/errors';

// No contract data in logs (issue 32): what the core logs of an error value is its code and its
// reason's key, never its message or the reason's values (a contract's name, an amount).

function recording() {
  const lines: unknown[][] = [];
  const logger: Logger = {
    info: (...line) => void lines.push(line),
    warn: (...line) => void lines.push(line),
    error: (...line) => void lines.push(line),
  };
  return { logger: privateLogger(logger), lines };
}

describe('the core logger', () => {
  it("keeps an error value's code and reason key, not its words or values", () => {
    const { logger, lines } = recording();
    logger.warn('sync failed', { code: 'conflict', message: 'Contract "Wombat Freight 2,400,000.00" was changed' });
    logger.error('a step failed', new AppFailure('bad_request', 'The task "Pay Quokka Ltd" is already finished.', undefined, reason('taskAlreadyFinished', { task: 'Pay Quokka Ltd' })));
    expect(lines).toEqual([
      ['sync failed', { code: 'conflict' }],
      ['a step failed', { code: 'bad_request', reason: 'taskAlreadyFinished' }],
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/Wombat|Quokka|2,400,000/);
  });

  it('keeps a program fault with its stack, and plain details as they are', () => {
    const { logger, lines } = recording();
    const fault = new TypeError('cannot read properties of undefined');
    logger.error('ledger.search failed', fault);
    logger.info('pulled', 12);
    expect(lines).toEqual([['ledger.search failed', fault], ['pulled', 12]]);
  });
});
