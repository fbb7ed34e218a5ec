// A small checker of responses against openapi.yaml, independent of the
// generated types: the types say what a client may assume at compile time,
// this says whether the server keeps that promise at run time. It reads the
// document as JSON (contract_test.go converts ../../openapi.yaml into the file
// named by OPENAPI_JSON) and supports what that document uses: $ref, object,
// array, string, integer, number, boolean, enum, required, nullable, the
// date-time format, allOf, and oneOf (with a discriminator, or exactly one
// alternative matching).

import { readFileSync } from "node:fs";
import type { Middleware } from "openapi-fetch";

export interface Schema {
  $ref?: string;
  type?: "object" | "array" | "string" | "integer" | "number" | "boolean";
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  enum?: unknown[];
  format?: string;
  nullable?: boolean;
  allOf?: Schema[];
  oneOf?: Schema[];
  discriminator?: { propertyName: string; mapping?: Record<string, string> };
}

interface MediaType {
  schema?: Schema;
}

interface ResponseObject {
  content?: Record<string, MediaType>;
  headers?: Record<string, unknown>;
}

interface Operation {
  operationId?: string;
  responses: Record<string, ResponseObject>;
}

export interface Document {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

export function loadDocument(file: string): Document {
  return JSON.parse(readFileSync(file, "utf8")) as Document;
}

function resolve(doc: Document, s: Schema): Schema {
  let seen = 0;
  while (s.$ref !== undefined) {
    const name = s.$ref.replace(/^#\/components\/schemas\//, "");
    const next = doc.components?.schemas?.[name];
    if (next === undefined || ++seen > 32) {
      throw new Error(`unresolvable $ref ${s.$ref}`);
    }
    s = next;
  }
  return s;
}

function typeOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

/**
 * chooseOneOf returns the alternative of a oneOf that value is: the one its
 * discriminator names, else the only one it matches, else (none matches) the
 * nearest, whose errors then say what is wrong; a string when several match.
 */
function chooseOneOf(doc: Document, s: Schema, value: unknown, where: string): Schema | string {
  const alts = s.oneOf ?? [];
  const d = s.discriminator;
  if (d !== undefined && typeOf(value) === "object") {
    const tag = (value as Record<string, unknown>)[d.propertyName];
    const ref = typeof tag === "string" ? d.mapping?.[tag] : undefined;
    if (ref === undefined) return `${where}: ${d.propertyName} ${JSON.stringify(tag)} names no alternative of the oneOf`;
    return { $ref: ref };
  }
  // Chosen on everything but unknown properties, which other parts of an
  // allOf may name: the caller checks those against the chosen one.
  const lenient = typeOf(value) === "object" ? new Set(Object.keys(value as Record<string, unknown>)) : undefined;
  const tried = alts.map((a) => ({ a, errs: validate(doc, a, value, where, lenient) }));
  const matching = tried.filter((t) => t.errs.length === 0);
  if (matching.length > 1) return `${where}: matches ${matching.length} alternatives of the oneOf, want exactly 1`;
  if (matching.length === 1) return matching[0]!.a;
  // None matches: the nearest is the one to report against, an enum
  // mismatch (another kind of move) counting most.
  const cost = (errs: string[]) => errs.length + 10 * errs.filter((e) => e.includes("is not one of")).length;
  tried.sort((x, y) => cost(x.errs) - cost(y.errs));
  return tried[0]?.a ?? `${where}: a oneOf without alternatives`;
}

/** knownProperties lists the properties schema names for value, through allOf and the chosen oneOf. */
function knownProperties(doc: Document, schema: Schema, value: unknown, where: string): Set<string> {
  const s = resolve(doc, schema);
  const names = new Set(Object.keys(s.properties ?? {}));
  for (const part of s.allOf ?? []) for (const n of knownProperties(doc, part, value, where)) names.add(n);
  if (s.oneOf !== undefined) {
    const alt = chooseOneOf(doc, s, value, where);
    if (typeof alt !== "string") for (const n of knownProperties(doc, alt, value, where)) names.add(n);
  }
  return names;
}

/** validate returns every way value breaks schema, as "where: what" lines. */
export function validate(doc: Document, schema: Schema, value: unknown, where = "$", known?: Set<string>): string[] {
  const s = resolve(doc, schema);
  const out: string[] = [];
  // The parts of an allOf, and a oneOf's alternative, describe one object
  // together: a property any of them names is not unknown to the others.
  const names = known ?? (s.allOf !== undefined || s.oneOf !== undefined ? knownProperties(doc, s, value, where) : undefined);
  for (const part of s.allOf ?? []) out.push(...validate(doc, part, value, where, names));
  if (s.oneOf !== undefined) {
    const alt = chooseOneOf(doc, s, value, where);
    if (typeof alt === "string") out.push(alt);
    else out.push(...validate(doc, alt, value, where, names));
  }
  if (value === null) {
    if (s.nullable !== true) out.push(`${where}: null, but the schema is not nullable`);
    return out;
  }
  if (s.type !== undefined) {
    const got = typeOf(value);
    const ok = got === s.type || (s.type === "number" && got === "integer");
    if (!ok) {
      out.push(`${where}: ${got}, want ${s.type}`);
      return out;
    }
  }
  if (s.enum !== undefined && !s.enum.includes(value)) {
    out.push(`${where}: ${JSON.stringify(value)} is not one of ${JSON.stringify(s.enum)}`);
  }
  if (s.format === "date-time" && typeof value === "string" && Number.isNaN(Date.parse(value))) {
    out.push(`${where}: ${JSON.stringify(value)} is not a date-time`);
  }
  if (Array.isArray(value) && s.items !== undefined) {
    value.forEach((item, i) => out.push(...validate(doc, s.items as Schema, item, `${where}[${i}]`)));
  }
  if (typeOf(value) === "object" && (s.type === "object" || s.properties !== undefined)) {
    const obj = value as Record<string, unknown>;
    for (const name of s.required ?? []) {
      if (!(name in obj)) out.push(`${where}: required property ${name} is missing`);
    }
    const props = s.properties ?? {};
    for (const [name, v] of Object.entries(obj)) {
      const p = props[name];
      if (p !== undefined) {
        out.push(...validate(doc, p, v, `${where}.${name}`));
      } else if (names?.has(name)) {
        // named by another part of the allOf or oneOf: checked there
      } else if (typeof s.additionalProperties === "object") {
        out.push(...validate(doc, s.additionalProperties, v, `${where}.${name}`));
      } else if (s.additionalProperties !== true) {
        // Not forbidden by OpenAPI, but a field the contract does not name
        // is one no generated client can read: report it.
        out.push(`${where}: property ${name} is not in the schema`);
      }
    }
  }
  return out;
}

/**
 * conformance returns an openapi-fetch middleware that checks every response
 * against the operation it answers: the status must be declared (a 4xx by its
 * own code: `default` covers only 5xx), the Content-Type must be one the
 * status declares, and the body must match its schema. Problems are appended
 * to violations.
 */
export function conformance(doc: Document, violations: string[]): Middleware {
  return {
    async onResponse({ request, response, schemaPath }) {
      const method = request.method.toLowerCase();
      const label = `${request.method} ${schemaPath} -> ${response.status}`;
      const op = doc.paths[schemaPath]?.[method];
      if (op === undefined) {
        violations.push(`${label}: the operation is not in openapi.yaml`);
        return;
      }
      // `default` stands for the unexpected (5xx); a 4xx is an answer a client
      // must be able to plan for, so it has to be declared by its own code.
      const declared =
        op.responses[String(response.status)] ?? (response.status >= 500 ? op.responses["default"] : undefined);
      if (declared === undefined) {
        const body = await response.clone().text();
        violations.push(
          `${label}: status not declared by ${op.operationId ?? "the operation"} ` +
            `(declared: ${Object.keys(op.responses).join(", ")}); body: ${body.slice(0, 300)}`,
        );
        return;
      }
      const body = await response.clone().text();
      const content = declared.content ?? {};
      if (Object.keys(content).length === 0) {
        if (body !== "") violations.push(`${label}: no content declared, but the body is ${JSON.stringify(body.slice(0, 200))}`);
        return;
      }
      const mediaType = (response.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
      const media = content[mediaType];
      if (media === undefined) {
        violations.push(`${label}: Content-Type ${JSON.stringify(mediaType)}, declared: ${Object.keys(content).join(", ")}`);
        return;
      }
      if (media.schema === undefined) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        violations.push(`${label}: the body is not JSON: ${JSON.stringify(body.slice(0, 200))}`);
        return;
      }
      for (const v of validate(doc, media.schema, parsed)) violations.push(`${label}: ${v}`);
    },
  };
}
