'use strict';

// A tiny HTTP router: test input for the patch corpus.

const { parse } = require('url');

class Router {
  constructor() {
    this.routes = [];
    this.middleware = [];
  }

  use(fn) {
    if (typeof fn !== 'function') {
      throw new TypeError('middleware must be a function');
    }
    this.middleware.push(fn);
    return this;
  }

  get(path, handler) {
    return this.add('GET', path, handler);
  }

  post(path, handler) {
    return this.add('POST', path, handler);
  }

  put(path, handler) {
    return this.add('PUT', path, handler);
  }

  delete(path, handler) {
    return this.add('DELETE', path, handler);
  }

  add(method, path, handler) {
    const keys = [];
    const pattern = path
      .split('/')
      .map((part) => {
        if (part.startsWith(':')) {
          keys.push(part.slice(1));
          return '([^/]+)';
        }
        return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      })
      .join('/');
    this.routes.push({ method, re: new RegExp(`^${pattern}$`), keys, handler });
    return this;
  }

  match(method, pathname) {
    for (const route of this.routes) {
      if (route.method !== method) {
        continue;
      }
      const m = route.re.exec(pathname);
      if (!m) {
        continue;
      }
      const params = {};
      route.keys.forEach((k, i) => {
        params[k] = decodeURIComponent(m[i + 1]);
      });
      return { route, params };
    }
    return null;
  }

  handle(req, res) {
    const { pathname, query } = parse(req.url, true);
    const found = this.match(req.method, pathname);
    if (!found) {
      res.statusCode = 404;
      res.end('not found\n');
      return;
    }
    req.params = found.params;
    req.query = query;
    let i = 0;
    const next = (err) => {
      if (err) {
        res.statusCode = 500;
        res.end('internal error\n');
        return;
      }
      const fn = this.middleware[i++];
      if (fn) {
        fn(req, res, next);
        return;
      }
      found.route.handler(req, res);
    };
    next();
  }
}

module.exports = { Router };
