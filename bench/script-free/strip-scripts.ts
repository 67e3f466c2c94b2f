/**
 * The script-free copy of a server-rendered page (issue 22): the same HTML with every `<script>`
 * element (inline or not, the hydration data included) and every `<link rel="modulepreload">`
 * removed — what a browser could paint with no JavaScript at all. Everything else (the stylesheet,
 * the markup, the forms) is left byte for byte.
 */
const SCRIPT = /<script\b[^>]*>[\s\S]*?<\/script\s*>/gi;
const MODULE_PRELOAD = /<link\b[^>]*\brel=["']?modulepreload\b[^>]*>/gi;

export function stripScripts(html: string): string {
  return html.replace(SCRIPT, "").replace(MODULE_PRELOAD, "");
}
