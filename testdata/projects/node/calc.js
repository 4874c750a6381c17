exports.add = (a, b) => a + b;
exports.sub = (a, b) => a + b; // bug
