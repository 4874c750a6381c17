// slug turns a title into a URL path segment: lower case, words joined
// by single dashes.
exports.slug = (title) => title.toLowerCase().replace(' ', '-');
