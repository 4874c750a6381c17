const test = require('node:test');
const assert = require('node:assert');
const { slug } = require('../lib/slug.js');

test('one word', () => {
  assert.strictEqual(slug('Hello'), 'hello');
});

test('two words', () => {
  assert.strictEqual(slug('Hello World'), 'hello-world');
});
