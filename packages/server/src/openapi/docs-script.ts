/**
 * The API reference page's script, run in the browser. Kept as plain ES2017 in a string (no bundler, no CDN:
 * the page must work on a machine with no internet). It builds every node with DOM calls and `append`, never
 * `innerHTML`, so nothing in the document can inject markup. It avoids template literals so it can live here.
 */
export const DOCS_SCRIPT = String.raw`
(function () {
  'use strict';
  var config = JSON.parse(document.getElementById('svc-docs-config').textContent);
  var specUrl = new URL(config.specUrl, location.href);
  var spec = null;
  var state = { apiKey: '', base: '' };
  var METHODS = ['get', 'post', 'put', 'patch', 'delete'];

  function h(tag, attrs, children) {
    var el = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      var value = attrs[name];
      if (name.slice(0, 2) === 'on') el.addEventListener(name.slice(2), value);
      else if (name === 'value') el.value = value;
      else el.setAttribute(name, value);
    });
    (children || []).forEach(function (child) { if (child !== null && child !== undefined) el.append(child); });
    return el;
  }

  /** Descriptions use backticks for code; everything else stays text. */
  function md(text) {
    var fragment = document.createDocumentFragment();
    String(text || '').split('\u0060').forEach(function (part, i) { fragment.append(i % 2 ? h('code', {}, [part]) : part); });
    return fragment;
  }

  function refName(schema) { return schema.$ref.split('/').pop(); }
  function resolve(schema) { return schema && schema.$ref ? spec.components.schemas[refName(schema)] || {} : schema || {}; }
  function anchor(name) { return 'schema-' + name; }

  function typeLabel(schema) {
    if (!schema) return 'any';
    if (schema.$ref) return h('a', { href: '#' + anchor(refName(schema)) }, [refName(schema)]);
    if (schema.const !== undefined) return JSON.stringify(schema.const);
    if (schema.enum) return schema.enum.map(function (v) { return JSON.stringify(v); }).join(' | ');
    // An error response narrows Error to its codes (allOf); the codes are in its description.
    var union = schema.anyOf || schema.oneOf || (schema.allOf && schema.allOf.filter(function (part) { return part.$ref || part.type; }));
    if (union) {
      var span = h('span');
      union.forEach(function (part, i) { if (i) span.append(schema.allOf ? ' & ' : ' | '); span.append(typeLabel(part)); });
      return span;
    }
    if (schema.type === 'array') { var arr = h('span', {}, ['array of ']); arr.append(typeLabel(schema.items)); return arr; }
    if (schema.type === 'object' && schema.additionalProperties && !schema.properties) {
      var map = h('span', {}, ['map of ']); map.append(typeLabel(schema.additionalProperties)); return map;
    }
    var type = Array.isArray(schema.type) ? schema.type.join(' | ') : schema.type;
    return type ? type + (schema.format ? ' (' + schema.format + ')' : '') : 'any';
  }

  function constraints(schema) {
    var notes = [];
    [['minLength', 'min length'], ['maxLength', 'max length'], ['minimum', 'min'], ['maximum', 'max'], ['minItems', 'min items'], ['maxItems', 'max items'], ['pattern', 'pattern'], ['default', 'default']]
      .forEach(function (pair) {
        var value = schema[pair[0]];
        // A format already says what its pattern spells out; the safe-integer bounds say nothing.
        if (pair[0] === 'pattern' && schema.format) return;
        if (value !== undefined && Math.abs(Number(value)) !== 9007199254740991) notes.push(pair[1] + ' ' + (typeof value === 'string' ? value : JSON.stringify(value)));
      });
    return notes.length ? h('span', { class: 'constraints' }, [notes.join(', ')]) : null;
  }

  /**
   * A schema as a nested list of its properties. References link to the Schemas section and are expanded in
   * place near the top (a body, an envelope and its data), so an operation reads without jumping around.
   */
  function schemaView(schema, depth) {
    var own = schema && schema.$ref ? (depth < 2 ? resolve(schema) : null) : schema;
    var box = h('div', { class: 'schema' }, [h('div', { class: 'type' }, [typeLabel(schema), ' ', own && !schema.$ref ? constraints(own) : null])]);
    var target = own && own.type === 'array' && own.items ? (own.items.$ref ? (depth < 2 ? resolve(own.items) : null) : own.items) : own;
    if (!target || !target.properties || depth > 3) return box;
    var list = h('ul');
    Object.keys(target.properties).forEach(function (name) {
      var prop = target.properties[name];
      var required = (target.required || []).indexOf(name) >= 0;
      var item = h('li', {}, [h('code', { class: 'prop' }, [name]), required ? h('span', { class: 'required', title: 'required' }, ['required']) : null, ' ']);
      var nested = prop.properties || (prop.items && (prop.items.properties || prop.items.$ref)) || prop.$ref;
      item.append(nested ? schemaView(prop, depth + 1) : h('span', {}, [typeLabel(prop), ' ', constraints(prop)]));
      if (prop.description) item.append(h('div', { class: 'muted' }, [md(prop.description)]));
      list.append(item);
    });
    box.append(list);
    return box;
  }

  /** A request body to start from: required fields with placeholder values. */
  function example(schema, depth) {
    schema = resolve(schema);
    if (depth > 5) return null;
    if (schema.default !== undefined) return schema.default;
    if (schema.const !== undefined) return schema.const;
    if (schema.enum) return schema.enum[0];
    if (schema.anyOf) return example(schema.anyOf[0], depth + 1);
    if (schema.type === 'object') {
      var value = {};
      (schema.required || []).forEach(function (name) { value[name] = example(schema.properties[name], depth + 1); });
      return value;
    }
    if (schema.type === 'array') return [];
    if (schema.type === 'integer' || schema.type === 'number') return schema.minimum > 0 ? schema.minimum : 1;
    if (schema.type === 'boolean') return false;
    return schema.format === 'email' ? 'visitor@example.com' : 'string';
  }

  function parameterList(op) {
    return (op.parameters || []).map(function (p) { return p.$ref ? spec.components.parameters[p.$ref.split('/').pop()] : p; });
  }

  function tryIt(path, method, op) {
    var inputs = {};
    var form = h('form', { class: 'try' });
    parameterList(op).forEach(function (p) {
      inputs[p.in + ':' + p.name] = h('input', { name: p.name, placeholder: p.required ? 'required' : 'optional' });
      form.append(h('label', {}, [h('span', {}, [p.name + ' (' + p.in + ')']), inputs[p.in + ':' + p.name]]));
    });
    // A JSON body gets a text area; an upload (multipart/form-data) is tried with curl -F instead.
    var bodySchema = op.requestBody && op.requestBody.content['application/json'] && op.requestBody.content['application/json'].schema;
    var body = bodySchema ? h('textarea', { rows: '6', spellcheck: 'false', value: JSON.stringify(example(bodySchema, 0), null, 2) }) : null;
    if (body) form.append(h('label', {}, [h('span', {}, ['JSON body']), body]));
    var output = h('pre', { class: 'output', 'aria-live': 'polite' });
    form.append(h('button', { type: 'submit' }, ['Send request']), output);
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var url = path.replace(/\{(\w+)\}/g, function (_, name) { return encodeURIComponent(inputs['path:' + name].value); });
      var target = new URL(url.replace(/^\//, ''), state.base);
      var headers = {};
      if (!op.security || op.security.length) headers['X-API-Key'] = state.apiKey;
      parameterList(op).forEach(function (p) {
        var value = inputs[p.in + ':' + p.name].value;
        if (value && p.in === 'query') target.searchParams.set(p.name, value);
        if (value && p.in === 'header') headers[p.name] = value;
      });
      var init = { method: method.toUpperCase(), headers: headers };
      if (body && body.value.trim()) { headers['Content-Type'] = 'application/json'; init.body = body.value; }
      output.textContent = init.method + ' ' + target.href + ' …';
      fetch(target, init).then(function (res) {
        return res.text().then(function (text) {
          var pretty = text;
          try { pretty = JSON.stringify(JSON.parse(text), null, 2); } catch (e) { /* not JSON: shown as is */ }
          output.textContent = res.status + ' ' + res.statusText + '  X-Request-Id: ' + (res.headers.get('x-request-id') || '-') + '\n\n' + pretty;
          output.setAttribute('data-status', String(res.status));
        });
      }).catch(function (error) { output.textContent = 'Request failed: ' + error.message; });
    });
    return form;
  }

  function operationView(path, method, op) {
    var details = h('details', { class: 'op', id: op.operationId }, [
      h('summary', {}, [h('span', { class: 'method ' + method }, [method.toUpperCase()]), h('code', { class: 'path' }, [path]), h('span', { class: 'summary' }, [op.summary || ''])]),
      h('p', {}, [md(op.description)]),
    ]);
    var params = parameterList(op);
    if (params.length) {
      var table = h('table', {}, [h('tr', {}, [h('th', {}, ['Parameter']), h('th', {}, ['In']), h('th', {}, ['Type']), h('th', {}, ['Description'])])]);
      params.forEach(function (p) {
        table.append(h('tr', {}, [h('td', {}, [h('code', {}, [p.name]), p.required ? h('span', { class: 'required' }, ['required']) : null]), h('td', {}, [p.in]), h('td', {}, [typeLabel(p.schema), ' ', constraints(p.schema)]), h('td', {}, [md(p.description)])]));
      });
      details.append(h('h4', {}, ['Parameters']), table);
    }
    if (op.requestBody) {
      var media = op.requestBody.content['application/json'] ? 'application/json' : Object.keys(op.requestBody.content)[0];
      details.append(h('h4', {}, [media === 'application/json' ? 'Request body' : 'Request body (' + media + ')']), schemaView(op.requestBody.content[media].schema, 0));
    }
    details.append(h('h4', {}, ['Responses']));
    Object.keys(op.responses).forEach(function (status) {
      var response = op.responses[status];
      var content = response.content && response.content['application/json'];
      details.append(h('div', { class: 'response' }, [h('span', { class: 'status s' + status.charAt(0) }, [status]), ' ', md(response.description), content ? schemaView(content.schema, 0) : null]));
    });
    details.append(h('h4', {}, ['Try it']), tryIt(path, method, op));
    return details;
  }

  function render() {
    var nav = document.getElementById('nav');
    var main = document.getElementById('main');
    document.title = spec.info.title + ' reference';
    var server = spec.servers && spec.servers[0] ? new URL(spec.servers[0].url.replace(/\/?$/, '/'), location.href) : new URL('.', specUrl);
    state.base = server.href;
    var keyInput = h('input', { type: 'password', autocomplete: 'off', placeholder: 'sk_live_…', oninput: function (e) { state.apiKey = e.target.value; } });
    var baseInput = h('input', { value: state.base, oninput: function (e) { state.base = e.target.value; } });
    main.append(
      h('header', {}, [h('h1', {}, [spec.info.title, ' ', h('small', {}, [spec.info.version])]), h('p', {}, [md(spec.info.description)])]),
      h('section', { class: 'auth' }, [
        h('label', {}, [h('span', {}, ['X-API-Key (kept in this page only)']), keyInput]),
        h('label', {}, [h('span', {}, ['Base URL']), baseInput]),
        h('a', { href: specUrl.href }, ['OpenAPI document (JSON)']),
      ]),
    );
    (spec.tags || []).forEach(function (tag) {
      var section = h('section', { id: 'tag-' + tag.name.replace(/\W+/g, '-') }, [h('h2', {}, [tag.name]), h('p', { class: 'muted' }, [md(tag.description)])]);
      var links = h('ul');
      Object.keys(spec.paths).forEach(function (path) {
        METHODS.forEach(function (method) {
          var op = spec.paths[path][method];
          if (!op || (op.tags || [])[0] !== tag.name) return;
          section.append(operationView(path, method, op));
          links.append(h('li', {}, [h('a', { href: '#' + op.operationId }, [h('span', { class: 'method ' + method }, [method.toUpperCase()]), ' ', op.summary])]));
        });
      });
      main.append(section);
      nav.append(h('h3', {}, [tag.name]), links);
    });
    var schemas = h('section', { id: 'schemas' }, [h('h2', {}, ['Schemas'])]);
    Object.keys(spec.components.schemas).forEach(function (name) {
      schemas.append(h('details', { class: 'op', id: anchor(name) }, [h('summary', {}, [h('code', {}, [name])]), schemaView(spec.components.schemas[name], 0)]));
    });
    main.append(schemas);
    nav.append(h('h3', {}, [h('a', { href: '#schemas' }, ['Schemas'])]));
    // Opening a linked operation or schema: a closed <details> would hide the target.
    window.addEventListener('hashchange', openTarget);
    openTarget();
    document.body.setAttribute('data-ready', 'true');
  }

  function openTarget() {
    var target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target && target.tagName === 'DETAILS') target.open = true;
  }

  fetch(specUrl).then(function (res) {
    if (!res.ok) throw new Error('GET ' + specUrl.href + ' answered ' + res.status);
    return res.json();
  }).then(function (document_) { spec = document_; render(); }).catch(function (error) {
    document.getElementById('main').append(h('p', { class: 'error' }, ['Could not load the API description: ' + error.message]));
    document.body.setAttribute('data-ready', 'error');
  });
})();
`;
