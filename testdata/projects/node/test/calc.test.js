const test = require('node:test');
const assert = require('node:assert');
const { add, sub } = require('../calc.js');

test('add', () => {
  assert.strictEqual(add(1, 2), 3);
});

test('sub', () => {
  assert.strictEqual(sub(3, 1), 2);
});

test.describe('table', () => {
  test.it('sub zero', () => {
    assert.strictEqual(sub(0, 0), 0);
  });
  test.it('sub one', () => {
    assert.strictEqual(sub(2, 1), 1);
  });
});
