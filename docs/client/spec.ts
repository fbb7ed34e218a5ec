// A small checker of responses against openapi.yaml, independent of the
// generated types: the types say what a client may assume at compile time,
// this says whether the server keeps that promise at run time. It reads the
// document as JSON (contract_test.go converts ../../openapi.yaml into the file
// named by OPENAPI_JSON) and supports what that document uses: $ref, object,
// array, string, integer, number, boolean, enum, required, nullable and the
// date-time format.

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

/** validate returns every way value breaks schema, as "where: what" lines. */
export function validate(doc: Document, schema: Schema, value: unknown, where = "$"): string[] {
  const s = resolve(doc, schema);
  const out: string[] = [];
  for (const part of s.allOf ?? []) out.push(...validate(doc, part, value, where));
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
