/**
 * Text made safe to put between tags or inside a double- or single-quoted attribute: the five
 * characters HTML gives a meaning to become character references ("<" → "&#60;").
 */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
